/* app.euler OpenCL variants: linear, coalesced, vectorized (one launch per step), the tiled
 * row-wise diamond, column-wise diamond and honeycomb kernels (one launch per row of tiles),
 * BRUSS2D's 2-D overlapped tiles and STRING's 1-D ones in registers (one launch per s steps). */
#include "apps/euler/euler.h"

#include <stdlib.h>
#include <string.h>

static const char *kernel_name(eu_kind k)
{
    switch (k) {
    case EU_LINEAR: return "eu_linear";
    case EU_COALESCED: return "eu_coalesced";
    case EU_VECTOR: return "eu_vector";
    case EU_DIA_COL: return "eu_tile_col";
    case EU_TILE2D: return "eu_tile2d";
    case EU_DIA_GLOBAL: return "eu_tile_glob";
    default: return "eu_tile_row";
    }
}

static size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

/* Block size: the access distance rounded up to 4 (seed 003, 7.1); the column sweep works
 * on one block at a time, so there it holds at least one component per work-item (8.1). */
static size_t block_size(const eu_state *s, size_t lsize)
{
    size_t d4 = round_up(s->o.dist, 4);
    return s->row->kind == EU_DIA_COL ? d4 * ((lsize + d4 - 1) / d4) : d4;
}

/* The defines euler_ode.cl expects, then euler_ode.cl itself, then extra. Caller frees. */
static char *program_prefix(const eu_state *s, size_t bs, const char *extra)
{
    const char *ode = clb_kernel_source("euler_ode");
    size_t cap = 1024 + (ode ? strlen(ode) : 0) + strlen(extra);
    char *p = malloc(cap), num[3][40];
    if (!p || !ode) {
        free(p);
        return NULL;
    }
    int f64 = s->row->fp64;
    const double v[3] = {s->o.k2, s->o.alpha, s->o.h};
    for (int i = 0; i < 3; i++) /* the host's (T) value, printed exactly */
        if (f64)
            snprintf(num[i], sizeof num[i], "%.17g", v[i]);
        else
            snprintf(num[i], sizeof num[i], "%.9ef", (double)(float)v[i]);
    snprintf(p, cap,
             "%s#define T %s\n#define VT %s\n#define VW %d\n#define EU_STRING %d\n#define NC %zu\n"
             "#define GRID %zu\n#define K2 ((T)%s)\n#define ALPHA ((T)%s)\n#define HH ((T)%s)\n"
             "#define BS %zu\n%s\n%s",
             f64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", f64 ? "double" : "float",
             f64 ? "double2" : "float4", f64 ? 2 : 4, s->o.prob == EU_STRING, s->o.n, s->o.grid,
             num[0], num[1], num[2], bs, ode, extra);
    return p;
}

clb_error eu_cl_configure(clb_ctx *c, eu_state *s, size_t lsize, size_t groups, size_t hc_steps)
{
    clb_diag *d = &c->diag;
    size_t kmax = 0, items = s->o.n / 4;
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, clb_device_reference(c->dev)->device,
                                       CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
    s->lsize = lsize ? lsize : 256;
    s->lsize = s->lsize > kmax ? kmax : s->lsize;
    if (!s->tiled) { /* enough work-items to fill the device, at most one per 4 components */
        s->groups = groups ? groups : s->cu * 8;
        size_t most = (items + s->lsize - 1) / s->lsize;
        s->groups = s->groups > most ? most : s->groups;
        s->groups = s->groups ? s->groups : 1;
        return CLB_OK;
    }
    eu_strategy st = s->row->kind == EU_SWEEP ? EU_KORR : s->row->strat;
    size_t bs = block_size(s, s->lsize);
    /* The column kernel's block holds one component per work-item: its BS is compiled in. */
    if (bs != s->built_bs)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED,
                 "the kernel allows work-groups of %zu (CL_KERNEL_WORK_GROUP_SIZE), fewer than "
                 "the block size %zu it was built for", s->lsize, s->built_bs);
    size_t budget = s->local_mem > s->kernel_local ? s->local_mem - s->kernel_local : 0;
    int col = s->row->kind == EU_DIA_COL;
    if (eu_geom_plan(&s->geom, s->o.n, bs, s->elem, budget, s->cu, st, col, 0, d) != CLB_OK)
        goto cleanup;
    if (s->row->kind == EU_HONEYCOMB) { /* seed 003, 9.3: best at dia_blocks / steps ~ 12.5 */
        size_t hs = hc_steps ? hc_steps : s->geom.dia_blocks * 2 / 25;
        eu_geom_plan(&s->geom, s->o.n, bs, s->elem, budget, s->cu, st, 0, hs ? hs : 1, d);
    }
    s->groups = groups ? groups : s->cu * s->tile_groups_per_cu; /* seed: one per compute unit */
    /* the global-only diamond takes the same arguments but uses no local memory */
    CLB_CL(d, clSetKernelArg(s->k, 2, s->row->kind == EU_DIA_GLOBAL ? s->elem : s->geom.local_bytes, NULL));
    const cl_int a[5] = {(cl_int)s->geom.blocks, (cl_int)s->geom.m, (cl_int)s->geom.hs,
                         (cl_int)s->geom.period, (cl_int)s->steps};
    for (cl_uint i = 0; i < 5; i++)
        CLB_CL(d, clSetKernelArg(s->k, 3 + i, sizeof a[i], &a[i]));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->g[0], &s->g[0]));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->g[1], &s->g[1]));
cleanup:
    return d->err;
}

/* Compute units and local memory; refuses sizes whose three arrays do not fit the device. */
static clb_error device_limits(clb_ctx *c, eu_state *s)
{
    clb_diag *d = &c->diag;
    cl_device_id dev = clb_device_reference(c->dev)->device;
    cl_uint cu = 0;
    cl_ulong lm = 0, gm = 0, most = 0, bytes = (cl_ulong)(s->o.n * s->elem);
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most, NULL));
    s->cu = cu ? cu : 1;
    s->local_mem = (size_t)lm;
    if (bytes > most || 3 * bytes > gm / 10 * 9)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED,
                 "n = %zu needs 3 arrays of %llu B; the device has %llu B (largest allocation "
                 "%llu B): choose a smaller CLBENCH_EULER_N / CLBENCH_EULER_GRID",
                 s->o.n, (unsigned long long)bytes, (unsigned long long)gm, (unsigned long long)most);
cleanup:
    return d->err;
}

/* The overlapped tiles' geometry for work-groups of at most wg items and halo s_want (0: the
 * rule), and its defines: BRUSS2D's 2-D patch, or STRING's 1-D one in registers. */
static clb_error overlap_plan(eu_state *s, size_t budget, size_t wg, size_t s_want, char *extra, size_t n,
                              clb_diag *d)
{
    eu_geom2d *g = &s->geom2;
    const char *p2 = s->row->fp64 ? "double2" : "float2";
    if (s->o.prob == EU_STRING) {
        if (eu_geom1d_plan(g, s->o.n / 2, wg, s->tile2d_points, s->steps, s_want, s->elem, d) != CLB_OK)
            return d->err;
        snprintf(extra, n, "#define P2 %s\n#define NP %zu\n#define LX %zu\n#define RX %zu\n#define TX %zu\n"
                 "#define HALO %zu\n", p2, s->o.n / 2, g->lx, g->rx, g->tx, g->s);
        return CLB_OK;
    }
    if (eu_geom2d_plan(g, s->o.grid, s->elem, budget, wg, s->tile2d_points, s->steps, s_want, d) != CLB_OK)
        return d->err;
    snprintf(extra, n,
             "#define P2 %s\n#define TX %zu\n#define TY %zu\n#define HALO %zu\n#define PW %zu\n"
             "#define PH %zu\n#define LX %zu\n#define LY %zu\n#define RX %zu\n#define RY %zu\n",
             p2, g->tx, g->ty, g->s, g->pw, g->ph, g->lx, g->ly, g->rx, g->ry);
    return CLB_OK;
}

/* tiled_2d (BRUSS2D) and tiled_1d (STRING): plans the geometry for work-groups of at most lsize
 * (0: 256) items and halo s_want (0: the rule), builds the kernel with it compiled in, and plans
 * again with the kernel's own limits while it takes fewer work-items or less local memory than
 * planned (3 builds at most). */
static clb_error tile2d_build(clb_ctx *c, eu_state *s, size_t lsize, size_t s_want)
{
    clb_diag *d = &c->diag;
    cl_device_id dev = clb_device_reference(c->dev)->device;
    eu_geom2d *g = &s->geom2;
    size_t wg = lsize ? lsize : 256, dmax = 0, budget = s->local_mem;
    char *prefix = NULL, extra[512];
    int one_d = s->o.prob == EU_STRING;
    const char *file = one_d ? "euler_tile1d" : "euler_tile2d";
    const char *kname = one_d ? "eu_tile1d" : s->tile2d_reg ? "eu_tile2d_reg" : s->tile2d_all ? "eu_tile2d_all" : "eu_tile2d";
    if (s->tile2d_form_bad)
        CLB_FAIL(d, CLB_ERR_USAGE, "CLBENCH_EULER_TILE2D_FORM is none of local, local_all, registers");
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dmax, &dmax, NULL));
    wg = wg < dmax ? wg : dmax;
    for (int tries = 1;; tries++) {
        if (overlap_plan(s, budget, wg, s_want, extra, sizeof extra, d) != CLB_OK)
            goto cleanup;
        free(prefix);
        prefix = program_prefix(s, 0, extra);
        if (!prefix)
            CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory (or no embedded euler_ode.cl)");
        if (clb_build(c, file, prefix, NULL, &s->prog) != CLB_OK)
            goto cleanup;
        CLB_CL(d, s->k = clCreateKernel(s->prog, kname, CLB_ERRP));
        char dname[64], dpath[1024]; /* CLBENCH_DUMP_DIR: the program, for its machine code */
        snprintf(dname, sizeof dname, "%s_%s", kname, s->row->fp64 ? "f64" : "f32");
        if (clb_dump_program_binary(s->prog, dname, dpath, sizeof dpath))
            clb_param_str(c->res, "binary_dump", dpath);
        size_t kmax = 0;
        cl_ulong fixed = 0; /* asked before the local argument is set */
        CLB_CL(d, clGetKernelWorkGroupInfo(s->k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
        CLB_CL(d, clGetKernelWorkGroupInfo(s->k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof fixed, &fixed, NULL));
        s->kernel_local = (size_t)fixed;
        size_t room = s->local_mem > s->kernel_local ? s->local_mem - s->kernel_local : 0;
        if (kmax >= g->lx * g->ly && room >= g->local_bytes)
            break;
        if (tries == 3)
            CLB_FAIL(d, CLB_ERR_UNSUPPORTED,
                     "%s: the kernel takes %zu work-items and %zu B of local memory, the "
                     "geometry %zu x %zu items and %zu B", one_d ? "tiled_1d" : "tiled_2d", kmax, room,
                     g->lx, g->ly, g->local_bytes);
        wg = kmax < wg ? kmax : wg;
        budget = room < budget ? room : budget;
        clb_release_kernel(s->k);
        clb_release_program(s->prog);
        s->k = NULL;
        s->prog = NULL;
    }
    s->lsize = g->lx * g->ly;
    s->groups = g->tiles_x * g->tiles_y;
cleanup:
    free(prefix);
    return d->err;
}

/* tiled_2d's fixed arguments (the ping-pong buffers and step count are set per launch). */
static clb_error tile2d_configure(clb_ctx *c, eu_state *s)
{
    clb_diag *d = &c->diag;
    CLB_CL(d, clSetKernelArg(s->k, 2, s->geom2.local_bytes, NULL));
cleanup:
    return d->err;
}

/* The untiled and 1-D tiled kernels: block size, build, the kernel's own local memory. */
static clb_error build_1d(clb_ctx *c, eu_state *s, size_t lsize)
{
    clb_diag *d = &c->diag;
    char *prefix = NULL;
    /* The block size follows the work-group size (column diamonds): the one the device allows. */
    size_t want = lsize ? lsize : 256, dmax = 0;
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                              sizeof dmax, &dmax, NULL));
    s->built_bs = block_size(s, want < dmax ? want : dmax);
    char extra[96];
    snprintf(extra, sizeof extra, "#define EU_VEC %d\n%s", s->row->vec,
             s->row->vol ? "#define GV global volatile\n" : "");
    prefix = program_prefix(s, s->built_bs, extra);
    if (!prefix)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory (or no embedded euler_ode.cl)");
    /* argument info: params.global_access says what the built kernel declares, not the row */
    if (clb_build(c, s->tiled ? "euler_tile" : "euler_linear", prefix, "-cl-kernel-arg-info", &s->prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->k = clCreateKernel(s->prog, kernel_name(s->row->kind), CLB_ERRP));
    cl_kernel_arg_type_qualifier tq = 0;
    s->arg_volatile = clGetKernelArgInfo(s->k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL) != CL_SUCCESS ? -1
                      : (tq & CL_KERNEL_ARG_TYPE_VOLATILE) != 0;
    /* local memory the kernel uses itself, asked before the local argument is set (the
     * query counts local arguments too) */
    cl_ulong fixed = 0;
    CLB_CL(d, clGetKernelWorkGroupInfo(s->k, clb_device_reference(c->dev)->device,
                                       CL_KERNEL_LOCAL_MEM_SIZE, sizeof fixed, &fixed, NULL));
    s->kernel_local = (size_t)fixed;
cleanup:
    free(prefix);
    return d->err;
}

clb_error eu_cl_setup(clb_ctx *c, eu_state *s, size_t lsize, size_t groups, size_t hc_steps)
{
    clb_diag *d = &c->diag;
    cl_context ctx = clb_device_context(c->dev);
    size_t bytes = s->o.n * s->elem;
    int t2 = s->row->kind == EU_TILE2D;
    s->q = clb_device_queue(c->dev);
    s->tiled = (s->row->kind >= EU_DIA_ROW && s->row->kind <= EU_HONEYCOMB) || s->row->kind == EU_DIA_GLOBAL;
    if (device_limits(c, s) != CLB_OK)
        goto cleanup;
    if ((t2 ? tile2d_build(c, s, lsize, hc_steps) : build_1d(c, s, lsize)) != CLB_OK) /* hc_steps: tiled_2d's halo */
        goto cleanup;
    for (int i = 0; i < 2; i++)
        CLB_CL(d, s->g[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, CLB_ERRP));
    CLB_CL(d, s->init = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->y0,
                                       CLB_ERRP));
    if (t2)
        tile2d_configure(c, s);
    else
        eu_cl_configure(c, s, lsize, groups, hc_steps);
cleanup:
    return d->err;
}

/* Enqueues launch l; *ev receives its event. */
static clb_error enqueue_launch(clb_ctx *c, eu_state *s, size_t l, cl_event *ev)
{
    clb_diag *d = &c->diag;
    size_t global[2] = {s->groups * s->lsize, 1}, local[2] = {s->lsize, 1};
    cl_uint dims = 1;
    *ev = NULL;
    if (s->row->kind == EU_TILE2D) { /* launch l: levels l s .. l s + k */
        const eu_geom2d *g = &s->geom2;
        size_t rest = s->steps - l * g->s;
        const cl_int k = (cl_int)(rest < g->s ? rest : g->s);
        CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->g[0], &s->g[l & 1]));
        CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->g[0], &s->g[(l + 1) & 1]));
        CLB_CL(d, clSetKernelArg(s->k, 3, sizeof k, &k));
        global[0] = g->tiles_x * g->lx;
        global[1] = g->tiles_y * g->ly;
        local[0] = g->lx;
        local[1] = g->ly;
        dims = 2;
    } else if (s->tiled) {
        long t0, c0;
        size_t tiles;
        eu_geom_row(&s->geom, l, &t0, &c0, &tiles);
        const cl_int a[3] = {(cl_int)t0, (cl_int)c0, (cl_int)tiles};
        for (cl_uint i = 0; i < 3; i++)
            CLB_CL(d, clSetKernelArg(s->k, 8 + i, sizeof a[i], &a[i]));
        global[0] = (tiles < s->groups ? tiles : s->groups) * s->lsize;
    } else {
        CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->g[0], &s->g[l & 1]));
        CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->g[0], &s->g[(l + 1) & 1]));
    }
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, dims, NULL, global, local, 0, NULL, ev));
cleanup:
    return d->err;
}

clb_error eu_cl_once(clb_ctx *c, eu_state *s, double *secs)
{
    clb_diag *d = &c->diag;
    cl_event first = NULL, last = NULL, ev = NULL;
    cl_ulong a[4], b[4];
    size_t nl = s->row->kind == EU_TILE2D ? eu_geom2d_launches(&s->geom2, s->steps)
                : s->tiled                  ? eu_geom_launches(&s->geom, s->steps)
                                            : s->steps;
    clb_diag_clear(d);
    CLB_CL(d, clEnqueueCopyBuffer(s->q, s->init, s->g[0], 0, 0, s->o.n * s->elem, 0, NULL, NULL));
    /* The other buffer starts as this run's poison: work a configuration skips cannot inherit
     * an earlier configuration's (or run's) correct values. */
    if (clb_poison(c, s->g[1], s->o.n * s->elem) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clFinish(s->q));
    double t0 = clb_now();
    for (size_t l = 0; l < nl; l++) {
        if (enqueue_launch(c, s, l, &ev) != CLB_OK)
            goto cleanup;
        if (!first)
            first = ev;
        else {
            clb_release_event(last);
            last = ev;
        }
    }
    CLB_CL(d, clFinish(s->q));
    double wall = clb_now() - t0;
    if (clb_event_times(first, a, d) != CLB_OK || clb_event_times(last ? last : first, b, d) != CLB_OK)
        goto cleanup;
    if (b[3] <= a[2])
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "last launch END is not after the first START");
    *secs = 1e-9 * (double)(b[3] - a[2]);
    if (clb_event_outlasts_wall(*secs, wall))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "profiling events span %.6f s but the wall clock only %.6f s",
                 *secs, wall);
cleanup:
    clb_release_event(first);
    clb_release_event(last);
    return d->err;
}

size_t eu_cl_result(const eu_state *s)
{
    /* level t in g[t & 1]; tiled_2d: launch l writes g[(l + 1) & 1] */
    return s->row->kind == EU_TILE2D ? eu_geom2d_launches(&s->geom2, s->steps) & 1 : s->steps & 1;
}

clb_error eu_cl_read(clb_ctx *c, eu_state *s)
{
    clb_diag *d = &c->diag;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->g[eu_cl_result(s)], CL_TRUE, 0, s->o.n * s->elem, s->out,
                                  0, NULL, NULL));
cleanup:
    return d->err;
}

void eu_cl_release(eu_state *s)
{
    clb_release_kernel(s->k);
    clb_release_program(s->prog);
    clb_release_mem(s->g[0]);
    clb_release_mem(s->g[1]);
    clb_release_mem(s->init);
    s->k = NULL;
    s->prog = NULL;
    s->g[0] = s->g[1] = s->init = NULL;
}

void eu_cl_params(clb_result *res, const eu_state *s)
{
    clb_param_str(res, "kernel", s->geom2.one_d ? "eu_tile1d"
                                 : s->row->kind == EU_TILE2D && s->tile2d_reg ? "eu_tile2d_reg"
                                 : s->row->kind == EU_TILE2D && s->tile2d_all ? "eu_tile2d_all"
                                                                             : kernel_name(s->row->kind));
    clb_param_str(res, "problem_function", s->row->vec || s->row->kind == EU_VECTOR ? "vectorized" : "scalar");
    if (s->row->kind != EU_TILE2D)
        clb_param_str(res, "global_access", s->arg_volatile < 0 ? "unknown (no kernel argument info)"
                                            : s->arg_volatile ? "volatile (no cache reuse)" : "plain");
    if (s->row->kind == EU_DIA_GLOBAL)
        clb_param_str(res, "tile_memory", "global only (no local memory)");
    clb_param_num(res, "local_size", (double)s->lsize);
    clb_param_num(res, "work_groups", (double)s->groups);
    if (s->tiled)
        clb_param_num(res, "tile_groups_per_cu", (double)s->tile_groups_per_cu);
    clb_param_num(res, "compute_units", (double)s->cu);
    clb_param_num(res, "local_mem_bytes", (double)s->local_mem);
    if (s->row->kind == EU_TILE2D) {
        const eu_geom2d *g = &s->geom2;
        clb_param_num(res, "local_size_x", (double)g->lx);
        clb_param_num(res, "local_size_y", (double)g->ly);
        clb_param_num(res, "points_per_item", (double)(g->rx * g->ry));
        clb_param_num(res, "tile_x", (double)g->tx);
        clb_param_num(res, "tile_y", (double)g->ty);
        clb_param_num(res, "tile_steps", (double)g->s); /* the halo */
        clb_param_num(res, "patch_x", (double)g->pw);
        clb_param_num(res, "patch_y", (double)g->ph);
        clb_param_num(res, "tiles", (double)(g->tiles_x * g->tiles_y));
        clb_param_num(res, "launches", (double)eu_geom2d_launches(g, s->steps));
        /* local_all computes the whole patch every step, not the shrinking valid region */
        clb_param_num(res, "tile_redundancy", s->tile2d_all && g->tx && g->ty
                                                  ? (double)(g->pw * g->ph) / (double)(g->tx * g->ty)
                                                  : eu_geom2d_redundancy(g, g->s));
        clb_param_num(res, "tile_local_bytes", (double)g->local_bytes);
        clb_param_num(res, "kernel_local_bytes", (double)s->kernel_local);
        return;
    }
    if (!s->tiled) {
        clb_param_num(res, "global_size", (double)(s->groups * s->lsize));
        return;
    }
    static const char *strat[] = {"multStrat", "addStrat", "korrStrat"};
    clb_param_num(res, "block_size", (double)s->geom.bs);
    clb_param_num(res, "blocks", (double)s->geom.blocks);
    clb_param_num(res, "diamonds", (double)s->geom.diamonds);
    clb_param_num(res, "dia_blocks", (double)s->geom.dia_blocks);
    clb_param_str(res, "strategy", strat[s->row->kind == EU_SWEEP ? EU_KORR : s->row->strat]);
    clb_param_num(res, "tile_steps", (double)s->geom.hs);
    clb_param_num(res, "tile_flat_blocks", (double)(2 * s->geom.m));
    clb_param_num(res, "tile_period_blocks", (double)s->geom.period);
    clb_param_num(res, "tile_local_bytes", (double)s->geom.local_bytes);
    clb_param_num(res, "launches", (double)eu_geom_launches(&s->geom, s->steps));
}
