/* Library-internal interfaces shared by the measurement core and the benchmarks. */
#ifndef CLB_INTERNAL_H
#define CLB_INTERNAL_H

#include "clbench.h"
#include "core/settings.h"
#include "core/tune.h"
#include "core/binary_cache.h"

/* Source of an embedded kernels/NAME.cl (NAME without ".cl"), or NULL. Borrowed, static. */
const char *clb_kernel_source(const char *name);
size_t clb_kernel_count(void);
const char *clb_kernel_name_at(size_t i); /* static */

/* Shrink-and-retry (docs/measurement.md): clb_bench_run runs a row again with its size halved
 * when its buffers could not be allocated, while clb_shrink_size says a halving is left. */
typedef struct clb_shrink {
    unsigned halvings; /* applied in this attempt */
    int more;          /* clb_shrink_size: one more halving stays at or above the floor */
    size_t from, to;   /* clb_shrink_size's last planned and shrunk sizes */
    char reason[256];  /* why the previous attempt failed */
} clb_shrink;
#define CLB_SHRINK_MAX 3 /* halvings: the smallest size tried is 1/8 of the planned one */

/* The context one benchmark runs in. */
struct clb_ctx {
    clb_device *dev;
    const clb_bench *bench;
    const clb_run_opts *opts;
    clb_result *res;
    clb_diag diag;
    clb_shrink *shrink; /* NULL: no retries (contexts made outside clb_bench_run) */
    uint32_t poison;    /* this run's poison word (0: contexts made outside clb_bench_run) */
    double started;     /* clb_now() when the row's run began (its setup is timed from here) */
};

/* The size a row allocates: planned halved for each retry of this run, never below floor (nor
 * planned / 8); clb_bench_run records a shrunk size in params (size_shrunk_from, size_shrunk_to,
 * size_shrunk_reason). planned and floor in the row's own unit (bytes, elements, n). */
size_t clb_shrink_size(const clb_ctx *c, size_t planned, size_t floor);
/* 1 when d records a failure that a smaller allocation may avoid. */
int clb_alloc_failed(const clb_diag *d);

/* Releases that accept NULL, for cleanup blocks: the OpenCL calls reject a NULL handle. */
static inline void clb_release_mem(cl_mem m)
{
    if (m)
        clReleaseMemObject(m);
}
static inline void clb_release_kernel(cl_kernel k)
{
    if (k)
        clReleaseKernel(k);
}
static inline void clb_release_program(cl_program p)
{
    if (p)
        clReleaseProgram(p);
}
static inline void clb_release_event(cl_event e)
{
    if (e)
        clReleaseEvent(e);
}

/* Monotonic wall clock in seconds. */
double clb_now(void);

/* Fills bytes with random data from a seeded xorshift generator (no zero pages, no
 * compressible patterns). Returns the next state so callers can continue the stream. */
uint64_t clb_fill_random(void *buf, size_t bytes, uint64_t seed);
uint64_t clb_rand64(uint64_t *state);

/* buf = "XDG/clbench/FILE" (xdg: the value of the variable xdg_var, from clb_settings), else
 * "HOME/HOME_SUB/clbench/FILE" (clb_settings.home); with create, the two directory levels are
 * made. CLB_ERR_IO (reason in d) when neither is set or on a failed mkdir. */
clb_error clb_user_file(char *buf, size_t n, const char *xdg, const char *xdg_var,
                        const char *home_sub, const char *file, int create, clb_diag *d);

/* A user's versioned JSON file {"version": VERSION, "entries": [...] (or {...} with
 * entries_object)}, the device database's and the tune cache's: the parsed document, else NULL
 * and "WHAT: why" (CLB_ERR_USAGE) when it is malformed, not an object, of another version or
 * without entries, or when check (may be NULL) returns a reason. */
cJSON *clb_user_json_parse(const char *buf, size_t len, const char *what, int version, int entries_object,
                           const char *(*check)(const cJSON *doc), clb_diag *d);

/* Builds the embedded kernels/NAME.cl, prefixed by the optional source text prefix, with
 * options. On a failed build the status is build_failed and the build log is stored in
 * c->res->params.build_log. *out: caller releases with clReleaseProgram. */
clb_error clb_build(clb_ctx *c, const char *name, const char *prefix, const char *options,
                    cl_program *out);
/* clb_build, through the kernel binary cache (opts->binary_cache_dir, docs/binary_cache.md) only
 * with use_cache (compile.short/long build a new source each time: never cached). A miss stores
 * the binary on the key's second build (clb_bincache_admit), or at once with CLB_CACHE_STORE_NOW. info says
 * what the cache did: cached = 0 when it was not asked; else the outcome and the entry's key.
 * Every cached build records params.binary_cache (hit, miss or rebuilt: the row's worst). */
enum { CLB_CACHE_OFF = 0, CLB_CACHE_ON = 1, CLB_CACHE_STORE_NOW = 2 };
enum { CLB_PHASE_READ, CLB_PHASE_BINARY_BUILD, CLB_PHASE_SOURCE_BUILD, CLB_PHASE_EXPORT, CLB_PHASE_STORE,
       CLB_PHASES };
typedef struct clb_build_info {
    int cached;
    int store_now; /* use_cache was CLB_CACHE_STORE_NOW */
    int stored;    /* a miss whose binary was stored (else only marked: stored on its next build) */
    clb_bincache_outcome outcome;
    /* wall seconds of each step of a cached build: the entry read and checked, the program made
     * and built from it (hit); the source build, CL_PROGRAM_BINARIES, the entry written (miss) */
    double phase_s[CLB_PHASES];
    char key[8192];
} clb_build_info;
clb_error clb_build_with(clb_ctx *c, const char *name, const char *prefix, const char *options, int use_cache,
                         clb_build_info *info, cl_program *out);
/* The binary of prog, built for one device (caller frees); NULL when the driver gives none. */
unsigned char *clb_program_binary(cl_program prog, size_t *len);
/* A program made from a binary for c's device and built with options (*out: caller releases). */
clb_error clb_build_binary(clb_ctx *c, const unsigned char *bin, size_t len, const char *options, cl_program *out);

/* 1 when a profiling interval of event_s is implausible against the host's wall_s wait for it
 * (an event cannot outlast the wait; 2% + 50 us slack). */
int clb_event_outlasts_wall(double event_s, double wall_s);

/* One launch of k over global/local (dims 1-3), waited for; *seconds = its profiling event's
 * START->END, checked against the host's wall clock (invalid_timing otherwise). */
clb_error clb_launch_timed(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                           const size_t *local, double *seconds, clb_diag *d);

/* CL_PROFILING_COMMAND_{QUEUED,SUBMIT,START,END} of a completed event, in ns. */
clb_error clb_event_times(cl_event ev, cl_ulong t[4], clb_diag *d);

/* A workload whose amount of work grows with `scale`; clb_measure calibrates scale so one
 * launch takes about opts->target_s (never above opts->watchdog_s), discards warm-up
 * launches, times repetitions with profiling events, cross-checks the wall clock, runs the
 * benchmark's validate and fills the result. */
typedef struct clb_workload {
    void *state;
    /* Enqueues one launch at scale; *ev receives its event (caller of enqueue releases). */
    clb_error (*enqueue)(void *state, uint64_t scale, cl_event *ev, clb_diag *d);
    /* Units of work done by one launch at scale (operations, bytes, launches). */
    double (*work)(const void *state, uint64_t scale);
    uint64_t min_scale, max_scale;
    /* Output buffer the fault injection corrupts before validation (NULL: none). */
    cl_mem output;
    size_t output_bytes;
    /* clb_measure poisons output before the first launch unless the kernel reads it too
     * (set output_is_input: its enqueue must then reset it). */
    int output_is_input;
    /* Bytes from the start of output that the last launch wrote, where they are fewer than
     * output_bytes (NULL: output_bytes): the fault injection falls there. */
    size_t (*output_written)(const void *state);
    /* value = work / seconds * unit_factor (rates), or, with per_work_time, seconds / work *
     * unit_factor (latencies). */
    double unit_factor;
    const char *unit;
    int per_work_time;
} clb_workload;

clb_error clb_measure(clb_ctx *c, const clb_workload *w);

/* Poisoned outputs. Every kernel output a validator judges (every screened variant's too) is
 * poisoned before the kernel runs: each 4-byte word set to clb_poison_word(c), a quiet NaN read
 * as float and as double, with a payload drawn per run. Work a kernel skips then leaves values no
 * correct output holds, whatever an earlier variant wrote there, and validators that compare
 * every element catch it (a NaN equals nothing). */
uint32_t clb_poison_word(const clb_ctx *c);
/* A new run's poison word (clb_bench_run draws one per run). */
uint32_t clb_poison_draw(void);
clb_error clb_poison(clb_ctx *c, cl_mem buf, size_t bytes);
void clb_poison_host(const clb_ctx *c, void *buf, size_t bytes);
/* CLB_OK when the words out[from, to) still hold the poison (no launch was to write there), else
 * invalid_result in d naming the first word that does not. */
clb_error clb_check_untouched(const clb_ctx *c, const uint32_t *out, size_t from, size_t to,
                              clb_diag *d);

/* Plants opts->inject_fault (a clb_fault) in an output of bytes, device or host; nothing under
 * CLB_FAULT_NONE. The partial and skip faults fall at a place drawn from the run's poison. */
clb_error clb_fault_apply(clb_ctx *c, cl_mem buf, size_t bytes);
void clb_fault_apply_host(const clb_ctx *c, void *buf, size_t bytes);

/* Runs the benchmark's validate on state; on failure marks the result invalid_result.
 * Applies the fault injection first when opts->inject_fault (output may be NULL when the
 * benchmark corrupts nothing itself: then validation must still see the corruption). */
clb_error clb_validate(clb_ctx *c, void *state, cl_mem output, size_t output_bytes);

/* Number of repetitions for this run (opts->reps, or at least 3 under a time budget). */
unsigned clb_reps(const clb_ctx *c);
/* 1 while another repetition fits: i < reps, or under a time budget, until it is spent. */
int clb_more_reps(const clb_ctx *c, unsigned i, double started);

/* Device capability checks for clb_bench.requires. */
int clb_device_has_extension(const clb_device *dev, const char *ext);
int clb_device_has_fp64(const clb_device *dev);
int clb_device_has_fp16(const clb_device *dev);
/* The one rule for "an NVIDIA GPU": CL_DEVICE_VENDOR_ID is NVIDIA's PCI vendor id. */
#define CLB_VENDOR_ID_NVIDIA 0x10deu
int clb_device_is_nvidia(const clb_device *dev);

/* Sets params[key] to a number / string (replacing an earlier value). */
void clb_param_num(clb_result *res, const char *key, double v);
void clb_param_str(clb_result *res, const char *key, const char *s);

/* Adds a number to a cJSON object, as null when it is not finite (JSON has no NaN/Inf). */
cJSON *clb_json_number(cJSON *obj, const char *key, double v);

/* The curve object of docs/schema.md (lib/core/curve.c): x_name, x_unit, y_name, y_unit, x_log,
 * label when given, points (each [x, y], null where not finite). clb_curve_new starts one with
 * no points, clb_curve_points is its points array, clb_curve_push appends one point to it. */
cJSON *clb_curve_new(const char *x_name, const char *x_unit, const char *y_name, const char *y_unit,
                     int x_log, const char *label);
cJSON *clb_curve_points(cJSON *curve);
void clb_curve_push(cJSON *points, double x, double y);
cJSON *clb_curve(const char *x_name, const char *x_unit, const char *y_name, const char *y_unit,
                 int x_log, const char *label, const double *x, const double *y, size_t n);

/* With CLBENCH_DUMP_DIR set, writes prog's binary to path = "$CLBENCH_DUMP_DIR/FILE.bin" (at most
 * n bytes); 1 when the whole binary was written (lib/core/program_dump.c). */
int clb_dump_program_binary(cl_program prog, const char *file, char *path, size_t n);

/* params.tune_table of a tuning search (lib/core/tune.c): per candidate {config, status,
 * median_s, rate = work / median_s x unit_factor, rate_unit | reason, winner}, and
 * params.tune_strategy; config names a point. */
void clb_tune_table_params(clb_result *res, const clb_tune_run *run,
                           void (*config)(const int *point, char *buf, size_t n), double work,
                           double unit_factor, const char *rate_unit);

/* clb_bench_run without the verdicts (lib/judge/finish.c adds the physical-limit guard and the
 * quick mark): the capability check, the row's run with shrink-and-retry, the failure's status. */
clb_error clb_bench_run_unjudged(clb_device *dev, const clb_bench *b, const clb_run_opts *o,
                                 clb_result *res);

/* The host CPU's data and unified caches as sysfs lists them for cpu0 (name "L1d", "L2",
 * "L3", ...), at most cap; 0 when sysfs has none (lib/core/host_info.c). */
typedef struct clb_host_cache {
    char name[8];
    cl_ulong bytes;
} clb_host_cache;
size_t clb_host_caches(clb_host_cache *out, size_t cap);
/* Adds seed 004's system information (its Fig. 6) to provenance.host h: user, CPU clock, cache
 * sizes, memory size, compiler and flags of this build. */
void clb_host_system(cJSON *h);

/* Every group's registry rows (lib/core/groups.h names the groups). */
#define CLB_GROUP(g) extern const clb_bench clb_##g##_rows[]; extern const size_t clb_##g##_row_count;
#include "core/groups.h"
#undef CLB_GROUP

#endif
