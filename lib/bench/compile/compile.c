/* compile.*: program build time (clCreateProgramWithSource + clBuildProgram, wall clock).
 * Each build gets a unique CLB_NONCE so neither PoCL's kernel cache nor a vendor's compute
 * cache can answer it; the last build's kernel runs and is checked against the host. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

#define COMPILE_ITEMS 64

typedef struct compile_state {
    const char *kernel; /* "compile_short" or "compile_long" */
    cl_uint nonce;
    cl_uint out[COMPILE_ITEMS];
} compile_state;

static cl_uint rotl(cl_uint x, cl_uint n) { return (x << n) | (x >> (32u - n)); }

/* Host reference of lib/bench/compile/compile_long.cl (see the formula there). */
static cl_uint long_reference(cl_uint x)
{
    for (cl_uint id = 10; id <= 99; id++) {
        for (cl_uint r = 0; r < id % 3u + 1u; r++) {
            x ^= x >> (id % 13u + 3u);
            x *= (2u * id + 1u) | 0x10001u;
            x = rotl(x, id % 31u + 1u);
        }
        x += id;
    }
    return x;
}

static cl_uint reference(const compile_state *s, cl_uint i)
{
    if (strcmp(s->kernel, "compile_long") == 0)
        return long_reference(i ^ s->nonce);
    return i * 2654435761u + s->nonce;
}

/* Builds with a fresh nonce; *seconds is the wall time of create + build. */
static clb_error timed_build(clb_ctx *c, compile_state *s, uint64_t *rng, cl_program *prog,
                             double *seconds)
{
    char prefix[64];
    s->nonce = (cl_uint)clb_rand64(rng);
    snprintf(prefix, sizeof prefix, "#define CLB_NONCE %uu\n", (unsigned)s->nonce);
    double t0 = clb_now();
    clb_error e = clb_build(c, s->kernel, prefix, NULL, prog);
    *seconds = clb_now() - t0;
    return e;
}

/* Runs the built kernel over COMPILE_ITEMS work-items into s->out. */
static clb_error run_kernel(clb_ctx *c, compile_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    cl_kernel k = NULL;
    cl_mem buf = NULL;
    size_t n = COMPILE_ITEMS;
    cl_command_queue q = clb_device_queue(c->dev);
    CLB_CL(d, k = clCreateKernel(prog, "compile_k", CLB_ERRP));
    CLB_CL(d, buf = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, sizeof s->out,
                                   NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(k, 0, sizeof buf, &buf));
    if (clb_poison(c, buf, sizeof s->out) != CLB_OK) /* an item not written stays the poison */
        goto cleanup;
    CLB_CL(d, clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CLB_CL(d, clFinish(q));
    if (clb_fault_apply(c, buf, sizeof s->out) != CLB_OK) /* --inject-fault: what validation reads */
        goto cleanup;
    CLB_CL(d, clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof s->out, s->out, 0, NULL, NULL));
cleanup:
    clb_release_mem(buf);
    clb_release_kernel(k);
    return d->err;
}

clb_error clb_compile_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    compile_state s = {.kernel = c->bench->arg};
    uint64_t rng = (uint64_t)(clb_now() * 1e9);
    cl_program prog = NULL;
    unsigned reps = c->opts->quick && clb_reps(c) > 3 ? 3 : clb_reps(c), cap = 10000, n = 0;
    double *x = malloc(cap * sizeof *x), t;
    if (!x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < (c->opts->warmup ? c->opts->warmup : 1); i++) { /* warm-up */
        if (timed_build(c, &s, &rng, &prog, &t) != CLB_OK)
            goto cleanup;
        clReleaseProgram(prog);
        prog = NULL;
    }
    int budget = c->opts->time_budget_s > 0;
    for (double started = clb_now(); n < cap && (budget ? clb_more_reps(c, n, started) : n < reps); n++) {
        clb_release_program(prog);
        prog = NULL;
        if (timed_build(c, &s, &rng, &prog, &t) != CLB_OK)
            goto cleanup;
        x[n] = 1e3 * t;
    }
    if (run_kernel(c, &s, prog) != CLB_OK || clb_validate(c, &s, NULL, 0) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "program", s.kernel);
    clb_param_num(res, "source_bytes", (double)strlen(clb_kernel_source(s.kernel)));
    clb_param_num(res, "warmup_builds", c->opts->warmup ? c->opts->warmup : 1);
    if (clb_result_set_samples(res, x, n, "ms", 0, "wall_clock_monotonic create+build") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    clb_release_program(prog);
    free(x);
    return d->err;
}

clb_error clb_compile_validate(clb_ctx *c, void *state, clb_diag *d)
{
    const compile_state *s = state;
    (void)c;
    for (cl_uint i = 0; i < COMPILE_ITEMS; i++)
        if (s->out[i] != reference(s, i))
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "%s item %u: kernel wrote 0x%08x, host reference 0x%08x", s->kernel,
                                (unsigned)i, (unsigned)s->out[i], (unsigned)reference(s, i));
    return CLB_OK;
}

/* The compile group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_compile_rows[] = {
    {"compile.short", "compile", "build time of a minimal program, unique source per build (ms)",
     CLB_REQ_COMPILER, clb_compile_run, clb_compile_validate, "compile_short"},
    {"compile.long", "compile", "build time of a 90-function program, unique source per build (ms)",
     CLB_REQ_COMPILER, clb_compile_run, clb_compile_validate, "compile_long"},
};
const size_t clb_compile_row_count = sizeof clb_compile_rows / sizeof clb_compile_rows[0];
