/* memory.latency, memory.latency_local, memory.read_vs_size, memory.caches: pointer-chase
 * latency against working-set size, bandwidth against working-set size, and the cache
 * levels found in those curves (lib/core/plateaus.c), compared with what the API reports. */
#include "bench/memory/memory.h"
#include "core/plateaus.h"
#include "device/devdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 64

typedef struct chase_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem next, out;
    cl_uint *order;     /* node numbers along the cycle */
    size_t nnodes;
    cl_uint node_words; /* words between nodes (a cache line, 1 for local memory) */
    size_t pos;         /* cycle position the next launch starts from */
    size_t warm_hops;   /* loads of the untimed walk before this size's timed launches */
    int local;
    int page_local;     /* memory.caches: the cycle visits pages in random order, each page's lines all at once */
    void *backing;      /* CPU devices: the aligned host memory next uses in place (chase_buffer) */
    int aligned;        /* 1: the kernel reads next at backing (checked); 0: elsewhere; -1: device memory */
} chase_state;

/* Frees what a chase_state owns (any member may be unset). */
static void chase_release(chase_state *s)
{
    free(s->order);
    clb_release_mem(s->next);
    clb_release_mem(s->out);
    clb_release_kernel(s->k);
    free(s->backing); /* after next: the buffer used it in place */
}

/* A random cyclic permutation by Sattolo's algorithm, returned as the order of its cycle
 * starting at node 0. */
static cl_uint *sattolo_order(size_t n, uint64_t seed)
{
    cl_uint *pi = malloc(n * sizeof *pi), *order = malloc(n * sizeof *order);
    uint64_t st = seed;
    if (!pi || !order) {
        free(pi);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        pi[i] = (cl_uint)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(clb_rand64(&st) % i); /* j < i: one single cycle */
        cl_uint t = pi[i];
        pi[i] = pi[j];
        pi[j] = t;
    }
    order[0] = 0;
    for (size_t k = 1; k < n; k++)
        order[k] = pi[order[k - 1]];
    free(pi);
    return order;
}

/* A random cycle that visits the pages (4 KiB) in random order and, within each page, all of
 * its nodes in random order before it leaves: one TLB miss per page instead of one per load,
 * so the latency steps are the caches' and not the TLB's (a 4 KiB-page TLB reaches 256 KiB to a
 * few MiB; in a virtual machine each miss is a two-level page walk). Starts at node 0. */
static cl_uint *page_local_order(size_t n, size_t per_page, uint64_t seed)
{
    size_t pages = (n + per_page - 1) / per_page;
    cl_uint *order = malloc(n * sizeof *order), *pg = malloc(pages * sizeof *pg);
    uint64_t st = seed;
    size_t k = 0, at0 = 0;
    if (!order || !pg) {
        free(order);
        free(pg);
        return NULL;
    }
    for (size_t i = 0; i < pages; i++)
        pg[i] = (cl_uint)i;
    for (size_t i = pages; i > 1; i--) {
        size_t j = (size_t)(clb_rand64(&st) % i);
        cl_uint t = pg[i - 1];
        pg[i - 1] = pg[j];
        pg[j] = t;
    }
    for (size_t i = 0; i < pages; i++) {
        size_t first = (size_t)pg[i] * per_page, cnt = first + per_page <= n ? per_page : n - first;
        for (size_t l = 0; l < cnt; l++)
            order[k + l] = (cl_uint)(first + l);
        for (size_t l = cnt; l > 1; l--) {
            size_t j = (size_t)(clb_rand64(&st) % l);
            cl_uint t = order[k + l - 1];
            order[k + l - 1] = order[k + j];
            order[k + j] = t;
        }
        k += cnt;
    }
    free(pg);
    while (order[at0] != 0)
        at0++;
    /* rotate so that the cycle starts at node 0, as sattolo_order's does */
    cl_uint *rot = malloc(n * sizeof *rot);
    if (!rot) {
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        rot[i] = order[(at0 + i) % n];
    free(order);
    return rot;
}

static clb_error ch_enqueue(void *state, uint64_t scale, cl_event *ev, clb_diag *d)
{
    chase_state *s = state;
    cl_uint start = s->order[s->pos] * s->node_words, rounds = (cl_uint)scale;
    size_t one = 1;
    cl_uint arg = s->local ? 3 : 2;
    CLB_CL(d, clSetKernelArg(s->k, arg, sizeof start, &start));
    CLB_CL(d, clSetKernelArg(s->k, arg + 1, sizeof rounds, &rounds));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &one, &one, 0, NULL, ev));
    /* The next launch goes on where this one ended: launches never repeat the same few
     * nodes, which a large cache would otherwise keep. */
    s->pos = (s->pos + 16 * (size_t)rounds) % s->nnodes;
cleanup:
    return d->err;
}

static double ch_work(const void *state, uint64_t scale)
{
    (void)state;
    return 16.0 * (double)scale;
}

clb_error clb_memory_latency_validate(clb_ctx *c, void *state, clb_diag *d)
{
    chase_state *s = state;
    cl_uint got = 0, want = s->order[s->pos] * s->node_words;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    if (got != want)
        CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "the chase ended at word %u, the host's walk at %u",
                 (unsigned)got, (unsigned)want);
    (void)c;
cleanup:
    return d->err;
}

/* Measures the chase in s (already set up) with clb_measure. */
static clb_error ch_measure(clb_ctx *c, const void *cfg, unsigned vw)
{
    chase_state *s = (void *)(uintptr_t)cfg;
    clb_workload w = {.state = s, .enqueue = ch_enqueue, .work = ch_work, .min_scale = 64,
                      .max_scale = 1u << 26, .output = s->out, .output_bytes = sizeof(cl_uint),
                      .unit_factor = 1e9, .unit = "ns", .per_work_time = 1};
    (void)vw;
    if (clb_measure(c, &w) != CLB_OK)
        return c->diag.err;
    clb_param_num(c->res, "nodes", (double)s->nnodes);
    clb_param_num(c->res, "node_bytes", 4.0 * s->node_words);
    clb_param_num(c->res, "warm_hops", (double)s->warm_hops);
    return CLB_OK;
}

/* ---- the global chase sweep ---- */

typedef struct chase_sweep {
    size_t n;
    double x[MAX_POINTS], ns[MAX_POINTS];
    double ns_min[MAX_POINTS]; /* each point's fastest repetition: load on the host only adds */
    clb_result last; /* the largest size's result (its samples become the headline) */
    int have_last;
    cl_uint line;
    int page_local;     /* memory.caches: page-local cycles (page_local_order) */
    cl_ulong max_bytes; /* 0: chase_max_bytes alone */
    int aligned;        /* chase_state.aligned of the sweep's buffer */
    unsigned remeasured; /* points measured again by chase_recheck */
    double target_s;     /* one launch's duration; 0: mem_sweep_opts' */
} chase_sweep;

#define PLATEAU_TOL 0.12 /* a plateau's points lie within 12 % of its median (clb_find_plateaus) */

/* Sizes 4 KiB, 6 KiB, 8 KiB, ... (powers of two and 1.5x between) up to max; --quick: 3. */
static size_t sweep_sizes(const clb_ctx *c, cl_ulong max, double *x)
{
    size_t n = 0;
    if (c->opts->quick) {
        const double q[] = {4096, 65536, 1048576};
        for (; n < 3 && q[n] <= (double)max; n++)
            x[n] = q[n];
        return n;
    }
    for (cl_ulong p = 4096; p <= max && n + 2 <= MAX_POINTS; p *= 2) {
        x[n++] = (double)p;
        if (p + p / 2 <= max)
            x[n++] = (double)(p + p / 2);
    }
    return n;
}

static cl_ulong chase_max_bytes(const clb_ctx *c, const mem_device *m)
{
    cl_ulong max = (cl_ulong)1 << 30;
    if (c->opts->quick)
        max = 1u << 20;
    max = max < m->max_alloc ? max : m->max_alloc;
    return max < m->global_mem / 4 ? max : m->global_mem / 4;
}

/* Links the nodes of the first `bytes` of host along a fresh cycle. */
static clb_error link_nodes(clb_ctx *c, chase_state *s, cl_uint *host, double bytes)
{
    free(s->order);
    s->nnodes = (size_t)(bytes / (4.0 * s->node_words));
    size_t per_page = 4096 / (4u * s->node_words);
    s->order = s->page_local && per_page > 1 ? page_local_order(s->nnodes, per_page, 0xc4a5e000u + s->nnodes)
                                             : sattolo_order(s->nnodes, 0xc4a5e000u + s->nnodes);
    s->pos = 0;
    if (!s->order)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory for %zu nodes", s->nnodes);
    for (size_t k = 0; k < s->nnodes; k++)
        host[(size_t)s->order[k] * s->node_words] =
            s->order[(k + 1) % s->nnodes] * s->node_words;
    return CLB_OK;
}

/* Where the chase's nodes start on CPU devices: an address aligned to 256 MiB. Where the
 * allocator happened to put the buffer, 8 KiB below a 64 MiB boundary, a chase of 12-24 KiB ran
 * at 4-5 ns (L2's latency is 2.9) and L1 was found at 8 KiB of 32; a host chase over the same
 * addresses did the same, and one that straddles no such boundary ran at L1's 1.4 ns (2-core
 * EPYC VM, 2026-11-25). That fits AMD's L1 way predictor, which tags lines with a hash of linear
 * address bits 12-27 (the uTag): bits that flip together cancel in it, so pages on either side of
 * the boundary share tags and evict each other. From an aligned start the first pages' differ. */
#define CHASE_ALIGN ((size_t)1 << 28)

/* The chase's node buffer of max bytes. CPU devices: host memory aligned to CHASE_ALIGN used in
 * place (CL_MEM_USE_HOST_PTR), checked by mapping it: s->aligned says whether the kernel reads
 * it there. Other devices: device memory (a host pointer would put it in host
 * memory across the bus). */
static clb_error chase_buffer(clb_ctx *c, const mem_device *m, chase_state *s, cl_ulong max)
{
    clb_diag *d = &c->diag;
    cl_context ctx = clb_device_context(c->dev);
    void *mapped = NULL;
    s->aligned = -1;
    if (!(m->type & CL_DEVICE_TYPE_CPU)) {
        CLB_CL(d, s->next = clCreateBuffer(ctx, CL_MEM_READ_ONLY, (size_t)max, NULL, CLB_ERRP));
        return CLB_OK;
    }
    size_t bytes = ((size_t)max + CHASE_ALIGN - 1) / CHASE_ALIGN * CHASE_ALIGN; /* aligned_alloc's rule */
    if (!(s->backing = aligned_alloc(CHASE_ALIGN, bytes)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for %zu aligned bytes", bytes);
    CLB_CL(d, s->next = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, (size_t)max, s->backing, CLB_ERRP));
    CLB_CL(d, mapped = clEnqueueMapBuffer(s->q, s->next, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, CLB_ERRP));
    s->aligned = mapped == s->backing;
    CLB_CL(d, clEnqueueUnmapMemObject(s->q, s->next, mapped, 0, NULL, NULL));
    CLB_CL(d, clFinish(s->q));
cleanup:
    return d->err;
}

/* Walks the whole cycle once, untimed, so that the timed launches find in the caches whatever
 * fits there. Without it a large cycle is mostly visited for the first time while timed: on the
 * H200 a 2 ms launch at 16-32 MiB touched each node about once and read 191-213 ns (first
 * visits) where a warmed cycle of that size reads L2's 141-146 ns (2026-11-25). */
static clb_error chase_warm(chase_state *s, clb_diag *d)
{
    cl_event ev = NULL;
    s->warm_hops = (s->nnodes + 15) / 16 * 16;
    if (ch_enqueue(s, s->warm_hops / 16, &ev, d) != CLB_OK)
        return d->err;
    CLB_CL(d, clWaitForEvents(1, &ev));
cleanup:
    clb_release_event(ev);
    return d->err;
}

/* One point of the sweep: the cycle over the first x bytes, warmed, measured, its end node
 * checked. */
static clb_error chase_point(clb_ctx *c, chase_state *s, cl_uint *host, double x, const clb_run_opts *o,
                             clb_result *r)
{
    clb_diag *d = &c->diag;
    if (link_nodes(c, s, host, x) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clEnqueueWriteBuffer(s->q, s->next, CL_TRUE, 0, (size_t)x, host, 0, NULL, NULL));
    if (chase_warm(s, d) != CLB_OK)
        goto cleanup;
    mem_measure_scratch(c, ch_measure, s, 1, o, clb_memory_latency_validate, r);
cleanup:
    return d->err;
}

/* Latency never falls as the working set grows, so a point slower than a larger one by more than
 * the plateau tolerance was disturbed (another process on the core, a context switch): it is
 * measured again, at most twice, and the faster measurement kept (median and fastest from the
 * same one). A point that stays slow (an effect of the size or the addresses, as in CHASE_ALIGN's
 * case) stays in the curve; params.remeasured_points counts the measurements taken again. */
static clb_error chase_recheck(clb_ctx *c, chase_state *s, cl_uint *host, const clb_run_opts *o, chase_sweep *sw)
{
    double floor = sw->n ? sw->ns_min[sw->n - 1] : 0;
    for (size_t i = sw->n - 1; sw->n && i-- > 0;) {
        for (int t = 0; t < 2 && sw->ns_min[i] > (1 + PLATEAU_TOL) * floor; t++) {
            clb_result r;
            if (chase_point(c, s, host, sw->x[i], o, &r) != CLB_OK)
                return c->diag.err;
            double fastest = r.stats.min > 0 ? r.stats.min : r.value;
            if (fastest < sw->ns_min[i]) {
                sw->ns[i] = r.value;
                sw->ns_min[i] = fastest;
            }
            clb_result_free(&r);
            sw->remeasured++;
        }
        floor = sw->ns_min[i] < floor ? sw->ns_min[i] : floor;
    }
    return CLB_OK;
}

static clb_error chase_sweep_run(clb_ctx *c, unsigned reps, chase_sweep *sw)
{
    clb_diag *d = &c->diag;
    mem_device m;
    chase_state s = {.q = clb_device_queue(c->dev), .page_local = sw->page_local};
    cl_program prog = NULL;
    cl_uint *host = NULL;
    clb_run_opts o;
    if (mem_device_query(c, &m) != CLB_OK || clb_build(c, "memory_latency", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    mem_sweep_opts(c, reps, &o);
    o.target_s = sw->target_s > 0 && sw->target_s < o.target_s ? sw->target_s : o.target_s;
    cl_ulong max = chase_max_bytes(c, &m);
    max = sw->max_bytes && sw->max_bytes < max ? sw->max_bytes : max;
    sw->line = s.node_words = m.line_bytes / 4;
    sw->line *= 4;
    sw->n = sweep_sizes(c, max, sw->x);
    if (!(host = malloc((size_t)max)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for %llu bytes", (unsigned long long)max);
    clb_fill_random(host, (size_t)max, 0x1a7e0001u); /* the words between nodes */
    CLB_CL(d, s.k = clCreateKernel(prog, "chase", CLB_ERRP));
    if (chase_buffer(c, &m, &s, max) != CLB_OK)
        goto cleanup;
    sw->aligned = s.aligned;
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_WRITE_ONLY, 4, NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.next, &s.next));
    CLB_CL(d, clSetKernelArg(s.k, 1, sizeof s.out, &s.out));
    for (size_t i = 0; i < sw->n; i++) {
        clb_result r;
        if (chase_point(c, &s, host, sw->x[i], &o, &r) != CLB_OK)
            goto cleanup;
        sw->ns[i] = r.value;
        sw->ns_min[i] = r.stats.min > 0 ? r.stats.min : r.value;
        if (sw->have_last)
            clb_result_free(&sw->last);
        sw->last = r;
        sw->have_last = 1;
    }
    if (sw->page_local && !c->opts->quick) /* memory.caches' levels (--quick: three sizes, no levels) */
        chase_recheck(c, &s, host, &o, sw);
cleanup:
    free(host);
    chase_release(&s);
    clb_release_program(prog);
    return d->err;
}

/* Cycles at the measured clock; NaN (JSON null) when the clock is unknown. */
static double cycles(double ns, double mhz) { return isfinite(mhz) ? ns * mhz * 1e-3 : NAN; }

/* params[key] in cycles, left out when the clock is unknown (clock_source says why). */
static void param_cycles(clb_result *res, const char *key, double ns, double mhz)
{
    if (isfinite(mhz))
        clb_param_num(res, key, cycles(ns, mhz));
}

/* params.curves: latency in ns and, when the clock is known, in cycles at the measured clock. */
static void add_latency_curves(clb_result *res, const chase_sweep *sw, double mhz)
{
    cJSON *curves = cJSON_CreateArray();
    double cyc[MAX_POINTS];
    for (size_t i = 0; i < sw->n; i++)
        cyc[i] = cycles(sw->ns[i], mhz);
    cJSON_AddItemToArray(curves, clb_curve("working set", "bytes", "latency", "ns", 1, "global, ns per load",
                                           sw->x, sw->ns, sw->n));
    if (isfinite(mhz))
        cJSON_AddItemToArray(curves, clb_curve("working set", "bytes", "latency", "cycles", 1,
                                               "global, cycles at the measured clock (clock_source)", sw->x, cyc, sw->n));
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "curves");
    cJSON_AddItemToObject(res->params, "curves", curves);
    clb_param_num(res, "node_bytes", sw->line);
    clb_param_str(res, "node_spacing", "one cache line (CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, 64 when unreported)");
    clb_param_str(res, "node_placement",
                  sw->aligned < 0  ? "device memory (clCreateBuffer)"
                  : sw->aligned    ? "host memory aligned to 256 MiB, used in place (CL_MEM_USE_HOST_PTR; the map returned it)"
                                   : "aligned host memory given with CL_MEM_USE_HOST_PTR, but the device copies it: alignment unknown");
    clb_param_num(res, "remeasured_points", sw->remeasured);
}

/* params.plateaus from the latency curve alone. */
static void add_plateaus(clb_result *res, const chase_sweep *sw, double mhz)
{
    clb_plateau p[16];
    size_t m = clb_plateaus_monotonic(p, clb_find_plateaus(sw->x, sw->ns, sw->n, PLATEAU_TOL, 0.25, p, 16), 1);
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < m; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "first_size_bytes", p[i].x_first);
        cJSON_AddNumberToObject(o, "last_size_bytes", p[i].x_last);
        clb_json_number(o, "latency_ns", p[i].level);
        clb_json_number(o, "latency_cycles", cycles(p[i].level, mhz));
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddItemToObject(res->params, "plateaus", arr);
}

clb_error clb_memory_latency_run(clb_ctx *c, clb_result *res)
{
    chase_sweep sw = {0};
    mem_device m;
    if (mem_device_query(c, &m) != CLB_OK || chase_sweep_run(c, 5, &sw) != CLB_OK)
        goto cleanup;
    mem_adopt(c, &sw.last); /* headline: the largest working set (DRAM on every device) */
    mem_measured_clock(c, &m);
    add_latency_curves(res, &sw, m.clock_mhz);
    add_plateaus(res, &sw, m.clock_mhz);
    clb_param_num(res, "working_set_bytes", sw.x[sw.n - 1]);
    param_cycles(res, "latency_cycles", res->value, m.clock_mhz);
cleanup:
    if (sw.have_last)
        clb_result_free(&sw.last);
    return c->diag.err;
}

/* ---- local-memory chase ---- */

clb_error clb_memory_latency_local_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    mem_device m;
    chase_state s = {.q = clb_device_queue(c->dev), .node_words = 1, .local = 1};
    cl_program prog = NULL;
    cl_uint *host = NULL;
    if (mem_device_query(c, &m) != CLB_OK)
        goto cleanup;
    cl_uint n = 16;
    while (n * 2 <= 4096 && n * 2 * 4 <= m.local_mem)
        n *= 2;
    if (m.local_mem < 64 || !(host = calloc(n, sizeof *host)))
        CLB_FAIL(d, m.local_mem < 64 ? CLB_ERR_UNSUPPORTED : CLB_ERR_NOMEM,
                 "local memory of %llu bytes", (unsigned long long)m.local_mem);
    if (link_nodes(c, &s, host, 4.0 * n) != CLB_OK || clb_build(c, "memory_latency", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.k = clCreateKernel(prog, "chase_local", CLB_ERRP));
    CLB_CL(d, s.next = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4u * n, host, CLB_ERRP));
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_WRITE_ONLY, 4, NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.next, &s.next));
    CLB_CL(d, clSetKernelArg(s.k, 1, sizeof s.out, &s.out));
    CLB_CL(d, clSetKernelArg(s.k, 2, sizeof n, &n));
    CLB_CL(d, clSetKernelArg(s.k, 5, 4u * n, NULL));
    if (ch_measure(c, &s, 1) != CLB_OK)
        goto cleanup;
    clb_param_num(res, "local_words", n);
    clb_param_str(res, "local_memory_type", m.local_type == CL_LOCAL ? "dedicated" : "emulated in global memory");
    mem_measured_clock(c, &m);
    param_cycles(res, "latency_cycles", res->value, m.clock_mhz);
    clb_param_str(res, "note", "includes the single work-item's copy of the cycle into local memory, amortized over the hops");
cleanup:
    free(host);
    chase_release(&s);
    clb_release_program(prog);
    return d->err;
}

/* ---- bandwidth against working-set size ---- */

typedef struct bw_sweep {
    size_t n;
    double x[MAX_POINTS], gbs[MAX_POINTS];
    clb_result best; /* the highest point's result */
    int have_best;
    unsigned vw;
} bw_sweep;

static clb_error bw_sweep_run(clb_ctx *c, unsigned reps, bw_sweep *sw)
{
    mem_device m;
    clb_run_opts o;
    if (mem_device_query(c, &m) != CLB_OK)
        return c->diag.err;
    mem_sweep_opts(c, reps, &o);
    /* Up to the DRAM size of memory.read_linear: >= 4x the largest cache. */
    sw->n = sweep_sizes(c, mem_dram_bytes(c, &m, 1), sw->x);
    sw->vw = 4;
    for (size_t i = 0; i < sw->n; i++) {
        clb_result r;
        if (mem_read_at_size(c, (cl_ulong)sw->x[i], sw->vw, &o, &r) != CLB_OK)
            return c->diag.err;
        sw->gbs[i] = r.value;
        if (!sw->have_best || r.value > sw->best.value) {
            if (sw->have_best)
                clb_result_free(&sw->best);
            sw->best = r;
            sw->have_best = 1;
        } else {
            clb_result_free(&r);
        }
    }
    return CLB_OK;
}

clb_error clb_memory_read_vs_size_run(clb_ctx *c, clb_result *res)
{
    bw_sweep sw = {0};
    if (bw_sweep_run(c, 5, &sw) != CLB_OK)
        goto cleanup;
    mem_adopt(c, &sw.best); /* headline: the highest bandwidth of the curve */
    cJSON_AddItemToObject(res->params, "curve", clb_curve("working set", "bytes", "read bandwidth", "GB/s", 1, NULL, sw.x, sw.gbs, sw.n));
    clb_param_str(res, "headline", "the highest point of the curve; its working set is params.array_bytes");
cleanup:
    if (sw.have_best)
        clb_result_free(&sw.best);
    return c->diag.err;
}

/* ---- cache levels ---- */

/* Median bandwidth of the bandwidth-curve points inside [lo, hi], or NaN. */
static double level_bandwidth(const bw_sweep *bw, double lo, double hi)
{
    double v[MAX_POINTS];
    size_t k = 0;
    for (size_t i = 0; i < bw->n; i++)
        if (bw->x[i] >= lo && bw->x[i] <= hi)
            v[k++] = bw->gbs[i];
    if (!k)
        return 0.0 / 0.0;
    clb_stats st;
    clb_stats_compute(v, k, &st);
    return st.median;
}

static cJSON *api_view(const mem_device *m)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "global_mem_cache_size", (double)m->cache_bytes);
    cJSON_AddNumberToObject(o, "global_mem_cacheline_size", m->line_bytes);
    cJSON_AddNumberToObject(o, "local_mem_size", (double)m->local_mem);
    cJSON_AddStringToObject(o, "local_mem_type", m->local_type == CL_LOCAL ? "dedicated" : "global");
    if (m->host_l3_bytes)
        cJSON_AddNumberToObject(o, "host_largest_cache_sysfs", (double)m->host_l3_bytes);
    return o;
}

/* The device's database row with an L2 figure (NULL: none). */
static const clb_devdb_row *devdb_l2_row(clb_ctx *c)
{
    char name[256];
    const clb_devdb_row *r = clb_devdb_match(c->dev, name, sizeof name);
    return r && r->l2_bytes > 0 ? r : NULL;
}

/* CPU devices: each sysfs data/unified cache beside the detected level that ends nearest to
 * it; agrees when within a factor 2. Returns how many agree (of *nhost). */
static size_t add_sysfs_check(clb_result *res, const clb_plateau *p, size_t ncache, size_t *nhost)
{
    clb_host_cache hc[8];
    size_t nh = clb_host_caches(hc, 8), agree = 0;
    cJSON *arr = cJSON_CreateArray();
    for (size_t k = 0; k < nh; k++) {
        int ok = 0;
        double want = (double)hc[k].bytes, best = clb_nearest_level(p, ncache, want, &ok);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "cache", hc[k].name);
        cJSON_AddNumberToObject(o, "sysfs_bytes", want);
        clb_json_number(o, "nearest_level_bytes", best);
        cJSON_AddBoolToObject(o, "within_factor_2", ok);
        cJSON_AddItemToArray(arr, o);
        agree += (size_t)ok;
    }
    *nhost = nh;
    if (nh)
        cJSON_AddItemToObject(res->params, "sysfs_check", arr);
    else
        cJSON_Delete(arr);
    return agree;
}

/* GPUs: the database's L2 (its vendor figure) beside the detected level nearest to it. The chase
 * is one work-item on one SM: where the L2 is split into partitions that each cache their near
 * SMs' accesses (GA100, GH100), the level it sees at the L2's latency is one partition, so the
 * level is judged against the L2 over the partitions (one_sm_bytes). */
static void add_devdb_check(clb_ctx *c, clb_result *res, const clb_plateau *p, size_t ncache)
{
    const clb_devdb_row *r = devdb_l2_row(c);
    if (!r)
        return;
    int ok = 0;
    double one_sm = clb_devdb_l2_one_sm(r), parts = r->l2_bytes / one_sm; /* 1 when unpartitioned */
    double near = clb_nearest_level(p, ncache, one_sm, &ok);
    cJSON *o = cJSON_AddObjectToObject(res->params, "devdb_check");
    cJSON_AddStringToObject(o, "cache", "L2");
    cJSON_AddNumberToObject(o, "devdb_bytes", r->l2_bytes);
    cJSON_AddNumberToObject(o, "partitions", parts);
    cJSON_AddNumberToObject(o, "one_sm_bytes", one_sm);
    if (r->src_l2_partitions)
        cJSON_AddStringToObject(o, "partitions_source", r->src_l2_partitions);
    clb_json_number(o, "nearest_level_bytes", near);
    cJSON_AddBoolToObject(o, "within_factor_2", ok);
    cJSON_AddStringToObject(o, "entry", r->key);
    cJSON_AddStringToObject(o, "source", r->src_l2 ? r->src_l2 : "");
}

/* The levels: every level but the last (DRAM) is a cache level. Found on each point's fastest
 * repetition (the median curve is the one reported), then clb_cache_levels drops the mixtures
 * between two levels and merges plateaus that are one level, and clb_level_ends moves each
 * level's end along the slope after its plateau to the largest size it still serves more than
 * the next level (size_bytes; plateau_end_bytes is where its flat part ended). */
static void add_levels(clb_ctx *c, clb_result *res, const chase_sweep *lat, const bw_sweep *bw,
                       const mem_device *m)
{
    clb_plateau p[16];
    size_t np = clb_find_plateaus(lat->x, lat->ns_min, lat->n, PLATEAU_TOL, 0.25, p, 16);
    np = clb_cache_levels(p, clb_plateaus_monotonic(p, np, 1), 1.5);
    double flat_end[16];
    for (size_t i = 0; i < np; i++)
        flat_end[i] = p[i].x_last;
    clb_level_ends(lat->x, lat->ns_min, lat->n, p, np);
    /* The last plateau is memory when the curve gets no slower after it: it reaches the sweep's
     * end, or only points as slow as itself follow (one noisy last point breaks no plateau). */
    int dram_plateau = np > 0 && (p[np - 1].last + 2 >= lat->n ||
                                  p[np - 1].level >= 0.7 * lat->ns_min[lat->n - 1]);
    size_t ncache = dram_plateau ? np - 1 : np;
    cJSON *levels = cJSON_CreateArray();
    int agrees = 0;
    for (size_t i = 0; i < ncache; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "size_bytes", p[i].x_last);
        clb_json_number(o, "latency_ns", p[i].level);
        clb_json_number(o, "latency_cycles", cycles(p[i].level, m->clock_mhz));
        clb_json_number(o, "bandwidth_gbs", level_bandwidth(bw, p[i].x_first, p[i].x_last));
        cJSON_AddNumberToObject(o, "first_size_bytes", p[i].x_first);
        cJSON_AddNumberToObject(o, "plateau_end_bytes", flat_end[i]);
        cJSON_AddItemToArray(levels, o);
        /* The API's cache size agrees when a level ends within a factor 2 of it. */
        if (m->cache_bytes && p[i].x_last >= 0.5 * (double)m->cache_bytes &&
            p[i].x_last <= 2.0 * (double)m->cache_bytes)
            agrees = 1;
    }
    cJSON_AddItemToObject(res->params, "levels", levels);
    double dram = dram_plateau ? p[np - 1].level : lat->ns[lat->n - 1];
    clb_param_num(res, "dram_latency_ns", dram);
    param_cycles(res, "dram_latency_cycles", dram, m->clock_mhz);
    clb_param_num(res, "dram_bandwidth_gbs", bw->n ? bw->gbs[bw->n - 1] : 0.0 / 0.0);
    cJSON_AddItemToObject(res->params, "api", api_view(m));
    cJSON_AddBoolToObject(res->params, "api_cache_size_agrees", agrees);
    size_t nhost = 0, host_agree = (m->type & CL_DEVICE_TYPE_CPU) ? add_sysfs_check(res, p, ncache, &nhost) : 0;
    if (!(m->type & CL_DEVICE_TYPE_CPU))
        add_devdb_check(c, res, p, ncache);
    if (nhost)
        clb_param_str(res, "sysfs_agreement", host_agree == nhost ? "every sysfs cache level within a factor 2"
                                                                  : "a sysfs cache level has no detected level within a factor 2 (params.sysfs_check)");
    if (!agrees)
        clb_param_str(res, "disagreement", "no detected level ends within a factor 2 of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
}

clb_error clb_memory_caches_run(clb_ctx *c, clb_result *res)
{
    /* Short launches, many of them: the fastest of 9 launches of 2 ms is one that no other
     * process interrupted, where a launch of 10 ms on a shared core rarely runs whole */
    chase_sweep lat = {.page_local = 1, .target_s = 0.002};
    bw_sweep bw = {0};
    mem_device m;
    if (mem_device_query(c, &m) != CLB_OK)
        goto cleanup;
    /* Beyond 4x the largest cache every point is DRAM: the sweep stops there (64 MiB at least).
     * GPUs: the database's L2 counts too (the H200 reports 4 MiB through OpenCL, its L2 is 50 MiB). */
    const clb_devdb_row *db = (m.type & CL_DEVICE_TYPE_CPU) ? NULL : devdb_l2_row(c);
    cl_ulong largest = db && db->l2_bytes > (double)m.largest_cache ? (cl_ulong)db->l2_bytes : m.largest_cache;
    lat.max_bytes = 4 * largest > ((cl_ulong)64 << 20) ? 4 * largest : (cl_ulong)64 << 20;
    if (chase_sweep_run(c, 9, &lat) != CLB_OK ||
        bw_sweep_run(c, 3, &bw) != CLB_OK)
        goto cleanup;
    mem_adopt(c, &lat.last); /* headline: DRAM latency (largest working set), ns */
    mem_measured_clock(c, &m);
    add_latency_curves(res, &lat, m.clock_mhz);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(res->params, "curves"),
                         clb_curve("working set", "bytes", "read bandwidth", "GB/s", 1,
                                   "global read bandwidth", bw.x, bw.gbs, bw.n));
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(res->params, "curves"),
                         clb_curve("working set", "bytes", "latency", "ns", 1,
                                   "global, ns per load, fastest repetition (the levels are found on it)",
                                   lat.x, lat.ns_min, lat.n));
    add_levels(c, res, &lat, &bw, &m);
    if (c->opts->quick)
        clb_param_str(res, "note", "--quick: three small sizes only; levels are not meaningful");
cleanup:
    if (lat.have_last)
        clb_result_free(&lat.last);
    if (bw.have_best)
        clb_result_free(&bw.best);
    return c->diag.err;
}

/* memory.caches and memory.read_vs_size validate inside their sweeps (each point with its
 * own kernel's check); the row's validate is never reached with their state. */
clb_error clb_memory_sweep_validate(clb_ctx *c, void *state, clb_diag *d)
{
    (void)c;
    (void)state;
    return clb_diag_set(d, CLB_ERR_INVALID_RESULT, "no validation outside the sweep");
}

/* ---- the latency workload measured whole (recommend's latency class) ---- */

enum { RT_ROUNDS = 64, RT_WARMUP = 5, RT_SAMPLES = 100 }; /* 64 x 16 = 1024 dependent loads */

/* One launch of the chase, waited for: its wall time in us, the end node checked. */
static clb_error rt_launch(clb_ctx *c, chase_state *s, double *us)
{
    clb_diag *d = &c->diag;
    double t0 = clb_now();
    if (ch_enqueue(s, RT_ROUNDS, NULL, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clFinish(s->q));
    *us = 1e6 * (clb_now() - t0);
    clb_validate(c, s, s->out, sizeof(cl_uint)); /* --inject-fault spoils the end node */
cleanup:
    return d->err;
}

/* What `recommend --workload latency` models as launch + loads x memory.latency (docs/decide.md):
 * one launch of 1024 dependent loads through a random cycle as large as memory.latency's
 * largest (DRAM), host wall clock from enqueue to clFinish; each launch goes on where the
 * last one ended, so no load repeats a recent node. */
clb_error clb_memory_chase_roundtrip_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    mem_device m;
    chase_state s = {.q = clb_device_queue(c->dev)};
    cl_program prog = NULL;
    cl_uint *host = NULL;
    double us[RT_SAMPLES];
    if (mem_device_query(c, &m) != CLB_OK || clb_build(c, "memory_latency", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    cl_ulong max = chase_max_bytes(c, &m);
    s.node_words = m.line_bytes / 4;
    if (!(host = malloc((size_t)max)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for %llu bytes", (unsigned long long)max);
    clb_fill_random(host, (size_t)max, 0x1a7e0002u);
    CLB_CL(d, s.k = clCreateKernel(prog, "chase", CLB_ERRP));
    CLB_CL(d, s.next = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY, (size_t)max, NULL, CLB_ERRP));
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_WRITE_ONLY, 4, NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.next, &s.next));
    CLB_CL(d, clSetKernelArg(s.k, 1, sizeof s.out, &s.out));
    if (link_nodes(c, &s, host, (double)max) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clEnqueueWriteBuffer(s.q, s.next, CL_TRUE, 0, (size_t)max, host, 0, NULL, NULL));
    for (int i = 0; i < RT_WARMUP + RT_SAMPLES; i++)
        if (rt_launch(c, &s, &us[i < RT_WARMUP ? 0 : i - RT_WARMUP]) != CLB_OK)
            goto cleanup;
    if (clb_result_set_samples(res, us, RT_SAMPLES, "us", 0, "wall_clock_monotonic enqueue->clFinish") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    clb_param_num(res, "loads", 16.0 * RT_ROUNDS);
    clb_param_num(res, "working_set_bytes", (double)max);
    clb_param_num(res, "node_bytes", 4.0 * s.node_words);
    clb_param_num(res, "warmup_launches", RT_WARMUP);
cleanup:
    free(host);
    chase_release(&s);
    clb_release_program(prog);
    return d->err;
}
