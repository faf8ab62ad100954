/* app.strmatch.*: StringMatch of seed 004 (TORMENT OpenACC): the first occurrence of each of
 * five 1000-byte patterns (four planted, one absent) in a 10 MB text, naive algorithm. Rows:
 * the sequential search, all host cores, and three OpenCL kernels (one start position per
 * work-item; text tile and pattern in local memory; strided positions per work-item with an
 * early exit). Every run's positions must equal the sequential ones. Headline: GB/s of text
 * scanned, text bytes x patterns / time (docs/apps/strmatch.md). */
#include "apps/strmatch/strmatch.h"

#include <stdlib.h>
#include <string.h>

typedef enum { S_SEQ, S_PTHREADS, S_NAIVE, S_LOCAL, S_EARLY } sm_kind;
static const char *const variants[] = {"sequential", "pthreads", "cl_naive", "cl_local", "cl_early"};
static const char *const kernels[] = {NULL, NULL, "strmatch_cl_naive", "strmatch_cl_local", "strmatch_cl_early"};

/* Local size, cl_local's start positions per work-item, cl_early's groups per compute unit. */
enum { LOCAL = 256, TILE_W = 16, GROUPS_PER_CU = 8 };

typedef struct sm_state {
    clb_ctx *c;
    sm_kind kind;
    strmatch_input in;
    long long want[STRMATCH_NPAT], got[STRMATCH_NPAT];
    unsigned threads;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem text, pats, first; /* first: one uint per pattern */
    size_t global[2], local[2];
    size_t border; /* positions per tile (work-group), stride or host slice: check texts */
} sm_state;

static clb_error once(void *state, double *seconds, clb_diag *d)
{
    sm_state *s = state;
    const cl_uint none = 0xFFFFFFFFu;
    clb_diag_clear(d);
    if (s->kind == S_SEQ || s->kind == S_PTHREADS) {
        double t0 = clb_now();
        if (s->kind == S_SEQ)
            strmatch_host_sequential(&s->in, s->got);
        else if (strmatch_host_pthreads(&s->in, s->threads, s->got, d) != CLB_OK)
            return d->err;
        *seconds = clb_now() - t0;
        return CLB_OK;
    }
    CLB_CL(d, clEnqueueFillBuffer(s->q, s->first, &none, sizeof none, 0, s->in.npat * sizeof none, 0, NULL, NULL));
    app_launch(s->q, s->k, 2, s->global, s->local, seconds, d);
cleanup:
    return d->err;
}

/* The device rows' positions into s->got. */
static clb_error read_got(sm_state *s, clb_diag *d)
{
    cl_uint f[STRMATCH_NPAT];
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->first, CL_TRUE, 0, s->in.npat * sizeof *f, f, 0, NULL, NULL));
    for (size_t k = 0; k < s->in.npat; k++)
        s->got[k] = f[k] == 0xFFFFFFFFu ? -1 : (long long)f[k];
cleanup:
    return d->err;
}

static clb_error validate(clb_ctx *c, void *state, clb_diag *d)
{
    sm_state *s = state;
    clb_diag_clear(d);
    if (s->kind == S_SEQ || s->kind == S_PTHREADS) {
        clb_fault_apply_host(c, s->got, sizeof s->got);
        return strmatch_check(&s->in, s->want, s->got, d);
    }
    if (read_got(s, d) == CLB_OK)
        strmatch_check(&s->in, s->want, s->got, d);
    return d->err;
}

/* Puts text (in->len bytes) where the row searches: s->in.text, and the device's copy. */
static clb_error use_text(sm_state *s, char *text, clb_diag *d)
{
    s->in.text = text;
    if (s->kind != S_SEQ && s->kind != S_PTHREADS)
        CLB_CL(d, clEnqueueWriteBuffer(s->q, s->text, CL_TRUE, 0, s->in.len, text, 0, NULL, NULL));
cleanup:
    return d->err;
}

/* Before any time counts: the row's answers on the check texts (every pattern planted at the
 * start, across a border of the row's tiles or slices, on one, at a random place and at the
 * end; then decoys only) must be the planted positions. */
static clb_error check_texts(sm_state *s, size_t border, clb_diag *d)
{
    char *main_text = s->in.text, *text = malloc(s->in.len), why[sizeof d->msg];
    long long want[STRMATCH_NPAT];
    uint64_t seed = (uint64_t)(clb_now() * 1e9) ^ clb_poison_word(s->c);
    double sec = 0;
    clb_diag_clear(d);
    if (!text)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory for a check text");
    for (size_t v = 0; v < STRMATCH_CHECK_TEXTS && d->err == CLB_OK; v++) {
        strmatch_check_text(&s->in, v, border, seed, text, want);
        if (use_text(s, text, d) != CLB_OK || once(s, &sec, d) != CLB_OK)
            break;
        if ((s->kind == S_SEQ || s->kind == S_PTHREADS || read_got(s, d) == CLB_OK) &&
            strmatch_check(&s->in, want, s->got, d) != CLB_OK) {
            snprintf(why, sizeof why, "%s", d->msg);
            clb_diag_set(d, CLB_ERR_INVALID_RESULT, "check text %zu (planted at 0, a border of %zu, "
                         "random, the end; %zu: decoys only): %s", v, border, (size_t)STRMATCH_NPAT, why);
        }
    }
    clb_diag failed = *d;
    clb_diag_clear(d);
    if (use_text(s, main_text, d) == CLB_OK && failed.err != CLB_OK)
        *d = failed;
    free(text);
    clb_param_num(s->c->res, "check_texts", STRMATCH_CHECK_TEXTS);
    clb_param_num(s->c->res, "check_border", (double)border);
    return d->err;
}

/* The NDRange (dimension 1: the patterns) and cl_local's tile width, from the device's
 * compute units, work-group and local-memory limits. */
static clb_error geometry(sm_state *s, cl_device_id dev, cl_uint *w, size_t *lbytes, clb_diag *d)
{
    cl_uint cu = 0;
    cl_ulong lmem = 0;
    size_t wg = 0, npos = s->in.len - s->in.m + 1, m = s->in.m;
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    s->local[0] = wg < LOCAL ? wg : LOCAL;
    s->local[1] = 1;
    *w = s->kind == S_LOCAL ? TILE_W : 1;
    while (*w > 1 && *w * s->local[0] + 2 * m > lmem)
        *w /= 2;
    *lbytes = s->kind == S_LOCAL ? *w * s->local[0] + 2 * m - 1 : s->kind == S_EARLY ? m : 0;
    if (*lbytes > lmem)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "the kernel needs %zu bytes of local memory, the device has %llu",
                 *lbytes, (unsigned long long)lmem);
    size_t span = *w * s->local[0];
    s->global[0] = s->kind == S_EARLY ? (size_t)cu * GROUPS_PER_CU * s->local[0]
                                      : (npos + span - 1) / span * s->local[0];
    s->global[1] = s->in.npat;
    s->border = s->kind == S_EARLY ? s->global[0] : span;
    clb_param_num(s->c->res, "compute_units", cu);
    clb_param_num(s->c->res, "local_mem_bytes", (double)lmem);
cleanup:
    return d->err;
}

static clb_error set_args(sm_state *s, cl_uint w, size_t lbytes, clb_diag *d)
{
    cl_uint len = (cl_uint)s->in.len, npos = (cl_uint)(s->in.len - s->in.m + 1), m = (cl_uint)s->in.m;
    cl_uint a = 0;
    CLB_CL(d, clSetKernelArg(s->k, a++, sizeof s->text, &s->text));
    if (s->kind == S_LOCAL)
        CLB_CL(d, clSetKernelArg(s->k, a++, sizeof len, &len));
    CLB_CL(d, clSetKernelArg(s->k, a++, sizeof npos, &npos));
    CLB_CL(d, clSetKernelArg(s->k, a++, sizeof s->pats, &s->pats));
    CLB_CL(d, clSetKernelArg(s->k, a++, sizeof m, &m));
    CLB_CL(d, clSetKernelArg(s->k, a++, sizeof s->first, &s->first));
    if (s->kind == S_LOCAL) {
        CLB_CL(d, clSetKernelArg(s->k, a++, sizeof w, &w));
        CLB_CL(d, clSetKernelArg(s->k, a++, lbytes - s->in.m, NULL));
    }
    if (s->kind != S_NAIVE)
        CLB_CL(d, clSetKernelArg(s->k, a++, s->in.m, NULL));
cleanup:
    return d->err;
}

static clb_error setup_device(sm_state *s, clb_diag *d)
{
    cl_device_id dev = clb_device_reference(s->c->dev)->device;
    cl_context ctx = clb_device_context(s->c->dev);
    cl_uint w = 1;
    size_t lbytes = 0;
    s->q = clb_device_queue(s->c->dev);
    if (s->in.len > ((size_t)1 << 31))
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "the kernels index the text with 32-bit positions: at most 2^31 bytes");
    if (app_need_int32_atomics(s->c) != CLB_OK || clb_build(s->c, "strmatch", NULL, "", &s->prog) != CLB_OK)
        return d->err;
    CLB_CL(d, s->k = clCreateKernel(s->prog, kernels[s->kind], CLB_ERRP));
    if (geometry(s, dev, &w, &lbytes, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->text = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in.len, s->in.text, CLB_ERRP));
    CLB_CL(d, s->pats = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s->in.npat * s->in.m, s->in.pats, CLB_ERRP));
    CLB_CL(d, s->first = clCreateBuffer(ctx, CL_MEM_READ_WRITE, s->in.npat * sizeof(cl_uint), NULL, CLB_ERRP));
    if (set_args(s, w, lbytes, d) != CLB_OK)
        goto cleanup;
    clb_param_str(s->c->res, "kernel", kernels[s->kind]);
    clb_param_num(s->c->res, "local_size", (double)s->local[0]);
    clb_param_num(s->c->res, "global_size", (double)s->global[0]);
    clb_param_num(s->c->res, "work_groups", (double)(s->global[0] / s->local[0]));
    clb_param_num(s->c->res, "positions_per_item", s->kind == S_EARLY ? (double)((s->in.len - s->in.m + s->global[0]) / s->global[0]) : w);
    clb_param_num(s->c->res, "local_bytes", (double)lbytes);
cleanup:
    return d->err;
}

static cJSON *positions(const long long *p, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t k = 0; k < n; k++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)p[k]));
    return a;
}

static void input_params(clb_result *res, const strmatch_input *in)
{
    clb_param_str(res, "app", "strmatch");
    clb_param_num(res, "n", (double)in->len);
    clb_param_num(res, "text_bytes", (double)in->len);
    clb_param_num(res, "pattern_len", (double)in->m);
    clb_param_num(res, "patterns", (double)in->npat);
    clb_param_str(res, "alphabet", STRMATCH_ALPHABET);
    clb_param_str(res, "rate", "text_bytes x patterns / time (positions past a first match count as scanned)");
    cJSON_AddItemToObject(res->params, "planted_positions", positions(in->planted, in->npat));
}

/* The reference: the sequential search (the sequential row's own is the pthreads one). */
static clb_error reference(sm_state *s, clb_diag *d)
{
    if (s->kind == S_SEQ)
        return strmatch_host_pthreads(&s->in, app_host_threads(), s->want, d);
    strmatch_host_sequential(&s->in, s->want);
    return CLB_OK;
}

static clb_error sm_run(clb_ctx *c, clb_result *res)
{
    const sm_kind *kind = c->bench->arg;
    sm_state s = {.c = c, .kind = *kind, .threads = app_host_threads()};
    int host = s.kind == S_SEQ || s.kind == S_PTHREADS;
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (strmatch_input_make(&s.in, strmatch_bytes(c), d) != CLB_OK)
        goto cleanup;
    input_params(res, &s.in);
    clb_param_str(res, "variant", variants[s.kind]);
    clb_param_num(res, "rung_index", (double)s.kind);
    if (host) {
        clb_param_str(res, "runs_on", "host CPU (not the OpenCL device)");
        clb_param_num(res, "host_threads", s.kind == S_SEQ ? 1 : s.threads);
    } else if (setup_device(&s, d) != CLB_OK) {
        goto cleanup;
    }
    if (host)
        s.border = s.in.len / (s.kind == S_SEQ ? 2 : s.threads);
    if (reference(&s, d) != CLB_OK || check_texts(&s, s.border, d) != CLB_OK)
        goto cleanup;
    app_timing t = {&s, once, (double)s.in.len * (double)s.in.npat, 1e-9, "GB/s",
                    host ? "wall_clock_monotonic, one host run" : "cl_event_profiling START->END, wall-clock checked",
                    s.first, s.in.npat * sizeof(cl_uint)};
    if (app_measure(c, &t) == CLB_OK) {
        cJSON_AddItemToObject(res->params, "positions", positions(s.got, s.in.npat));
        /* The roofline point (docs/roofline.md): at least one character comparison per start
         * position and pattern (a lower bound of the work), the text and patterns read once. */
        clb_param_num(res, "flops", (double)s.in.len * (double)s.in.npat);
        clb_param_num(res, "bytes", (double)s.in.len + (double)(s.in.npat * s.in.m));
        clb_param_str(res, "roof_precision", "int32");
        clb_param_num(res, "giops", res->value);
    }
cleanup:
    clb_release_mem(s.text);
    clb_release_mem(s.pats);
    clb_release_mem(s.first);
    clb_release_kernel(s.k);
    clb_release_program(s.prog);
    strmatch_input_free(&s.in);
    return d->err;
}

static const sm_kind k_seq = S_SEQ, k_pth = S_PTHREADS, k_naive = S_NAIVE, k_local = S_LOCAL, k_early = S_EARLY;
#define REQ (CLB_REQ_COMPILER | CLB_REQ_APP)
const clb_bench clb_app_strmatch_rows[] = {
    {"app.strmatch.sequential", "app", "StringMatch (seed 004), naive first occurrences on the host, one thread (GB/s of text x patterns)", REQ, sm_run, validate, &k_seq},
    {"app.strmatch.pthreads", "app", "StringMatch on the host, one slice of start positions per core (GB/s)", REQ, sm_run, validate, &k_pth},
    {"app.strmatch.cl_naive", "app", "StringMatch, one start position per work-item, atomic_min (GB/s)", REQ, sm_run, validate, &k_naive},
    {"app.strmatch.cl_local", "app", "StringMatch, text tile and pattern staged in local memory (GB/s)", REQ, sm_run, validate, &k_local},
    {"app.strmatch.cl_early", "app", "StringMatch, strided positions per work-item, early exit past a known match (GB/s)", REQ, sm_run, validate, &k_early},
};
const size_t clb_app_strmatch_row_count = sizeof clb_app_strmatch_rows / sizeof clb_app_strmatch_rows[0];
