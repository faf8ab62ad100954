/* clbench.h — the one public header of libclbench: its whole API, versioned (docs/api.md).
 *
 * Conventions
 *  - Every symbol has the prefix clb_ (types, functions) or CLB_ (macros, enum values).
 *  - Opaque handles come in create/destroy pairs; every destroy accepts NULL.
 *  - Functions that can fail return clb_error and, where a clb_diag* is taken, record there
 *    what failed (the OpenCL call, file:line, the CL error's name, or a message).
 *  - Ownership: "caller frees" means the caller releases the returned object with the named
 *    function; "borrowed" means it stays owned by the handle it came from.
 *  - The library compiles against the OpenCL 1.2 API and asks 2.x/3.0 queries only where the
 *    device reports that version.
 */
#ifndef CLBENCH_H
#define CLBENCH_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

/* One list of error codes; the enum and the name table are generated from it. */
#define CLB_ERROR_LIST(X)                                                   \
    X(CLB_OK, "success")                                                    \
    X(CLB_ERR_USAGE, "invalid argument")                                    \
    X(CLB_ERR_NO_PLATFORM, "no OpenCL platform found")                      \
    X(CLB_ERR_NO_DEVICE, "no device matches the selection")                 \
    X(CLB_ERR_CL, "OpenCL call failed")                                     \
    X(CLB_ERR_BUILD, "program build failed")                                \
    X(CLB_ERR_NOMEM, "out of host memory")                                  \
    X(CLB_ERR_IO, "file input/output failed")                               \
    X(CLB_ERR_UNSUPPORTED, "not supported by the device")                   \
    X(CLB_ERR_INVALID_RESULT, "kernel output failed validation")            \
    X(CLB_ERR_INVALID_TIMING, "timing failed plausibility checks")

#define CLB_ENUM_ITEM_(name, text) name,
typedef enum clb_error { CLB_ERROR_LIST(CLB_ENUM_ITEM_) CLB_ERR_COUNT_ } clb_error;

/* Static strings: the enumerator's name ("CLB_ERR_CL") and a short description. */
const char *clb_error_name(clb_error e);
const char *clb_error_text(clb_error e);
/* Static string: the CL_* name of an OpenCL error code, "CL_UNKNOWN_ERROR_CODE" if unknown. */
const char *clb_cl_error_name(cl_int code);

/* What went wrong, recorded by CLB_CL / clb_diag_* (plain data, no allocation). */
typedef struct clb_diag {
    clb_error err;    /* CLB_OK when nothing was recorded */
    cl_int cl_err;    /* the OpenCL code when err == CLB_ERR_CL */
    const char *call; /* static text of the failing call, or NULL */
    const char *file; /* static, or NULL */
    int line;
    char msg[1024];   /* human-readable detail */
} clb_diag;

void clb_diag_clear(clb_diag *d);
/* Records err with a printf-style message; returns err. d may be NULL. */
clb_error clb_diag_set(clb_diag *d, clb_error err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records a failed OpenCL call; returns CLB_ERR_CL. d may be NULL. */
clb_error clb_diag_cl(clb_diag *d, cl_int code, const char *call, const char *file, int line);

/* The one OpenCL check. Wrap every OpenCL call:
 *   CLB_CL(d, clSetKernelArg(k, 0, sizeof m, &m));                 (calls returning cl_int)
 *   CLB_CL(d, buf = clCreateBuffer(ctx, fl, n, NULL, CLB_ERRP));    (creators: CLB_ERRP is errcode_ret)
 * On failure it records call, file:line and the error's name in d and jumps to the function's
 * `cleanup:` label. _Generic picks, without evaluating, whether the call's own value or the
 * errcode_ret is the status; the call is evaluated exactly once. */
#define CLB_ERRP (&clb_rc_)
#define CLB_CL(d, call)                                                              \
    do {                                                                             \
        cl_int clb_rc_ = CL_SUCCESS;                                                 \
        clb_rc_ = _Generic((call), cl_int: (call), default: ((void)(call), clb_rc_)); \
        if (clb_rc_ != CL_SUCCESS) {                                                 \
            clb_diag_cl((d), clb_rc_, #call, __FILE__, __LINE__);                   \
            goto cleanup;                                                            \
        }                                                                            \
    } while (0)

/* Records err with a message and jumps to `cleanup:`. */
#define CLB_FAIL(d, err, ...)                 \
    do {                                      \
        clb_diag_set((d), (err), __VA_ARGS__); \
        goto cleanup;                         \
    } while (0)

/* Writes "message [call at file:line: CL_NAME]" into buf (always terminated); returns buf. */
char *clb_diag_format(const clb_diag *d, char *buf, size_t n);

/* ------------------------------------------------------------------ statistics */

typedef struct clb_stats {
    size_t n;
    double min, max, median, mean;
    double stddev;   /* sample standard deviation (n-1); 0 when n == 1 */
    double mad;      /* median absolute deviation from the median (unscaled) */
    double cv;       /* stddev / mean; 0 when mean == 0 */
    double ci95_lo;  /* distribution-free confidence interval of the median from order */
    double ci95_hi;  /* statistics (binomial); the widest available [min,max] when n < 6 */
    double ci95_level; /* the interval's actual coverage, >= 0.95 when n >= 6 */
} clb_stats;

/* Computes the statistics of x[0..n-1] (n >= 1, all finite). x is not modified. */
clb_error clb_stats_compute(const double *x, size_t n, clb_stats *out);

/* ------------------------------------------------------------------ devices */

typedef struct clb_device_ref {
    unsigned platform_index; /* as clinfo -l numbers them */
    unsigned device_index;   /* within the platform */
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char platform_name[256];
    char device_name[256];
} clb_device_ref;

/* All platforms and devices, in clinfo -l order. */
typedef struct clb_inventory clb_inventory;

/* Returns CLB_ERR_NO_PLATFORM (and an empty inventory in *out) when the ICD loader finds no
 * platform; *out is then still valid and must be destroyed. Caller frees with
 * clb_inventory_destroy. */
clb_error clb_inventory_create(clb_inventory **out, clb_diag *d);
void clb_inventory_destroy(clb_inventory *inv);
size_t clb_inventory_platform_count(const clb_inventory *inv);
cl_platform_id clb_inventory_platform(const clb_inventory *inv, size_t i);
size_t clb_inventory_count(const clb_inventory *inv); /* devices over all platforms */
const clb_device_ref *clb_inventory_at(const clb_inventory *inv, size_t i); /* borrowed */
/* Prints platforms and devices in the format of clinfo -l. */
void clb_inventory_print(const clb_inventory *inv, FILE *f);

/* A device selection as given on the command line; NULL fields are unset. */
typedef struct clb_selector {
    const char *platform; /* index or case-insensitive name substring */
    const char *device;   /* flat index, "P:D", or case-insensitive name substring */
    const char *type;     /* cpu|gpu|accelerator|all */
} clb_selector;

/* Resolves sel to device indices into inv (written to idx, at most cap; *count gets the number).
 * Rules (docs/cli.md): nothing set -> the first GPU, else the first device; --type alone -> every
 * device of that type; -d/-p -> every device they match, filtered by --type.
 * Nothing matches -> CLB_ERR_NO_DEVICE with the valid choices in d->msg. Bad syntax -> CLB_ERR_USAGE. */
clb_error clb_select(const clb_inventory *inv, const clb_selector *sel, size_t *idx, size_t cap,
                     size_t *count, clb_diag *d);

/* An open device: context and one in-order profiling queue. */
typedef struct clb_device clb_device;
clb_error clb_device_create(const clb_device_ref *ref, clb_device **out, clb_diag *d);
void clb_device_destroy(clb_device *dev);
const clb_device_ref *clb_device_reference(const clb_device *dev); /* borrowed */
cl_context clb_device_context(const clb_device *dev);              /* borrowed */
cl_command_queue clb_device_queue(const clb_device *dev);          /* borrowed */

/* ------------------------------------------------------------------ properties */

/* Every standard property of the platform (CL_PLATFORM_* keys, as clinfo --raw names them).
 * A property the driver refuses becomes {"error": "CL_..."}. Caller frees with cJSON_Delete. */
cJSON *clb_platform_info_json(cl_platform_id platform);
/* Every standard and vendor-extension property of the device (CL_DEVICE_* keys). Caller frees. */
cJSON *clb_device_info_json(cl_device_id device);
/* The same rows, printed as "  CL_NAME  value" lines. */
void clb_device_info_print(cl_device_id device, FILE *f);
void clb_platform_info_print(cl_platform_id platform, FILE *f);
/* The OpenCL ICD loader, the .icd files of vendors_dir (a directory or one .icd file; the
 * caller reads OCL_ICD_VENDORS, source says where the path came from) with the library each
 * names and whether it is loaded, and every platform with its library (docs/schema.md, "icd").
 * Hostile files are entries with status "invalid" and a reason. Never NULL. */
cJSON *clb_icd_json(const char *vendors_dir, const char *source);
void clb_icd_print(const cJSON *icd, FILE *f);

/* Derived parameters, each {"value": ..., "how": "..."}: fp64, fp16, simd_width, local memory
 * type and size, cache line and size. Compiles a probe kernel on dev. Caller frees. */
cJSON *clb_derived_json(clb_device *dev);

/* ------------------------------------------------------------------ results */

#define CLB_STATUS_LIST(X)                       \
    X(CLB_STATUS_OK, "ok")                       \
    X(CLB_STATUS_UNSUPPORTED, "unsupported")     \
    X(CLB_STATUS_BUILD_FAILED, "build_failed")   \
    X(CLB_STATUS_INVALID_RESULT, "invalid_result") \
    X(CLB_STATUS_INVALID_TIMING, "invalid_timing") \
    X(CLB_STATUS_INVALID, "invalid")             \
    X(CLB_STATUS_INCONCLUSIVE, "inconclusive")   \
    X(CLB_STATUS_THROTTLED, "throttled")         \
    X(CLB_STATUS_CRASHED, "crashed")             \
    X(CLB_STATUS_TIMEOUT, "timeout")             \
    X(CLB_STATUS_INTERRUPTED, "interrupted")     \
    X(CLB_STATUS_ERROR, "error")

typedef enum clb_status { CLB_STATUS_LIST(CLB_ENUM_ITEM_) CLB_STATUS_COUNT_ } clb_status;
const char *clb_status_name(clb_status s); /* "ok", "unsupported", ... (static) */
clb_status clb_status_from_error(clb_error e);
/* 1 for the statuses whose result carries a number: ok, and throttled (measured and verified,
 * but the device slowed down while it ran). */
int clb_status_has_value(clb_status s);

/* One benchmark's outcome: plain data, serializable with clb_result_to_json. A result whose
 * status has no value (clb_status_has_value) carries no number (value and stats are not
 * serialized). */
typedef struct clb_result {
    char name[96];
    char group[32];
    clb_status status;
    char reason[1024];    /* why the status is not ok; "" when ok */
    double value;         /* the headline number: the median of the samples */
    char unit[24];        /* e.g. "us", "GFLOP/s", "launches/s" */
    int higher_is_better; /* 1 for rates, 0 for times */
    char timer[48];       /* "cl_event_profiling", "wall_clock_monotonic", ... */
    clb_stats stats;
    double *samples;      /* owned; nsamples values in unit */
    size_t nsamples;
    cJSON *params;        /* owned object: sizes, iterations, configuration, build log */
} clb_result;

/* Initializes res as an empty result named name in group (status error "not run"). */
clb_error clb_result_init(clb_result *res, const char *name, const char *group);
void clb_result_free(clb_result *res); /* frees owned members; res itself is the caller's */
/* Marks res failed with the status derived from d (or st when d is NULL) and the reason. */
void clb_result_fail(clb_result *res, clb_status st, const char *reason);
/* Sets samples (copied), value = median, stats, unit and status ok. */
clb_error clb_result_set_samples(clb_result *res, const double *x, size_t n, const char *unit,
                                 int higher_is_better, const char *timer);
/* Caller frees with cJSON_Delete. */
cJSON *clb_result_to_json(const clb_result *res);
/* The inverse of clb_result_to_json (results that crossed a process boundary): fills res, which
 * the caller frees with clb_result_free. CLB_ERR_USAGE when j is not a result object. */
clb_error clb_result_from_json(const cJSON *j, clb_result *res);

/* ------------------------------------------------------------------ benchmarks */

/* Faults the tests plant in a kernel's output before its validation (clb_run_opts.inject_fault):
 * each must make the benchmark report invalid_result. */
typedef enum clb_fault {
    CLB_FAULT_NONE = 0,
    CLB_FAULT_WRONG = 1,   /* the whole output overwritten with 0xA5 bytes */
    CLB_FAULT_PARTIAL = 2, /* one 4-byte word at a random place overwritten with 0xA5 bytes */
    CLB_FAULT_SKIP = 3     /* 1/16 of the output (at least one word), at a random place, left as
                              the poison: what a kernel that skipped part of its work leaves */
} clb_fault;

/* Measurement options (clb_run_opts_default gives the documented defaults). */
typedef struct clb_run_opts {
    double target_s;      /* calibrated duration of one launch (0.05) */
    double watchdog_s;    /* no launch may take longer (0.2) */
    unsigned warmup;      /* discarded launches before timing (>= 1) */
    unsigned reps;        /* timed repetitions (10) */
    double time_budget_s; /* > 0: repeat until this much time is spent (at least 3 reps) */
    int quick;            /* smallest meaningful sizes, for tests and smoke runs */
    int inject_fault;     /* testing: a clb_fault planted in the kernel output before validation */
    int retune;           /* app.*gemm.tuned: search again, ignoring the cached winner */
    int largest_only;     /* size sweeps (transfer.*) measure 4 B and their largest size only: the
                             headline, for a pass whose full curve is measured again alone */
    int all_reps;         /* app rows take every repetition: no early stop after 3 runs once 3 s
                             have passed (the suite's full mode: seed 004's 10 runs) */
    const char *binary_cache_dir; /* the kernel binary cache's directory (docs/binary_cache.md);
                                     NULL: every program is built from source, nothing is stored */
} clb_run_opts;
void clb_run_opts_default(clb_run_opts *o);

/* Capabilities a benchmark needs; checked against the device before running. */
enum {
    CLB_REQ_NONE = 0,
    CLB_REQ_FP64 = 1u << 0,
    CLB_REQ_FP16 = 1u << 1,
    CLB_REQ_COMPILER = 1u << 2,
    /* An application row (app.*): runs only when a pattern names it, never in a plain run. */
    CLB_REQ_APP = 1u << 3
};

/* The context a benchmark runs in (opaque; functions in lib/bench.h use it). */
typedef struct clb_ctx clb_ctx;

/* One row of the registry. */
typedef struct clb_bench {
    const char *name;        /* "group.variant" */
    const char *group;
    const char *description;
    unsigned requires;       /* CLB_REQ_* bits */
    /* Measures and fills res (status, samples, params). state: scratch owned by run. */
    clb_error (*run)(clb_ctx *c, clb_result *res);
    /* Checks the kernel output of the last launch against a host reference; returns
     * CLB_ERR_INVALID_RESULT with the reason in d when it does not match. */
    clb_error (*validate)(clb_ctx *c, void *state, clb_diag *d);
    const void *arg;         /* row-specific constant (variant parameters), may be NULL */
} clb_bench;

size_t clb_bench_count(void);
const clb_bench *clb_bench_at(size_t i); /* static */
const clb_bench *clb_bench_find(const char *name);
/* 1 when name matches the glob pattern (*, ?, [set]). */
int clb_bench_match(const char *pattern, const char *name);

/* Runs one benchmark on dev. Always fills res (caller frees with clb_result_free); returns
 * CLB_OK unless res could not be initialized. */
clb_error clb_bench_run(clb_device *dev, const clb_bench *b, const clb_run_opts *o,
                        clb_result *res);

/* ------------------------------------------------------------------ recommend */

/* Workload classes `clbench recommend` ranks devices for, each with one model from measured
 * parameters (docs/decide.md). */
typedef enum clb_workload_kind {
    CLB_WORKLOAD_STREAM,   /* size: fp32 elements of a triad/SAXPY (12 bytes each) */
    CLB_WORKLOAD_GEMM,     /* size: n of an n x n x n SGEMM */
    CLB_WORKLOAD_STENCIL,  /* size: components of the Euler string stencil, 64 steps */
    CLB_WORKLOAD_TRANSFER, /* size: bytes copied host -> device */
    CLB_WORKLOAD_LATENCY,  /* size: dependent global-memory loads in one launch */
    CLB_WORKLOAD_COUNT_
} clb_workload_kind;
const char *clb_workload_name(clb_workload_kind w); /* "stream", ... (static) */
/* 1 when s names a workload class. */
int clb_workload_parse(const char *s, clb_workload_kind *out);
double clb_workload_default_size(clb_workload_kind w);
/* The benchmark patterns whose results the model reads (static, NULL-terminated): what a quick
 * measurement runs when no results file is given. */
const char *const *clb_workload_rows(clb_workload_kind w);

/* One device's predicted time for a workload, or why it is not ranked. */
typedef struct clb_prediction {
    int ranked;           /* 1: seconds is a prediction */
    double seconds;
    char model[200];      /* the formula */
    char deciding[600];   /* the parameters used, with their values and rows */
    char assumption[240]; /* an assumption the prediction rests on, "" when none */
    char missing[240];    /* when not ranked: the rows that were not measured (ok) */
} clb_prediction;
/* Predicts from one device entry of a results document (docs/schema.md). data_on_host: the
 * stream workload's inputs start on the host (transfers counted) instead of on the device. */
void clb_predict(const cJSON *device_entry, clb_workload_kind w, double size, int data_on_host,
                 clb_prediction *out);
/* The suite's measured time for the same workload in the entry (app.saxpy.opencl, the best
 * app.sgemm OpenCL rung, the best OpenCL app.euler.string.f32 row, transfer.h2d_pageable's
 * curve), for checking the models; NaN when not measured. row gets the row used. */
double clb_workload_measured(const cJSON *device_entry, clb_workload_kind w, double size, char *row,
                             size_t row_n);

/* ------------------------------------------------------------------ device database */

/* The device database as data (docs/decide.md): the built-in entries (vendor figures with
 * their sources; the physical-limit guard uses these) and the user's own file
 * $XDG_CONFIG_HOME/clbench/devdb.json (~/.config when unset) of entries written by
 * `clbench db add` from measured runs. An entry: {"key", "vendor", "name", "product",
 * "origin": "builtin"|"user", "figures": {"fp32_gflops"|"fp64_gflops"|"dram_gbps"|"link_gbps":
 * {"value", "origin": "vendor"|"measured", "source"}}, ...}. */
/* Every built-in entry, in match order. Caller frees with cJSON_Delete. */
cJSON *clb_devdb_json(void);
/* Parses a user file {"version": 1, "entries": [...]} (untrusted input): NULL with
 * CLB_ERR_USAGE and the reason in d when anything is malformed. Caller frees. */
cJSON *clb_devdb_parse(const char *buf, size_t len, clb_diag *d);
/* The user file's path, creating its directory when create; CLB_ERR_IO without HOME. */
clb_error clb_devdb_user_path(char *buf, size_t n, int create, clb_diag *d);
/* 1 when needle occurs in hay, ignoring ASCII case; an empty needle never matches (device
 * selection by name, the database's name matching). */
int clb_contains_nocase(const char *hay, const char *needle);
/* A user entry from one device entry of a results document: measured figures marked
 * "measured" (compute.fp32.fma, compute.fp64.fma, memory.triad, transfer.h2d_pinned, each
 * when ok). NULL with d filled when the device has no name or nothing was measured. Caller frees. */
cJSON *clb_devdb_entry_from_results(const cJSON *device_entry, const char *file, clb_diag *d);

/* ------------------------------------------------------------------ results document */

#define CLB_SCHEMA_VERSION "1.0.0"
/* The library's version, CMake's project version (the api_outside_client test compares them).
 * MAJOR changes on every break of this header's API or ABI, and with it the soname
 * libclbench.so.MAJOR (docs/api.md). */
#define CLB_VERSION_MAJOR 0
#define CLB_VERSION_MINOR 1
#define CLB_VERSION_PATCH 0
#define CLB_VERSION "0.1.0"

/* A new document {"schema_version", "provenance", "devices": []}. argv is recorded as the
 * command line. Caller frees with cJSON_Delete. */
cJSON *clb_doc_create(int argc, char **argv);
/* Appends {"platform", "device", "derived", "results": []} for dev and returns it (borrowed,
 * owned by doc). derived may be NULL; it is then omitted. */
cJSON *clb_doc_add_device(cJSON *doc, clb_device *dev, cJSON *derived);
/* An output file that appears whole or not at all (temporary name, then rename); "-" is stdout.
 * clb_output_open gives the FILE to write to; clb_output_close(o, ok, d) closes it and, when ok
 * and every write succeeded, puts it in place (otherwise removes it). Close frees o. */
typedef struct clb_output clb_output;
clb_error clb_output_open(const char *path, clb_output **out, FILE **f, clb_diag *d);
clb_error clb_output_close(clb_output *o, int ok, clb_diag *d);
/* How path would be written: *in_place = 0 through a temporary file renamed over it (path absent
 * or a regular file), 1 in place ("-", a FIFO, a character device); CLB_ERR_USAGE for anything
 * else (a directory, a block device, a socket), CLB_ERR_IO when it cannot be looked at. */
clb_error clb_output_target(const char *path, int *in_place, clb_diag *d);

/* Writes doc (pretty) to path, or stdout for "-", through clb_output. */
clb_error clb_doc_write(const cJSON *doc, const char *path, clb_diag *d);

/* ------------------------------------------------------------------ reports and comparison */

/* Parses a results document from text[0..len). Malformed JSON -> NULL with CLB_ERR_IO and
 * "NAME:LINE:COLUMN: ..." in d->msg; then checks it with clb_doc_check. Caller frees. */
cJSON *clb_doc_parse(const char *text, size_t len, const char *name, clb_diag *d);
/* Reads path and parses it with clb_doc_parse. Caller frees with cJSON_Delete. */
cJSON *clb_doc_load(const char *path, clb_diag *d);
/* Any JSON file (not only a results document), read and parsed as clb_doc_load does, with the
 * same limits and messages but no schema check. Caller frees with cJSON_Delete. */
cJSON *clb_json_load(const char *path, clb_diag *d);
/* Largest input file the readers accept, in bytes (default 1 GiB). Larger regular files and
 * pipes that run past it are refused with CLB_ERR_USAGE and the size in the message; devices,
 * directories and sockets are refused whatever their size. */
void clb_input_limit_set(double bytes);
double clb_input_limit(void);
/* The reader behind both: the whole file into *buf (caller frees), a regular file or a pipe,
 * within the input limit; anything else is refused with CLB_ERR_USAGE. Messages start "PATH: ". */
clb_error clb_doc_read_file(const char *path, char **buf, size_t *len, clb_diag *d);
/* Like clb_doc_parse / clb_doc_load, but builds only the members on the given paths (at most 32)
 * and checks the rest for well-formed JSON without building it: "devices/#/results/#/name",
 * '#' for every array element; a path keeps the whole subtree below it. For large files whose
 * readers need a few fields (fleet-check). */
cJSON *clb_doc_parse_paths(const char *text, size_t len, const char *name,
                           const char *const *paths, size_t npaths, clb_diag *d);
cJSON *clb_doc_load_paths(const char *path, const char *const *paths, size_t npaths, clb_diag *d);
/* CLB_OK when doc is an object whose schema_version has this tool's major version and whose
 * devices is an array; otherwise CLB_ERR_USAGE with the reason in d. */
clb_error clb_doc_check(const cJSON *doc, const char *name, clb_diag *d);

/* One input of a report: a parsed document and the name it is shown under (borrowed). */
typedef struct clb_report_src {
    const char *name;
    const cJSON *doc;
} clb_report_src;

/* One self-contained HTML page (inline CSS and SVG, no network resources): provenance,
 * devices side by side, a summary card per device, a plot per curve, every result. Every
 * string from the documents is HTML-escaped. */
clb_error clb_report_html(FILE *f, const clb_report_src *src, size_t n);
/* Options of the HTML report. provenance_paths: show absolute host paths (the executable, input
 * and output files, cache files, environment values) as they are; 0 (the default, and what
 * clb_report_html does) shows their last component only. */
typedef struct clb_html_opts {
    int provenance_paths;
} clb_html_opts;
clb_error clb_report_html_ex(FILE *f, const clb_report_src *src, size_t n, const clb_html_opts *o);
/* One row per (file, device, result): file,device,name,status,value,unit,median,ci95_lo,
 * ci95_hi,cv,n,reason (RFC 4180 quoting). */
clb_error clb_report_csv(FILE *f, const clb_report_src *src, size_t n);
/* The same rows as a Markdown table. */
clb_error clb_report_markdown(FILE *f, const clb_report_src *src, size_t n);

/* Outcome of clb_compare; the numbers are the exit codes of clbench compare. */
enum { CLB_COMPARE_OK = 0, CLB_COMPARE_REGRESSION = 1, CLB_COMPARE_UNUSABLE = 2 };
/* Prints a table of NEW/BASE ratios for every result present in both (matched by device name
 * and result name) with their confidence intervals. A regression is a change in the bad
 * direction beyond threshold (a fraction: 0.05 = 5%) whose 95% intervals do not overlap, or
 * a result that was ok in base and failed in next. Returns a CLB_COMPARE_* code; for
 * UNUSABLE the reason is in d. */
int clb_compare(FILE *f, const cJSON *base, const cJSON *next, double threshold, clb_diag *d);

/* Outliers across a fleet of identical devices (same name and driver): per result the fleet
 * median and a robust z-score; a device is flagged where it is worse than the median by at
 * least min_rel and |z| >= min_z. Results whose median run-to-run CV exceeds max_cv are not
 * judged (docs/fleet.md). */
typedef struct clb_fleet_opts {
    double min_rel; /* 0.05 */
    double min_z;   /* 4.5 */
    double max_cv;  /* 0.03 */
    int verbose;    /* 1: one line per result not judged, with its spread */
} clb_fleet_opts;
void clb_fleet_opts_default(clb_fleet_opts *o);
/* Prints one line per flag (with the plain-language reason) and a summary; returns the number
 * of flags, or -1 with d filled. */
long clb_fleet_check(FILE *f, const clb_report_src *src, size_t n, const clb_fleet_opts *o,
                     clb_diag *d);
/* Reads a results file with only the members clb_fleet_check uses (clb_doc_load_paths). */
cJSON *clb_fleet_load(const char *path, clb_diag *d);

/* ------------------------------------------------------------------ suite scores (docs/suite.md) */

/* What `clbench suite` runs: per app its sequential, pthreads, scored OpenCL and CUDA rows and
 * the size variables it sets, one value per mode (quick, full). Static table. */
#define CLB_SUITE_MAX_ENV 3
typedef struct clb_suite_app {
    const char *app, *title;  /* "sgemm", "GEMM" */
    const char *sequential, *pthreads, *cuda; /* row names (cuda: space-separated, the best ok one compared; may be NULL) */
    const char *opencl;       /* space-separated globs of the scored OpenCL rows */
    const char *env[CLB_SUITE_MAX_ENV], *quick[CLB_SUITE_MAX_ENV], *full[CLB_SUITE_MAX_ENV];
    /* Seconds per suite problem per unit of tau (tau = 1/value for rates, value for times);
     * NULL: time per run from params.mean_run_s. */
    double (*seconds_per_tau)(const struct clb_suite_app *a, int full);
} clb_suite_app;
#define CLB_SUITE_VERSION "1"
size_t clb_suite_app_count(void);
const clb_suite_app *clb_suite_app_at(size_t i); /* static */

/* One app's part in a score: scored (with its reference ratios), failed (voids the score) or
 * omitted (listed with why, not scored). */
typedef enum clb_suite_verdict { CLB_SUITE_SCORED, CLB_SUITE_FAILED, CLB_SUITE_OMITTED } clb_suite_verdict;
typedef struct clb_suite_entry {
    const char *app;
    clb_suite_verdict verdict;
    double peak_ratio, avg_ratio; /* reference time / measured time, when scored */
    const char *why;              /* failed or omitted: the reason */
} clb_suite_entry;
typedef struct clb_suite_score {
    int is_void;                  /* a failed entry, or nothing scored */
    const char *void_app;         /* borrowed from the entries; NULL when nothing was scored */
    const char *void_reason;
    size_t scored, omitted;
    double peak, average;                 /* harmonic means of the ratios */
    double peak_geomean, average_geomean; /* geometric means, beside them */
} clb_suite_score;

/* Harmonic and geometric mean of x[0..n) (n >= 1, every x finite and > 0); else CLB_ERR_USAGE. */
clb_error clb_suite_means(const double *x, size_t n, double *hmean, double *gmean);
/* Peak (the minimum), average (arithmetic mean) and sample standard deviation of per-run times
 * t[0..n) (n >= 1, finite, > 0); else CLB_ERR_USAGE. */
clb_error clb_suite_times(const double *t, size_t n, double *peak, double *avg, double *sd);
/* The score of one column: void on the first failed entry; omitted entries are counted. */
void clb_suite_score_compute(const clb_suite_entry *e, size_t n, clb_suite_score *out);

/* One app's per-run times in two runs (base, next) and its reference times, for the bootstrap. */
typedef struct clb_suite_pair {
    const double *base, *next;
    size_t nbase, nnext;
    double ref_peak, ref_avg;
} clb_suite_pair;
/* NEXT/BASE of the (peak when peak, else average) score over apps[0..n) and its 95% bootstrap
 * interval: iters resamples of every app's runs with replacement, from a fixed seed. */
clb_error clb_suite_bootstrap(const clb_suite_pair *apps, size_t n, int peak, unsigned iters,
                              uint64_t seed, double *ratio, double *lo, double *hi);

/* The suite summary of a document written by `clbench suite` (its devices carry
 * "suite_column"): per column (device, variant) the seed 004 table, speedups, score, omissions,
 * and the system block. reference may be NULL (ratios and scores then say why they are absent).
 * Caller frees with cJSON_Delete; NULL with d filled. */
cJSON *clb_suite_summary(const cJSON *doc, const cJSON *reference, int full, clb_diag *d);
/* The human tables of a summary (stdout of `clbench suite`). */
void clb_suite_print(FILE *f, const cJSON *summary);
/* The HTML section of a summary (called by clb_report_html when the document has "suite"). */
void clb_suite_html(FILE *f, const cJSON *summary);
/* Suite-aware compare: score deltas with bootstrap CIs per common column; adds to *regressions
 * each score that fell beyond threshold with its interval below 1, or became void. Returns the
 * number of columns compared (0: none in common or no suite in one of the documents). */
int clb_suite_compare(FILE *f, const cJSON *base, const cJSON *next, double threshold, int *regressions);

/* ------------------------------------------------------------------ kernel binary cache */

/* One file of the binary cache (docs/binary_cache.md), as `clbench cache list` shows it. */
typedef struct clb_bincache_info {
    char file[64];     /* name within the directory */
    uint64_t bytes;
    int valid;         /* whole, with its magic, key and checksum in order */
    char why[128];     /* not valid: what is wrong */
    char kernel[96], device[256], driver[128], options[512]; /* from the key (valid only) */
} clb_bincache_info;
/* Calls each for every file of the cache in dir (only the names clbench makes there); *files and
 * *bytes count them. A missing dir is an empty cache. */
clb_error clb_binary_cache_list(const char *dir, void (*each)(const clb_bincache_info *, void *), void *arg,
                                size_t *files, uint64_t *bytes, clb_diag *d);
/* Removes the cache's own files from dir (entries and temporary files; nothing else, no link
 * followed), then dir itself when it is left empty. */
clb_error clb_binary_cache_clear(const char *dir, size_t *files, uint64_t *bytes, clb_diag *d);

#ifdef __cplusplus
}
#endif
#endif /* CLBENCH_H */
