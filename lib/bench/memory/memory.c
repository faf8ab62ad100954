/* memory.read_*, memory.write, memory.copy/scale/add/triad: global-memory bandwidth
 * (lib/bench/memory/memory.cl). Arrays of 32-bit words filled with random data, at least 4x the
 * largest cache; bytes counted as read + written by the kernel (STREAM's convention: no
 * write-allocate traffic). Each row searches the vector widths 1..16 and reports the best. */
#include "bench/memory/memory.h"

#include <stdlib.h>
#include <string.h>

typedef enum { G_READ, G_REUSE, G_WRITE, G_STREAM } gkind;

typedef struct gvariant {
    const char *name;
    gkind kind;
    int pattern; /* G_STREAM: the OP */
    unsigned arrays;  /* arrays touched per element (STREAM bytes) */
    cl_ulong bytes;   /* array size; 0: DRAM-sized (mem_dram_bytes) */
} gvariant;

/* Chunks per work-group: one pass of write and STREAM covers 1/4 of the array, so that one
 * pass stays far below the watchdog budget on slow devices. */
static unsigned chunks_per_group(const gvariant *v)
{
    if (v->kind == G_READ) /* >= 2: consecutive passes must read different chunks */
        return 2;
    return v->kind == G_REUSE ? 1 : 4;
}

static const gvariant variants[] = {
    {"read_linear", G_READ, 0, 1, 0}, {"read_reuse", G_REUSE, 0, 1, 0}, {"write", G_WRITE, 0, 1, 0},
    {"copy", G_STREAM, 0, 2, 0},      {"scale", G_STREAM, 1, 2, 0},     {"add", G_STREAM, 2, 3, 0},
    {"triad", G_STREAM, 3, 3, 0},
};

#define STREAM_K 3u

clb_error clb_memory_global_validate(clb_ctx *c, void *state, clb_diag *d);

typedef struct gstate {
    const gvariant *v;
    cl_command_queue q;
    cl_kernel k;
    cl_mem a, b, c, out;
    size_t local, groups; /* tiles: groups of the last launch (at most nchunks) */
    size_t max_groups;    /* the most groups a launch of this configuration ran */
    size_t out_words;     /* words of the output poisoned, faulted and validated */
    int blocked;
    int tiles;            /* CPU DRAM arrays: one launch = `scale` work-groups, one chunk each */
    cl_uint streams;      /* blocked layouts: sequential streams per work-item (STREAMS) */
    cl_uint vw, chunk, nchunks, reuse_n, tag;
    cl_uint per, mult;   /* lib/bench/memory/memory.cl, CHUNK: period of the rotation, group factor */
    cl_uint pbase;       /* pass counter (mod per) where the last launch started */
    cl_uint pnext;       /* ... and where the next one starts */
    cl_uint *chunk_tag;  /* write/STREAM: tag of the last launch that wrote each chunk (0: none) */
    size_t words;        /* words in the used part of each array */
    cl_uint *ha, *hb;    /* host copies of the inputs (words) */
    cl_uint *chunk_sum;  /* G_READ: word sum of each (logical) chunk */
    cl_uint total;       /* sum of all used words of a */
    cl_uint passes;      /* of the last launch */
    double bytes_per_pass; /* tiles: bytes per work-group */
} gstate;

static const gvariant *variant_named(const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

/* Bytes of one tile (below). */
#define TILE_BYTES (256u << 10)

/* Sequential streams per work-item in a tile (lib/bench/memory/memory.cl, STREAMS): four in all per
 * core, the STREAM kernels' two or three arrays included. Measured on PoCL (AMD EPYC VM):
 * one stream leaves read bandwidth ~25% below four; four per array (twelve in all) slowed
 * the triad by a third (docs/results/memory.md). */
static cl_uint tile_streams(const gvariant *v)
{
    return 4u / v->arrays ? 4u / v->arrays : 1u;
}

/* Tiles (CPU devices, DRAM arrays): the array is cut into TILE_BYTES chunks and a launch of
 * n work-groups reads the next n of them, one per group, in one pass (mult 1, per nchunks:
 * group w of a launch starting at tile t reads tile (t + w) % nchunks). The runtime hands
 * the many small groups to its threads as they become free, so a thread slowed by another
 * tenant of a virtual machine does not hold up the launch (with one group per thread each
 * thread owns a fixed half of the array). A launch reads each tile at most once, and the
 * array is >= 4x the largest cache, so no tile is still cached when it is read again. */
static void layout_tiles(gstate *s, size_t nvec)
{
    size_t unit = s->local * s->streams;
    size_t chunk = TILE_BYTES / (4u * s->vw) / unit * unit;
    s->chunk = (cl_uint)(chunk ? chunk : unit);
    s->nchunks = (cl_uint)(nvec / s->chunk);
    s->per = s->nchunks;
    s->mult = 1;
    s->groups = s->nchunks; /* the most a launch runs: sizes the output */
    s->words = (size_t)s->chunk * s->nchunks * s->vw;
}

/* Chunk geometry (lib/bench/memory/memory.cl): nchunks chunks of chunk vectors, the rotation. */
static void layout(gstate *s, cl_ulong bytes, unsigned per_group)
{
    size_t nvec = (size_t)(bytes / (4u * s->vw));
    if (s->tiles) {
        layout_tiles(s, nvec);
        return;
    }
    /* Blocked (CPU) layout on small arrays: fewer work-items, each still streaming >= 256
     * vectors per pass, so the per-pass overhead does not hide the cache's bandwidth. */
    while (s->blocked && s->local > 1 && nvec / (s->groups * s->local) < 256)
        s->local /= 2;
    /* Blocked slices need chunks that are multiples of the group size. */
    size_t unit = s->blocked ? s->local : 1;
    size_t per = nvec / (s->groups * per_group) / unit * unit;
    if (per >= s->local) { /* DRAM arrays: each group owns per_group chunks */
        s->chunk = (cl_uint)per;
        s->nchunks = (cl_uint)(s->groups * per_group);
        s->per = s->mult = per_group;
    } else { /* small arrays: two or more chunks shared by the groups */
        size_t c = nvec / 2 / unit * unit;
        s->chunk = (cl_uint)(c ? c : unit);
        s->nchunks = (cl_uint)(nvec / s->chunk);
        s->per = s->nchunks;
        s->mult = 1;
    }
    s->words = (size_t)s->chunk * s->nchunks * s->vw;
}

/* Work-groups whose reads one unit of scale counts: a pass of all groups, or one tile. */
static double launch_groups(const gstate *s) { return s->tiles ? 1.0 : (double)s->groups; }

static size_t chunk_at(const gstate *s, size_t w, uint64_t q)
{
    return (w * s->mult + (size_t)(q % s->per)) % s->nchunks;
}

/* The number of passes after which chunk_at repeats. */
static size_t chunk_period(const gstate *s) { return s->per; }

/* Host side of the read checksums: word sums of each chunk. */
static clb_error prepare_read_sums(clb_ctx *c, gstate *s)
{
    s->chunk_sum = calloc(s->nchunks, sizeof *s->chunk_sum);
    if (!s->chunk_sum)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
    size_t nvec = (size_t)s->chunk * s->nchunks;
    for (size_t v = 0; v < nvec; v++) {
        cl_uint sum = mem_sum_words(s->ha + v * s->vw, s->vw);
        s->chunk_sum[v / s->chunk] += sum;
        s->total += sum;
    }
    return CLB_OK;
}

static clb_error setup_read(clb_ctx *c, gstate *s, const mem_device *m)
{
    clb_diag *d = &c->diag;
    layout(s, s->v->bytes ? s->v->bytes : mem_dram_bytes(c, m, 1), chunks_per_group(s->v));
    s->ha = mem_host_random(s->words, 0x5eed0001u + s->vw);
    if (!s->ha)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for %zu words", s->words);
    if (prepare_read_sums(c, s) != CLB_OK ||
        mem_upload(c, &s->a, s->ha, s->words * 4, CL_MEM_READ_ONLY) != CLB_OK ||
        mem_upload(c, &s->out, NULL, s->groups * s->local * 4, CL_MEM_WRITE_ONLY) != CLB_OK)
        goto cleanup;
    s->bytes_per_pass = launch_groups(s) * s->chunk * 4.0 * s->vw;
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->chunk, &s->chunk));
    CLB_CL(d, clSetKernelArg(s->k, 3, sizeof s->nchunks, &s->nchunks));
    CLB_CL(d, clSetKernelArg(s->k, 6, sizeof s->per, &s->per));
    CLB_CL(d, clSetKernelArg(s->k, 7, sizeof s->mult, &s->mult));
cleanup:
    return d->err;
}

static clb_error setup_reuse(clb_ctx *c, gstate *s)
{
    clb_diag *d = &c->diag;
    s->reuse_n = (cl_uint)(s->groups * s->local);
    size_t words = ((size_t)s->reuse_n + 32) * s->vw;
    s->words = (size_t)s->reuse_n * s->vw;
    if (!(s->ha = mem_host_random(words, 0x5eed0002u + s->vw)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    memcpy(s->ha + s->words, s->ha, 32u * s->vw * 4u); /* padding repeats the start */
    s->total = mem_sum_words(s->ha, s->words);
    if (mem_upload(c, &s->a, s->ha, words * 4, CL_MEM_READ_ONLY) != CLB_OK ||
        mem_upload(c, &s->out, NULL, s->reuse_n * 4u, CL_MEM_WRITE_ONLY) != CLB_OK)
        goto cleanup;
    s->bytes_per_pass = (double)s->reuse_n * 32.0 * 4.0 * s->vw;
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->reuse_n, &s->reuse_n));
cleanup:
    return d->err;
}

static clb_error setup_write(clb_ctx *c, gstate *s, const mem_device *m)
{
    clb_diag *d = &c->diag;
    layout(s, mem_dram_bytes(c, m, 1), chunks_per_group(s->v));
    if (!(s->chunk_tag = calloc(s->nchunks, sizeof *s->chunk_tag)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (!(s->ha = mem_host_random(s->words, 0x5eed0003u + s->vw)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (mem_upload(c, &s->a, s->ha, s->words * 4, CL_MEM_READ_WRITE) != CLB_OK)
        goto cleanup;
    s->out = s->a;
    clRetainMemObject(s->out);
    s->bytes_per_pass = launch_groups(s) * s->chunk * 4.0 * s->vw;
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->chunk, &s->chunk));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->nchunks, &s->nchunks));
    CLB_CL(d, clSetKernelArg(s->k, 6, sizeof s->per, &s->per));
    CLB_CL(d, clSetKernelArg(s->k, 7, sizeof s->mult, &s->mult));
cleanup:
    return d->err;
}

static clb_error setup_stream(clb_ctx *c, gstate *s, const mem_device *m)
{
    clb_diag *d = &c->diag;
    const cl_uint kk = STREAM_K;
    cl_uint *hc = NULL;
    layout(s, mem_dram_bytes(c, m, 3), chunks_per_group(s->v));
    s->chunk_tag = calloc(s->nchunks, sizeof *s->chunk_tag);
    s->ha = mem_host_random(s->words, 0x5eed0004u + s->vw);
    s->hb = mem_host_random(s->words, 0x5eed0005u + s->vw);
    hc = mem_host_random(s->words, 0x5eed0006u + s->vw);
    if (!s->chunk_tag || !s->ha || !s->hb || !hc)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (mem_upload(c, &s->a, s->ha, s->words * 4, CL_MEM_READ_ONLY) != CLB_OK ||
        mem_upload(c, &s->b, s->hb, s->words * 4, CL_MEM_READ_ONLY) != CLB_OK ||
        mem_upload(c, &s->c, hc, s->words * 4, CL_MEM_READ_WRITE) != CLB_OK)
        goto cleanup;
    s->out = s->c;
    clRetainMemObject(s->out);
    s->bytes_per_pass = launch_groups(s) * s->chunk * 4.0 * s->vw * s->v->arrays;
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->b, &s->b));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->c, &s->c));
    CLB_CL(d, clSetKernelArg(s->k, 3, sizeof s->chunk, &s->chunk));
    CLB_CL(d, clSetKernelArg(s->k, 4, sizeof s->nchunks, &s->nchunks));
    CLB_CL(d, clSetKernelArg(s->k, 6, sizeof kk, &kk));
    CLB_CL(d, clSetKernelArg(s->k, 8, sizeof s->per, &s->per));
    CLB_CL(d, clSetKernelArg(s->k, 9, sizeof s->mult, &s->mult));
cleanup:
    free(hc);
    return d->err;
}

static cl_uint passes_arg(const gstate *s)
{
    return s->v->kind == G_READ ? 4 : s->v->kind == G_STREAM ? 5 : 3;
}

static cl_uint pbase_arg(const gstate *s)
{
    return s->v->kind == G_READ ? 5 : s->v->kind == G_WRITE ? 5 : 7;
}

/* Write/STREAM: which chunks the launch with tag wrote (for validation). */
static void mark_written(gstate *s, cl_uint passes, cl_uint tag)
{
    size_t n = chunk_period(s);
    n = passes < n ? passes : n;
    for (size_t p = 0; p < n; p++)
        for (size_t w = 0; w < s->groups; w++)
            s->chunk_tag[chunk_at(s, w, (uint64_t)s->pbase + p)] = tag;
}

static clb_error g_enqueue(void *state, uint64_t scale, cl_event *ev, clb_diag *d)
{
    gstate *s = state;
    cl_uint passes = s->tiles ? 1u : (cl_uint)scale;
    if (s->tiles)
        s->groups = (size_t)scale;
    size_t global = s->groups * s->local;
    s->max_groups = s->groups > s->max_groups ? s->groups : s->max_groups;
    CLB_CL(d, clSetKernelArg(s->k, passes_arg(s), sizeof passes, &passes));
    cl_uint tag = s->tag + 1;
    if (s->v->kind == G_WRITE)
        CLB_CL(d, clSetKernelArg(s->k, 4, sizeof tag, &tag));
    if (s->v->kind != G_REUSE)
        CLB_CL(d, clSetKernelArg(s->k, pbase_arg(s), sizeof s->pnext, &s->pnext));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &global, &s->local, 0, NULL, ev));
    s->tag = tag;
    s->passes = passes;
    s->pbase = s->pnext;
    if (s->v->kind != G_REUSE)
        s->pnext = (cl_uint)(((uint64_t)s->pnext + (s->tiles ? scale : passes)) % s->per);
    if (s->chunk_tag)
        mark_written(s, passes, tag);
cleanup:
    return d->err;
}

/* Reads: the last launch's groups' words (tiles: fewer than the output holds). */
static size_t g_written(const void *state)
{
    const gstate *s = state;
    return s->v->kind == G_READ ? s->groups * s->local * 4 : s->out_words * 4;
}

static double g_work(const void *state, uint64_t scale)
{
    const gstate *s = state;
    return s->bytes_per_pass * (double)scale;
}

static void g_free(gstate *s)
{
    cl_mem bufs[] = {s->a, s->b, s->c, s->out};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        clb_release_mem(bufs[i]);
    clb_release_kernel(s->k);
    free(s->ha);
    free(s->hb);
    free(s->chunk_sum);
    free(s->chunk_tag);
}

static const char *kernel_of(gkind k)
{
    return k == G_READ ? "mem_read" : k == G_REUSE ? "mem_read_reuse" : k == G_WRITE ? "mem_write"
                                                                                       : "mem_stream";
}

static void g_params(clb_result *res, const gstate *s)
{
    clb_param_num(res, "vector_width", s->vw);
    clb_param_num(res, "local_size", (double)s->local);
    clb_param_num(res, s->tiles ? "work_groups_per_launch" : "work_groups", (double)s->groups);
    clb_param_num(res, "array_bytes", (double)s->words * 4.0);
    /* arrays the kernel touches (the bytes counted), as the straightforward form reports it;
     * STREAM allocates three whatever the op (copy and scale leave b untouched) */
    clb_param_num(res, "arrays", s->v->arrays);
    clb_param_num(res, "arrays_allocated", s->v->kind == G_STREAM ? 3 : 1);
    clb_param_num(res, "bytes_per_pass", s->bytes_per_pass);
    clb_param_str(res, "layout",
                  s->tiles     ? "tiles: each work-group reads the next 256 KiB tile, each work-item "
                                 "contiguous slices of it (streams_per_work_item at a time)"
                  : s->blocked ? "blocked: each work-item streams a contiguous slice"
                               : "interleaved: neighbouring work-items read neighbouring vectors");
    clb_param_str(res, "bytes_counted", "bytes read + bytes written by the kernel");
    if (s->blocked)
        clb_param_num(res, "streams_per_work_item", s->streams);
    if (s->v->kind != G_REUSE) {
        clb_param_num(res, "chunk_vectors", s->chunk);
        clb_param_num(res, "chunks", s->nchunks);
    }
}

/* CPUs stream each work-item through a contiguous slice (lib/bench/memory/memory.cl, BLOCKED). */
static int blocked_layout(const mem_device *m) { return (m->type & CL_DEVICE_TYPE_CPU) != 0; }

/* One configuration: build at width vw, set up, measure, validate (in clb_measure). */
clb_error mem_chunked_run(clb_ctx *c, const void *cfg, unsigned vw)
{
    clb_diag *d = &c->diag;
    const gvariant *v = cfg;
    gstate s = {.v = v, .q = clb_device_queue(c->dev), .vw = vw};
    mem_device m;
    cl_program prog = NULL;
    char opts[192], extra[96];
    if (mem_device_query(c, &m) != CLB_OK)
        goto cleanup;
    mem_grid(&m, &s.local, &s.groups);
    s.blocked = blocked_layout(&m);
    s.tiles = s.blocked && v->kind != G_REUSE && v->bytes == 0;
    s.streams = s.tiles ? tile_streams(v) : 1u;
    snprintf(extra, sizeof extra, "-DPATTERN=%d -DOP=%d -DBLOCKED=%d -DSTREAMS=%uu", v->pattern,
             v->pattern, s.blocked, s.streams);
    mem_vec_options(opts, sizeof opts, vw, extra);
    if (clb_build(c, "memory", NULL, opts, &prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.k = clCreateKernel(prog, kernel_of(v->kind), CLB_ERRP));
    clb_error e = v->kind == G_READ    ? setup_read(c, &s, &m)
                  : v->kind == G_REUSE ? setup_reuse(c, &s)
                  : v->kind == G_WRITE ? setup_write(c, &s, &m)
                                       : setup_stream(c, &s, &m);
    if (e != CLB_OK)
        goto cleanup;
    size_t out_bytes = v->kind == G_READ || v->kind == G_REUSE ? s.groups * s.local * 4
                       : s.words * 4;
    if (v->kind == G_REUSE)
        out_bytes = (size_t)s.reuse_n * 4;
    s.out_words = out_bytes / 4;
    /* CPU runtimes run a device's work-groups one after another, so a group re-reading its
     * own chunks within one launch finds them in the cache (measured: 24 GB/s at 2 passes,
     * 86 GB/s at 27 on this project's 2-core VM). On DRAM arrays a launch therefore reads
     * every chunk at most once there. */
    uint64_t max_scale = s.tiles ? s.nchunks
                         : s.blocked && v->kind != G_REUSE && s.mult == s.per ? s.per : 1u << 24;
    clb_workload w = {.state = &s, .enqueue = g_enqueue, .work = g_work, .min_scale = 1,
                      .max_scale = max_scale, .output = s.out, .output_bytes = out_bytes,
                      .output_written = g_written,
                      .unit_factor = 1e-9, .unit = "GB/s"};
    if (clb_measure(c, &w) != CLB_OK)
        goto cleanup;
    g_params(c->res, &s);
cleanup:
    g_free(&s);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_memory_global_run(clb_ctx *c, clb_result *res)
{
    const gvariant *v = variant_named(c->bench->arg);
    (void)res;
    if (!v)
        return clb_diag_set(&c->diag, CLB_ERR_USAGE, "unknown memory variant");
    /* All five widths for the headline rows (DRAM read, triad), 1, 4, 16 for the others:
     * every width allocates and fills DRAM-sized arrays, which dominates the run time. */
    int full = strcmp(v->name, "read_linear") == 0 || strcmp(v->name, "triad") == 0;
    return mem_search_widths(c, full, mem_chunked_run, v);
}

const void *mem_chunked_variant(const char *name) { return variant_named(name); }

clb_error mem_read_at_size(clb_ctx *c, cl_ulong bytes, unsigned vw, const clb_run_opts *opts,
                           clb_result *out)
{
    gvariant v = variants[0];
    v.bytes = bytes;
    return mem_measure_scratch(c, mem_chunked_run, &v, vw, opts, clb_memory_global_validate, out);
}

/* ---- validation ---- */

static clb_error read_back(clb_ctx *c, cl_mem buf, size_t bytes, cl_uint **out)
{
    clb_diag *d = &c->diag;
    *out = malloc(bytes);
    if (!*out)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(clb_device_queue(c->dev), buf, CL_TRUE, 0, bytes, *out, 0, NULL,
                                  NULL));
cleanup:
    return d->err;
}

/* Each work-group's sum of its items' checksums against the sum of chunk_sum over the
 * chunks it read: whole periods of the rotation, then the remainder. */
static clb_error check_read(gstate *s, const cl_uint *out, clb_diag *d)
{
    size_t period = chunk_period(s);
    cl_uint full = (cl_uint)(s->passes / period), rest = (cl_uint)(s->passes % period);
    for (size_t w = 0; w < s->groups; w++) {
        cl_uint cyc = 0, part = 0, got = mem_sum_words(out + w * s->local, s->local);
        for (size_t p = 0; p < period; p++) {
            cl_uint cs = s->chunk_sum[chunk_at(s, w, (uint64_t)s->pbase + p)];
            cyc += cs;
            part += p < rest ? cs : 0;
        }
        cl_uint want = full * cyc + part;
        if (got != want)
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "work-group %zu: checksum 0x%08x, host expects 0x%08x", w,
                                (unsigned)got, (unsigned)want);
    }
    return CLB_OK;
}

static cl_uint stream_ref(const gstate *s, size_t i)
{
    switch (s->v->pattern) {
    case 0: return s->ha[i];
    case 1: return s->ha[i] * STREAM_K;
    case 2: return s->ha[i] + s->hb[i];
    default: return s->ha[i] + s->hb[i] * STREAM_K;
    }
}


/* Every word: those of every chunk written so far (the last launch's chunks at least)
 * against the host, the others still the poison. */
static clb_error check_words(const clb_ctx *c, gstate *s, const cl_uint *out, clb_diag *d)
{
    size_t chunk_words = (size_t)s->chunk * s->vw;
    for (size_t i = 0; i < s->words; i++) {
        cl_uint tag = s->chunk_tag[i / chunk_words];
        if (!tag) {
            if (clb_check_untouched(c, out, i, i + 1, d) != CLB_OK)
                return d->err;
            continue;
        }
        cl_uint want = s->v->kind == G_WRITE ? ((cl_uint)i * 2654435761u) ^ tag
                                             : stream_ref(s, i);
        if (out[i] != want)
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT, "word %zu: 0x%08x, host expects 0x%08x",
                                i, (unsigned)out[i], (unsigned)want);
    }
    return CLB_OK;
}

clb_error clb_memory_global_validate(clb_ctx *c, void *state, clb_diag *d)
{
    gstate *s = state;
    cl_uint *out = NULL;
    size_t n = s->v->kind == G_READ ? s->out_words
               : s->v->kind == G_REUSE ? s->reuse_n : s->words;
    if (read_back(c, s->out, n * 4, &out) != CLB_OK)
        goto done;
    /* reads: the last launch's groups, then the words only a larger (calibration) launch
     * wrote, unchecked, then poison to the end */
    if (s->v->kind == G_READ) {
        if (check_read(s, out, d) == CLB_OK)
            clb_check_untouched(c, out, s->max_groups * s->local, n, d);
    } else if (s->v->kind == G_REUSE) {
        cl_uint got = mem_sum_words(out, n), want = 32u * s->passes * s->total;
        if (got != want)
            clb_diag_set(d, CLB_ERR_INVALID_RESULT, "checksum 0x%08x, host expects 0x%08x",
                         (unsigned)got, (unsigned)want);
    } else
        check_words(c, s, out, d);
done:
    free(out);
    if (d != &c->diag && c->diag.err != CLB_OK && d->err == CLB_OK)
        *d = c->diag;
    return d->err;
}
