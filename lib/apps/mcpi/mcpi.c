/* app.mcpi.*: MonteCarloPi of seed 004 (TORMENT OpenACC): the share of samples inside the
 * quarter circle, pi = 4 inside / n. Rows: the seed's sequential loop, all host cores, and
 * three OpenCL kernels (one sample per work-item with a global atomic each; summed in local
 * memory; several samples per work-item). Every run's count must equal the reference count
 * exactly. Headline: Gsamples/s (docs/apps/mcpi.md). */
#include "apps/mcpi/mcpi.h"

#include <math.h>
#include <stdlib.h>

typedef enum { M_SEQ, M_PTHREADS, M_NAIVE, M_LOCAL, M_ITEMS } mcpi_kind;
static const char *const variants[] = {"sequential", "pthreads", "cl_naive", "cl_local", "cl_items"};
static const char *const kernels[] = {NULL, NULL, "mcpi_cl_naive", "mcpi_cl_local", "mcpi_cl_items"};

/* Work-groups per compute unit of cl_items: 8 groups of 256 fill an SM of 2048 threads. */
enum { GROUPS_PER_CU = 8, MAX_LOCAL = 256 };

typedef struct mcpi_state {
    clb_ctx *c;
    mcpi_kind kind;
    uint64_t n, want, got;
    unsigned threads;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem count; /* two uints: low, high word of the 64-bit count */
    size_t global, local;
} mcpi_state;

uint64_t mcpi_samples(const clb_ctx *c)
{
    return app_size(c, clb_settings_get()->mcpi_n, (size_t)1 << 16, (size_t)1 << 26, (size_t)1 << 30);
}

double mcpi_pi(uint64_t n, uint64_t inside)
{
    return 4.0 * (double)inside / (double)n;
}

clb_error mcpi_check(uint64_t n, uint64_t want, uint64_t got, clb_diag *d)
{
    clb_diag_clear(d);
    if (got != want)
        return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                            "%llu of %llu samples inside, the sequential reference counts %llu",
                            (unsigned long long)got, (unsigned long long)n, (unsigned long long)want);
    return CLB_OK;
}

static clb_error once(void *state, double *seconds, clb_diag *d)
{
    mcpi_state *s = state;
    const cl_uint zero = 0;
    clb_diag_clear(d);
    if (s->kind == M_SEQ || s->kind == M_PTHREADS) {
        double t0 = clb_now();
        if (s->kind == M_SEQ)
            s->got = mcpi_host_sequential(s->n);
        else if (mcpi_host_pthreads(s->n, s->threads, &s->got, d) != CLB_OK)
            return d->err;
        *seconds = clb_now() - t0;
        return CLB_OK;
    }
    CLB_CL(d, clEnqueueFillBuffer(s->q, s->count, &zero, sizeof zero, 0, 2 * sizeof zero, 0, NULL, NULL));
    app_launch(s->q, s->k, 1, &s->global, &s->local, seconds, d);
cleanup:
    return d->err;
}

static clb_error validate(clb_ctx *c, void *state, clb_diag *d)
{
    mcpi_state *s = state;
    cl_uint w[2] = {0, 0};
    clb_diag_clear(d);
    if (s->kind == M_SEQ || s->kind == M_PTHREADS) {
        clb_fault_apply_host(c, &s->got, sizeof s->got);
        return mcpi_check(s->n, s->want, s->got, d);
    }
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->count, CL_TRUE, 0, sizeof w, w, 0, NULL, NULL));
    s->got = (uint64_t)w[1] << 32 | w[0];
    mcpi_check(s->n, s->want, s->got, d);
cleanup:
    return d->err;
}

/* The NDRange: one sample per work-item (naive, local), else GROUPS_PER_CU groups per
 * compute unit, each work-item a strided run of samples (items). */
static clb_error geometry(mcpi_state *s, cl_device_id dev, clb_diag *d)
{
    cl_uint cu = 0;
    size_t wg = 0;
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    /* The largest power of two <= MAX_LOCAL the kernel allows (the local sums halve it). */
    for (s->local = MAX_LOCAL; s->local > wg && s->local > 1;)
        s->local /= 2;
    s->global = s->kind == M_ITEMS ? (size_t)cu * GROUPS_PER_CU * s->local
                                   : (size_t)((s->n + s->local - 1) / s->local * s->local);
    /* A group's sum is one uint: it must not wrap. */
    if (s->kind == M_ITEMS && s->n / (s->global / s->local) >= UINT32_MAX)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "%llu samples overflow a work-group's 32-bit sum",
                 (unsigned long long)s->n);
    clb_param_str(s->c->res, "kernel", kernels[s->kind]);
    clb_param_num(s->c->res, "local_size", (double)s->local);
    clb_param_num(s->c->res, "global_size", (double)s->global);
    clb_param_num(s->c->res, "work_groups", (double)(s->global / s->local));
    clb_param_num(s->c->res, "compute_units", cu);
    clb_param_num(s->c->res, "samples_per_item", ceil((double)s->n / (double)s->global));
    clb_param_str(s->c->res, "count_words", "64-bit count as two 32-bit words, carry on wrap");
cleanup:
    return d->err;
}

static clb_error setup_device(mcpi_state *s, clb_diag *d)
{
    cl_device_id dev = clb_device_reference(s->c->dev)->device;
    cl_ulong n = s->n;
    s->q = clb_device_queue(s->c->dev);
    if (app_need_int32_atomics(s->c) != CLB_OK || clb_build(s->c, "mcpi", NULL, "", &s->prog) != CLB_OK)
        return d->err;
    CLB_CL(d, s->k = clCreateKernel(s->prog, kernels[s->kind], CLB_ERRP));
    if (geometry(s, dev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->count = clCreateBuffer(clb_device_context(s->c->dev), CL_MEM_READ_WRITE, 2 * sizeof(cl_uint), NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof n, &n));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->count, &s->count));
    if (s->kind != M_NAIVE)
        CLB_CL(d, clSetKernelArg(s->k, 2, s->local * sizeof(cl_uint), NULL));
cleanup:
    return d->err;
}

/* The reference count: the sequential code path, on all host cores (the sum of slices is
 * exact); the pthreads row, whose own path that is, is checked against one thread. */
static clb_error reference(mcpi_state *s, clb_diag *d)
{
    if (s->kind == M_PTHREADS) {
        s->want = mcpi_host_sequential(s->n);
        return CLB_OK;
    }
    return mcpi_host_pthreads(s->n, app_host_threads(), &s->want, d);
}

static void result_params(clb_result *res, const mcpi_state *s)
{
    double pi = mcpi_pi(s->n, s->got);
    clb_param_num(res, "inside", (double)s->got);
    clb_param_num(res, "pi_estimate", pi);
    clb_param_num(res, "pi_abs_error", fabs(pi - 3.14159265358979323846));
}

/* Integer operations per sample (docs/roofline.md): two getRandom calls of three LCG steps
 * (mul + add), three shifts, three masks, two shifts and two xors = 16 each. The five float
 * operations of the inside test are left out: the integer work bounds the kernel. */
#define MCPI_OPS_PER_SAMPLE 32.0

/* The roofline point: compute-only (no global traffic but the count), on the int32 roof. */
static void roofline_params(clb_result *res, uint64_t n)
{
    clb_param_num(res, "flops", MCPI_OPS_PER_SAMPLE * (double)n);
    clb_param_num(res, "bytes", 0);
    clb_param_str(res, "roof_precision", "int32");
    clb_param_num(res, "giops", res->value * MCPI_OPS_PER_SAMPLE);
}

static clb_error mcpi_run(clb_ctx *c, clb_result *res)
{
    const mcpi_kind *kind = c->bench->arg;
    mcpi_state s = {.c = c, .kind = *kind, .n = mcpi_samples(c), .threads = app_host_threads()};
    int host = s.kind == M_SEQ || s.kind == M_PTHREADS;
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    clb_param_str(res, "app", "mcpi");
    clb_param_str(res, "variant", variants[s.kind]);
    clb_param_num(res, "rung_index", (double)s.kind);
    clb_param_num(res, "n", (double)s.n);
    clb_param_str(res, "inside_test", "float x, y = r / RAND_MAX; sqrt(x x + y y) <= 1, IEEE rounding, no fma (seed Fig. 3)");
    if (host) {
        clb_param_str(res, "runs_on", "host CPU (not the OpenCL device)");
        clb_param_num(res, "host_threads", s.kind == M_SEQ ? 1 : s.threads);
    } else if (setup_device(&s, d) != CLB_OK) {
        goto cleanup;
    }
    if (reference(&s, d) != CLB_OK)
        goto cleanup;
    app_timing t = {&s, once, (double)s.n, 1e-9, "Gsamples/s",
                    host ? "wall_clock_monotonic, one host run" : "cl_event_profiling START->END, wall-clock checked",
                    s.count, 2 * sizeof(cl_uint)};
    if (app_measure(c, &t) == CLB_OK) {
        result_params(res, &s);
        roofline_params(res, s.n);
    }
cleanup:
    clb_release_mem(s.count);
    clb_release_kernel(s.k);
    clb_release_program(s.prog);
    return d->err;
}

static const mcpi_kind k_seq = M_SEQ, k_pth = M_PTHREADS, k_naive = M_NAIVE, k_local = M_LOCAL, k_items = M_ITEMS;
#define REQ (CLB_REQ_COMPILER | CLB_REQ_APP)
const clb_bench clb_app_mcpi_rows[] = {
    {"app.mcpi.sequential", "app", "MonteCarloPi (seed 004), the seed's loop on the host, one thread (Gsamples/s)", REQ, mcpi_run, validate, &k_seq},
    {"app.mcpi.pthreads", "app", "MonteCarloPi on the host, one slice of samples per core (Gsamples/s)", REQ, mcpi_run, validate, &k_pth},
    {"app.mcpi.cl_naive", "app", "MonteCarloPi, one sample per work-item, a global atomic per hit (Gsamples/s)", REQ, mcpi_run, validate, &k_naive},
    {"app.mcpi.cl_local", "app", "MonteCarloPi, one sample per work-item, sums in local memory (Gsamples/s)", REQ, mcpi_run, validate, &k_local},
    {"app.mcpi.cl_items", "app", "MonteCarloPi, strided samples per work-item, private count, local sums (Gsamples/s)", REQ, mcpi_run, validate, &k_items},
};
const size_t clb_app_mcpi_row_count = sizeof clb_app_mcpi_rows / sizeof clb_app_mcpi_rows[0];
