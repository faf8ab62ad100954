/* branch.*: the seed's branching cost (000 §4.3.4) and the divergence sweep that reveals the
 * SIMD or warp width (lib/bench/microarch/branch.cl). */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct branch_state {
    cl_command_queue q;
    cl_mem in, out, out2;
    float *hin;
    cl_int iters;
    /* divergence: the last launch */
    size_t gsz, lsz;
    cl_int block;
    float a, b;
    int divergence;
    int running_sum; /* branch.running_sum: the branch tests acc, not the loaded value */
    uint64_t rng; /* shuffles the order of B per pass */
} branch_state;

static void branch_release(branch_state *s, cl_program prog, cl_kernel k1, cl_kernel k2)
{
    clb_release_mem(s->in);
    clb_release_mem(s->out);
    clb_release_mem(s->out2);
    free(s->hin);
    clb_release_kernel(k1);
    clb_release_kernel(k2);
    clb_release_program(prog);
}

static clb_error set_seed_args(clb_ctx *c, cl_kernel k, cl_mem in, cl_mem out)
{
    clb_diag *d = &c->diag;
    CLB_CL(d, clSetKernelArg(k, 0, sizeof in, &in));
    CLB_CL(d, clSetKernelArg(k, 1, sizeof out, &out));
cleanup:
    return d->err;
}

/* The seed: one work-item in a work-group of one; the ratio of the branching kernel's time
 * to the straight one's, one sample per repetition. */
static clb_error run_seed(clb_ctx *c, clb_result *res, branch_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    cl_kernel kb = NULL, ks = NULL;
    unsigned reps = clb_reps(c), n = 0;
    double *ratio = calloc(reps, sizeof *ratio), tb = 0, ts = 0;
    if (!ratio)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, kb = clCreateKernel(prog, s->running_sum ? "branch_running_sum" : "branch_seed", CLB_ERRP));
    CLB_CL(d, ks = clCreateKernel(prog, "straight_seed", CLB_ERRP));
    if (set_seed_args(c, kb, s->in, s->out) != CLB_OK || set_seed_args(c, ks, s->in, s->out2) != CLB_OK)
        goto cleanup;
    if (clb_ua_calibrate(c, ks, 2, 1, 1, 2048, 1 << 24, &s->iters) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clSetKernelArg(kb, 2, sizeof s->iters, &s->iters));
    /* Both outputs start poisoned: a launch that writes nothing leaves a NaN the check sees. */
    if (clb_poison(c, s->out, sizeof(float)) != CLB_OK || clb_poison(c, s->out2, sizeof(float)) != CLB_OK)
        goto cleanup;
    if (clb_ua_time(c, kb, 1, 1, &tb) != CLB_OK) /* warm-up */
        goto cleanup;
    for (n = 0; n < reps; n++) {
        if (clb_ua_time(c, kb, 1, 1, &tb) != CLB_OK || clb_ua_time(c, ks, 1, 1, &ts) != CLB_OK)
            goto cleanup;
        ratio[n] = tb / ts;
    }
    if (clb_validate(c, s, s->out, sizeof(float)) != CLB_OK)
        goto cleanup;
    clb_param_num(res, "iterations", s->iters);
    clb_param_num(res, "operations_per_launch", 32.0 * s->iters);
    clb_param_num(res, "branch_ns_per_op", 1e9 * tb / (32.0 * s->iters));
    clb_param_num(res, "straight_ns_per_op", 1e9 * ts / (32.0 * s->iters));
    clb_param_num(res, "work_group_size", 1);
    clb_param_str(res, "branch_on", s->running_sum ? "the running sum (compare on the dependency chain)"
                                                    : "the loaded value (seed 000 4.3.4)");
    clb_param_str(res, "meaning", "time(data-dependent add-or-subtract) / time(straight adds); 1 = branches are free");
    if (clb_result_set_samples(res, ratio, n, "ratio", 0, "cl_event_profiling START->END, wall-clock checked") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    free(ratio);
    clb_release_kernel(kb);
    clb_release_kernel(ks);
    return d->err;
}

static clb_error seed_validate(branch_state *s, clb_diag *d)
{
    float got[2];
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, sizeof(float), &got[0], 0, NULL, NULL));
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out2, CL_TRUE, 0, sizeof(float), &got[1], 0, NULL, NULL));
    float br = s->hin[0], st = s->hin[0];
    for (cl_int it = 0; it < s->iters; it++)
        for (int i = 0; i < 32; i++) {
            if (s->running_sum)
                br = br > 0.0f ? br - s->hin[i] : br + s->hin[i];
            else
                br = s->hin[i] > 0.0f ? br + s->hin[i] : br - s->hin[i];
            st += s->hin[i];
        }
    /* The same single-precision operations in the same order: equal up to rounding mode
     * differences, which a 1e-5 relative bound covers. */
    if (!(fabsf(got[0] - br) <= 1e-5f * fmaxf(1.0f, fabsf(br))) ||
        !(fabsf(got[1] - st) <= 1e-5f * fmaxf(1.0f, fabsf(st))))
        CLB_FAIL(d, CLB_ERR_INVALID_RESULT,
                 "branching chain %.9g (host %.9g), straight chain %.9g (host %.9g)", got[0], br,
                 got[1], st);
cleanup:
    return d->err;
}

/* ---- divergence sweep ---- */

static clb_error set_div_args(clb_ctx *c, cl_kernel k, branch_state *s)
{
    clb_diag *d = &c->diag;
    CLB_CL(d, clSetKernelArg(k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(k, 3, sizeof s->block, &s->block));
    CLB_CL(d, clSetKernelArg(k, 4, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(k, 5, sizeof s->b, &s->b));
cleanup:
    return d->err;
}

/* One pass over B = 1, 2, 4, ...: throughput (Gop/s) per B into y. */
static clb_error sweep_once(clb_ctx *c, cl_kernel k, branch_state *s, const double *blocks,
                            size_t nb, double *y)
{
    clb_diag *d = &c->diag;
    double t = 0, ops = 16.0 * s->iters * (double)s->gsz;
    /* B in a shuffled order each pass, so that load changing over time on the host cannot
     * draw a step into the curve. */
    size_t order[16];
    for (size_t j = 0; j < nb; j++)
        order[j] = j;
    for (size_t j = nb; j > 1; j--) {
        size_t r = (size_t)(clb_rand64(&s->rng) % j), tmp = order[j - 1];
        order[j - 1] = order[r];
        order[r] = tmp;
    }
    for (size_t j = 0; j < nb; j++) {
        size_t i = order[j];
        s->block = (cl_int)blocks[i];
        CLB_CL(d, clSetKernelArg(k, 3, sizeof s->block, &s->block));
        if (clb_ua_time(c, k, s->gsz, s->lsz, &t) != CLB_OK)
            goto cleanup;
        y[i] = 1e-9 * ops / t;
    }
cleanup:
    return d->err;
}

/* Records derived.simd_width beside the inferred width (NAN when none); returns it. */
static double derived_width(clb_ctx *c, clb_result *res, size_t multiple, double inferred)
{
    cJSON *der = clb_derived_json(c->dev);
    cJSON *sw = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(der, "simd_width"), "value");
    double dw = cJSON_IsNumber(sw) ? sw->valuedouble : NAN;
    clb_param_num(res, "derived_simd_width", dw);
    clb_param_num(res, "kernel_preferred_multiple", (double)multiple);
    if (isfinite(dw))
        clb_param_str(res, "agrees_with_derived", !isfinite(inferred) ? "not inferred" : inferred == dw ? "yes" : "no");
    if (isfinite(inferred) && isfinite(dw) && inferred != dw)
        clb_param_str(res, "disagreement",
                      "the divergence step is at a different width than derived.simd_width (the "
                      "preferred work-group multiple): the device groups lanes differently for "
                      "this kernel than the multiple suggests");
    cJSON_Delete(der);
    return dw;
}

/* No step: the lanes pay nothing for disagreeing, so no width can be seen. Inconclusive. */
static void no_width(clb_ctx *c, clb_result *res, const clb_width *wm, unsigned found,
                     unsigned n, double dw, size_t multiple)
{
    char why[640];
    int cpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    snprintf(why, sizeof why,
             "no divergence step: a step was found in %u of %u sweeps, the median curve's "
             "best split gives %.2fx (needs 1.3x): lanes that disagree cost no more than lanes that agree, so "
             "divergence cannot show a SIMD width (derived simd_width %.0f, kernel preferred "
             "multiple %zu)%s",
             found, n, wm->penalty, dw, multiple,
             cpu ? ". CPU OpenCL (PoCL) runs the work-items of a kernel with loops as scalar "
                   "code, one after another, or if-converts both paths for every lane: neither "
                   "penalizes disagreement"
                 : "");
    clb_result_fail(res, CLB_STATUS_INCONCLUSIVE, why);
}

/* The sweep, repeated: each repetition infers a width; the median is the result. */
static clb_error run_divergence(clb_ctx *c, clb_result *res, branch_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    cl_kernel k = NULL;
    size_t mult = 1, maxwg = 1, nb = 0, cu_gsz;
    cl_uint cu = 1;
    double blocks[16], *y = NULL, *med = NULL, *widths = NULL;
    unsigned reps = clb_reps(c), n = 0, nw = 0;
    s->divergence = 1;
    reps = reps > 1000 ? 1000 : reps; /* col[] below */
    CLB_CL(d, k = clCreateKernel(prog, "diverge", CLB_ERRP));
    if (clb_ua_kernel_sizes(c, k, &mult, &maxwg) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                              sizeof cu, &cu, NULL));
    s->lsz = maxwg < 1024 ? maxwg : 1024;
    for (double b = 1; b <= 512 && b < (double)s->lsz; b *= 2)
        blocks[nb++] = b;
    cu_gsz = s->lsz * cu * 2;
    /* The input holds 2^20 lanes. */
    s->gsz = cu_gsz <= (1u << 20) ? cu_gsz : (1u << 20) / s->lsz * s->lsz;
    if (set_div_args(c, k, s) != CLB_OK)
        goto cleanup;
    y = calloc(nb * reps, sizeof *y);
    med = calloc(nb, sizeof *med);
    widths = calloc(reps, sizeof *widths);
    if (!y || !med || !widths)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    s->block = 1;
    if (clb_ua_calibrate(c, k, 2, s->gsz, s->lsz, 64, 1 << 24, &s->iters) != CLB_OK)
        goto cleanup;
    for (n = 0; n < reps; n++) {
        clb_width w;
        if (sweep_once(c, k, s, blocks, nb, &y[n * nb]) != CLB_OK)
            goto cleanup;
        clb_infer_width(blocks, &y[n * nb], nb, 1.3, &w);
        if (w.found) /* sweeps without a step add no sample (no sentinel width) */
            widths[nw++] = w.width;
    }
    if (clb_validate(c, s, s->out, s->gsz * sizeof(float)) != CLB_OK)
        goto cleanup;
    double col[1024];
    for (size_t i = 0; i < nb; i++) {
        for (unsigned r = 0; r < n; r++)
            col[r] = y[r * nb + i];
        med[i] = clb_median(col, n);
    }
    clb_width wm;
    clb_infer_width(blocks, med, nb, 1.3, &wm);
    clb_ua_curve(res, NULL, "divergence block B", "work-items", "throughput", "Gop/s", 1, blocks, med, nb);
    int found = wm.found && 2 * nw >= n;
    clb_param_num(res, "median_curve_width", wm.found ? wm.width : NAN);
    clb_param_num(res, "penalty", wm.penalty);
    clb_param_str(res, "width_found", found ? "step" : "no step");
    clb_param_num(res, "sweeps_with_step", nw);
    clb_param_num(res, "sweeps", n);
    clb_param_num(res, "local_work_size", (double)s->lsz);
    clb_param_num(res, "global_work_size", (double)s->gsz);
    clb_param_num(res, "iterations", s->iters);
    double dw = derived_width(c, res, mult, found ? clb_median(widths, nw) : NAN);
    if (!found)
        no_width(c, res, &wm, nw, n, dw, mult);
    else if (clb_result_set_samples(res, widths, nw, "work-items", 1, "cl_event_profiling START->END per B, step fit") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    free(y);
    free(med);
    free(widths);
    clb_release_kernel(k);
    return d->err;
}

static clb_error divergence_validate(branch_state *s, clb_diag *d)
{
    float *got = malloc(s->gsz * sizeof *got), ref[INPUT_CLASSES][2];
    if (!got)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, s->gsz * sizeof *got, got, 0, NULL, NULL));
    for (size_t k = 0; k < INPUT_CLASSES; k++)
        for (int odd = 0; odd < 2; odd++)
            ref[k][odd] = clb_ua_fma_chain(s->hin[k], odd ? s->a : s->b, odd ? s->b : s->a,
                                           16u * (uint64_t)s->iters);
    /* Every lane: lane g reads input class g % INPUT_CLASSES */
    for (size_t g = 0; g < s->gsz; g++) {
        int odd = (int)((g % s->lsz / (size_t)s->block) & 1u);
        float want = ref[g % INPUT_CLASSES][odd];
        if (!(fabsf(got[g] - want) <= 1e-5f * fmaxf(1.0f, fabsf(want))))
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "lane %zu: %.9g, host %.9g", g, got[g], want);
    }
cleanup:
    free(got);
    return d->err;
}

clb_error clb_branch_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    branch_state s = {.q = clb_device_queue(c->dev), .a = 0.75f, .b = 0.5f, .rng = 0x5EEDB10Cull};
    cl_program prog = NULL;
    int div = strcmp(c->bench->arg, "divergence") == 0;
    s.running_sum = strcmp(c->bench->arg, "running_sum") == 0;
    size_t n = div ? 1 << 20 : 32;
    if (clb_build(c, "branch", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    clb_ua_dump_binary(c, prog, "branch");
    if (clb_ua_random_floats(c, n, div ? INPUT_CLASSES : n, div ? 0.5f : -1.0f, div ? 2.0f : 1.0f, 0xB7A4C4u, &s.hin, &s.in) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE,
                                     (div ? n : 1) * sizeof(float), NULL, CLB_ERRP));
    CLB_CL(d, s.out2 = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, sizeof(float), NULL, CLB_ERRP));
    if (div)
        run_divergence(c, res, &s, prog);
    else
        run_seed(c, res, &s, prog);
cleanup:
    branch_release(&s, prog, NULL, NULL);
    return d->err;
}

clb_error clb_branch_validate(clb_ctx *c, void *state, clb_diag *d)
{
    branch_state *s = state;
    (void)c;
    return s->divergence ? divergence_validate(s, d) : seed_validate(s, d);
}

/* The branch group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_branch_rows[] = {
    {"branch.seed", "branch", "seed 000 4.3.4: time(add or subtract by the loaded value's sign) / time(straight adds), one work-item (ratio)",
     CLB_REQ_COMPILER, clb_branch_run, clb_branch_validate, "seed"},
    {"branch.running_sum", "branch", "as branch.seed, but the branch tests the running sum: the compare on the dependency chain (ratio)",
     CLB_REQ_COMPILER, clb_branch_run, clb_branch_validate, "running_sum"},
    {"branch.divergence", "branch", "divergence sweep over block B: inferred SIMD/warp width (work-items), curve in params",
     CLB_REQ_COMPILER, clb_branch_run, clb_branch_validate, "divergence"},
};
const size_t clb_branch_row_count = sizeof clb_branch_rows / sizeof clb_branch_rows[0];
