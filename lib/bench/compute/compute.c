/* compute.*: arithmetic peak per (precision, operation), searched over vector width,
 * independent chains per work-item (ILP), operand shape and work-group size.
 *
 * Search (docs/results/compute.md): stage 1 screens every width x chain count with the
 * row's first shape at a default work-group size (short launches, ~10 ms); stage 2 tries the
 * other shapes for the two best points, chain counts between the powers of two around the
 * best (8 -> 6, 12), then work-group sizes for the best; the best two
 * screened configurations get the full measurement (clb_measure: calibration, warm-up,
 * repetitions, validation) and the faster one is the result. --quick screens (width,
 * chains) = (1,1), (1,8), (native,8) with one shape and measures the best one. */
#include "core/internal.h"

#include "bench/compute/compute_model.h"
#include "device/devdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 128
/* Work-item i reads input class i % INPUT_CLASSES: the host computes one reference per class and
 * checks every work-item's every lane against its class's (docs/measurement.md, "Compute"). A
 * prime, so neighbours in a warp or SIMD group never share a class. */
#define INPUT_CLASSES 37

typedef struct point {
    cm_config cfg;
    double rate; /* screened G(FL)OP/s; NaN when the configuration did not run or failed */
    int stage;
    int failed;      /* 1: its output failed validation (never a finalist) */
    char error[160]; /* why it did not run (build or launch failure) or failed, else "" */
} point;

typedef struct cstate {
    clb_ctx *c;
    cm_row row;
    cm_config cfg;    /* the configuration the kernel below was built for */
    cl_program prog;
    cl_kernel k;
    size_t kernel_wg; /* CL_KERNEL_WORK_GROUP_SIZE of k */
    cl_mem in, out;
    size_t global;
    uint64_t iters;   /* of the last launch */
    cm_inputs *inputs; /* INPUT_CLASSES classes; work-item i reads inputs[i % INPUT_CLASSES] */
    cm_args args;
    point pts[MAX_POINTS];
    size_t npts;
} cstate;

clb_error clb_compute_validate(clb_ctx *c, void *state, clb_diag *d);

/* ---- building one configuration ---- */

/* Field by field: the struct has padding, which memcmp would compare. */
static int same_kernel(const cm_config *a, const cm_config *b)
{
    return a->width == b->width && a->chains == b->chains && a->shape == b->shape;
}

static int same_config(const cm_config *a, const cm_config *b)
{
    return same_kernel(a, b) && a->wg == b->wg;
}

static void vec_type(const cstate *s, unsigned w, char *buf, size_t n)
{
    if (w == 1)
        snprintf(buf, n, "%s", cm_scalar_cl(s->row.type));
    else
        snprintf(buf, n, "%s%u", cm_scalar_cl(s->row.type), w);
}

/* The #define prefix that specialises kernels/compute.cl. */
static void make_prefix(const cstate *s, const cm_config *cfg, char *buf, size_t n)
{
    char vt[16], lanes[512];
    const char *t = cm_scalar_cl(s->row.type);
    vec_type(s, cfg->width, vt, sizeof vt);
    size_t len = (size_t)snprintf(lanes, sizeof lanes, cfg->width == 1 ? "((%s)0" : "((%s)((%s)0",
                                  vt, t);
    for (unsigned l = 1; l < cfg->width && len < sizeof lanes; l++)
        len += (size_t)snprintf(lanes + len, sizeof lanes - len, ", (%s)%u", t, l);
    if (len < sizeof lanes)
        snprintf(lanes + len, sizeof lanes - len, cfg->width == 1 ? ")" : "))");
    snprintf(buf, n,
             "#define CLB_T %s\n#define CLB_VT %s\n#define CLB_W %u\n#define CLB_LANES %s\n"
             "#define CLB_CHAINS %u\n#define CLB_UNROLL %d\n#define CLB_OP %d\n"
             "#define CLB_SHAPE %d\n#define CLB_IS_INT %d\n#define CLB_FP64 %d\n"
             "#define CLB_FP16 %d\n",
             t, vt, cfg->width, lanes, cfg->chains, CM_UNROLL, (int)s->row.op, (int)cfg->shape,
             cm_is_int(s->row.type), s->row.type == CM_FP64, s->row.type == CM_FP16);
}

static void release_kernel(cstate *s)
{
    clb_release_kernel(s->k);
    clb_release_program(s->prog);
    s->k = NULL;
    s->prog = NULL;
}

static clb_error set_args(cstate *s, clb_diag *d)
{
    unsigned char a[3][8];
    size_t es = cm_elem_bytes(s->row.type);
    for (int i = 0; i < 3; i++)
        cm_store_arg(s->row.type, a[i], &s->args, i);
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    for (cl_uint i = 0; i < 3; i++)
        CLB_CL(d, clSetKernelArg(s->k, 3 + i, es, a[i]));
cleanup:
    return d->err;
}

/* -w: PoCL prints clang's harmless -Wpsabi notes (vector arguments of builtins) for every
 * build. -cl-mad-enable only for mad. The packed dot product's builtins are declared in
 * OpenCL C 3.0 (feature __opencl_c_integer_dot_product_input_4x8bit_packed): ask for it
 * where the device is a 3.0 device. */
static const char *build_options(const cstate *s)
{
    char ver[128] = "";
    if (s->row.op == CM_MAD)
        return "-cl-mad-enable -w";
    if (s->row.op != CM_DOT4)
        return "-w";
    clGetDeviceInfo(clb_device_reference(s->c->dev)->device, CL_DEVICE_VERSION, sizeof ver - 1,
                    ver, NULL);
    return strncmp(ver, "OpenCL 3.", 9) == 0 ? "-cl-std=CL3.0 -w" : "-w";
}

/* Builds the kernel for cfg unless the current one already matches (wg needs no rebuild). */
static clb_error build_config(cstate *s, const cm_config *cfg)
{
    clb_diag *d = &s->c->diag;
    char prefix[1024];
    cm_config want = *cfg;
    want.wg = s->cfg.wg;
    if (s->k && same_kernel(&want, &s->cfg))
        return CLB_OK;
    release_kernel(s);
    make_prefix(s, cfg, prefix, sizeof prefix);
    if (clb_build(s->c, "compute", prefix, build_options(s), &s->prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->k = clCreateKernel(s->prog, "compute", CLB_ERRP));
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, clb_device_reference(s->c->dev)->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof s->kernel_wg,
                                       &s->kernel_wg, NULL));
    s->cfg = want;
    if (set_args(s, d) != CLB_OK)
        goto cleanup;
cleanup:
    if (d->err != CLB_OK)
        release_kernel(s);
    return d->err;
}

/* ---- launching ---- */

static clb_error enqueue(void *state, uint64_t iters, cl_event *ev, clb_diag *d)
{
    cstate *s = state;
    cl_uint n = (cl_uint)iters;
    size_t wg = s->cfg.wg;
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof n, &n));
    CLB_CL(d, clEnqueueNDRangeKernel(clb_device_queue(s->c->dev), s->k, 1, NULL, &s->global, &wg,
                                     0, NULL, ev));
    s->iters = iters;
cleanup:
    return d->err;
}

static double work(const void *state, uint64_t iters)
{
    const cstate *s = state;
    return cm_ops_per_launch(s->row.op, &s->cfg, s->global, iters);
}

static clb_error timed(cstate *s, uint64_t iters, double *seconds)
{
    clb_diag *d = &s->c->diag;
    cl_event ev = NULL;
    cl_ulong t[4];
    if (enqueue(s, iters, &ev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clWaitForEvents(1, &ev));
    if (clb_event_times(ev, t, d) != CLB_OK)
        goto cleanup;
    *seconds = t[3] > t[2] ? 1e-9 * (double)(t[3] - t[2]) : 1e-9;
cleanup:
    clb_release_event(ev);
    return d->err;
}

/* Short launches grown to ~screen_s; the rate of the fastest of the last three. */
static clb_error screen(cstate *s, const cm_config *cfg, double *rate)
{
    const int quick = s->c->opts->quick;
    const double screen_s = quick ? 0.0 : 0.01;
    uint64_t n = 1;
    double t = 0, best = 0;
    *rate = NAN;
    if (build_config(s, cfg) != CLB_OK)
        return s->c->diag.err;
    if (cfg->wg > s->kernel_wg)
        return CLB_OK; /* the kernel cannot run this work-group size: not a point */
    s->cfg.wg = cfg->wg;
    /* Each configuration starts from a poisoned output: work it skips cannot pass as an
     * earlier configuration's. */
    if (clb_poison(s->c, s->out, s->global * CM_MAX_WIDTH * cm_elem_bytes(s->row.type)) != CLB_OK)
        return s->c->diag.err;
    if (timed(s, 1, &t) != CLB_OK) /* the first launch pays compilation for this size */
        return s->c->diag.err;
    for (int i = 0; i < 32 && t < screen_s && n < (1u << 24); i++) {
        double f = screen_s / t;
        n = (uint64_t)((double)n * (f > 64 ? 64 : f < 2 ? 2 : f));
        if (timed(s, n, &t) != CLB_OK)
            return s->c->diag.err;
    }
    for (int r = 0; r < 3; r++) {
        if (timed(s, n, &t) != CLB_OK)
            return s->c->diag.err;
        double x = work(s, n) / t * 1e-9;
        best = x > best ? x : best;
    }
    /* Validated on its own output before its rate counts (no fault injection here). */
    if (clb_compute_validate(s->c, s, &s->c->diag) != CLB_OK)
        return s->c->diag.err;
    *rate = best;
    return CLB_OK;
}

/* One configuration that does not build or launch (a compiler limit, out of resources)
 * is a point that did not run, not a failed row; other errors still end the row. */
static clb_error skip_point(cstate *s, point *p)
{
    clb_diag *d = &s->c->diag;
    if (d->err != CLB_ERR_BUILD && d->err != CLB_ERR_CL && d->err != CLB_ERR_INVALID_RESULT)
        return d->err;
    p->failed = d->err == CLB_ERR_INVALID_RESULT; /* recorded, never a finalist */
    clb_diag_format(d, p->error, sizeof p->error);
    clb_diag_clear(d);
    cJSON_DeleteItemFromObjectCaseSensitive(s->c->res->params, "build_log");
    release_kernel(s);
    p->rate = NAN;
    s->npts++;
    return CLB_OK;
}

static clb_error add_point(cstate *s, const cm_config *cfg, int stage)
{
    for (size_t i = 0; i < s->npts; i++)
        if (same_config(&s->pts[i].cfg, cfg))
            return CLB_OK; /* screened already */
    if (s->npts == MAX_POINTS)
        return CLB_OK;
    point *p = &s->pts[s->npts];
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    p->stage = stage;
    p->rate = NAN;
    if (build_config(s, cfg) != CLB_OK)
        return skip_point(s, p);
    /* A kernel that allows fewer work-items per group (registers) runs at the largest
     * power of two it allows; the point records the size that ran. */
    while (p->cfg.wg > s->kernel_wg && p->cfg.wg > 1)
        p->cfg.wg /= 2;
    for (size_t i = 0; i < s->npts; i++)
        if (same_config(&s->pts[i].cfg, &p->cfg))
            return CLB_OK;
    if (screen(s, &p->cfg, &p->rate) != CLB_OK)
        return skip_point(s, p);
    s->npts++;
    return CLB_OK;
}

/* ---- the search ---- */

static unsigned native_width(const cstate *s)
{
    cl_device_info q = s->row.type == CM_FP64   ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE
                       : s->row.type == CM_FP16 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF
                       : cm_is_int(s->row.type) ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
                                                : CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT;
    cl_uint w = 1;
    clGetDeviceInfo(clb_device_reference(s->c->dev)->device, q, sizeof w, &w, NULL);
    unsigned p = 1;
    while (p * 2 <= w && p < CM_MAX_WIDTH)
        p *= 2;
    return p > 1 ? p : 4;
}

static cm_shape first_shape(cm_row r)
{
    return cm_shape_valid(r, CM_REG, 2) ? CM_REG : CM_PINGPONG;
}

/* Indices of the best k points by screened rate (k <= 2). */
static size_t best_points(const cstate *s, size_t *idx, size_t k)
{
    double rates[MAX_POINTS];
    for (size_t i = 0; i < s->npts; i++)
        rates[i] = s->pts[i].rate;
    return cm_top_k(rates, s->npts, idx, k);
}

static clb_error stage1(cstate *s, size_t wg)
{
    static const unsigned widths_full[] = {1, 2, 4, 8, 16}, chains_full[] = {1, 2, 4, 8, 16};
    unsigned widths_q[2] = {1, native_width(s)}, chains_q[2] = {1, 8};
    const int quick = s->c->opts->quick;
    const unsigned *ws = quick ? widths_q : widths_full, *cs = quick ? chains_q : chains_full;
    size_t nw = quick ? 2 : 5, nc = quick ? 2 : 5;
    cm_shape sh = first_shape(s->row);
    for (size_t i = 0; i < nw; i++)
        for (size_t j = 0; j < nc && cm_width_valid(s->row, ws[i]); j++) {
            unsigned ch = cs[j] == 1 && sh == CM_PINGPONG ? 2 : cs[j];
            if (quick && i == 1 && j == 0)
                continue; /* quick: (1,1), (1,8), (native,8); the likely winner last */
            cm_config cfg = {ws[i], ch, sh, wg};
            if (add_point(s, &cfg, 1) != CLB_OK)
                return s->c->diag.err;
        }
    return CLB_OK;
}

/* Chain counts between the powers of two around the best point (8 -> 6 and 12): the
 * latency x units product of an FMA pipe is rarely a power of two. */
static clb_error refine_chains(cstate *s, cm_config best)
{
    unsigned around[2] = {best.chains - best.chains / 4, best.chains + best.chains / 2};
    for (int i = 0; i < 2; i++) {
        cm_config cfg = best;
        cfg.chains = around[i];
        if (cfg.chains >= 1 && cfg.chains <= CM_MAX_CHAINS && cfg.chains != best.chains &&
            cm_shape_valid(s->row, cfg.shape, cfg.chains) && add_point(s, &cfg, 2) != CLB_OK)
            return s->c->diag.err;
    }
    return CLB_OK;
}

static clb_error stage2(cstate *s, size_t dev_wg)
{
    static const size_t wgs[] = {32, 64, 128, 256, 512, 1024};
    size_t top[2], n = best_points(s, top, 2);
    point seed[2];
    for (size_t i = 0; i < n; i++)
        seed[i] = s->pts[top[i]];
    for (size_t i = 0; i < n; i++)
        for (int sh = CM_REG; sh <= CM_PINGPONG; sh++) {
            cm_config cfg = seed[i].cfg;
            cfg.shape = (cm_shape)sh;
            if (cm_shape_valid(s->row, cfg.shape, cfg.chains) && add_point(s, &cfg, 2) != CLB_OK)
                return s->c->diag.err;
        }
    if (best_points(s, top, 1) == 0)
        return CLB_OK;
    if (refine_chains(s, s->pts[top[0]].cfg) != CLB_OK || best_points(s, top, 1) == 0)
        return s->c->diag.err;
    cm_config best = s->pts[top[0]].cfg;
    for (size_t i = 0; i < sizeof wgs / sizeof wgs[0]; i++) {
        cm_config cfg = best;
        cfg.wg = wgs[i];
        if (wgs[i] <= dev_wg && s->global % wgs[i] == 0 && add_point(s, &cfg, 2) != CLB_OK)
            return s->c->diag.err;
    }
    return CLB_OK;
}

/* ---- results ---- */

static cJSON *point_json(const point *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "width", p->cfg.width);
    cJSON_AddNumberToObject(o, "chains", p->cfg.chains);
    cJSON_AddStringToObject(o, "shape", cm_shape_name(p->cfg.shape));
    cJSON_AddNumberToObject(o, "wg", (double)p->cfg.wg);
    cJSON_AddNumberToObject(o, "stage", p->stage);
    clb_json_number(o, "screen_rate", p->rate);
    if (p->error[0])
        cJSON_AddStringToObject(o, p->failed ? "failed" : "error", p->error);
    return o;
}

/* params.search (every screened point) and params.curves (rate vs chains per width). */
static void record_search(cstate *s, const char *unit)
{
    cJSON *p = s->c->res->params, *table = cJSON_CreateArray(), *curves = cJSON_CreateArray();
    for (size_t i = 0; i < s->npts; i++)
        cJSON_AddItemToArray(table, point_json(&s->pts[i]));
    for (unsigned w = 1; w <= CM_MAX_WIDTH; w *= 2) {
        cJSON *pts = cJSON_CreateArray(), *cv;
        for (size_t i = 0; i < s->npts; i++)
            if (s->pts[i].stage == 1 && s->pts[i].cfg.width == w && s->pts[i].rate > 0) {
                cJSON *xy = cJSON_CreateArray();
                cJSON_AddItemToArray(xy, cJSON_CreateNumber(s->pts[i].cfg.chains));
                cJSON_AddItemToArray(xy, cJSON_CreateNumber(s->pts[i].rate));
                cJSON_AddItemToArray(pts, xy);
            }
        if (cJSON_GetArraySize(pts) == 0) {
            cJSON_Delete(pts);
            continue;
        }
        char label[32];
        snprintf(label, sizeof label, "width %u", w);
        cv = cJSON_CreateObject();
        cJSON_AddStringToObject(cv, "label", label);
        cJSON_AddStringToObject(cv, "x_name", "independent chains per work-item");
        cJSON_AddStringToObject(cv, "x_unit", "chains");
        cJSON_AddStringToObject(cv, "y_name", "screened rate");
        cJSON_AddStringToObject(cv, "y_unit", unit);
        cJSON_AddBoolToObject(cv, "x_log", 1);
        cJSON_AddItemToObject(cv, "points", pts);
        cJSON_AddItemToArray(curves, cv);
    }
    cJSON_AddItemToObject(p, "search", table);
    cJSON_AddItemToObject(p, "curves", curves);
}

static void record_config(clb_result *res, const cstate *s)
{
    clb_param_str(res, "precision", cm_type_name(s->row.type));
    clb_param_str(res, "operation", cm_op_name(s->row.op));
    clb_param_num(res, "width", s->cfg.width);
    clb_param_num(res, "chains", s->cfg.chains);
    clb_param_str(res, "shape", cm_shape_name(s->cfg.shape));
    clb_param_num(res, "work_group_size", (double)s->cfg.wg);
    clb_param_num(res, "global_work_size", (double)s->global);
    clb_param_num(res, "unroll", CM_UNROLL);
    clb_param_num(res, "ops_per_op", cm_op_weight(s->row.op));
    clb_param_num(res, "ops_per_iteration_per_lane", cm_ops_per_iter_lane(s->row.op, s->cfg.chains));
    clb_param_num(res, "iterations", (double)s->iters);
    clb_param_str(res, "build_options", build_options(s));
}

/* Theoretical peak; the runner's physical-limit guard (lib/judge/limits.c) checks the value against
 * it and adds params.limit and params.efficiency. */
static clb_error check_peak(cstate *s, clb_result *res)
{
    char how[768];
    double slack = 1.03;
    unsigned prec = s->row.type == CM_FP32 ? 32 : s->row.type == CM_FP64 ? 64 : 0;
    double peak = clb_devdb_peak(s->c->dev, prec, cm_op_weight(s->row.op), how, sizeof how, &slack);
    clb_param_num(res, "theoretical_peak", peak);
    clb_param_str(res, "theoretical_peak_how", how);
    return CLB_OK;
}

/* "% of native peak" for CPU devices when clb_settings.native_peak names tools/native_peak's JSON. */
static void native_ratio(cstate *s, clb_result *res)
{
    const char *path = clb_settings_get()->native_peak;
    const char *key = s->row.type == CM_FP32 ? "fp32_gflops" : s->row.type == CM_FP64 ? "fp64_gflops" : NULL;
    if (!path || !key || !(clb_device_reference(s->c->dev)->type & CL_DEVICE_TYPE_CPU))
        return;
    FILE *f = fopen(path, "r");
    char buf[8192];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    if (cJSON_IsNumber(v) && v->valuedouble > 0) {
        clb_param_num(res, "native_peak", v->valuedouble);
        clb_param_num(res, "percent_of_native_peak", 100 * res->value / v->valuedouble);
    }
    cJSON_Delete(j);
}

/* ---- setup ---- */

static clb_error setup(cstate *s, size_t *dev_wg)
{
    clb_diag *d = &s->c->diag;
    cl_device_id id = clb_device_reference(s->c->dev)->device;
    cl_context ctx = clb_device_context(s->c->dev);
    cl_uint cus = 1;
    void *host = NULL;
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)s->row.type << 8 ^ (uint64_t)s->row.op;
    CLB_CL(d, clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
    CLB_CL(d, clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof *dev_wg, dev_wg, NULL));
    /* 2048 work-items per compute unit fill a GPU SM; a multiple of 1024 divides every
     * work-group size the search tries. */
    s->global = ((size_t)cus * 2048 + 1023) / 1024 * 1024;
    size_t es = cm_elem_bytes(s->row.type);
    s->inputs = malloc(INPUT_CLASSES * sizeof *s->inputs);
    host = malloc(s->global * 4 * es);
    if (!s->inputs || !host)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    cm_gen_args(s->row, &rng, &s->args);
    for (size_t i = 0; i < INPUT_CLASSES; i++)
        cm_gen_inputs(s->row, &rng, &s->inputs[i]);
    for (size_t i = 0; i < s->global; i++)
        for (int k = 0; k < 4; k++)
            cm_store_input(s->row.type, host, 4 * i + (size_t)k, &s->inputs[i % INPUT_CLASSES], k);
    CLB_CL(d, s->in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->global * 4 * es,
                                     host, CLB_ERRP));
    CLB_CL(d, s->out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, s->global * CM_MAX_WIDTH * es, NULL,
                                      CLB_ERRP));
cleanup:
    free(host);
    return d->err;
}

static void teardown(cstate *s)
{
    release_kernel(s);
    clb_release_mem(s->in);
    clb_release_mem(s->out);
    free(s->inputs);
}

/* ---- the final measurement ---- */

/* Moves the measured samples and timing params of tmp into res. */
static clb_error adopt(clb_result *res, clb_result *tmp)
{
    clb_error e = clb_result_set_samples(res, tmp->samples, tmp->nsamples, tmp->unit,
                                         tmp->higher_is_better, tmp->timer);
    cJSON *it;
    cJSON_ArrayForEach(it, tmp->params)
    {
        cJSON_DeleteItemFromObjectCaseSensitive(res->params, it->string);
        cJSON_AddItemToObject(res->params, it->string, cJSON_Duplicate(it, 1));
    }
    return e;
}

/* With clb_settings.dump_dir set, writes the program binary of a measured configuration there
 * (NVIDIA: PTX; PoCL: its bitcode), the evidence of what the compiler made of the kernel. */
static void dump_binary(const cstate *s, const cm_config *cfg)
{
    char file[256], path[1024];
    snprintf(file, sizeof file, "%s.w%u.c%u.%s", s->c->bench->name, cfg->width, cfg->chains,
             cm_shape_name(cfg->shape));
    clb_dump_program_binary(s->prog, file, path, sizeof path);
}

static clb_error measure_config(cstate *s, const cm_config *cfg, clb_result *tmp)
{
    const char *unit = cm_is_int(s->row.type) ? "GIOP/s" : "GFLOP/s";
    clb_workload w = {.state = s, .enqueue = enqueue, .work = work, .min_scale = 1,
                      .max_scale = 1u << 24, .output = s->out,
                      .output_bytes = s->global * cfg->width * cm_elem_bytes(s->row.type),
                      .unit_factor = 1e-9, .unit = unit};
    clb_result *saved = s->c->res;
    if (build_config(s, cfg) != CLB_OK)
        return s->c->diag.err;
    s->cfg.wg = cfg->wg;
    s->c->res = tmp;
    dump_binary(s, cfg);
    clb_error e = clb_measure(s->c, &w);
    s->c->res = saved;
    if (e == CLB_OK)
        record_config(tmp, s);
    return e;
}

static clb_error final_measure(cstate *s, clb_result *res)
{
    size_t top[2], n = best_points(s, top, s->c->opts->quick ? 1 : 2);
    clb_result tmp[2];
    size_t ok = 0, best = 0;
    for (size_t i = 0; n == 0 && i < s->npts; i++)
        if (s->pts[i].failed)
            return clb_diag_set(&s->c->diag, CLB_ERR_INVALID_RESULT,
                                "every configuration failed validation or did not run: %s",
                                s->pts[i].error);
    if (n == 0)
        return clb_diag_set(&s->c->diag, CLB_ERR_BUILD, "no configuration ran; the first: %s",
                            s->npts ? s->pts[0].error : "none tried");
    for (size_t i = 0; i < 2; i++)
        clb_result_init(&tmp[i], res->name, res->group);
    for (size_t i = 0; i < n; i++) {
        if (measure_config(s, &s->pts[top[i]].cfg, &tmp[i]) != CLB_OK)
            break;
        ok++;
        best = tmp[i].value > tmp[best].value ? i : best;
    }
    /* Every candidate was validated inside clb_measure; one failure fails the row. */
    clb_error e = ok == n ? adopt(res, &tmp[best]) : s->c->diag.err;
    for (size_t i = 0; i < 2; i++)
        clb_result_free(&tmp[i]);
    return e;
}

clb_error clb_compute_run(clb_ctx *c, clb_result *res)
{
    cstate s = {.c = c, .row = *(const cm_row *)c->bench->arg};
    size_t dev_wg = 256;
    if (s.row.op == CM_DOT4 && !clb_device_has_extension(c->dev, "cl_khr_integer_dot_product"))
        return clb_diag_set(&c->diag, CLB_ERR_UNSUPPORTED,
                            "the device has no packed 8-bit dot product (no cl_khr_integer_dot_product)");
    if (setup(&s, &dev_wg) != CLB_OK)
        goto cleanup;
    size_t wg = dev_wg < 256 ? dev_wg : 256;
    if (stage1(&s, wg) != CLB_OK || (!c->opts->quick && stage2(&s, dev_wg) != CLB_OK))
        goto cleanup;
    if (!res->params)
        res->params = cJSON_CreateObject();
    record_search(&s, cm_is_int(s.row.type) ? "GIOP/s" : "GFLOP/s");
    if (final_measure(&s, res) != CLB_OK)
        goto cleanup;
    if (check_peak(&s, res) != CLB_OK)
        goto cleanup;
    native_ratio(&s, res);
cleanup:
    teardown(&s);
    return c->diag.err;
}

clb_error clb_compute_validate(clb_ctx *c, void *state, clb_diag *d)
{
    cstate *s = state;
    size_t es = cm_elem_bytes(s->row.type), bytes = s->global * s->cfg.width * es;
    void *host = malloc(bytes);
    double ref[INPUT_CLASSES][CM_MAX_WIDTH], tol[INPUT_CLASSES];
    (void)c;
    if (!host)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(clb_device_queue(s->c->dev), s->out, CL_TRUE, 0, bytes, host, 0,
                                  NULL, NULL));
    for (size_t k = 0; k < INPUT_CLASSES; k++) {
        double maxabs = 0;
        cm_reference(s->row, &s->cfg, &s->inputs[k], &s->args, s->iters, ref[k], &maxabs);
        tol[k] = cm_tolerance(s->row, &s->cfg, maxabs);
    }
    /* every work-item, every lane: a skipped item keeps the poison (a NaN) */
    for (size_t gid = 0; gid < s->global; gid++)
        for (unsigned l = 0; l < s->cfg.width; l++) {
            size_t k = gid % INPUT_CLASSES;
            double got = cm_load_output(s->row.type, host, gid * s->cfg.width + l);
            if (!(fabs(got - ref[k][l]) <= tol[k]))
                CLB_FAIL(d, CLB_ERR_INVALID_RESULT,
                         "work-item %zu lane %u: kernel %.17g, host reference %.17g (bound %.3g; "
                         "%u iterations)",
                         gid, l, got, ref[k][l], tol[k], (unsigned)s->iters);
        }
cleanup:
    free(host);
    return d->err;
}

/* The compute group's registry rows (listed in lib/core/groups.h); arg: a cm_row. */
static const cm_row cm_fp32_add = {CM_FP32, CM_ADD}, cm_fp32_mul = {CM_FP32, CM_MUL},
                    cm_fp32_mad = {CM_FP32, CM_MAD}, cm_fp32_fma = {CM_FP32, CM_FMA},
                    cm_fp32_madfn = {CM_FP32, CM_MADFN}, cm_fp64_add = {CM_FP64, CM_ADD},
                    cm_fp64_mul = {CM_FP64, CM_MUL}, cm_fp64_mad = {CM_FP64, CM_MAD},
                    cm_fp64_fma = {CM_FP64, CM_FMA}, cm_fp16_add = {CM_FP16, CM_ADD},
                    cm_fp16_mul = {CM_FP16, CM_MUL}, cm_fp16_fma = {CM_FP16, CM_FMA},
                    cm_int32_add = {CM_INT32, CM_ADD}, cm_int32_mul = {CM_INT32, CM_MUL},
                    cm_int32_mad = {CM_INT32, CM_MAD}, cm_int24_mad = {CM_INT24, CM_MAD24},
                    cm_int8_dot4 = {CM_INT32, CM_DOT4}, cm_int24_mul = {CM_INT24, CM_MUL24};

const clb_bench clb_compute_rows[] = {
#define CLB_COMPUTE_ROW(n, req, desc, arg) \
    {"compute." n, "compute", desc, CLB_REQ_COMPILER | (req), clb_compute_run, clb_compute_validate, &(arg)}
    CLB_COMPUTE_ROW("fp32.add", 0, "FP32 add peak, best searched configuration (GFLOP/s)", cm_fp32_add),
    CLB_COMPUTE_ROW("fp32.mul", 0, "FP32 mul peak (GFLOP/s)", cm_fp32_mul),
    CLB_COMPUTE_ROW("fp32.mad", 0, "FP32 a*b+c with -cl-mad-enable, 2 flops (GFLOP/s)", cm_fp32_mad),
    CLB_COMPUTE_ROW("fp32.fma", 0, "FP32 fma(), 2 flops (GFLOP/s)", cm_fp32_fma),
    CLB_COMPUTE_ROW("fp32.mad_builtin", 0, "FP32 mad() builtin, 2 flops (GFLOP/s)", cm_fp32_madfn),
    CLB_COMPUTE_ROW("fp64.add", CLB_REQ_FP64, "FP64 add peak (GFLOP/s)", cm_fp64_add),
    CLB_COMPUTE_ROW("fp64.mul", CLB_REQ_FP64, "FP64 mul peak (GFLOP/s)", cm_fp64_mul),
    CLB_COMPUTE_ROW("fp64.mad", CLB_REQ_FP64, "FP64 a*b+c with -cl-mad-enable (GFLOP/s)", cm_fp64_mad),
    CLB_COMPUTE_ROW("fp64.fma", CLB_REQ_FP64, "FP64 fma(), 2 flops (GFLOP/s)", cm_fp64_fma),
    CLB_COMPUTE_ROW("fp16.add", CLB_REQ_FP16, "FP16 add peak, cl_khr_fp16 (GFLOP/s)", cm_fp16_add),
    CLB_COMPUTE_ROW("fp16.mul", CLB_REQ_FP16, "FP16 mul peak, cl_khr_fp16 (GFLOP/s)", cm_fp16_mul),
    CLB_COMPUTE_ROW("fp16.fma", CLB_REQ_FP16, "FP16 fma(), cl_khr_fp16 (GFLOP/s)", cm_fp16_fma),
    CLB_COMPUTE_ROW("int32.add", 0, "uint32 add/xor pingpong (GIOP/s)", cm_int32_add),
    CLB_COMPUTE_ROW("int32.mul", 0, "uint32 mul pingpong (GIOP/s)", cm_int32_mul),
    CLB_COMPUTE_ROW("int32.mad", 0, "uint32 x*a+b, 2 ops (GIOP/s)", cm_int32_mad),
    CLB_COMPUTE_ROW("int24.mad24", 0, "mad24(), 2 ops (GIOP/s)", cm_int24_mad),
    CLB_COMPUTE_ROW("int24.mul24", 0, "mul24() pingpong (GIOP/s)", cm_int24_mul),
    CLB_COMPUTE_ROW("int8.dot4", 0, "packed 8-bit dot product + accumulate, cl_khr_integer_dot_product, 8 ops (GIOP/s)", cm_int8_dot4),
#undef CLB_COMPUTE_ROW
};
const size_t clb_compute_row_count = sizeof clb_compute_rows / sizeof clb_compute_rows[0];
