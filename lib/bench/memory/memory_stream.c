/* memory.read_linear, write, copy, scale, add, triad, read_strided, read_random: each the best
 * of a family of kernels (docs/results/memory.md, "Kernel families"). The straightforward
 * form (lib/bench/memory/memory.cl, simple_*: one vector per work-item, global size = vectors) at
 * widths 1..16 and work-group sizes 128/256/1024 (and the driver's choice for write and
 * STREAM), read_linear's 16-vectors-per-work-item forms (reduced per group, or per-item sums with
 * no reduction; the best reduced one also at 8, 32, 64 vectors per work-item), and memory.c's
 * chunked/tile layout at widths 1, 4, 16, are screened with a few
 * validated launches each; the runner then measures the best two in full and the higher
 * median is the result. params.variants holds every variant's figures. */
#include "bench/memory/memory.h"

#include <stdlib.h>
#include <string.h>

typedef enum { F_READ, F_WRITE, F_STREAM } fkind;

typedef struct frow {
    const char *name;
    fkind kind;
    int pattern;     /* F_READ: 0 linear, 1 strided, 2 random; F_STREAM: the OP */
    unsigned arrays; /* arrays the kernel touches */
    int chunked;     /* 1: memory.c's chunked/tile layout of the same name joins the family */
} frow;

static const frow frows[] = {
    {"read_linear", F_READ, 0, 1, 1}, {"read_strided", F_READ, 1, 1, 0},
    {"read_random", F_READ, 2, 1, 0}, {"write", F_WRITE, 0, 1, 1},
    {"copy", F_STREAM, 0, 2, 1},      {"scale", F_STREAM, 1, 2, 1},
    {"add", F_STREAM, 2, 3, 1},       {"triad", F_STREAM, 3, 3, 1},
};

#define STREAM_K 3u
#define MAX_VARIANTS 32
/* Vectors per work-item of the several-per-item and per-item-sum reads (clpeak's FETCH_PER_WI);
 * both keep that many loads in flight per work-item. */
#define READ_FETCH 16u
#define FINALISTS 2

/* One member of the family. */
typedef struct fvariant {
    int chunked;   /* 0: the straightforward form */
    unsigned vw;
    unsigned fetch; /* straightforward reads: vectors per work-item (memory.cl, FETCH) */
    int per_item;  /* linear reads: 1 + memory.cl's LAYOUT for the reduction-free form, else 0 */
    size_t local;  /* straightforward form: 0 = the driver's choice */
    int screened;  /* 1 when `screen` holds the screening median (GB/s) */
    double screen;
    char skipped[160]; /* why it was left out (too slow for the watchdog, or failed), or "" */
    int failed;    /* 1: its output failed validation while screened (never a finalist) */
    int measured;  /* 1 when `full` holds the full measurement's median */
    double full;
} fvariant;

typedef struct fstate {
    const frow *r;
    mem_device m;
    cl_command_queue q;
    cl_mem a, b, c, idx, out;
    cl_uint *ha, *hb, *hidx; /* host copies of the inputs */
    size_t words;            /* words per array */
    size_t lines;            /* strided / random: lines touched per launch, one per work-item */
    size_t out_words;
    /* the variant being run */
    cl_kernel k;
    unsigned vw;
    unsigned fetch; /* vectors per work-item (1 but for FETCH read variants) */
    int per_item;   /* as fvariant.per_item */
    size_t local; /* 0: the driver's choice */
    size_t total;   /* items of a pass: work-items (vectors / fetch), or lines */
    size_t block;   /* items per unit of scale: total / nblocks, a multiple of 1024 */
    size_t nblocks;
    size_t items;   /* global size of the last launch */
    size_t max_items; /* the largest global size of the variant's launches */
    cl_uint base;   /* the last launch's first item */
    cl_uint next;   /* the next launch's first item */
    cl_uint stride, tag;
} fstate;

/* A variant of fstate s to measure (the cfg of a mem_variant_fn). */
typedef struct fjob {
    fstate *s;
    size_t local;
    unsigned fetch;
    int per_item;
} fjob;

static const frow *frow_named(const char *name)
{
    for (size_t i = 0; i < sizeof frows / sizeof frows[0]; i++)
        if (strcmp(frows[i].name, name) == 0)
            return &frows[i];
    return NULL;
}

static int sparse(const frow *r) { return r->kind == F_READ && r->pattern != 0; }

/* Blocks per launch at the runner's scale. Write and STREAM: the largest power of two <= scale,
 * so that launches tile the pass (nblocks is a power of two: the arrays are) and the kernel
 * needs no wrap (memory.cl, simple_write); reads: scale. */
static uint64_t f_blocks(const fstate *s, uint64_t scale)
{
    uint64_t b = 1;
    if (s->r->kind == F_READ)
        return scale;
    while (b * 2 <= scale)
        b *= 2;
    return b;
}

/* Bytes counted per launch: data read and written (STREAM's convention); strided and random
 * reads count a whole fetch unit per line touched and random the 4-byte index too. */
static double f_work(const void *state, uint64_t scale)
{
    const fstate *s = state;
    double items = (double)s->block * (double)f_blocks(s, scale);
    if (sparse(s->r))
        return items * (s->m.fetch_bytes + (s->r->pattern == 2 ? 4.0 : 0.0));
    return items * s->fetch * 4.0 * s->vw * s->r->arrays;
}

/* GPU linear rows outside --quick (read_linear, write, STREAM): >= READ_GPU_BYTES per array.
 * One launch covers one pass, and a launch's ramp-up and last partial wave cost a few
 * microseconds whatever its length: at 256 MiB an H100 read launch lasted 90 us (clpeak 1.1.2
 * reads 512 MiB per launch), and on the H200 the straightforward float4 STREAM moved 2-5 % more
 * per second at 1 GiB per array than at 256 MiB (docs/results/stream-2026-11-25-h200.md).
 * Measurement hook clb_settings.read_bytes (CLBENCH_READ_BYTES=N) sets read_linear's N bytes (rounded down to MiB) on any
 * device (docs/cli.md). */
#define READ_GPU_BYTES (1ull << 30)
static cl_ulong read_bytes(clb_ctx *c, const fstate *s, cl_ulong bytes)
{
    int linear_read = s->r->kind == F_READ && s->r->pattern == 0;
    cl_ulong given = linear_read ? clb_settings_get()->read_bytes : 0;
    int env = given > 0, gpu = (s->m.type & CL_DEVICE_TYPE_GPU) && !(s->m.type & CL_DEVICE_TYPE_CPU);
    cl_ulong want = env ? given >> 20 << 20 : READ_GPU_BYTES;
    cl_ulong cap = s->m.global_mem / 4 / s->r->arrays;
    cap = cap < s->m.max_alloc ? cap : s->m.max_alloc;
    cap = cap < (4ull << 30) ? cap : 4ull << 30; /* memory.cl indexes words with uint */
    if (sparse(s->r) || (!env && (c->opts->quick || !gpu)))
        return bytes;
    while (want > cap && want > (1u << 20))
        want /= 2;
    if (!env && want < bytes)
        return bytes;
    return clb_shrink_size(c, (size_t)(want ? want : 1u << 20), 256u << 10);
}

/* Array sizes: >= 4x the largest cache (mem_dram_bytes). Strided / random: that is the
 * footprint (lines x fetch unit); the array is lines x line bytes. */
static void f_sizes(clb_ctx *c, fstate *s)
{
    cl_ulong bytes = read_bytes(c, s, mem_dram_bytes(c, &s->m, sparse(s->r) ? 2 : s->r->arrays));
    if (sparse(s->r)) {
        cl_ulong cap = s->m.global_mem / 3 < s->m.max_alloc ? s->m.global_mem / 3 : s->m.max_alloc;
        while (bytes / s->m.fetch_bytes * s->m.line_bytes > cap && bytes > (1u << 20))
            bytes /= 2;
        s->lines = (size_t)(bytes / s->m.fetch_bytes);
        bytes = (cl_ulong)s->lines * s->m.line_bytes;
    }
    s->words = (size_t)(bytes / 4);
}

static clb_error f_alloc(clb_ctx *c, fstate *s, size_t min_local)
{
    clb_diag *d = &c->diag;
    cl_uint *hc = NULL;
    f_sizes(c, s);
    s->ha = mem_host_random(s->words, 0x5eed0011u);
    if (!s->ha)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for %zu words", s->words);
    cl_mem_flags ro = CL_MEM_READ_ONLY, rw = CL_MEM_READ_WRITE;
    if (mem_upload(c, &s->a, s->ha, s->words * 4, s->r->kind == F_WRITE ? rw : ro) != CLB_OK)
        goto cleanup;
    if (s->r->kind == F_STREAM) {
        s->hb = mem_host_random(s->words, 0x5eed0012u);
        hc = mem_host_random(s->words, 0x5eed0013u);
        if (!s->hb || !hc)
            CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
        if (mem_upload(c, &s->b, s->hb, s->words * 4, ro) != CLB_OK ||
            mem_upload(c, &s->c, hc, s->words * 4, rw) != CLB_OK)
            goto cleanup;
    }
    if (s->r->kind == F_READ) {
        /* one word per work-group, or per work-item for the per-item form (>= READ_FETCH words
         * read per item) */
        s->out_words = sparse(s->r) ? s->lines / min_local
                       : s->words / (min_local < READ_FETCH ? min_local : READ_FETCH);
        if (mem_upload(c, &s->out, NULL, s->out_words * 4, CL_MEM_WRITE_ONLY) != CLB_OK)
            goto cleanup;
    }
    if (s->r->pattern == 2 && s->r->kind == F_READ) {
        if (!(s->hidx = mem_random_permutation(s->lines, 0x1d1u)))
            CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for the index array");
        if (mem_upload(c, &s->idx, s->hidx, s->lines * 4, ro) != CLB_OK)
            goto cleanup;
    }
cleanup:
    free(hc);
    return d->err;
}

/* Releases the buffers and host copies (s stays reusable). */
static void f_free(fstate *s)
{
    cl_mem *bufs[] = {&s->a, &s->b, &s->c, &s->idx, &s->out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        clb_release_mem(*bufs[i]);
        *bufs[i] = NULL;
    }
    clb_release_kernel(s->k);
    s->k = NULL;
    free(s->ha);
    free(s->hb);
    free(s->hidx);
    s->ha = s->hb = s->hidx = NULL;
}

static const char *f_kernel(const frow *r)
{
    return r->kind == F_READ ? "simple_read" : r->kind == F_WRITE ? "simple_write" : "simple_stream";
}

/* Builds the width's program, creates the kernel and sets its arguments for local size. */
static clb_error f_bind(clb_ctx *c, fstate *s, const fvariant *v, cl_program *prog)
{
    clb_diag *d = &c->diag;
    char opts[224], extra[128];
    unsigned vw = v->vw, fetch = v->fetch ? v->fetch : 1;
    size_t local = v->local;
    snprintf(extra, sizeof extra, "-DPATTERN=%d -DOP=%d -DFETCH=%u -DPER_ITEM=%d -DLAYOUT=%d",
             s->r->pattern, s->r->pattern, fetch, v->per_item != 0,
             v->per_item ? v->per_item - 1 : 0);
    mem_vec_options(opts, sizeof opts, vw, extra);
    if (clb_build(c, "memory", NULL, opts, prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->k = clCreateKernel(*prog, f_kernel(s->r), CLB_ERRP));
    s->vw = vw;
    s->fetch = fetch;
    s->per_item = v->per_item;
    s->local = local;
    s->stride = sparse(s->r) ? s->m.line_bytes / (4u * vw) : 1u;
    /* FETCH: whole blocks of fetch x local vectors (the kernel's group block) */
    s->total = sparse(s->r) ? s->lines
               : fetch > 1  ? s->words / vw / (fetch * local) * local
                            : s->words / vw;
    s->nblocks = s->total / 1024 < 64 ? (s->total / 1024 ? s->total / 1024 : 1) : 64;
    s->block = s->total / s->nblocks;
    s->next = 0;
    s->items = s->max_items = 0;
    /* reads: `total` follows the `base` argument (memory.cl, SIMPLE_ITEM) */
    cl_uint total = (cl_uint)s->total;
    if (s->r->kind == F_READ) {
        CLB_CL(d, clSetKernelArg(s->k, 6, sizeof total, &total));
        cl_mem idx = s->idx ? s->idx : s->a;
        CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
        CLB_CL(d, clSetKernelArg(s->k, 1, sizeof idx, &idx));
        CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->out, &s->out));
        CLB_CL(d, clSetKernelArg(s->k, 3, local * 4, NULL));
        CLB_CL(d, clSetKernelArg(s->k, 4, sizeof s->stride, &s->stride));
    } else if (s->r->kind == F_STREAM) {
        const cl_uint kk = STREAM_K;
        CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
        CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->b, &s->b));
        CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->c, &s->c));
        CLB_CL(d, clSetKernelArg(s->k, 3, sizeof kk, &kk));
    } else {
        CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    }
cleanup:
    return d->err;
}

static clb_error f_enqueue(void *state, uint64_t scale, cl_event *ev, clb_diag *d)
{
    fstate *s = state;
    cl_uint tag = s->tag + 1, a0 = s->r->kind == F_READ ? 5 : s->r->kind == F_WRITE ? 2 : 4;
    size_t items = s->block * (size_t)f_blocks(s, scale);
    /* Write and STREAM: a launch that would run past the end of the pass starts at vector 0
     * instead (the kernels have no wrap). With power-of-two launches that happens only when
     * the calibration changes the size: in the steady state the launches tile the pass and
     * every vector comes back only after the whole array. */
    if (s->r->kind != F_READ && s->next + items > s->total)
        s->next = 0;
    if (s->r->kind == F_WRITE)
        CLB_CL(d, clSetKernelArg(s->k, 1, sizeof tag, &tag));
    CLB_CL(d, clSetKernelArg(s->k, a0, sizeof s->next, &s->next));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &items, s->local ? &s->local : NULL, 0,
                                     NULL, ev));
    s->tag = tag;
    s->items = items;
    s->max_items = items > s->max_items ? items : s->max_items;
    s->base = s->next;
    s->next = (cl_uint)((s->next + items) % s->total);
cleanup:
    return d->err;
}

static cl_mem f_output(const fstate *s, size_t *bytes)
{
    *bytes = s->r->kind != F_READ ? s->words * 4 : s->total / (s->per_item ? 1 : s->local) * 4;
    return s->r->kind == F_READ ? s->out : s->r->kind == F_WRITE ? s->a : s->c;
}

/* Bytes from the start of the output up to the end of the last launch's words. */
static size_t f_written(const void *state)
{
    const fstate *s = state;
    if (s->r->kind == F_READ)
        return s->items / (s->per_item ? 1 : s->local) * 4;
    return ((size_t)s->base + s->items) * s->vw * 4;
}

static void f_params(clb_result *res, const fstate *s)
{
    clb_param_num(res, "vector_width", s->vw);
    clb_param_num(res, "vectors_per_work_item", s->fetch);
    clb_param_num(res, "work_items", (double)s->items);
    clb_param_num(res, "pass_share_per_launch", (double)s->items / (double)s->total);
    clb_param_num(res, "array_bytes", (double)s->words * 4.0);
    clb_param_num(res, "arrays", s->r->arrays);
    clb_param_num(res, "bytes_per_launch", f_work(s, s->items / s->block));
    if (s->per_item) {
        clb_param_num(res, "output_bytes_per_launch", (double)s->items * 4.0);
        clb_param_str(res, "output_bytes_counted", "no: bytes_per_launch counts the array read "
                                                   "only (as the row says); each work-item "
                                                   "also writes its 4-byte sum");
        clb_param_str(res, "fetch_layout", s->per_item == 2 ? "global_offset" : "local_offset");
    }
    clb_param_str(res, "layout", "one vector per work-item, global size = vectors (lines for "
                                 "strided and random reads): one launch = one pass, or a share "
                                 "of it when a pass would not fit the watchdog (write and "
                                 "STREAM: a power-of-two share, the launches tiling the pass)");
}

/* One straightforward variant measured by the runner (a mem_variant_fn). */
static clb_error simple_run(clb_ctx *c, const void *cfg, unsigned vw)
{
    const fjob *j = cfg;
    fstate *s = j->s;
    cl_program prog = NULL;
    size_t out_bytes = 0;
    fvariant v = {.vw = vw, .local = j->local, .fetch = j->fetch, .per_item = j->per_item};
    if (f_bind(c, s, &v, &prog) != CLB_OK)
        goto cleanup;
    cl_mem out = f_output(s, &out_bytes);
    /* A whole pass per launch where it fits (calibration grows to it; --quick: at once). */
    clb_workload w = {.state = s, .enqueue = f_enqueue, .work = f_work,
                      .min_scale = c->opts->quick ? s->nblocks : 1, .max_scale = s->nblocks, .output = out, .output_bytes = out_bytes, .output_written = f_written,
                      .unit_factor = 1e-9, .unit = "GB/s"};
    if (clb_measure(c, &w) != CLB_OK)
        goto cleanup;
    f_params(c->res, s);
cleanup:
    clb_release_kernel(s->k);
    s->k = NULL;
    clb_release_program(prog);
    return c->diag.err;
}

/* ---- the family ---- */

static const unsigned simple_widths[] = {1, 2, 4, 8, 16};
static const size_t local_sizes[] = {0, 128, 256, 1024};

/* The largest power of two <= want that the device allows. */
static size_t fit_local(const mem_device *m, size_t want)
{
    size_t l = 1;
    while (l * 2 <= want && l * 2 <= m->max_wg)
        l *= 2;
    return l;
}

/* Adds the straightforward variant (vw, local) unless it cannot run: sparse reads keep the
 * vector within one fetch unit; reads need a known local size >= 16 for their reduction. */
static size_t add_simple(const fstate *s, fvariant *v, size_t n, const fvariant *want)
{
    if ((sparse(s->r) && 4u * want->vw > s->m.fetch_bytes) || n >= MAX_VARIANTS ||
        (s->r->kind == F_READ && want->local < 16) ||
        (want->fetch > 1 && s->words / want->vw < (size_t)want->fetch * want->local))
        return n; /* the 16-per-item forms: no whole group block in the array */
    for (size_t i = 0; i < n; i++)
        if (!v[i].chunked && v[i].vw == want->vw && v[i].local == want->local &&
            v[i].fetch == want->fetch && v[i].per_item == want->per_item)
            return n;
    v[n] = (fvariant){.vw = want->vw, .local = want->local, .fetch = want->fetch,
                      .per_item = want->per_item};
    return n + 1;
}

/* Testing hook CLBENCH_READ_FORMS=all (docs/cli.md): every form of every DRAM row at every
 * width, also under --quick. */
static int all_forms(void)
{
    const char *env = clb_settings_get()->read_forms;
    return env && strcmp(env, "all") == 0;
}

/* The family's forms, bit i of a mask: form_names[i] is params.variants[].variant. */
enum { FORM_ONE = 1, FORM_SEVERAL = 2, FORM_SUM = 4, FORM_CHUNKED = 8 };
static const char *const form_names[] = {"one_per_item", "several_per_item", "per_item_sum",
                                         "chunked"};

/* The forms to screen: the straightforward one (and the chunked layout where the row has it);
 * linear reads outside --quick also READ_FETCH vectors per work-item, reduced per work-group
 * (several_per_item) or not (per_item_sum: on the H100 every reducing form stayed 2-3 % below
 * clpeak, docs/results/memory.md). Testing hook CLBENCH_READ_FORMS (docs/cli.md): a
 * comma-separated list of form names screens only those, also under --quick. */
static unsigned family_forms(const clb_ctx *c, const frow *r)
{
    unsigned m = FORM_ONE | (r->chunked ? FORM_CHUNKED : 0);
    const char *env = clb_settings_get()->read_forms;
    if (r->kind != F_READ || r->pattern != 0)
        return m;
    if (all_forms())
        return m | FORM_SEVERAL | FORM_SUM;
    if (!env || !*env)
        return c->opts->quick ? m : m | FORM_SEVERAL | FORM_SUM;
    m = 0;
    for (unsigned i = 0; i < sizeof form_names / sizeof form_names[0]; i++) {
        size_t n = strlen(form_names[i]);
        for (const char *p = strstr(env, form_names[i]); p; p = strstr(p + 1, form_names[i]))
            if ((p == env || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
                m |= 1u << i;
    }
    return m;
}

/* The base local size of the width stage: the driver's choice, 256 for the reads, and 1024
 * (clpeak's, its device maximum capped here) for the per-item sums; the 16-per-item forms at
 * most the array's vectors / 16, so that a pass holds one whole group block (small --quick
 * arrays on simulators). */
static size_t base_local(const fstate *s, unsigned form, unsigned vw)
{
    size_t l = form == FORM_SUM ? fit_local(&s->m, 1024)
               : s->r->kind == F_READ ? fit_local(&s->m, 256) : 0;
    while (form != FORM_ONE && l > 16 && s->words / vw / READ_FETCH < l)
        l /= 2;
    return l;
}

/* The screening pass's options: no warm-up beyond calibration's two launches, 3 timed
 * launches (1 with --quick), no fault injection (that is for the finalists). */
static void screen_opts(const clb_ctx *c, clb_run_opts *o)
{
    *o = *c->opts;
    o->warmup = 0;
    o->reps = c->opts->quick ? 1 : 3;
    o->time_budget_s = 0;
    o->inject_fault = 0;
    o->target_s = o->target_s < 0.01 ? o->target_s : 0.01;
}

/* Measures variant v with opts (NULL: the run's own) into *out. */
static clb_error run_variant(clb_ctx *c, fstate *s, const fvariant *v, const clb_run_opts *opts,
                             clb_result *out)
{
    if (v->chunked)
        return mem_measure_scratch(c, mem_chunked_run, mem_chunked_variant(s->r->name), v->vw,
                                   opts, clb_memory_global_validate, out);
    fjob j = {s, v->local, v->fetch, v->per_item};
    return mem_measure_scratch(c, simple_run, &j, v->vw, opts, clb_memory_family_validate, out);
}

/* Screens v[0..n), each from a poisoned output (clb_measure) and validated on what it wrote:
 * a variant too slow for the watchdog is left out, one whose output fails validation is
 * recorded as failed (both with their reason) and never a finalist; any other failure fails
 * the row. */
static clb_error screen(clb_ctx *c, fstate *s, fvariant *v, size_t n)
{
    clb_run_opts o;
    screen_opts(c, &o);
    for (size_t i = 0; i < n; i++) {
        clb_result r;
        clb_error e = run_variant(c, s, &v[i], &o, &r);
        v[i].failed = e == CLB_ERR_INVALID_RESULT;
        if (e == CLB_ERR_INVALID_TIMING || e == CLB_ERR_INVALID_RESULT) {
            snprintf(v[i].skipped, sizeof v[i].skipped, "%.150s", c->diag.msg);
            clb_diag_clear(&c->diag);
            continue;
        }
        if (e != CLB_OK)
            return e;
        v[i].screened = 1;
        v[i].screen = r.value;
        clb_result_free(&r);
    }
    return CLB_OK;
}

/* Index of the best screened straightforward variant, n when there is none. */
static size_t best_simple(const fvariant *v, size_t n)
{
    size_t b = n;
    for (size_t i = 0; i < n; i++)
        if (!v[i].chunked && v[i].screened && (b == n || v[i].screen > v[b].screen))
            b = i;
    return b;
}

/* Adds the straightforward forms of mask `forms` at every width (--quick: uint4 only) at
 * their base local size; the per-item sum in both layouts (memory.cl, LAYOUT). */
static size_t add_forms(const clb_ctx *c, const fstate *s, fvariant *v, size_t k, unsigned forms)
{
    for (unsigned f = FORM_ONE; f <= FORM_SUM; f <<= 1)
        for (size_t i = 0; (forms & f) && i < sizeof simple_widths / sizeof simple_widths[0]; i++)
            for (int lay = 0; (!c->opts->quick || all_forms() || simple_widths[i] == 4) && lay < 2;
                 lay++) {
                fvariant w = {.vw = simple_widths[i], .local = base_local(s, f, simple_widths[i]),
                              .fetch = f == FORM_ONE ? 1 : READ_FETCH,
                              .per_item = f == FORM_SUM ? 1 + lay : 0};
                if (lay == 0 || f == FORM_SUM)
                    k = add_simple(s, v, k, &w);
            }
    return k;
}

/* Vectors per work-item tried for the best several-per-item read besides READ_FETCH: fewer or
 * more loads in flight per work-item, fewer or more groups to reduce. */
static const unsigned read_fetches[] = {8, 32, 64};

/* The straightforward forms in three stages: every width at the base local size, then the other
 * local sizes for the best variant, then (when that is a several-per-item read) the other
 * vectors per work-item at its width and local size (not with --quick). */
static clb_error screen_simple(clb_ctx *c, fstate *s, fvariant *v, size_t *n, unsigned forms)
{
    size_t first = *n, k = add_forms(c, s, v, *n, forms);
    if (screen(c, s, v + first, k - first) != CLB_OK)
        return c->diag.err;
    size_t b = best_simple(v, k), second = k;
    for (size_t j = 0; b < k && !c->opts->quick && j < sizeof local_sizes / sizeof local_sizes[0]; j++) {
        fvariant w = v[b];
        w.local = local_sizes[j] ? fit_local(&s->m, local_sizes[j]) : 0;
        k = add_simple(s, v, k, &w);
    }
    if (screen(c, s, v + second, k - second) != CLB_OK)
        return c->diag.err;
    size_t third = k;
    b = best_simple(v, k);
    for (size_t j = 0; b < k && !c->opts->quick && v[b].fetch > 1 && !v[b].per_item &&
                       j < sizeof read_fetches / sizeof read_fetches[0]; j++) {
        fvariant w = v[b];
        w.fetch = read_fetches[j];
        k = add_simple(s, v, k, &w);
    }
    *n = k;
    return screen(c, s, v + third, k - third);
}

static int by_screen(const void *x, const void *y)
{
    const fvariant *p = x, *q = y;
    if (p->screened != q->screened)
        return q->screened - p->screened;
    return (p->screen < q->screen) - (p->screen > q->screen);
}

static cJSON *variant_json(const fvariant *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", v->chunked       ? "chunked"
                                          : v->per_item  ? "per_item_sum"
                                          : v->fetch > 1 ? "several_per_item"
                                                         : "one_per_item");
    if (v->per_item)
        cJSON_AddStringToObject(o, "fetch_layout", v->per_item == 2 ? "global_offset" : "local_offset");
    cJSON_AddNumberToObject(o, "vector_width", v->vw);
    if (!v->chunked)
        cJSON_AddNumberToObject(o, "vectors_per_work_item", v->fetch);
    if (v->chunked || v->local)
        cJSON_AddNumberToObject(o, "work_group_size", (double)v->local);
    else
        cJSON_AddStringToObject(o, "work_group_size", "driver");
    if (v->screened)
        clb_json_number(o, "screen_gbs", v->screen);
    else
        cJSON_AddStringToObject(o, v->failed ? "failed" : "skipped", v->skipped);
    if (v->measured)
        clb_json_number(o, "gbs", v->full);
    return o;
}

/* Full measurements of the best `k` screened variants (v sorted); the best is adopted into
 * c->res. Straightforward finalists run first, while s's buffers exist. */
static clb_error finals(clb_ctx *c, fstate *s, fvariant *v, size_t k, size_t *best)
{
    clb_result top;
    int have = 0;
    memset(&top, 0, sizeof top);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            f_free(s); /* the chunked layout allocates its own arrays */
        for (size_t i = 0; i < k; i++) {
            clb_result r;
            if (v[i].chunked != pass)
                continue;
            if (run_variant(c, s, &v[i], NULL, &r) != CLB_OK) {
                if (have)
                    clb_result_free(&top);
                return c->diag.err;
            }
            v[i].measured = 1;
            v[i].full = r.value;
            if (have && r.value <= top.value) {
                clb_result_free(&r);
                continue;
            }
            if (have)
                clb_result_free(&top);
            top = r;
            have = 1;
            *best = i;
        }
    }
    if (!have)
        return clb_diag_set(&c->diag, CLB_ERR_INVALID_TIMING, "no finalist was measured");
    mem_adopt(c, &top);
    return CLB_OK;
}

static void family_params(clb_ctx *c, const fstate *s, const fvariant *v, size_t n, size_t best)
{
    cJSON *t = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(t, variant_json(&v[i]));
    cJSON *b = variant_json(&v[best]);
    clb_param_str(c->res, "variant", cJSON_GetObjectItem(b, "variant")->valuestring);
    cJSON_DeleteItemFromObject(c->res->params, "work_group_size");
    cJSON_AddItemToObject(c->res->params, "work_group_size",
                          cJSON_DetachItemFromObject(b, "work_group_size"));
    cJSON_Delete(b);
    cJSON_AddItemToObject(c->res->params, "variants", t);
    clb_param_str(c->res, "selection", "every variant screened (calibration launches + 3 timed, "
                                       "validated), the best 2 measured in full, the higher "
                                       "median reported");
    if (sparse(s->r)) {
        clb_param_num(c->res, "fetch_bytes_per_line", s->m.fetch_bytes);
        clb_param_str(c->res, "fetch_rule", s->m.fetch_rule);
        clb_param_num(c->res, "stride_bytes", s->m.line_bytes);
        clb_param_num(c->res, "lines", (double)s->lines);
        clb_param_num(c->res, "footprint_bytes", (double)s->lines * s->m.fetch_bytes);
    }
    clb_param_str(c->res, "bytes_counted",
                  !sparse(s->r) ? "bytes read + bytes written by the kernel (STREAM's convention)"
                  : s->r->pattern == 1 ? "one fetch unit (fetch_bytes_per_line) per line touched"
                                       : "one fetch unit per line touched + the 4-byte index");
}

clb_error clb_memory_family_run(clb_ctx *c, clb_result *res)
{
    fstate s = {.r = frow_named(c->bench->arg), .q = clb_device_queue(c->dev)};
    fvariant v[MAX_VARIANTS];
    size_t n = 0, best = 0;
    (void)res;
    if (!s.r)
        return clb_diag_set(&c->diag, CLB_ERR_USAGE, "unknown memory variant");
    if (mem_device_query(c, &s.m) != CLB_OK)
        return c->diag.err;
    unsigned forms = family_forms(c, s.r);
    if (!forms)
        return clb_diag_set(&c->diag, CLB_ERR_USAGE, "CLBENCH_READ_FORMS names no form of %s",
                            s.r->name);
    if (forms & FORM_CHUNKED) { /* screened first: it allocates (and frees) its own arrays */
        const unsigned *w;
        static const unsigned every[] = {1, 4, 16}; /* the widths a full run screens */
        size_t nw = all_forms() ? sizeof every / sizeof every[0] : mem_widths(c, 0, &w);
        if (all_forms())
            w = every;
        for (size_t i = 0; i < nw; i++) {
            size_t l = 0, g = 0;
            mem_grid(&s.m, &l, &g);
            v[n++] = (fvariant){.chunked = 1, .vw = w[i], .local = l};
        }
        if (screen(c, &s, v, n) != CLB_OK)
            goto cleanup;
    }
    if ((forms & ~(unsigned)FORM_CHUNKED) &&
        (f_alloc(c, &s, fit_local(&s.m, 128)) != CLB_OK || screen_simple(c, &s, v, &n, forms) != CLB_OK))
        goto cleanup;
    qsort(v, n, sizeof v[0], by_screen);
    size_t k = 0;
    while (k < n && k < (c->opts->quick ? 1u : FINALISTS) && v[k].screened)
        k++;
    for (size_t i = 0; !k && i < n; i++)
        if (v[i].failed)
            CLB_FAIL(&c->diag, CLB_ERR_INVALID_RESULT, "every variant failed or was left out: %s",
                     v[i].skipped);
    if (!k)
        CLB_FAIL(&c->diag, CLB_ERR_INVALID_TIMING, "no variant ran within the watchdog: %s",
                 n ? v[0].skipped : "no variant fits the device");
    if (finals(c, &s, v, k, &best) != CLB_OK)
        goto cleanup;
    family_params(c, &s, v, n, best);
cleanup:
    f_free(&s);
    return c->diag.err;
}

/* ---- validation ---- */

static clb_error read_words(clb_ctx *c, cl_mem buf, size_t words, cl_uint **out)
{
    clb_diag *d = &c->diag;
    *out = malloc(words * 4);
    if (!*out)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(clb_device_queue(c->dev), buf, CL_TRUE, 0, words * 4, *out, 0, NULL, NULL));
cleanup:
    return d->err;
}

/* Each work-group's sum against the host's sum of the vectors its items read. */
static clb_error check_read(const fstate *s, const cl_uint *out, clb_diag *d)
{
    size_t g = s->base;
    for (size_t w = 0; w < s->items / s->local; w++) {
        cl_uint want = 0;
        for (size_t i = 0; i < s->local; i++, g = g + 1 < s->total ? g + 1 : 0) {
            size_t v = (s->hidx ? s->hidx[g] : g) * (size_t)s->stride;
            if (s->fetch > 1) /* memory.cl, FETCH: the item's vectors in its group's block */
                v = g / s->local * s->local * s->fetch + g % s->local;
            for (size_t f = 0; f < s->fetch; f++)
                want += mem_sum_words(s->ha + (v + f * s->local) * s->vw, s->vw);
        }
        if (out[w] != want)
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "work-group %zu: checksum 0x%08x, host expects 0x%08x", w,
                                (unsigned)out[w], (unsigned)want);
    }
    return CLB_OK;
}

/* The per-item sums (memory.cl, PER_ITEM): out[j] of the last launch is item base + j's sum of
 * its READ_FETCH vectors, `local` (LAYOUT 0) or `total` (LAYOUT 1) vectors apart. Exact:
 * wrapping 32-bit sums of the same random words on both sides. */
static clb_error check_items(const fstate *s, const cl_uint *out, clb_diag *d)
{
    size_t step = s->per_item == 2 ? s->total : s->local;
    for (size_t j = 0, g = s->base; j < s->items; j++, g = g + 1 < s->total ? g + 1 : 0) {
        size_t v0 = s->per_item == 2 ? g : g / step * step * s->fetch + g % step;
        cl_uint want = 0;
        for (size_t f = 0; f < s->fetch; f++)
            want += mem_sum_words(s->ha + (v0 + f * step) * s->vw, s->vw);
        if (out[j] != want)
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "work-item %zu: sum 0x%08x, host expects 0x%08x", g,
                                (unsigned)out[j], (unsigned)want);
    }
    return CLB_OK;
}

static cl_uint word_ref(const fstate *s, size_t i)
{
    if (s->r->kind == F_WRITE)
        return ((cl_uint)i * 2654435761u) ^ s->tag;
    switch (s->r->pattern) {
    case 0: return s->ha[i];
    case 1: return s->ha[i] * STREAM_K;
    case 2: return s->ha[i] + s->hb[i];
    default: return s->ha[i] + s->hb[i] * STREAM_K;
    }
}

static clb_error validate_end(clb_ctx *c, cl_uint *out, clb_diag *d, clb_error e)
{
    (void)e;
    free(out);
    if (d != &c->diag && c->diag.err != CLB_OK && d->err == CLB_OK)
        *d = c->diag;
    return d->err;
}


/* Write and STREAM: a word outside the last launch's vectors holds an earlier launch's value
 * (STREAM: the same; write: the value of an earlier tag) or, never written, the poison. */
static int earlier_word(const clb_ctx *c, const fstate *s, size_t i, cl_uint got)
{
    if (got == clb_poison_word(c))
        return 1;
    if (s->r->kind != F_WRITE)
        return got == word_ref(s, i);
    cl_uint t = got ^ ((cl_uint)i * 2654435761u);
    return t >= 1 && t <= s->tag;
}

static clb_error check_stream(const clb_ctx *c, const fstate *s, const cl_uint *out, clb_diag *d)
{
    size_t first = (size_t)s->base * s->vw, end = first + s->items * s->vw;
    for (size_t i = 0; i < s->words; i++) {
        /* the last launch's items: [base, base + items), wrapping at total */
        int last = (i >= first && i < end) || (end > s->total * s->vw && i < end - s->total * s->vw);
        if (last ? out[i] != word_ref(s, i) : !earlier_word(c, s, i, out[i]))
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "word %zu%s: 0x%08x, host expects 0x%08x", i,
                                last ? "" : " (before the last launch)", (unsigned)out[i],
                                (unsigned)word_ref(s, i));
    }
    return CLB_OK;
}

/* Every word of the output: the last launch's against the host, the others as check_stream
 * (write, STREAM) or clb_check_untouched (reads: out[j] is the last launch's j-th group or item;
 * words only a larger, discarded calibration launch wrote are the only ones not checked). */
clb_error clb_memory_family_validate(clb_ctx *c, void *state, clb_diag *d)
{
    fstate *s = state;
    cl_uint *out = NULL;
    size_t bytes = 0;
    cl_mem buf = f_output(s, &bytes);
    if (read_words(c, buf, bytes / 4, &out) != CLB_OK)
        return validate_end(c, out, d, CLB_OK);
    if (s->r->kind == F_READ) {
        size_t per = s->per_item ? 1 : s->local;
        if ((s->per_item ? check_items(s, out, d) : check_read(s, out, d)) != CLB_OK)
            return validate_end(c, out, d, CLB_OK);
        return validate_end(c, out, d, clb_check_untouched(c, out, s->max_items / per, bytes / 4, d));
    }
    return validate_end(c, out, d, check_stream(c, s, out, d));
}
