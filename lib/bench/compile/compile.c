/* compile.*: program build time (clCreateProgramWithSource + clBuildProgram, wall clock).
 * Each build gets a unique CLB_NONCE so neither PoCL's kernel cache nor a vendor's compute
 * cache can answer it; the last build's kernel runs and is checked against the host.
 * compile.binary_cold / compile.binary_cached (seed 001, saving and loading program binaries)
 * time the same new source through clbench's binary cache: built and stored, then loaded. */
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
    clb_build_info info;
    double t0 = clb_now();
    clb_error e = clb_build_with(c, s->kernel, prefix, NULL, CLB_CACHE_OFF, &info, prog);
    *seconds = clb_now() - t0;
    return e;
}

/* One repetition of compile.binary_*: a new source built through the binary cache (a miss: built,
 * binary stored), and for binary_cached the same program again (a hit: entry read, checked,
 * created from the binary, built). *seconds times the build the row names; the entry is removed
 * afterwards, so the user's cache keeps none of these sources. */
static clb_error binary_rep(clb_ctx *c, compile_state *s, uint64_t *rng, int cached, cl_program *prog,
                            double *seconds, double phase_s[CLB_PHASES])
{
    char prefix[64];
    clb_build_info info;
    clb_diag *d = &c->diag;
    s->nonce = (cl_uint)clb_rand64(rng);
    snprintf(prefix, sizeof prefix, "#define CLB_NONCE %uu\n", (unsigned)s->nonce);
    for (int pass = 0; pass <= cached; pass++) {
        clb_release_program(*prog);
        *prog = NULL;
        double t0 = clb_now();
        if (clb_build_with(c, s->kernel, prefix, NULL, pass ? CLB_CACHE_ON : CLB_CACHE_STORE_NOW, &info, prog) != CLB_OK)
            return d->err;
        *seconds = clb_now() - t0;
        memcpy(phase_s, info.phase_s, sizeof info.phase_s);
        clb_bincache_outcome want = pass ? CLB_BINCACHE_HIT : CLB_BINCACHE_MISS;
        if (!info.cached || info.outcome != want) {
            clb_bincache_remove(c->opts->binary_cache_dir, info.key);
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(c->res->params, "binary_cache_store_failed");
            return clb_diag_set(d, CLB_ERR_IO, "the binary cache %s a new program's %s build%s%s",
                                info.outcome == CLB_BINCACHE_HIT ? "answered" : "missed", pass ? "second" : "first",
                                cJSON_IsString(w) ? ": " : "", cJSON_IsString(w) ? w->valuestring : "");
        }
    }
    clb_bincache_remove(c->opts->binary_cache_dir, info.key);
    return CLB_OK;
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* params.phases_ms: the median of each step of the timed builds (lib/core/internal.h's phases),
 * the steps the row's path took only. */
static void phase_params(clb_result *res, double (*ph)[CLB_PHASES], unsigned n, int cached)
{
    static const char *const names[CLB_PHASES] = {"read_check", "binary_build", "source_build", "export_binary",
                                                  "store"};
    cJSON *o = cJSON_CreateObject();
    double v[64];
    for (int p = 0; p < CLB_PHASES && n > 0; p++) {
        if (cached != (p <= CLB_PHASE_BINARY_BUILD) && p != CLB_PHASE_READ)
            continue;
        for (unsigned i = 0; i < n; i++)
            v[i] = 1e3 * ph[i][p];
        qsort(v, n, sizeof v[0], cmp_double);
        clb_json_number(o, names[p], n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
    }
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "phases_ms");
    cJSON_AddItemToObject(res->params, "phases_ms", o);
}

/* compile.binary_cold / binary_cached: the row's kernel (the minimal one under --quick), built
 * (cold) or loaded (cached). */
static clb_error binary_run(clb_ctx *c, clb_result *res, int cached)
{
    clb_diag *d = &c->diag;
    compile_state s = {.kernel = c->opts->quick ? "compile_short" : c->bench->arg};
    uint64_t rng = (uint64_t)(clb_now() * 1e9);
    cl_program prog = NULL;
    unsigned reps = c->opts->quick && clb_reps(c) > 3 ? 3 : clb_reps(c), n = 0;
    double x[64], ph[64][CLB_PHASES], t = 0;
    if (!c->opts->binary_cache_dir || !*c->opts->binary_cache_dir)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "the binary cache is off (--no-binary-cache)");
    reps = reps > 64 ? 64 : reps;
    for (unsigned i = 0; i < (c->opts->warmup ? c->opts->warmup : 1); i++) /* warm-up */
        if (binary_rep(c, &s, &rng, cached, &prog, &t, ph[0]) != CLB_OK)
            goto cleanup;
    for (n = 0; n < reps; n++) {
        if (binary_rep(c, &s, &rng, cached, &prog, &t, ph[n]) != CLB_OK)
            goto cleanup;
        x[n] = 1e3 * t;
    }
    /* The last program (made from the loaded binary for binary_cached) runs and is checked. */
    if (run_kernel(c, &s, prog) != CLB_OK || clb_validate(c, &s, NULL, 0) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "program", s.kernel);
    clb_param_str(res, "binary_cache", cached ? "hit" : "miss"); /* what the timed builds were */
    clb_param_num(res, "source_bytes", (double)strlen(clb_kernel_source(s.kernel)));
    phase_params(res, ph, n, cached);
    if (clb_result_set_samples(res, x, n, "ms", 0,
                               cached ? "wall_clock_monotonic read+check+binary build" : "wall_clock_monotonic build+store") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    clb_release_program(prog);
    return d->err;
}

static clb_error binary_cold_run(clb_ctx *c, clb_result *res) { return binary_run(c, res, 0); }
static clb_error binary_cached_run(clb_ctx *c, clb_result *res) { return binary_run(c, res, 1); }

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
    {"compile.binary_cold", "compile", "the 90-function program (--quick: the minimal one) built from a new source "
     "and its binary stored in the binary cache (ms)", CLB_REQ_COMPILER, binary_cold_run, clb_compile_validate, "compile_long"},
    {"compile.binary_cached", "compile", "the same program loaded from the binary cache: read, checked, built "
     "from the binary (ms)", CLB_REQ_COMPILER, binary_cached_run, clb_compile_validate, "compile_long"},
};
const size_t clb_compile_row_count = sizeof clb_compile_rows / sizeof clb_compile_rows[0];
