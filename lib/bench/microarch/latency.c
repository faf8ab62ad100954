/* latency.*: time per dependent operation (lib/bench/microarch/latency.cl), with one work-item and with
 * one full SIMD group, in ns and in cycles at the measured clock (lib/device/clock.c); and the seed's
 * dependency-distance sweep (000 §4.3.5) with a two-line knee fit. */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FMAs per chain per loop iteration of the distance kernels (DUNROLL). The chain steps per
 * iteration (UNROLL) are per op: 64 for the cheap ones, so the loop's counter and branch cost
 * little per step; 16 for the expensive ones, whose inlined library code would otherwise
 * make the build slow (and whose latency hides the loop anyway). */
#define DIST_UNROLL 16
/* Input classes of the chains: lane i starts from lane i % LAT_CLASSES's value, so the host
 * computes LAT_CLASSES chains and checks every lane. */
#define LAT_CLASSES 3

/* One operation: its chain step in OpenCL C, and the host's recomputation. Integer chains
 * are second-order recurrences (x from y, y from x): a plain x = x * a chain is folded by
 * reassociation (a^16 computed once), and x = x + a by induction-variable simplification. */
typedef enum { F_ADD, F_MUL, F_FMA, D_FMA, I_ADD, I_MUL, F_DIV, F_SQRT, F_EXP } op_kind;

typedef struct op_def {
    const char *name;
    op_kind kind;
    const char *type, *step;
    double ops_per_step; /* Fibonacci int add: two dependent adds per step */
    double tol;          /* relative bound of the host comparison; 0: exact */
    const char *glue;    /* what else the step contains, for the reader */
    int unroll;          /* chain steps per loop iteration */
} op_def;

static const op_def ops[] = {
    {"fp32_add", F_ADD, "float", "x = x + a", 1, 0, "none", 64},
    {"fp32_mul", F_MUL, "float", "x = x * a", 1, 0, "none", 64},
    {"fp32_fma", F_FMA, "float", "x = fma(x, a, b)", 1, 0, "none", 64},
    {"fp64_fma", D_FMA, "double", "x = fma(x, a, b)", 1, 0, "none", 64},
    {"int32_add", I_ADD, "uint", "x = x + y; y = y + x", 2, 0, "none (two dependent adds)", 64},
    {"int32_mul", I_MUL, "uint", "x = x * y; y = y * x", 2, 0, "none (two dependent multiplies)", 64},
    {"fp32_div", F_DIV, "float", "x = a / x + b", 1, 1e-4, "one fp32 add", 16},
    {"fp32_native_divide", F_DIV, "float", "x = native_divide(a, x) + b", 1, 1e-2, "one fp32 add", 16},
    {"fp32_sqrt", F_SQRT, "float", "x = sqrt(x) + a", 1, 1e-4, "one fp32 add", 16},
    {"fp32_native_sqrt", F_SQRT, "float", "x = native_sqrt(x) + a", 1, 1e-2, "one fp32 add", 16},
    {"fp32_exp", F_EXP, "float", "x = exp(-x)", 1, 1e-4, "a negation", 16},
    {"fp32_native_exp", F_EXP, "float", "x = native_exp(-x)", 1, 1e-2, "a negation", 16},
};

typedef struct lat_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem in, out;
    const op_def *op;
    size_t gsz;
    cl_int iters;
    uint64_t hin[64]; /* inputs of the lanes (bit patterns widened) */
    double a, b;
    /* distance sweep */
    int dist;
    cl_int dist_iters;
    size_t dist_d;
    float fa, fb, fin0;
} lat_state;

static const op_def *op_named(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* The host's chain from x for n steps, in the op's own precision. */
static double host_chain(const op_def *op, double x0, double a, double b, uint64_t n)
{
    float x = (float)x0, fa = (float)a, fb = (float)b;
    double dx = x0;
    uint32_t u = (uint32_t)x0, y = (uint32_t)b;
    if (op->kind == F_FMA)
        return clb_ua_fma_chain(x, fa, fb, n);
    for (uint64_t i = 0; i < n; i++) {
        switch (op->kind) {
        case F_ADD: x = x + fa; break;
        case F_MUL: x = x * fa; break;
        case D_FMA: dx = fma(dx, a, b); break;
        case I_ADD: u = u + y; y = y + u; break;
        case I_MUL: u = u * y; y = y * u; break;
        case F_DIV: x = (float)((double)fa / x) + fb; break;
        case F_SQRT: x = (float)sqrt(x) + fa; break;
        case F_EXP: x = (float)exp(-(double)x); break;
        default: break;
        }
    }
    return op->kind == D_FMA ? dx : (op->kind == I_ADD || op->kind == I_MUL) ? (double)u : (double)x;
}

static clb_error lat_enqueue(void *st, uint64_t scale, cl_event *ev, clb_diag *d)
{
    lat_state *s = st;
    s->iters = (cl_int)scale;
    CLB_CL(d, clSetKernelArg(s->k, 4, sizeof s->iters, &s->iters));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &s->gsz, &s->gsz, 0, NULL, ev));
cleanup:
    return d->err;
}

/* Work of one launch: dependent operations along one lane's chain. */
static double lat_work(const void *st, uint64_t scale)
{
    const lat_state *s = st;
    return s->op->unroll * s->op->ops_per_step * (double)scale;
}

static size_t elem_size(const op_def *op)
{
    return op->kind == D_FMA ? sizeof(double) : sizeof(float);
}

/* Random lane inputs in the op's domain, and the constants a, b. */
static clb_error lat_inputs(clb_ctx *c, lat_state *s)
{
    clb_diag *d = &c->diag;
    uint64_t st = 0x1A7E5C0DEull;
    unsigned char buf[64 * sizeof(double)];
    for (size_t i = 0; i < 64; i++) {
        double r = 1.0 + (double)(clb_rand64(&st) >> 11) * 0x1p-53; /* [1, 2) */
        /* odd: products of odd numbers stay odd, never collapse to 0 */
        uint32_t u = (uint32_t)clb_rand64(&st) | (s->op->kind == I_MUL);
        float f = (float)r;
        s->hin[i] = s->op->kind == I_ADD || s->op->kind == I_MUL ? u : 0;
        if (s->op->kind == D_FMA)
            memcpy(buf + i * sizeof r, &r, sizeof r);
        else if (s->op->kind == I_ADD || s->op->kind == I_MUL)
            memcpy(buf + i * sizeof u, &u, sizeof u);
        else
            memcpy(buf + i * sizeof f, &f, sizeof f);
        if (!s->hin[i])
            memcpy(&s->hin[i], s->op->kind == D_FMA ? (void *)&r : (void *)&f,
                   s->op->kind == D_FMA ? sizeof r : sizeof f);
    }
    /* lane i a copy of lane i % LAT_CLASSES: op_validate checks every lane */
    for (size_t i = LAT_CLASSES, es = elem_size(s->op); i < 64; i++) {
        s->hin[i] = s->hin[i % LAT_CLASSES];
        memcpy(buf + i * es, buf + i % LAT_CLASSES * es, es);
    }
    /* a just below 1 keeps products and sums finite; fma contracts to a fixed point. */
    s->a = s->op->kind == F_MUL ? 1.0 - 0x1p-24 : s->op->kind == I_MUL ? (double)((uint32_t)clb_rand64(&st) | 1u)
         : s->op->kind == F_ADD ? 1e-3 : 0.5 + 0.4 * (double)(clb_rand64(&st) >> 11) * 0x1p-53;
    s->b = s->op->kind == I_ADD || s->op->kind == I_MUL ? (double)((uint32_t)clb_rand64(&st) | 1u) : 0.1 + 0.5 * (double)(clb_rand64(&st) >> 11) * 0x1p-53;
    CLB_CL(d, s->in = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     64 * elem_size(s->op), buf, CLB_ERRP));
cleanup:
    return d->err;
}

static double lane_input(const lat_state *s, size_t i)
{
    if (s->op->kind == I_ADD || s->op->kind == I_MUL)
        return (double)s->hin[i];
    if (s->op->kind == D_FMA) {
        double r;
        memcpy(&r, &s->hin[i], sizeof r);
        return r;
    }
    float f;
    memcpy(&f, &s->hin[i], sizeof f);
    return f;
}

static clb_error set_scalar(clb_ctx *c, cl_kernel k, cl_uint i, const op_def *op, double v)
{
    clb_diag *d = &c->diag;
    float f = (float)v;
    cl_uint u = (cl_uint)v;
    if (op->kind == D_FMA)
        CLB_CL(d, clSetKernelArg(k, i, sizeof v, &v));
    else if (op->kind == I_ADD || op->kind == I_MUL)
        CLB_CL(d, clSetKernelArg(k, i, sizeof u, &u));
    else
        CLB_CL(d, clSetKernelArg(k, i, sizeof f, &f));
cleanup:
    return d->err;
}

/* One measurement at gsz lanes (one work-group); returns ns per dependent op. */
static clb_error measure_lanes(clb_ctx *c, lat_state *s, size_t lanes, double *ns)
{
    clb_workload w = {.state = s, .enqueue = lat_enqueue, .work = lat_work,
                      .min_scale = c->opts->quick ? 512 : 64, .max_scale = 1u << 24,
                      .output = s->out, .output_bytes = lanes * elem_size(s->op),
                      .unit_factor = 1e9, .unit = "ns", .per_work_time = 1};
    s->gsz = lanes;
    if (clb_measure(c, &w) != CLB_OK)
        return c->diag.err;
    *ns = c->res->value;
    return CLB_OK;
}

static clb_error run_op(clb_ctx *c, clb_result *res, lat_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    size_t mult = 1, maxwg = 1;
    double group_ns = NAN, ns = NAN, mhz = 0;
    CLB_CL(d, s->k = clCreateKernel(prog, "chain", CLB_ERRP));
    CLB_CL(d, s->out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE,
                                      64 * elem_size(s->op), NULL, CLB_ERRP));
    if (lat_inputs(c, s) != CLB_OK || clb_ua_kernel_sizes(c, s->k, &mult, &maxwg) != CLB_OK)
        goto cleanup;
    mult = mult > 64 ? 64 : mult > maxwg ? maxwg : mult;
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    if (set_scalar(c, s->k, 2, s->op, s->a) != CLB_OK || set_scalar(c, s->k, 3, s->op, s->b) != CLB_OK)
        goto cleanup;
    /* The SIMD group first; the single work-item last, so its samples are the result's. */
    if (measure_lanes(c, s, mult, &group_ns) != CLB_OK || measure_lanes(c, s, 1, &ns) != CLB_OK)
        goto cleanup;
    mhz = clb_ua_clock_mhz(c); /* right after the timed launches: the clock they ran at */
    clb_param_str(res, "chain_step", s->op->step);
    clb_param_str(res, "glue_in_step", s->op->glue);
    clb_param_num(res, "ops_per_step", s->op->ops_per_step);
    clb_param_num(res, "steps_per_loop_iteration", s->op->unroll);
    clb_param_num(res, "cycles", mhz > 0 ? ns * mhz * 1e-3 : NAN);
    clb_param_num(res, "simd_group_lanes", (double)mult);
    clb_param_num(res, "simd_group_ns", group_ns);
    clb_param_num(res, "simd_group_cycles", mhz > 0 ? group_ns * mhz * 1e-3 : NAN);
    clb_param_num(res, "validation_rel_tol", s->op->tol);
cleanup:
    return d->err;
}

static clb_error op_validate(lat_state *s, clb_diag *d)
{
    unsigned char buf[64 * sizeof(double)];
    size_t es = elem_size(s->op);
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, s->gsz * es, buf, 0, NULL, NULL));
    double ref[LAT_CLASSES];
    for (size_t k = 0; k < LAT_CLASSES && k < s->gsz; k++)
        ref[k] = host_chain(s->op, lane_input(s, k), s->a, s->b, (uint64_t)s->op->unroll * (uint64_t)s->iters);
    for (size_t i = 0; i < s->gsz; i++) { /* every lane */
        double want = ref[i % LAT_CLASSES], got;
        float f;
        cl_uint u;
        if (es == sizeof(double))
            memcpy(&got, buf + i * es, sizeof got);
        else if (s->op->kind == I_ADD || s->op->kind == I_MUL)
            memcpy(&u, buf + i * es, sizeof u), got = u;
        else
            memcpy(&f, buf + i * es, sizeof f), got = f;
        double tol = s->op->tol > 0 ? s->op->tol : (es == sizeof(double) ? 1e-12 : 1e-6);
        if (s->op->kind == I_ADD || s->op->kind == I_MUL)
            tol = 0;
        if (!(fabs(got - want) <= tol * fmax(1.0, fabs(want))))
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "lane %zu after %d iterations: %.17g, host %.17g",
                     i, s->iters, got, want);
    }
cleanup:
    return d->err;
}

/* ---- dependency distance sweep ---- */

static clb_error dist_point(clb_ctx *c, lat_state *s, cl_program prog, size_t dd, cl_int total,
                            double *gops)
{
    clb_diag *d = &c->diag;
    char name[32];
    cl_kernel k = NULL;
    double t = 0;
    cl_int iters = total / (cl_int)(DIST_UNROLL * dd) > 0 ? total / (cl_int)(DIST_UNROLL * dd) : 1;
    snprintf(name, sizeof name, "dist_%zu", dd);
    CLB_CL(d, k = clCreateKernel(prog, name, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(k, 2, sizeof s->fa, &s->fa));
    CLB_CL(d, clSetKernelArg(k, 3, sizeof s->fb, &s->fb));
    CLB_CL(d, clSetKernelArg(k, 4, sizeof iters, &iters));
    if (clb_ua_time(c, k, 1, 1, &t) != CLB_OK)
        goto cleanup;
    *gops = 1e-9 * DIST_UNROLL * (double)dd * iters / t;
    s->dist_d = dd;
    s->dist_iters = iters;
cleanup:
    clb_release_kernel(k);
    return d->err;
}

/* Total dependent FMAs per launch: calibrated at distance 1 (the slowest per operation). */
static clb_error dist_calibrate(clb_ctx *c, lat_state *s, cl_program prog, cl_int *total)
{
    double g = 0;
    *total = 1 << 17;
    if (dist_point(c, s, prog, 1, *total, &g) != CLB_OK || dist_point(c, s, prog, 1, *total, &g) != CLB_OK)
        return c->diag.err;
    while (!c->opts->quick && *total < (1 << 28) && 1e-9 * *total / g < 0.25 * c->opts->target_s) {
        *total *= 2;
        if (dist_point(c, s, prog, 1, *total, &g) != CLB_OK)
            return c->diag.err;
    }
    return CLB_OK;
}

static clb_error run_distance(clb_ctx *c, clb_result *res, lat_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    enum { ND = 32 };
    unsigned reps = clb_reps(c), n = 0, nk = 0;
    double x[ND], med[ND], col[1000], *y = NULL, *knees = NULL, mhz = 0;
    cl_int total = 0;
    float hin = 1.25f;
    reps = reps > 1000 ? 1000 : reps;
    s->dist = 1;
    s->fa = 0.875f, s->fb = 0.3f, s->fin0 = hin;
    CLB_CL(d, s->in = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     sizeof hin, &hin, CLB_ERRP));
    CLB_CL(d, s->out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, sizeof(float), NULL, CLB_ERRP));
    y = calloc((size_t)ND * reps, sizeof *y);
    knees = calloc(reps, sizeof *knees);
    if (!y || !knees)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (dist_calibrate(c, s, prog, &total) != CLB_OK)
        goto cleanup;
    for (size_t i = 0; i < ND; i++)
        x[i] = (double)(i + 1);
    for (n = 0; n < reps; n++) {
        clb_knee kf;
        for (size_t i = 0; i < ND; i++)
            if (dist_point(c, s, prog, i + 1, total, &y[n * ND + i]) != CLB_OK)
                goto cleanup;
        clb_knee_fit(x, &y[n * ND], ND, &kf);
        if (kf.found) /* sweeps without a knee add no sample (no sentinel) */
            knees[nk++] = kf.knee_x;
    }
    if (clb_validate(c, s, s->out, sizeof(float)) != CLB_OK)
        goto cleanup;
    for (size_t i = 0; i < ND; i++) {
        for (unsigned r = 0; r < n; r++)
            col[r] = y[r * ND + i];
        med[i] = clb_median(col, n);
    }
    mhz = clb_ua_clock_mhz(c);
    clb_knee km;
    clb_knee_fit(x, med, ND, &km);
    clb_ua_curve(res, NULL, "dependency distance", "operations", "throughput (one work-item)", "Gop/s", 0, x, med, ND);
    clb_param_num(res, "median_curve_knee", km.found ? km.knee_x : NAN);
    clb_param_num(res, "sweeps_with_knee", nk);
    clb_param_num(res, "sweeps", n);
    clb_param_num(res, "knee_sse_ratio", km.sse_one > 0 ? km.sse_two / km.sse_one : NAN);
    clb_param_num(res, "peak_gops", med[ND - 1]);
    clb_param_num(res, "latency_ns_at_distance_1", 1.0 / med[0]);
    clb_param_num(res, "latency_cycles_at_distance_1", mhz > 0 ? mhz * 1e-3 / med[0] : NAN);
    clb_param_num(res, "fma_per_launch", total);
    clb_param_str(res, "meaning", "operations in flight needed to saturate one work-item's FMA issue (pipeline depth x issue width)");
    /* A knee seen in fewer than half the sweeps is no finding: say so, with no number. */
    if (2 * nk < n || !km.found) {
        char why[256];
        snprintf(why, sizeof why, "no knee in distance 1..%d: found in %u of %u sweeps%s; throughput %.3g Gop/s at 1, %.3g at %d",
                 ND, nk, n, km.found ? "" : " and not in the median curve", med[0], med[ND - 1], ND);
        clb_result_fail(res, CLB_STATUS_INCONCLUSIVE, why);
    } else if (clb_result_set_samples(res, knees, nk, "operations", 1, "cl_event_profiling START->END per distance, two-line fit") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    free(y);
    free(knees);
    return d->err;
}

static clb_error dist_validate(lat_state *s, clb_diag *d)
{
    float got = 0, want = 0;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    for (size_t j = 0; j < s->dist_d; j++)
        want += clb_ua_fma_chain(s->fin0 + (float)j, s->fa, s->fb, (uint64_t)DIST_UNROLL * (uint64_t)s->dist_iters);
    if (!(fabsf(got - want) <= 1e-5f * fmaxf(1.0f, fabsf(want))))
        CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "distance %zu: sum %.9g, host %.9g", s->dist_d, got, want);
cleanup:
    return d->err;
}

clb_error clb_latency_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    lat_state s = {.q = clb_device_queue(c->dev)};
    cl_program prog = NULL;
    char prefix[256];
    int dist = strcmp(c->bench->arg, "distance") == 0;
    s.op = dist ? &ops[2] : op_named(c->bench->arg);
    if (!s.op)
        CLB_FAIL(d, CLB_ERR_USAGE, "unknown latency operation");
    snprintf(prefix, sizeof prefix, "%s#define T %s\n#define STEP(x) %s\n#define UNROLL %d\n#define DUNROLL %d\n%s",
             s.op->kind == D_FMA ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "",
             s.op->type, s.op->step, s.op->unroll, DIST_UNROLL, dist ? "#define WITH_DIST 1\n" : "");
    if (clb_build(c, "latency", prefix, NULL, &prog) != CLB_OK)
        goto cleanup;
    clb_ua_dump_binary(c, prog, c->bench->name);
    if (dist)
        run_distance(c, res, &s, prog);
    else
        run_op(c, res, &s, prog);
cleanup:
    clb_release_kernel(s.k);
    clb_release_mem(s.in);
    clb_release_mem(s.out);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_latency_validate(clb_ctx *c, void *state, clb_diag *d)
{
    lat_state *s = state;
    (void)c;
    return s->dist ? dist_validate(s, d) : op_validate(s, d);
}

/* The latency group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_latency_rows[] = {
    {"latency.fp32_add", "latency", "dependent fp32 add chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_add"},
    {"latency.fp32_mul", "latency", "dependent fp32 mul chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_mul"},
    {"latency.fp32_fma", "latency", "dependent fp32 fma chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_fma"},
    {"latency.fp64_fma", "latency", "dependent fp64 fma chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_FP64 | CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp64_fma"},
    {"latency.int32_add", "latency", "dependent int32 add chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "int32_add"},
    {"latency.int32_mul", "latency", "dependent int32 mul chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "int32_mul"},
    {"latency.fp32_div", "latency", "dependent fp32 div (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_div"},
    {"latency.fp32_native_divide", "latency", "dependent native_divide (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_divide"},
    {"latency.fp32_sqrt", "latency", "dependent sqrt (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_sqrt"},
    {"latency.fp32_native_sqrt", "latency", "dependent native_sqrt (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_sqrt"},
    {"latency.fp32_exp", "latency", "dependent exp chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_exp"},
    {"latency.fp32_native_exp", "latency", "dependent native_exp chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_exp"},
    {"latency.distance", "latency", "seed 000 4.3.5: fp32 fma dependency distance 1..32, two-line knee (operations in flight)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "distance"},
};
const size_t clb_latency_row_count = sizeof clb_latency_rows / sizeof clb_latency_rows[0];
