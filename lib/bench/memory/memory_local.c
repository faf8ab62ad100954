/* memory.local_read, memory.local_rw, memory.local_bank_conflicts, memory.constant_*:
 * on-chip memory bandwidth (lib/bench/memory/memory_local.cl). Bytes counted: every vector a kernel
 * loads (and, for local_rw, stores) in the timed loop; the one-time copy into local memory
 * is not counted (it is amortized over many rounds). */
#include "bench/memory/memory.h"

#include <stdlib.h>
#include <string.h>

typedef enum { L_READ, L_RW, L_CONST } lkind;

typedef struct lcfg {
    lkind kind;
    cl_uint stride; /* L_READ: words between neighbouring items' starts; L_CONST: 0 or 1 */
} lcfg;

typedef struct lstate {
    lkind kind;
    cl_command_queue q;
    cl_kernel k;
    cl_mem in, out;
    size_t local, groups;
    cl_uint vw, n, stride, rounds;
    cl_uint *hin;      /* groups x n x vw words (L_CONST: n x vw) */
    cl_uint *sums;     /* word sum of each group's slice */
    double bytes_per_round;
} lstate;

/* Local arrays of 8 KiB per group (16 KiB for constant memory, within 64 KiB limits). */
static cl_uint vectors_for(const mem_device *m, lkind k, cl_uint vw)
{
    cl_ulong bytes = k == L_CONST ? 16384 : 8192;
    cl_ulong cap = k == L_CONST ? m->const_buffer : m->local_mem / 2;
    while (bytes > cap && bytes > 64)
        bytes /= 2;
    return (cl_uint)(bytes / (4u * vw));
}

static clb_error l_enqueue(void *state, uint64_t scale, cl_event *ev, clb_diag *d)
{
    lstate *s = state;
    cl_uint rounds = (cl_uint)scale;
    size_t global = s->groups * s->local;
    CLB_CL(d, clSetKernelArg(s->k, s->kind == L_CONST ? 3 : 4, sizeof rounds, &rounds));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &global, &s->local, 0, NULL, ev));
    s->rounds = rounds;
cleanup:
    return d->err;
}

static double l_work(const void *state, uint64_t scale)
{
    const lstate *s = state;
    return s->bytes_per_round * (double)scale;
}

static clb_error l_setup(clb_ctx *c, lstate *s, const mem_device *m)
{
    clb_diag *d = &c->diag;
    size_t slices = s->kind == L_CONST ? 1 : s->groups;
    size_t words = slices * s->n * s->vw;
    if (!(s->hin = malloc(words * 4)) || !(s->sums = calloc(slices, sizeof *s->sums)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    clb_fill_random(s->hin, words * 4, 0x10ca1000u + s->vw);
    for (size_t g = 0; g < slices; g++)
        s->sums[g] = mem_sum_words(s->hin + g * s->n * s->vw, (size_t)s->n * s->vw);
    CLB_CL(d, s->in = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     words * 4, s->hin, CLB_ERRP));
    size_t out_bytes = s->kind == L_RW ? words * 4 : s->groups * s->local * 4;
    CLB_CL(d, s->out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, out_bytes, NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    if (s->kind == L_CONST) {
        CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->n, &s->n));
        CLB_CL(d, clSetKernelArg(s->k, 4, sizeof s->stride, &s->stride));
    } else {
        CLB_CL(d, clSetKernelArg(s->k, 2, (size_t)s->n * s->vw * 4, NULL));
        CLB_CL(d, clSetKernelArg(s->k, 3, sizeof s->n, &s->n));
        if (s->kind == L_READ)
            CLB_CL(d, clSetKernelArg(s->k, 5, sizeof s->stride, &s->stride));
    }
    double vec = 4.0 * s->vw;
    s->bytes_per_round = s->kind == L_RW ? (double)s->groups * (double)s->n * vec * 2
                                         : (double)(s->groups * s->local) * (double)s->n * vec;
    (void)m;
cleanup:
    return d->err;
}

static void l_free(lstate *s)
{
    clb_release_mem(s->in);
    clb_release_mem(s->out);
    clb_release_kernel(s->k);
    free(s->hin);
    free(s->sums);
}

static clb_error l_run_width(clb_ctx *c, const void *cfgp, unsigned vw)
{
    clb_diag *d = &c->diag;
    const lcfg *cfg = cfgp;
    lstate s = {.kind = cfg->kind, .q = clb_device_queue(c->dev), .vw = vw, .stride = cfg->stride};
    mem_device m;
    cl_program prog = NULL;
    char opts[128];
    static const char *const kernels[] = {"local_read", "local_rw", "const_read"};
    if (mem_device_query(c, &m) != CLB_OK)
        goto cleanup;
    mem_grid(&m, &s.local, &s.groups);
    if (cfg->kind != L_CONST && m.local_mem < 1024)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "the device has %llu bytes of local memory",
                 (unsigned long long)m.local_mem);
    s.n = vectors_for(&m, cfg->kind, vw);
    mem_vec_options(opts, sizeof opts, vw, NULL);
    if (clb_build(c, "memory_local", NULL, opts, &prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.k = clCreateKernel(prog, kernels[cfg->kind], CLB_ERRP));
    if (l_setup(c, &s, &m) != CLB_OK)
        goto cleanup;
    clb_workload w = {.state = &s, .enqueue = l_enqueue, .work = l_work, .min_scale = 1,
                      .max_scale = 1u << 24, .output = s.out,
                      .output_bytes = cfg->kind == L_RW ? s.groups * s.n * vw * 4 : s.groups * s.local * 4,
                      .unit_factor = 1e-9, .unit = "GB/s"};
    if (clb_measure(c, &w) != CLB_OK)
        goto cleanup;
    clb_param_num(c->res, "vector_width", vw);
    clb_param_num(c->res, "local_size", (double)s.local);
    clb_param_num(c->res, "work_groups", (double)s.groups);
    clb_param_num(c->res, "array_bytes", (double)s.n * vw * 4);
    if (cfg->kind != L_RW)
        clb_param_num(c->res, "stride_words", cfg->stride);
    clb_param_str(c->res, "local_memory_type", m.local_type == CL_LOCAL ? "dedicated" : "emulated in global memory");
cleanup:
    l_free(&s);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_memory_local_validate(clb_ctx *c, void *state, clb_diag *d)
{
    lstate *s = state;
    size_t n = s->kind == L_RW ? s->groups * s->n * s->vw : s->groups * s->local;
    cl_uint *out = malloc(n * 4), a = 1, b = 0;
    if (!out)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, n * 4, out, 0, NULL, NULL));
    for (cl_uint r = 0; r < s->rounds; r++) { /* x -> 3x + 1, `rounds` times: x -> a x + b */
        a *= 3u;
        b = b * 3u + 1u;
    }
    for (size_t i = 0; i < n; i++) {
        cl_uint want = s->kind == L_RW     ? s->hin[i] * a + b
                       : s->kind == L_CONST ? s->rounds * s->sums[0]
                                            : s->rounds * s->sums[i / s->local];
        if (out[i] != want)
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "word %zu: 0x%08x, host expects 0x%08x", i,
                     (unsigned)out[i], (unsigned)want);
    }
    (void)c;
cleanup:
    free(out);
    return d->err;
}

clb_error clb_memory_local_run(clb_ctx *c, clb_result *res)
{
    const char *arg = c->bench->arg;
    lcfg cfg = {L_READ, 1};
    (void)res;
    if (strcmp(arg, "local_rw") == 0)
        cfg.kind = L_RW;
    if (strncmp(arg, "constant", 8) == 0) {
        cfg.kind = L_CONST;
        cfg.stride = strcmp(arg, "constant_divergent") == 0;
        return l_run_width(c, &cfg, 1);
    }
    return mem_search_widths(c, 1, l_run_width, &cfg);
}

/* The bank-conflict sweep: local_read at width 1 with strides 1..32 words. */
clb_error clb_memory_local_banks_run(clb_ctx *c, clb_result *res)
{
    double x[32], y[32];
    size_t n = 0, worst = 0;
    clb_run_opts o;
    clb_result keep;
    int have = 0;
    mem_sweep_opts(c, 3, &o);
    for (cl_uint s = 1; s <= 32; s++) {
        if (c->opts->quick && s != 1 && s != 2 && s != 32)
            continue;
        lcfg cfg = {L_READ, s};
        clb_result r;
        if (mem_measure_scratch(c, l_run_width, &cfg, 1, &o, NULL, &r) != CLB_OK)
            goto cleanup;
        x[n] = s;
        y[n] = r.value;
        if (!have || r.value < keep.value) {
            if (have)
                clb_result_free(&keep);
            keep = r;
            have = 1;
            worst = n;
        } else {
            clb_result_free(&r);
        }
        n++;
    }
    mem_adopt(c, &keep); /* headline: the slowest stride */
    have = 0;
    cJSON_AddItemToObject(res->params, "curve", clb_curve("stride", "words", "local read bandwidth", "GB/s", 0, NULL, x, y, n));
    clb_param_num(res, "worst_stride_words", x[worst]);
    clb_param_num(res, "slowdown_vs_stride_1", y[0] / y[worst]);
cleanup:
    if (have)
        clb_result_free(&keep);
    return c->diag.err;
}
