/* Microarchitecture probes (branch.*, latency.*, atomics.*, sustained.*): the pure analysis
 * of their curves (lib/bench/microarch/curve_fits.c, unit-tested with synthetic data) and the helpers the four
 * benchmark files share (lib/bench/microarch/microarch_common.c). */
#ifndef CLB_MICROARCH_H
#define CLB_MICROARCH_H

#include "core/internal.h"

/* ---- pure analysis (lib/bench/microarch/curve_fits.c) ---- */

/* A least-squares fit of two straight lines to a curve split at one of its points. */
typedef struct clb_knee {
    int found;          /* 1 when a knee was detected; otherwise knee_x is -1 */
    double knee_x;      /* where the two lines meet (clamped to the split's neighbours) */
    size_t split;       /* index of the point shared by both lines */
    double slope_left, slope_right, intercept_left, intercept_right;
    double sse_two, sse_one; /* residual sums of squares: two lines, one line */
} clb_knee;

/* Fits two lines over every split point (each side at least 2 points, the split point
 * shared) and keeps the split with the least total squared residual. A knee is reported
 * only when two lines explain the curve clearly better than one (sse_two < 0.25 sse_one)
 * and the left line rises faster than the right one (a saturation, not noise). x must be
 * increasing; n >= 4. Returns CLB_ERR_USAGE on bad input. */
clb_error clb_knee_fit(const double *x, const double *y, size_t n, clb_knee *out);

/* A two-level step fit of throughput against the divergence block size B. */
typedef struct clb_width {
    int found;         /* 1 when a penalty exists at small B and disappears */
    double width;      /* the smallest B of the high level; 0 when not found */
    double low, high;  /* mean throughput below and from the step */
    double penalty;    /* high / low */
} clb_width;

/* Least-squares step fit over every split: the width is the first x of the upper level.
 * found requires penalty >= min_penalty (e.g. 1.3) and every point from the step on to lie
 * above the midpoint of the two levels and every point before it below. The upper level has
 * at least 2 points. x increasing; n >= 3. */
clb_error clb_infer_width(const double *x, const double *y, size_t n, double min_penalty,
                          clb_width *out);

/* Median of x[0..n-1] (copies; n >= 1). */
double clb_median(const double *x, size_t n);

/* ---- shared benchmark helpers (lib/bench/microarch/microarch_common.c) ---- */

/* Enqueues k over gsz/lsz (lsz 0: the implementation chooses), waits, and returns the
 * profiling START->END time in seconds, checked against the wall clock. */
clb_error clb_ua_time(clb_ctx *c, cl_kernel k, size_t gsz, size_t lsz, double *s);
/* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE and CL_KERNEL_WORK_GROUP_SIZE of k. */
clb_error clb_ua_kernel_sizes(clb_ctx *c, cl_kernel k, size_t *multiple, size_t *max_wg);
/* The clock cycle figures use, in MHz (0 when unknown), from the measured clock service
 * (lib/device/clock.c: measured on CPUs, NVML on NVIDIA GPUs); records params clock_mhz, clock_source
 * and clock_detail in c->res. Call it right after the timed launches. */
double clb_ua_clock_mhz(clb_ctx *c);
/* Adds params.curve (or, with label, an entry of params.curves) for points (x[i], y[i]). */
void clb_ua_curve(clb_result *res, const char *label, const char *x_name, const char *x_unit,
                  const char *y_name, const char *y_unit, int x_log, const double *x,
                  const double *y, size_t n);
/* params, created on first use (borrowed). */
cJSON *clb_ua_params(clb_result *res);
/* Writes the program binary (PTX on NVIDIA) to $CLBENCH_DUMP_DIR/NAME.bin when that
 * variable is set: a debug aid to check the generated code. Silent on failure. */
void clb_ua_dump_binary(clb_ctx *c, cl_program prog, const char *name);

/* Sets the int argument arg of k to the iteration count and doubles it from start (at most
 * max) until one launch takes target_s / 2; under --quick it stays at start. */
clb_error clb_ua_calibrate(clb_ctx *c, cl_kernel k, cl_uint arg, size_t gsz, size_t lsz,
                           cl_int start, cl_int max, cl_int *iters);
/* n steps of x = fma(x, a, b) in single precision on the host; stops early once the chain
 * reaches a fixed point or a 2-cycle (its later values are then known). */
float clb_ua_fma_chain(float x, float a, float b, uint64_t n);
/* Input classes of the many-work-item rows (branch.divergence, sustained.*): work-item i reads
 * class i % INPUT_CLASSES, so that the host checks every work-item against one reference per
 * class (a prime: neighbours in a SIMD group never share one). */
#define INPUT_CLASSES 37

/* Allocates a device buffer of n random floats in [lo, hi) (seeded), element i a copy of
 * element i % classes: a validator then checks every element against `classes` host
 * references (classes = n: all drawn). */
clb_error clb_ua_random_floats(clb_ctx *c, size_t n, size_t classes, float lo, float hi, uint64_t seed,
                               float **host, cl_mem *buf);

#endif
