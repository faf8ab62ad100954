/* launch.clpeak_method: what `clpeak --kernel-latency` measures, with its kernel, grid and
 * timer (facts from clpeak 1.1's src/kernel_latency.cpp; this is our own code): a kernel that
 * reads 16 floats per work-item (lib/bench/launch/launch.cl read16) over 256 x compute units
 * work-items in groups of 256 (CL_DEVICE_MAX_WORK_ITEM_SIZES[0] capped at 256, as clpeak), an input and an output buffer
 * (CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY), two launches and a clFinish as warm-up, then 20000
 * launches each followed by clFinish, timed QUEUED->START (clpeak's interval); clpeak reports the mean (in whole
 * microseconds per launch). Deviation: the input is written with random floats first (clpeak
 * leaves it unwritten), so that the output can be verified. */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLPEAK_ITERS 20000u /* clpeak's kernelLatencyIters */
#define BLOCK 1000u         /* launches per sample */

typedef struct cp_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem in, out;
    float *hin;
    size_t gsz, lsz;
} cp_state;

/* clpeak's grid: the maximum work-group size (bounded by what the kernel allows) x CUs. */
static clb_error cp_setup(clb_ctx *c, cp_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    cl_device_id id = clb_device_reference(c->dev)->device;
    cl_context ctx = clb_device_context(c->dev);
    cl_uint cu = 1;
    size_t maxwg = 1, kwg = 1, items[3] = {1, 1, 1};
    uint64_t seed = (uint64_t)(clb_now() * 1e9);
    CLB_CL(d, s->k = clCreateKernel(prog, "read16", CLB_ERRP));
    CLB_CL(d, clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL));
    CLB_CL(d, clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
    /* clpeak: CL_DEVICE_MAX_WORK_ITEM_SIZES[0] capped at 256 (its MAX_WG_SIZE); also within
     * what the device and the kernel allow. */
    s->lsz = items[0] < 256 ? items[0] : 256;
    s->lsz = s->lsz < maxwg ? s->lsz : maxwg;
    s->lsz = s->lsz < kwg ? s->lsz : kwg;
    s->gsz = s->lsz * cu;
    s->hin = malloc(s->gsz * 16 * sizeof *s->hin);
    if (!s->hin)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    /* Random floats 1 + k/2^16 in [1, 2): any sum of 16 fits in 24 bits, so it is exact. */
    for (size_t i = 0; i < s->gsz * 16; i++)
        s->hin[i] = 1.0f + (float)(clb_rand64(&seed) >> 48) * 0x1p-16f;
    CLB_CL(d, s->in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, s->gsz * 16 * sizeof(float), NULL, CLB_ERRP));
    CLB_CL(d, s->out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, s->gsz * sizeof(float), NULL, CLB_ERRP));
    CLB_CL(d, clEnqueueWriteBuffer(s->q, s->in, CL_TRUE, 0, s->gsz * 16 * sizeof(float), s->hin, 0, NULL, NULL));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
cleanup:
    return d->err;
}

/* One launch + clFinish: QUEUED->START in ns (what clpeak's kernel_latency.cpp sums: the
 * QUEUED and START stamps, not END), and clpeak's integer microseconds. The whole span
 * QUEUED->END is checked against the wall clock. */
static clb_error cp_launch(clb_ctx *c, cp_state *s, double *ns, double *int_us)
{
    clb_diag *d = &c->diag;
    cl_event ev = NULL;
    cl_ulong t[4];
    double t0 = clb_now();
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &s->gsz, &s->lsz, 0, NULL, &ev));
    CLB_CL(d, clFinish(s->q));
    double wall = clb_now() - t0;
    if (clb_event_times(ev, t, d) != CLB_OK)
        goto cleanup;
    if (t[3] < t[2] || t[2] < t[0] || clb_event_outlasts_wall(1e-9 * (double)(t[3] - t[0]), wall))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "QUEUED->END %.1f us against the wall clock's %.1f us",
                 1e-3 * ((double)t[3] - (double)t[0]), 1e6 * wall);
    *ns = (double)(t[2] - t[0]);
    *int_us = (double)(t[2] / 1000 - t[0] / 1000); /* clpeak divides each stamp by 1000 */
cleanup:
    clb_release_event(ev);
    return d->err;
}

static void cp_params(clb_result *res, const cp_state *s, const double *ns, size_t n, double int_us_sum)
{
    size_t k = n < 300 ? n : 300;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += ns[i];
    clb_param_num(res, "launches", (double)n);
    clb_param_num(res, "launches_per_sample", BLOCK);
    clb_param_num(res, "global_work_size", (double)s->gsz);
    clb_param_num(res, "local_work_size", (double)s->lsz);
    clb_param_num(res, "mean_us", 1e-3 * sum / (double)n);
    clb_param_num(res, "clpeak_integer_us_mean", int_us_sum / (double)n);
    clb_param_num(res, "median_all_us", 1e-3 * clb_median(ns, n));
    clb_param_num(res, "median_first_300_us", 1e-3 * clb_median(ns, k));
    clb_param_num(res, "median_last_300_us", 1e-3 * clb_median(ns + n - k, k));
    clb_param_str(res, "meaning", "clpeak --kernel-latency's number is mean_us (clpeak_integer_us_mean with its whole-microsecond stamps); value: median of the per-1000-launch means");
}

clb_error clb_launch_clpeak_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    cp_state s = {.q = clb_device_queue(c->dev)};
    cl_program prog = NULL;
    size_t n = c->opts->quick ? 2 * BLOCK / 10 : CLPEAK_ITERS, block = c->opts->quick ? BLOCK / 10 : BLOCK, nb = 0;
    double *ns = malloc(n * sizeof *ns), *means = malloc((n / block) * sizeof *means), *x = malloc((n / block) * sizeof *x);
    double int_us = 0, iu = 0, tmp = 0;
    if (!ns || !means || !x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (clb_build(c, "launch", NULL, NULL, &prog) != CLB_OK || cp_setup(c, &s, prog) != CLB_OK)
        goto cleanup;
    for (int i = 0; i < 2; i++) /* clpeak's two dummy launches, then one finish */
        CLB_CL(d, clEnqueueNDRangeKernel(s.q, s.k, 1, NULL, &s.gsz, &s.lsz, 0, NULL, NULL));
    CLB_CL(d, clFinish(s.q));
    for (size_t i = 0; i < n; i++) {
        if (cp_launch(c, &s, &ns[i], &iu) != CLB_OK)
            goto cleanup;
        int_us += iu;
        tmp += ns[i];
        if ((i + 1) % block == 0) {
            x[nb] = (double)(i + 1);
            means[nb++] = 1e-3 * tmp / (double)block;
            tmp = 0;
        }
    }
    if (clb_validate(c, &s, s.out, s.gsz * sizeof(float)) != CLB_OK)
        goto cleanup;
    cp_params(res, &s, ns, n, int_us);
    clb_ua_curve(res, NULL, "launches", "launches", "mean QUEUED->START per sample", "us", 0, x, means, nb);
    if (clb_result_set_samples(res, means, nb, "us", 0, "cl_event_profiling QUEUED->START, mean per 1000 launches") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    free(ns);
    free(means);
    free(x);
    free(s.hin);
    clb_release_mem(s.in);
    clb_release_mem(s.out);
    clb_release_kernel(s.k);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_launch_clpeak_validate(clb_ctx *c, void *state, clb_diag *d)
{
    cp_state *s = state;
    float *got = malloc(s->gsz * sizeof *got);
    (void)c;
    if (!got)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, s->gsz * sizeof *got, got, 0, NULL, NULL));
    for (size_t g = 0; g < s->gsz; g++) {
        size_t l = s->lsz, id = g / l * l * 16 + g % l;
        float want = 0.0f;
        for (int i = 0; i < 16; i++, id += l)
            want += s->hin[id];
        if (got[g] != want) /* exact in any order (cp_setup) */
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "work-item %zu: %.9g, host %.9g", g, got[g], want);
    }
cleanup:
    free(got);
    return d->err;
}
