/* app.saxpy.cuda, app.sgemm.cuda/.cublas, app.dgemm.cuda/.cublas, app.mcpi.cuda,
 * app.strmatch.cuda, app.euler.cuda: the CUDA twins of the OpenCL
 * rows (docs/apps/cuda.md), run through the module libclbench_cuda.so on the NVIDIA device the
 * OpenCL device is. Inputs from the apps' own generators, output through the apps' own
 * validators, timed by cudaEvents around the kernels only. Elsewhere: unsupported, with why. */
#include "apps/euler/euler.h"
#include "apps/gemm/gemm.h"
#include "apps/mcpi/mcpi.h"
#include "apps/strmatch/strmatch.h"
#include "apps/saxpy/saxpy.h"
#include "apps/cuda/cuda_twins.h"
#include "apps/app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMER "cudaEvent (kernel)"
#define PCI_BUS_ID_NV 0x4008 /* cl_nv_device_attribute_query, not in the Khronos headers */
#define PCI_SLOT_ID_NV 0x4009
#define PCI_DOMAIN_ID_NV 0x400A

static cl_uint nv_attr(cl_device_id id, cl_device_info what)
{
    cl_uint v = 0;
    return clGetDeviceInfo(id, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0xffffffffu;
}

/* Configures the module: the OpenCL device's GPU by its PCI bus id from
 * cl_nv_device_attribute_query (the slot is the PCI device number, function 0, as
 * lib/device/nvml.c reads it), else CUDA device 0; and the Euler twin's tiling from clb_settings. */
static void match_device(clb_ctx *c, const clbcu_api *api)
{
    const char *t = clb_settings_get()->euler_cuda_tiling;
    int tiling = t && strcmp(t, "diamond") == 0     ? CLBCU_TILING_DIAMOND
                 : t && strcmp(t, "honeycomb") == 0 ? CLBCU_TILING_HONEYCOMB
                                                    : CLBCU_TILING_SCREEN;
    cl_device_id id = clb_device_reference(c->dev)->device;
    cl_uint bus = nv_attr(id, PCI_BUS_ID_NV), slot = nv_attr(id, PCI_SLOT_ID_NV),
            dom = nv_attr(id, PCI_DOMAIN_ID_NV);
    char busid[64];
    if (bus == 0xffffffffu || slot == 0xffffffffu) {
        api->configure(NULL, tiling);
        clb_param_str(c->res, "cuda_device_match", "CUDA device 0 (the OpenCL device reports no PCI bus id)");
        return;
    }
    snprintf(busid, sizeof busid, "%04x:%02x:%02x.%x", dom == 0xffffffffu ? 0 : dom, bus & 0xffu,
             slot & 0xffu, 0u);
    api->configure(busid, tiling);
    clb_param_str(c->res, "cuda_device_match", "PCI bus id of the OpenCL device (CL_DEVICE_PCI_BUS_ID_NV)");
    clb_param_str(c->res, "pci_bus_id", busid);
}

/* The module's table for an NVIDIA OpenCL device, or NULL with d set to unsupported. */
static const clbcu_api *twin_api(clb_ctx *c, clb_diag *d)
{
    const clb_device_ref *r = clb_device_reference(c->dev);
    char why[2048], name[512], err[512];
    const clbcu_api *api = NULL;
    clb_diag_clear(d);
    if (!clb_device_is_nvidia(c->dev))
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "CUDA twins run only on NVIDIA GPUs (this is %s on %s)",
                 r->device_name, r->platform_name);
    if (!(api = clb_cuda_api(why, sizeof why)))
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "%s", why);
    match_device(c, api);
    if (api->device_name(name, sizeof name, err, sizeof err) != 0) {
        api = NULL;
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "no usable CUDA device: %s", err);
    }
    clb_param_str(c->res, "cuda_device", name);
cleanup:
    return api;
}

/* A twin's failure: unsupported when a library or the driver is missing, else an error. */
static clb_error twin_failed(const char *err, clb_diag *d)
{
    int missing = strstr(err, "is not installed") || strstr(err, "cudaErrorNoDevice") ||
                  strstr(err, "cudaErrorInsufficientDriver");
    return clb_diag_set(d, missing ? CLB_ERR_UNSUPPORTED : CLB_ERR_CL, "CUDA twin: %s", err);
}

/* samples[i] = work / times[i] * factor; a run without measurable time is invalid_timing. */
static clb_error rates(const double *t, unsigned n, double work, double factor, double *x, clb_diag *d)
{
    for (unsigned i = 0; i < n; i++) {
        if (!(t[i] > 0))
            return clb_diag_set(d, CLB_ERR_INVALID_TIMING, "a run took no measurable time (cudaEvent)");
        x[i] = work / t[i] * factor;
    }
    return CLB_OK;
}

/* The row's start to now (host inputs before the twin call), or -1 when the start is unknown. */
static double host_setup(const clb_ctx *c)
{
    return c->started > 0 ? clb_now() - c->started : -1;
}

/* params.total_s of a twin's row, as the OpenCL rows': setup (the host's inputs, host_s, and the
 * module's device selection, allocations and uploads of the last call), the median run of t, the
 * module's copy back. Nothing when host_s < 0 or the module reports no phases. */
static void twin_total(clb_ctx *c, const clbcu_api *api, double host_s, const double *t, unsigned reps)
{
    double setup = 0, back = 0;
    clb_stats st;
    if (host_s < 0 || api->last_phases(&setup, &back) != 0 || clb_stats_compute(t, reps, &st) != CLB_OK)
        return;
    app_total_parts(c, host_s + setup, st.median, back);
}

/* ---- SAXPY: the OpenCL rows' sizes, y updated in place reps + 1 times per size ---- */

typedef struct sx_state {
    float a, *x, *y0, *y;
    size_t n;
    unsigned reps;
} sx_state;

static clb_error sx_validate(clb_ctx *c, void *state, clb_diag *d)
{
    sx_state *s = state;
    clb_fault_apply_host(c, s->y, s->n * sizeof *s->y);
    return saxpy_check(s->a, s->x, s->y0, s->y, s->n, (uint64_t)s->reps + 1, d);
}

/* One size: the twin, then the check (the last size through clb_validate, --inject-fault). */
static clb_error sx_point(clb_ctx *c, const clbcu_api *api, sx_state *s, int last, double *t, double *x)
{
    clb_diag *d = &c->diag;
    char err[512];
    memcpy(s->y, s->y0, s->n * sizeof *s->y);
    if (api->saxpy(s->n, s->a, s->x, s->y, s->reps, t, err, sizeof err) != 0)
        return twin_failed(err, d);
    if (rates(t, s->reps, 12.0 * (double)s->n, 1e-9, x, d) != CLB_OK)
        return d->err;
    return last ? clb_validate(c, s, NULL, 0) : sx_validate(c, s, d);
}

static clb_error saxpy_cuda_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    sx_state s = {.reps = clb_reps(c)};
    size_t n[16], k = 0;
    double *t = malloc(s.reps * sizeof *t), *x = malloc(s.reps * sizeof *x), xs[16], ys[16];
    uint64_t rng = (uint64_t)(clb_now() * 1e9) | 1;
    clb_stats st;
    const clbcu_api *api = twin_api(c, d);
    if (!api)
        goto cleanup;
    if (saxpy_device_sizes(c, n, &k, d) != CLB_OK)
        goto cleanup;
    s.x = malloc(n[k - 1] * sizeof(float));
    s.y0 = malloc(n[k - 1] * sizeof(float));
    s.y = malloc(n[k - 1] * sizeof(float));
    if (!t || !x || !s.x || !s.y0 || !s.y)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    saxpy_fill(&s.a, s.x, s.y0, n[k - 1], &rng);
    clb_param_str(res, "app", "saxpy");
    clb_param_str(res, "variant", "cuda");
    clb_param_str(res, "peer_row", "memory.triad");
    clb_param_num(res, "bytes_per_element", 12);
    double host_s = host_setup(c); /* the headline (largest) size's total, as the OpenCL rows' */
    for (size_t i = 0; i < k; i++) {
        s.n = n[i];
        if (sx_point(c, api, &s, i + 1 == k, t, x) != CLB_OK)
            goto cleanup;
        clb_stats_compute(x, s.reps, &st);
        xs[i] = 8.0 * (double)n[i];
        ys[i] = st.median;
    }
    cJSON_AddItemToObject(res->params, "curve", saxpy_curve(xs, ys, k));
    clb_param_num(res, "n", (double)n[k - 1]);
    clb_param_num(res, "working_set_bytes", xs[k - 1]);
    clb_param_num(res, "reps_taken", s.reps);
    if (clb_result_set_samples(res, x, s.reps, "GB/s", 1, TIMER) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    twin_total(c, api, host_s, t, s.reps);
cleanup:
    free(t);
    free(x);
    free(s.x);
    free(s.y0);
    free(s.y);
    return d->err;
}

/* ---- GEMM: the blocked rungs' and CLBlast's size, own kernel (variant 0) or cuBLAS (1) ---- */

typedef struct gm_state {
    gemm_mats m;
    void *c;
    uint64_t seed;
} gm_state;

static clb_error gm_validate(clb_ctx *c, void *state, clb_diag *d)
{
    gm_state *s = state;
    clb_fault_apply_host(c, s->c, s->m.n * s->m.n * s->m.prec);
    return gemm_check(&s->m, s->c, s->m.n, s->seed ^ 0x5bd1e995u, d);
}

static int gm_call(const clbcu_api *api, int variant, gm_state *s, unsigned reps, double *t, char *err,
                   size_t len)
{
    if (s->m.prec == 4)
        return api->sgemm(variant, s->m.n, s->m.a, s->m.b, s->c, reps, t, err, len);
    return api->dgemm(variant, s->m.n, s->m.a, s->m.b, s->c, reps, t, err, len);
}

/* The own kernel's shapes, screened: each runs SCREEN_REPS times from a poisoned output and is
 * validated on its own output before its time counts; a shape that fails is recorded as failed
 * and never wins. Returns the winner's variant (2 + shape), or -1 with d set when none is valid. */
enum { SCREEN_REPS = 3 };

static int gm_screen(clb_ctx *c, const clbcu_api *api, gm_state *s, double *t, double *x)
{
    static const char *const snames[] = CLBCU_SGEMM_SHAPE_NAMES, *const dnames[] = CLBCU_DGEMM_SHAPE_NAMES;
    const char *const *names = s->m.prec == 4 ? snames : dnames;
    int count = s->m.prec == 4 ? CLBCU_SGEMM_SHAPES : CLBCU_DGEMM_SHAPES, best = -1;
    double n = (double)s->m.n, best_rate = 0;
    clb_diag *d = &c->diag, sd;
    clb_stats st;
    char err[512];
    cJSON *arr = cJSON_AddArrayToObject(c->res->params, "screen");
    for (int i = 0; i < count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "shape", names[i]);
        clb_poison_host(c, s->c, s->m.n * s->m.n * s->m.prec);
        clb_diag_clear(&sd);
        if (gm_call(api, 2 + i, s, SCREEN_REPS, t, err, sizeof err) != 0)
            clb_diag_set(&sd, CLB_ERR_CL, "%s", err);
        else if (rates(t, SCREEN_REPS, 2.0 * n * n * n, 1e-9, x, &sd) == CLB_OK)
            gemm_check(&s->m, s->c, s->m.n, s->seed ^ 0x5bd1e995u, &sd);
        if (sd.err != CLB_OK) {
            cJSON_AddStringToObject(o, "status", "failed");
            cJSON_AddStringToObject(o, "reason", sd.msg);
            continue;
        }
        clb_stats_compute(x, SCREEN_REPS, &st);
        cJSON_AddStringToObject(o, "status", "ok");
        cJSON_AddNumberToObject(o, "gflops_median", st.median);
        if (st.median > best_rate) {
            best_rate = st.median;
            best = i;
        }
    }
    if (best < 0) {
        clb_diag_set(d, CLB_ERR_INVALID_RESULT, "no shape of the own kernel gave a valid result (params.screen)");
        return -1;
    }
    clb_param_str(c->res, "shape", names[best]);
    return 2 + best;
}

static clb_error gemm_twin_run(clb_ctx *c, size_t prec, int variant)
{
    clb_diag *d = &c->diag;
    unsigned reps = clb_reps(c);
    size_t n = app_size(c, clb_settings_get()->gemm_n, 100, 2000, prec == 4 ? 8192 : 4096);
    gm_state s = {.seed = (uint64_t)(clb_now() * 1e9) | 1};
    double *t = malloc((reps > SCREEN_REPS ? reps : SCREEN_REPS) * sizeof *t),
           *x = malloc((reps > SCREEN_REPS ? reps : SCREEN_REPS) * sizeof *x);
    char err[512];
    const clbcu_api *api = twin_api(c, d);
    if (!api)
        goto cleanup;
    if (!t || !x || gemm_mats_init(&s.m, n, prec, s.seed, d) != CLB_OK || !(s.c = malloc(n * n * prec)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    clb_poison_host(c, s.c, n * n * prec); /* what the twin does not copy back stays NaN */
    clb_param_str(c->res, "app", prec == 4 ? "sgemm" : "dgemm");
    clb_param_str(c->res, "variant", variant ? "cublas" : "cuda");
    clb_param_num(c->res, "n", (double)n);
    clb_param_str(c->res, "layout", "row-major, C = A B, square");
    clb_param_str(c->res, "peer_row", prec == 4 ? "compute.fp32.fma" : "compute.fp64.fma");
    clb_param_str(c->res, "kernel", variant ? "cuBLAS gemm (dlopen libcublas.so.13/.12), pedantic math, C^T = B^T A^T"
                                            : "own: the OpenCL rows' warp tiles (gemm_rungs.cl family 3), shapes screened (params.screen)");
    if (variant == 0 && (variant = gm_screen(c, api, &s, t, x)) < 0)
        goto cleanup;
    double host_s = host_setup(c); /* inputs and the shapes' screen */
    if (gm_call(api, variant, &s, reps, t, err, sizeof err) != 0) {
        twin_failed(err, d);
        goto cleanup;
    }
    if (rates(t, reps, 2.0 * (double)n * (double)n * (double)n, 1e-9, x, d) != CLB_OK ||
        clb_validate(c, &s, NULL, 0) != CLB_OK)
        goto cleanup;
    clb_param_num(c->res, "reps_taken", reps);
    if (clb_result_set_samples(c->res, x, reps, "GFLOP/s", 1, TIMER) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    twin_total(c, api, host_s, t, reps);
cleanup:
    gemm_mats_free(&s.m);
    free(s.c);
    free(t);
    free(x);
    return d->err;
}

static clb_error sgemm_cuda_run(clb_ctx *c, clb_result *res) { (void)res; return gemm_twin_run(c, 4, 0); }
static clb_error sgemm_cublas_run(clb_ctx *c, clb_result *res) { (void)res; return gemm_twin_run(c, 4, 1); }
static clb_error dgemm_cuda_run(clb_ctx *c, clb_result *res) { (void)res; return gemm_twin_run(c, 8, 0); }
static clb_error dgemm_cublas_run(clb_ctx *c, clb_result *res) { (void)res; return gemm_twin_run(c, 8, 1); }

/* ---- MonteCarloPi and StringMatch (seed 004): the count and the positions must equal the
 * host's (computed on every core; the tests hold it equal to the sequential loop) ---- */

typedef struct tm_state {
    uint64_t n, want, got;
    strmatch_input in;
    long long want_pos[STRMATCH_NPAT], got_pos[STRMATCH_NPAT];
} tm_state;

static clb_error mcpi_twin_validate(clb_ctx *c, void *state, clb_diag *d)
{
    tm_state *s = state;
    clb_fault_apply_host(c, &s->got, sizeof s->got);
    return mcpi_check(s->n, s->want, s->got, d);
}

static clb_error strmatch_twin_validate(clb_ctx *c, void *state, clb_diag *d)
{
    tm_state *s = state;
    clb_fault_apply_host(c, s->got_pos, sizeof s->got_pos);
    return strmatch_check(&s->in, s->want_pos, s->got_pos, d);
}

/* Samples from the twin's per-run times, the check, the result (rate = work / t * 1e-9). */
static clb_error twin_finish(clb_ctx *c, tm_state *s, const double *t, double *x, unsigned reps,
                             double work, const char *unit)
{
    clb_diag *d = &c->diag;
    if (rates(t, reps, work, 1e-9, x, d) != CLB_OK || clb_validate(c, s, NULL, 0) != CLB_OK)
        return d->err;
    clb_param_num(c->res, "reps_taken", reps);
    if (clb_result_set_samples(c->res, x, reps, unit, 1, TIMER) != CLB_OK)
        return clb_diag_set(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    return CLB_OK;
}

/* What both seed-004 twins start with: the module's table and the per-run times and rates. */
typedef struct twin_run {
    const clbcu_api *api;
    unsigned reps;
    double *t, *x;
} twin_run;

static clb_error twin_begin(clb_ctx *c, twin_run *w)
{
    clb_diag *d = &c->diag;
    w->reps = clb_reps(c);
    w->t = malloc(w->reps * sizeof *w->t);
    w->x = malloc(w->reps * sizeof *w->x);
    if ((w->api = twin_api(c, d)) && (!w->t || !w->x))
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    return d->err; /* twin_api set it when it returned NULL */
}

static void twin_end(twin_run *w)
{
    free(w->t);
    free(w->x);
}

static clb_error mcpi_cuda_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    tm_state s = {.n = mcpi_samples(c)};
    twin_run w;
    char err[512];
    if (twin_begin(c, &w) != CLB_OK)
        goto cleanup;
    if (mcpi_host_pthreads(s.n, app_host_threads(), &s.want, d) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "app", "mcpi");
    clb_param_str(res, "variant", "cuda");
    clb_param_num(res, "n", (double)s.n);
    clb_param_str(res, "kernel", "one sample per thread (seed 004 Fig. 3), block sums, one atomicAdd per block");
    unsigned long long got = 0;
    double host_s = host_setup(c);
    if (w.api->mcpi(s.n, w.reps, w.t, &got, err, sizeof err) != 0) {
        twin_failed(err, d);
        goto cleanup;
    }
    s.got = got;
    clb_param_num(res, "inside", (double)s.got);
    clb_param_num(res, "pi_estimate", mcpi_pi(s.n, s.got));
    if (twin_finish(c, &s, w.t, w.x, w.reps, (double)s.n, "Gsamples/s") == CLB_OK)
        twin_total(c, w.api, host_s, w.t, w.reps);
cleanup:
    twin_end(&w);
    return d->err;
}

static clb_error strmatch_cuda_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    tm_state s = {.n = 0};
    twin_run w;
    char err[512];
    if (twin_begin(c, &w) != CLB_OK)
        goto cleanup;
    if (strmatch_input_make(&s.in, strmatch_bytes(c), d) != CLB_OK ||
        strmatch_host_pthreads(&s.in, app_host_threads(), s.want_pos, d) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "app", "strmatch");
    clb_param_str(res, "variant", "cuda");
    clb_param_num(res, "n", (double)s.in.len);
    clb_param_num(res, "text_bytes", (double)s.in.len);
    clb_param_num(res, "patterns", (double)s.in.npat);
    clb_param_str(res, "kernel", "text tile and pattern in shared memory, atomicMin of the first index (seed 004)");
    clb_poison_host(c, s.got_pos, sizeof s.got_pos);
    double host_s = host_setup(c);
    if (w.api->strmatch(s.in.text, s.in.len, s.in.pats, s.in.npat, s.in.m, w.reps, w.t, s.got_pos, err,
                      sizeof err) != 0) {
        twin_failed(err, d);
        goto cleanup;
    }
    if (twin_finish(c, &s, w.t, w.x, w.reps, (double)s.in.len * (double)s.in.npat, "GB/s") == CLB_OK)
        twin_total(c, w.api, host_s, w.t, w.reps);
cleanup:
    strmatch_input_free(&s.in);
    twin_end(&w);
    return d->err;
}

/* ---- Euler STRING f32 (seed 003): the OpenCL rows' n, steps, initial state, float constants,
 * reference and tolerance (euler_rows.c); ns per component and step, lower is better ---- */

static const eu_row eu_cuda_row = {EU_STRING, 0, EU_CUDA, EU_MULT, 0, 0, 0};

/* The tiling the module ran, from its note ("honeycomb: dia_blocks W, hs H, m M, period X, D
 * diamonds ..."), so that the row counts the global traffic of the tiles it ran
 * (eu_geom_traffic), as the OpenCL tiled rows do, instead of the one-step 8 B per update. A
 * module without a note (or an inconsistent one) keeps the untiled count. */
static void eu_twin_geometry(const char *note, eu_state *s)
{
    char kind[16];
    size_t w = 0, hs = 0, m = 0, x = 0, dia = 0;
    if (sscanf(note, "%15[a-z]: dia_blocks %zu, hs %zu, m %zu, period %zu, %zu diamonds", kind, &w, &hs, &m, &x,
               &dia) != 6 ||
        hs == 0 || w != 2 * (m + hs) || x != 4 * m + 2 * hs || s->o.n % 4)
        return;
    memset(&s->geom, 0, sizeof s->geom);
    s->geom.bs = 4;
    s->geom.blocks = s->o.n / 4;
    s->geom.diamonds = dia;
    s->geom.dia_blocks = w;
    s->geom.m = m;
    s->geom.hs = hs;
    s->geom.period = x;
    s->geom.launches = eu_geom_launches(&s->geom, s->steps);
    s->tiled = 1;
}

static clb_error euler_cuda_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    eu_state s = {.row = c->bench->arg};
    twin_run w;
    char err[512];
    if (twin_begin(c, &w) != CLB_OK)
        goto cleanup;
    eu_choose_sizes(c, &s);
    if (eu_prepare_host(c, &s) != CLB_OK)
        goto cleanup;
    clb_poison_host(c, s.out, s.o.n * s.elem);
    err[0] = '\0';
    double host_s = host_setup(c);
    /* (float) of the double constants: the OpenCL rows' K2 and HH, printed exactly */
    if (w.api->euler_string(s.o.n, s.steps, (float)s.o.k2, (float)s.o.h, s.y0, s.out, w.reps, w.t, err,
                            sizeof err) != 0) {
        twin_failed(err, d);
        goto cleanup;
    }
    for (unsigned i = 0; i < w.reps; i++) {
        if (!(w.t[i] > 0))
            CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "a run took no measurable time (cudaEvent)");
        w.x[i] = w.t[i] * 1e9 / ((double)s.o.n * (double)s.steps);
    }
    if (eu_check_output(c, &s) != CLB_OK)
        goto cleanup;
    eu_twin_geometry(err, &s);
    if (clb_result_set_samples(res, w.x, w.reps, "ns", 0, "cudaEvent (first launch to last, all steps)") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    eu_record(res, &s, res->value);
    clb_param_str(res, "kernel", "diamond_row_korr and honeycomb in CUDA: row-wise tiles of blocks of 4 "
                                 "components in shared memory (korrStrat, dia_blocks from the shared memory per "
                                 "block), 256 threads, 4 blocks per SM, one launch per row of tiles; the faster "
                                 "tiling on this problem (screened) runs");
    if (err[0])
        clb_param_str(res, "tiling", err);
    clb_param_str(res, "peer_rows", "app.euler.string.f32.diamond_row_korr app.euler.string.f32.honeycomb "
                                    "app.euler.string.f32.vectorized");
    clb_param_num(res, "reps_taken", w.reps);
    twin_total(c, w.api, host_s, w.t, w.reps);
cleanup:
    if (d->err != CLB_OK && s.o.n)
        clb_param_num(res, "n", (double)s.o.n);
    eu_state_free(&s);
    twin_end(&w);
    return d->err;
}

#define REQ CLB_REQ_APP
const clb_bench clb_app_cuda_rows[] = {
    {"app.saxpy.cuda", "app", "y = a x + y, CUDA twin of opencl_float4: one float4 per thread (GB/s; curve over the OpenCL rows' sizes)", REQ, saxpy_cuda_run, sx_validate, NULL},
    {"app.sgemm.cuda", "app", "sgemm CUDA twin: shared-memory tiles, register blocking (GFLOP/s)", REQ, sgemm_cuda_run, gm_validate, NULL},
    {"app.sgemm.cublas", "app", "sgemm through cuBLAS (dlopen), the CUDA reference (GFLOP/s)", REQ, sgemm_cublas_run, gm_validate, NULL},
    {"app.dgemm.cuda", "app", "dgemm CUDA twin: shared-memory tiles, register blocking (GFLOP/s)", REQ | CLB_REQ_FP64, dgemm_cuda_run, gm_validate, NULL},
    {"app.dgemm.cublas", "app", "dgemm through cuBLAS (dlopen), the CUDA reference (GFLOP/s)", REQ | CLB_REQ_FP64, dgemm_cublas_run, gm_validate, NULL},
    {"app.mcpi.cuda", "app", "MonteCarloPi CUDA twin, one sample per thread as seed 004 (Gsamples/s)", REQ, mcpi_cuda_run, mcpi_twin_validate, NULL},
    {"app.strmatch.cuda", "app", "StringMatch CUDA twin, shared-memory staging and atomicMin as seed 004 (GB/s of text x patterns)", REQ, strmatch_cuda_run, strmatch_twin_validate, NULL},
    {"app.euler.cuda", "app.euler", "explicit Euler, STRING f32, CUDA twin of diamond_row_korr / honeycomb: tiles in shared memory (ns per component and step)", REQ, euler_cuda_run, eu_validate, &eu_cuda_row},
};
const size_t clb_app_cuda_row_count = sizeof clb_app_cuda_rows / sizeof clb_app_cuda_rows[0];
