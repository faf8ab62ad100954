/* The application layer: apps with a sequential C reference, a pthreads version
 * and OpenCL rungs, each a registry row app.<app>.<variant>. This header holds what the apps
 * share: fixed-size timing (an app runs one problem size, not a calibrated scale), sizes from
 * the environment, and the host thread count. */
#ifndef CLB_APP_H
#define CLB_APP_H

#include "core/internal.h"

/* A repetition stops early once at least 3 were taken and this much time has passed: 3 s (a
 * sequential GEMM at n = 2000 takes seconds), or clb_settings.app_rep_budget_s (the
 * suite reference, peers/suite_reference.sh, takes every repetition it asks for). */
#define APP_REP_BUDGET_S app_rep_budget_s()
double app_rep_budget_s(void);

/* Whether repetition n (0-based; started: clb_now() before the first) is taken: n < cap, and
 * not after 3 once APP_REP_BUDGET_S has passed, unless --all-reps (the suite's full mode). */
int app_more_reps(const clb_ctx *c, unsigned n, unsigned cap, double started);

/* One timed run of the app; *seconds receives its duration. */
typedef clb_error (*app_once_fn)(void *state, double *seconds, clb_diag *d);

/* A fixed-size measurement: one discarded warm-up run, then repetitions (--reps, ending
 * early after 3 once APP_REP_BUDGET_S has passed), then the row's validation (output is what
 * --inject-fault corrupts; NULL for host rows, whose validate plants the fault in its own output
 * with clb_fault_apply_host), then
 * samples = work / seconds * factor in unit. */
typedef struct app_timing {
    void *state;
    app_once_fn once;
    double work, factor;
    const char *unit, *timer;
    cl_mem output;
    size_t output_bytes;
} app_timing;
clb_error app_measure(clb_ctx *c, const app_timing *t);

/* The seed's total time beside the kernel time (seed 003, 5.1: "Gesamtlaufzeit"; seed 002):
 * params.setup_s (the row's start to its first run: host data, program build, buffers,
 * uploads; c->started when the row began), kernel_s (one run: the median), readback_s (one
 * read of the result, out_bytes of out, to the host, timed here; 0 without a device output) and
 * total_s, their sum. setup_s < 0: no setup time (nothing recorded). */
clb_error app_total_time(clb_ctx *c, double setup_s, double kernel_s, cl_mem out, size_t out_bytes);
/* The same four params with the readback already timed (the CUDA twins' module, the sweeps' best
 * point). setup_s < 0: nothing recorded. */
void app_total_parts(clb_ctx *c, double setup_s, double kernel_s, double readback_s);

/* One launch of kernel k over global/local (dims 1 or 2), waited for; *seconds from its
 * profiling event START->END, checked against the host's wall clock. */
clb_error app_launch(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                     const size_t *local, double *seconds, clb_diag *d);

/* given when positive (a clb_settings size), else quick_n under --quick,
 * else the default for the device type (cpu_n on CPU devices, gpu_n otherwise). */
size_t app_size(const clb_ctx *c, size_t given, size_t quick_n, size_t cpu_n, size_t gpu_n);

/* The pthreads rows' fan-out: runs fn(jobs + i * job_size) for i in [0, n) on n threads and
 * joins them all; a thread that cannot be started is an error (those started are joined). */
clb_error app_parallel(unsigned n, void *jobs, size_t job_size, void *(*fn)(void *), clb_diag *d);

/* Online host cores (at least 1). */
unsigned app_host_threads(void);

/* Uniform random value in [-1, 1) from the xorshift stream of internal.h. */
double app_uniform(uint64_t *state);

/* Unsupported (status and reason in c->diag) unless the device's OpenCL C offers the core
 * 32-bit global atomics (1.1+); records params.atomics and params.opencl_c_version. */
clb_error app_need_int32_atomics(clb_ctx *c);

#endif
