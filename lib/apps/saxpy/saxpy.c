/* app.saxpy.*: y = a x + y in single precision over working sets from L2-resident to at
 * least four times the largest cache: the sequential host reference, all host cores, and the
 * OpenCL kernel one element and four elements per work-item. Headline: GB/s (12 bytes per
 * element: x and y read, y written, as STREAM counts the triad) at the largest size; the
 * sweep is params.curve (docs/apps/saxpy.md). */
#include "apps/saxpy/saxpy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { S_SEQ, S_PTHREADS, S_CL, S_CL4 } saxpy_kind;

typedef struct saxpy_state {
    clb_ctx *c;
    saxpy_kind kind;
    size_t n;          /* current size */
    float a;
    float *x, *y0, *y; /* host: inputs and (host rows) the output */
    uint64_t runs;     /* saxpy passes over y since it was reset to y0 */
    unsigned passes, threads;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem xb, yb;
} saxpy_state;

enum { MAX_POINTS = 16 };

/* ---- one size ---- */

static clb_error reset(saxpy_state *s, size_t n, clb_diag *d)
{
    s->n = n;
    s->runs = 0;
    clb_diag_clear(d);
    if (s->kind == S_SEQ || s->kind == S_PTHREADS) {
        memcpy(s->y, s->y0, n * sizeof *s->y);
        s->passes = n >= (1u << 23) ? 1u : (unsigned)((1u << 23) / n); /* >= 8 M elements a sample */
        return CLB_OK;
    }
    s->passes = 1;
    CLB_CL(d, clEnqueueWriteBuffer(s->q, s->yb, CL_TRUE, 0, n * sizeof(float), s->y0, 0, NULL, NULL));
cleanup:
    return d->err;
}

/* One sample: passes saxpys; *seconds per pass. */
static clb_error once(void *state, double *seconds, clb_diag *d)
{
    saxpy_state *s = state;
    clb_diag_clear(d);
    if (s->kind == S_CL || s->kind == S_CL4) {
        size_t g = s->kind == S_CL4 ? s->n / 4 : s->n;
        if (app_launch(s->q, s->k, 1, &g, NULL, seconds, d) != CLB_OK)
            return d->err;
        s->runs++;
        return CLB_OK;
    }
    double t0 = clb_now();
    for (unsigned p = 0; p < s->passes; p++) {
        if (s->kind == S_SEQ)
            saxpy_host_sequential(s->a, s->x, s->y, s->n);
        else if (saxpy_host_pthreads(s->a, s->x, s->y, s->n, s->threads, d) != CLB_OK)
            return d->err;
    }
    s->runs += s->passes;
    *seconds = (clb_now() - t0) / s->passes;
    return CLB_OK;
}

/* y must equal y0 + runs a x; each pass rounds once or twice (with or without fma). */
clb_error saxpy_check(float a, const float *x, const float *y0, const float *y, size_t n,
                      uint64_t runs, clb_diag *d)
{
    double k = (double)runs, u = 0x1p-24;
    for (size_t i = 0; i < n; i++) {
        double ax = (double)a * x[i], want = y0[i] + k * ax;
        double tol = 2 * k * u * (fabs(y0[i]) + (k + 1) * fabs(ax)) + 1e-30;
        if (!(fabs(y[i] - want) <= tol))
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "y[%zu] = %.9g after %llu passes, expected %.9g (bound %.3g)", i,
                                (double)y[i], (unsigned long long)runs, want, tol);
    }
    return CLB_OK;
}

static clb_error check(saxpy_state *s, const float *y, clb_diag *d)
{
    return saxpy_check(s->a, s->x, s->y0, y, s->n, s->runs, d);
}

static clb_error validate(clb_ctx *c, void *state, clb_diag *d)
{
    saxpy_state *s = state;
    clb_diag_clear(d);
    if (s->kind == S_SEQ || s->kind == S_PTHREADS) {
        clb_fault_apply_host(c, s->y, s->n * sizeof *s->y);
        return check(s, s->y, d);
    }
    float *y = malloc(s->n * sizeof *y);
    if (!y)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->yb, CL_TRUE, 0, s->n * sizeof *y, y, 0, NULL, NULL));
    check(s, y, d);
cleanup:
    free(y);
    return d->err;
}

/* ---- the sweep ---- */

/* The largest cache the row's memory passes through (the device's global memory cache, or
 * the host's last level for host rows: 32 MiB when the system does not say) and the largest
 * allocation. */
static clb_error limits(const saxpy_state *s, size_t *cache, cl_ulong *max_alloc, clb_diag *d)
{
    cl_device_id dev = clb_device_reference(s->c->dev)->device;
    cl_ulong c = 0;
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof c, &c, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof *max_alloc, max_alloc, NULL));
    *cache = s->kind == S_CL || s->kind == S_CL4 ? (size_t)c
             : l3 > 0                             ? (size_t)l3
                                                  : (size_t)32 << 20;
cleanup:
    return d->err;
}

/* Sizes in elements: 32 Ki (256 KiB of x and y) times powers of 4, up to at least 32 Mi
 * elements and a working set of 4x the largest cache, at most 2^27 elements (1 GiB of x and
 * y: a VM may report a huge L3) and the largest allocation; --quick stops at 512 Ki. */
static clb_error sizes(const saxpy_state *s, size_t *n, size_t *count, clb_diag *d)
{
    size_t cache = 0, top = (size_t)1 << 25, k = 0;
    cl_ulong max_alloc = 0;
    if (limits(s, &cache, &max_alloc, d) != CLB_OK)
        return d->err;
    while (top * 2 * sizeof(float) < 4 * cache && top < ((size_t)1 << 27) &&
           top * 4 * sizeof(float) <= max_alloc)
        top *= 4;
    if (s->c->opts->quick)
        top = (size_t)1 << 19;
    size_t fixed = clb_settings_get()->saxpy_n; /* a fixed headline size (clbench suite) */
    if (fixed >= 16 && fixed % 16 == 0 && fixed * 4 * sizeof(float) <= max_alloc)
        top = (size_t)fixed;
    top = clb_shrink_size(s->c, top, (size_t)1 << 15); /* halved after an allocation failure */
    for (size_t e = (size_t)1 << 15; e < top && k < MAX_POINTS - 1; e *= 4)
        n[k++] = e;
    n[k++] = top;
    *count = k;
    return CLB_OK;
}

clb_error saxpy_device_sizes(clb_ctx *c, size_t *n, size_t *count, clb_diag *d)
{
    saxpy_state s = {.c = c, .kind = S_CL};
    return sizes(&s, n, count, d);
}

void saxpy_fill(float *a, float *x, float *y0, size_t n, uint64_t *rng)
{
    *a = (float)(0.5 + 0.25 * app_uniform(rng));
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)app_uniform(rng);
        y0[i] = (float)app_uniform(rng);
    }
}

static clb_error alloc_host(saxpy_state *s, size_t nmax, clb_diag *d)
{
    uint64_t rng = (uint64_t)(clb_now() * 1e9) | 1;
    s->x = malloc(nmax * sizeof(float));
    s->y0 = malloc(nmax * sizeof(float));
    s->y = malloc(nmax * sizeof(float));
    if (!s->x || !s->y0 || !s->y)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory for %zu elements", nmax);
    saxpy_fill(&s->a, s->x, s->y0, nmax, &rng);
    return CLB_OK;
}

static clb_error setup_device(saxpy_state *s, size_t nmax, clb_diag *d)
{
    cl_context ctx = clb_device_context(s->c->dev);
    s->q = clb_device_queue(s->c->dev);
    if (clb_build(s->c, "saxpy", NULL, "", &s->prog) != CLB_OK)
        return d->err;
    CLB_CL(d, s->k = clCreateKernel(s->prog, s->kind == S_CL4 ? "saxpy_float4" : "saxpy", CLB_ERRP));
    CLB_CL(d, s->xb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nmax * sizeof(float), s->x, CLB_ERRP));
    CLB_CL(d, s->yb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nmax * sizeof(float), NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->xb, &s->xb));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->yb, &s->yb));
cleanup:
    return d->err;
}

/* Median GB/s of one size (warm-up discarded); samples kept in x[0..*nx) for the last size. */
static clb_error point(saxpy_state *s, size_t n, double *x, unsigned cap, unsigned *nx, clb_diag *d)
{
    double sec = 0, started;
    if (reset(s, n, d) != CLB_OK)
        return d->err;
    for (unsigned i = 0; i < s->c->opts->warmup; i++)
        if (once(s, &sec, d) != CLB_OK)
            return d->err;
    *nx = 0;
    started = clb_now();
    while (app_more_reps(s->c, *nx, cap, started)) {
        if (once(s, &sec, d) != CLB_OK)
            return d->err;
        if (!(sec > 0))
            return clb_diag_set(d, CLB_ERR_INVALID_TIMING, "a pass took no measurable time");
        x[(*nx)++] = 12.0 * (double)n / sec * 1e-9;
    }
    return CLB_OK;
}

cJSON *saxpy_curve(const double *xs, const double *ys, size_t k)
{
    return clb_curve("working set (x and y)", "bytes", "saxpy bandwidth", "GB/s", 1, NULL, xs, ys, k);
}

/* Every size: measured, then checked (the last size through clb_validate, which applies
 * --inject-fault). */
static clb_error sweep(saxpy_state *s, const size_t *n, size_t k, double *samples, unsigned cap,
                       unsigned *ns)
{
    clb_diag *d = &s->c->diag;
    double xs[MAX_POINTS], ys[MAX_POINTS];
    clb_stats st;
    for (size_t i = 0; i < k; i++) {
        if (point(s, n[i], samples, cap, ns, d) != CLB_OK)
            return d->err;
        if (i + 1 < k ? validate(s->c, s, d) != CLB_OK
                      : clb_validate(s->c, s, s->yb, n[i] * sizeof(float)) != CLB_OK)
            return d->err;
        clb_stats_compute(samples, *ns, &st);
        xs[i] = 8.0 * (double)n[i];
        ys[i] = st.median;
    }
    cJSON_AddItemToObject(s->c->res->params, "curve", saxpy_curve(xs, ys, k));
    clb_param_num(s->c->res, "elements_per_s", ys[k - 1] * 1e9 / 12.0);
    clb_param_num(s->c->res, "n", (double)n[k - 1]);
    clb_param_num(s->c->res, "working_set_bytes", xs[k - 1]);
    /* The roofline's point (docs/roofline.md): one multiply-add per element, 12 bytes moved. */
    clb_param_num(s->c->res, "flops", 2.0 * (double)n[k - 1]);
    clb_param_num(s->c->res, "bytes", 12.0 * (double)n[k - 1]);
    return CLB_OK;
}

static clb_error saxpy_run(clb_ctx *c, clb_result *res)
{
    const saxpy_kind *kind = c->bench->arg;
    saxpy_state s = {.c = c, .kind = *kind, .threads = app_host_threads()};
    size_t n[MAX_POINTS], k = 0;
    unsigned cap = clb_reps(c) < 3 ? 3 : clb_reps(c), ns = 0;
    double *samples = malloc(cap * sizeof *samples);
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (!samples)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (sizes(&s, n, &k, d) != CLB_OK)
        goto cleanup;
    if (alloc_host(&s, n[k - 1], d) != CLB_OK)
        goto cleanup;
    if ((s.kind == S_CL || s.kind == S_CL4) && setup_device(&s, n[k - 1], d) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "app", "saxpy");
    clb_param_num(res, "rung_index", (double)s.kind);
    if (s.kind == S_CL || s.kind == S_CL4)
        clb_param_str(res, "peer_row", "memory.triad");
    else
        clb_param_str(res, "runs_on", "host CPU (not the OpenCL device)");
    clb_param_num(res, "bytes_per_element", 12);
    double setup_s = c->started > 0 ? clb_now() - c->started : -1; /* host data, build, upload */
    if (sweep(&s, n, k, samples, cap, &ns) != CLB_OK)
        goto cleanup;
    if (clb_result_set_samples(res, samples, ns, "GB/s", 1,
                               s.kind >= S_CL ? "cl_event_profiling START->END, wall-clock checked"
                                              : "wall_clock_monotonic, passes of >= 8 M elements") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    /* the total of the headline (largest) size: one pass of 12 n bytes at the median */
    app_total_time(c, setup_s, 12.0 * (double)n[k - 1] / (res->value * 1e9), s.yb,
                   s.yb ? n[k - 1] * sizeof(float) : 0);
cleanup:
    clb_release_mem(s.xb);
    clb_release_mem(s.yb);
    clb_release_kernel(s.k);
    clb_release_program(s.prog);
    free(s.x);
    free(s.y0);
    free(s.y);
    free(samples);
    return d->err;
}

static const saxpy_kind k_seq = S_SEQ, k_pth = S_PTHREADS, k_cl = S_CL, k_cl4 = S_CL4;
#define REQ (CLB_REQ_COMPILER | CLB_REQ_APP)
const clb_bench clb_app_saxpy_rows[] = {
    {"app.saxpy.sequential", "app", "y = a x + y on the host, one thread, largest working set (GB/s; curve over sizes)", REQ, saxpy_run, validate, &k_seq},
    {"app.saxpy.pthreads", "app", "y = a x + y on the host, all cores (GB/s; curve over sizes)", REQ, saxpy_run, validate, &k_pth},
    {"app.saxpy.opencl", "app", "y = a x + y, one element per work-item (seed 001 listing 1; GB/s, curve over sizes)", REQ, saxpy_run, validate, &k_cl},
    {"app.saxpy.opencl_float4", "app", "y = a x + y, float4 per work-item (GB/s, curve over sizes)", REQ, saxpy_run, validate, &k_cl4},
};
const size_t clb_app_saxpy_row_count = sizeof clb_app_saxpy_rows / sizeof clb_app_saxpy_rows[0];
