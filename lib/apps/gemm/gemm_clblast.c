/* app.sgemm.clblast / app.dgemm.clblast: CLBlast's GEMM on the same matrices, the external
 * reference of the ladder. libclblast.so.1 is loaded at run time (dlopen), so clbench neither
 * links nor needs it; without it the row is unsupported with the reason. */
#include "gemm_cl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* CLBlast's C API (clblast_c.h): layout 101 = row-major, transpose 111 = none, 0 = success. */
typedef int (*sgemm_fn)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t, size_t,
                        cl_mem, size_t, size_t, float, cl_mem, size_t, size_t, cl_command_queue *,
                        cl_event *);
typedef int (*dgemm_fn)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t, size_t,
                        cl_mem, size_t, size_t, double, cl_mem, size_t, size_t, cl_command_queue *,
                        cl_event *);

typedef struct blast_state {
    gemm_mats m;
    cl_command_queue q;
    cl_mem a, b, c;
    void *fn;
    uint64_t seed;
} blast_state;

/* One GEMM through CLBlast, timed on the wall clock from the call to clFinish: CLBlast may
 * launch several kernels (padding, transposition), and only the last one's event comes back. */
static clb_error blast_once(void *state, double *seconds, clb_diag *d)
{
    blast_state *s = state;
    size_t n = s->m.n;
    int st;
    clb_diag_clear(d);
    CLB_CL(d, clFinish(s->q));
    double t0 = clb_now();
    if (s->m.prec == 4) {
        sgemm_fn f;
        memcpy(&f, &s->fn, sizeof f);
        st = f(101, 111, 111, n, n, n, 1.0f, s->a, 0, n, s->b, 0, n, 0.0f, s->c, 0, n, &s->q, NULL);
    } else {
        dgemm_fn f;
        memcpy(&f, &s->fn, sizeof f);
        st = f(101, 111, 111, n, n, n, 1.0, s->a, 0, n, s->b, 0, n, 0.0, s->c, 0, n, &s->q, NULL);
    }
    if (st != 0)
        CLB_FAIL(d, CLB_ERR_CL, "CLBlast GEMM returned status %d (clblast_c.h)", st);
    CLB_CL(d, clFinish(s->q));
    *seconds = clb_now() - t0;
cleanup:
    return d->err;
}

clb_error gemm_clblast_validate(clb_ctx *c, void *state, clb_diag *d)
{
    blast_state *s = state;
    size_t bytes = s->m.n * s->m.n * s->m.prec;
    void *host = malloc(bytes);
    (void)c;
    clb_diag_clear(d);
    if (!host)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->c, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    gemm_check(&s->m, host, s->m.n, s->seed ^ 0x5bd1e995u, d);
cleanup:
    free(host);
    return d->err;
}

static clb_error buffers(clb_ctx *c, blast_state *s, clb_diag *d)
{
    cl_context ctx = clb_device_context(c->dev);
    size_t bytes = s->m.n * s->m.n * s->m.prec;
    const cl_uchar junk = 0x5A;
    CLB_CL(d, s->a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->m.a, CLB_ERRP));
    CLB_CL(d, s->b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->m.b, CLB_ERRP));
    CLB_CL(d, s->c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, CLB_ERRP));
    CLB_CL(d, clEnqueueFillBuffer(s->q, s->c, &junk, 1, 0, bytes, 0, NULL, NULL));
    CLB_CL(d, clFinish(s->q));
cleanup:
    return d->err;
}

clb_error gemm_clblast_run(clb_ctx *c, clb_result *res)
{
    const gemm_arg *a = c->bench->arg;
    blast_state s = {.q = clb_device_queue(c->dev), .seed = (uint64_t)(clb_now() * 1e9) | 1};
    size_t n = app_size(c, "CLBENCH_GEMM_N", 100, 2000, a->prec == 4 ? 8192 : 4096);
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    void *lib = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "CLBlast is not installed (dlopen libclblast.so.1: %s)", dlerror());
    s.fn = dlsym(lib, a->prec == 4 ? "CLBlastSgemm" : "CLBlastDgemm");
    if (!s.fn)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "libclblast.so.1 has no %s", a->prec == 4 ? "CLBlastSgemm" : "CLBlastDgemm");
    if (gemm_mats_init(&s.m, n, a->prec, s.seed, d) != CLB_OK || buffers(c, &s, d) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "app", a->prec == 4 ? "sgemm" : "dgemm");
    clb_param_str(res, "variant", "clblast");
    clb_param_num(res, "n", (double)n);
    gemm_roof_params(res, n, a->prec);
    clb_param_str(res, "library", "libclblast.so.1 (CLBlastSgemm/CLBlastDgemm, row-major)");
    clb_param_str(res, "peer_row", a->prec == 4 ? "compute.fp32.fma" : "compute.fp64.fma");
    app_timing t = {&s, blast_once, 2.0 * (double)n * (double)n * (double)n, 1e-9, "GFLOP/s",
                    "wall_clock_monotonic CLBlast call -> clFinish", s.c, n * n * a->prec};
    app_measure(c, &t);
cleanup:
    clb_release_mem(s.a);
    clb_release_mem(s.b);
    clb_release_mem(s.c);
    gemm_mats_free(&s.m);
    if (lib)
        dlclose(lib);
    return d->err;
}
