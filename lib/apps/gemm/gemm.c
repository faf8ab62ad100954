/* app.sgemm.* and app.dgemm.*: C = A B for square n x n matrices, as a ladder of rows: the
 * sequential host reference, all host cores with pthreads, the OpenCL rungs of seeds 001 and
 * 002, the blocked rungs beyond them, the tuned rung and CLBlast (docs/apps/gemm.md). */
#include "apps/gemm/gemm_cl.h"

#include <stdlib.h>
#include <string.h>

static uint64_t fresh_seed(void)
{
    return (uint64_t)(clb_now() * 1e9) ^ 0x9E3779B97F4A7C15ull;
}

/* Sizes: the seed ladder and the host rows at the seed's n = 2000 (DGEMM on CPU devices at
 * 1000, so `run 'app.*'` fits in about 10 minutes on two cores); the blocked rungs and
 * CLBlast at n = 8192 (SGEMM) / 4096 (DGEMM) on GPUs, 2000 on CPU devices; --quick 100. */
static size_t gemm_n(const clb_ctx *c, const gemm_arg *a)
{
    if (!a->rung || a->rung->seed_ladder)
        return app_size(c, clb_settings_get()->gemm_ladder_n, 100, a->prec == 4 ? 2000 : 1000, 2000);
    return app_size(c, clb_settings_get()->gemm_n, 100, 2000, a->prec == 4 ? 8192 : 4096);
}

static void common_params(clb_ctx *c, const gemm_arg *a, size_t n, const char *variant)
{
    clb_param_str(c->res, "app", a->prec == 4 ? "sgemm" : "dgemm");
    clb_param_str(c->res, "variant", variant);
    clb_param_num(c->res, "n", (double)n);
    clb_param_str(c->res, "layout", "row-major, C = A B, square");
    gemm_roof_params(c->res, n, a->prec);
}

/* ---- host rows ---- */

typedef struct host_state {
    clb_ctx *c;
    gemm_mats m;
    void *out;
    int threaded;
    unsigned threads;
    uint64_t seed;
} host_state;

static clb_error host_once(void *state, double *seconds, clb_diag *d)
{
    host_state *s = state;
    double t0 = clb_now();
    clb_diag_clear(d);
    if (s->threaded) {
        if (gemm_host_pthreads(&s->m, s->out, s->threads, d) != CLB_OK)
            return d->err;
    } else {
        gemm_host_sequential(&s->m, s->out);
    }
    *seconds = clb_now() - t0;
    return CLB_OK;
}

static clb_error host_validate(clb_ctx *c, void *state, clb_diag *d)
{
    host_state *s = state;
    clb_fault_apply_host(c, s->out, s->m.n * s->m.n * s->m.prec);
    return gemm_check(&s->m, s->out, s->m.n, s->seed, d);
}

static clb_error host_run(clb_ctx *c, int threaded)
{
    const gemm_arg *a = c->bench->arg;
    host_state s = {.c = c, .threaded = threaded, .threads = app_host_threads(),
                    .seed = fresh_seed()};
    size_t n = gemm_n(c, a);
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (gemm_mats_init(&s.m, n, a->prec, s.seed, d) != CLB_OK)
        goto cleanup;
    if (!(s.out = malloc(n * n * a->prec)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    common_params(c, a, n, threaded ? "pthreads" : "sequential");
    clb_param_num(c->res, "rung_index", threaded ? 1 : 0);
    clb_param_num(c->res, "host_threads", threaded ? s.threads : 1);
    clb_param_str(c->res, "runs_on", "host CPU (not the OpenCL device)");
    app_timing t = {&s, host_once, 2.0 * (double)n * (double)n * (double)n, 1e-9, "GFLOP/s",
                    "wall_clock_monotonic, one host run", NULL, 0};
    app_measure(c, &t);
cleanup:
    gemm_mats_free(&s.m);
    free(s.out);
    return d->err;
}

static clb_error gemm_seq_run(clb_ctx *c, clb_result *res)
{
    (void)res;
    return host_run(c, 0);
}

static clb_error gemm_pthreads_run(clb_ctx *c, clb_result *res)
{
    (void)res;
    return host_run(c, 1);
}

/* ---- OpenCL rungs ---- */

static clb_error dev_validate(clb_ctx *c, void *state, clb_diag *d)
{
    (void)c;
    return gemm_dev_check(state, d);
}

/* The tile shape families 0 and 3 share. */
static void tile_params(clb_result *res, const gemm_blk *b, const char *family)
{
    clb_param_str(res, "kernel_family", family);
    clb_param_num(res, "tile_m", b->tsm);
    clb_param_num(res, "tile_n", b->tsn);
    clb_param_num(res, "tile_k", b->tsk);
    clb_param_num(res, "work_per_item_m", b->wptm);
    clb_param_num(res, "work_per_item_n", b->wptn);
}

static void blk_params(clb_result *res, const gemm_blk *b)
{
    if (b->family == 3) {
        tile_params(res, b, "warp tiles");
        clb_param_num(res, "work_group_size", (double)gemm_warp_items(b));
        clb_param_num(res, "warp_lanes_n", b->ln);
        clb_param_num(res, "fragment_width", b->vw);
        clb_param_num(res, "double_buffered", b->dbuf);
        clb_param_num(res, "fragments_at_scalar_offsets", b->fa);
        return;
    }
    if (b->family >= 1) {
        clb_param_str(res, "kernel_family", b->family == 2 ? "packed panels" : "register vectors");
        if (b->family == 2) {
            clb_param_num(res, "row_blocks_per_item", b->mb);
            clb_param_num(res, "k_slice", b->kc);
        }
        clb_param_num(res, "rows_per_item", b->rm);
        clb_param_num(res, "vector_width", b->w);
        clb_param_num(res, "vectors_per_row", b->vn);
        return;
    }
    tile_params(res, b, "local tiles");
    clb_param_num(res, "vector_width", b->vw);
    clb_param_num(res, "double_buffered", b->dbuf);
}

static clb_error gemm_cl_run(clb_ctx *c, clb_result *res)
{
    const gemm_arg *a = c->bench->arg;
    const gemm_rung *r = a->rung;
    gemm_mats m = {0};
    gemm_dev g = {0};
    gemm_blk blk = r->blk;
    size_t n = gemm_n(c, a);
    uint64_t seed = fresh_seed();
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (strcmp(r->name, "tuned") == 0 && gemm_tune(c, r, a->prec, n, &blk) != CLB_OK)
        goto cleanup;
    if (gemm_mats_init(&m, n, a->prec, seed, d) != CLB_OK)
        goto cleanup;
    common_params(c, a, n, r->name);
    clb_param_num(res, "rung_index", r->index);
    clb_param_str(res, "peer_row", a->prec == 4 ? "compute.fp32.fma" : "compute.fp64.fma");
    if (r->kind == RK_BLOCK || r->kind == RK_VEC)
        blk_params(res, &blk);
    if (gemm_dev_setup(c, r, &blk, &m, &g) != CLB_OK)
        goto cleanup;
    clb_param_num(res, "padded_m", (double)g.mp);
    clb_param_num(res, "padded_n", (double)g.np);
    clb_param_num(res, "padded_k", (double)g.kp);
    app_timing t = {&g, gemm_dev_once, 2.0 * (double)n * (double)n * (double)n, 1e-9,
                    "GFLOP/s", "cl_event_profiling START->END, wall-clock checked", g.cbuf,
                    g.mp * g.np * a->prec};
    app_measure(c, &t);
cleanup:
    gemm_dev_release(&g);
    gemm_mats_free(&m);
    return d->err;
}

/* ---- the ladder ---- */

#define BLK(m, n, k, wm, wn, v, db) {m, n, k, wm, wn, v, db, 0, 0, 0, 0, 0, 0, 0, 0}
#define VEC(rm, w, vn) {0, 0, 0, 0, 0, 0, 0, 1, rm, w, vn, 0, 0, 0, 0}
#define WRP(m, n, k, tm, tn, ln, fa) {m, n, k, tm, tn, 4, 1, 3, 0, 0, 0, 0, 0, ln, fa}
static const gemm_rung rungs[] = {
    {"naive", RK_2D, 1, 0, 0, BLK(0, 0, 0, 0, 0, 0, 0), 2, 1},
    {"coalesced", RK_2D, 1, 0, 0, BLK(0, 0, 0, 0, 0, 0, 0), 3, 1},
    {"private_acc", RK_2D, 1, 0, 0, BLK(0, 0, 0, 0, 0, 0, 0), 4, 1},
    {"row", RK_ROW, 1, 0, 0, BLK(0, 0, 0, 0, 0, 0, 0), 5, 1},
    {"row_private_a", RK_ROW, 1, 0, 1, BLK(0, 0, 0, 0, 0, 0, 0), 6, 1},
    {"row_local_b", RK_ROW, 1, 1, 1, BLK(0, 0, 0, 0, 0, 0, 0), 7, 1},
    {"row_float4", RK_ROW, 4, 1, 1, BLK(0, 0, 0, 0, 0, 0, 0), 8, 1},
    {"row_float4_noconv", RK_ROW, 4, 1, 1, BLK(0, 0, 0, 0, 0, 0, 0), 9, 1},
    {"row_float8", RK_ROW, 8, 1, 1, BLK(0, 0, 0, 0, 0, 0, 0), 10, 1},
    {"tiled", RK_TILED, 1, 0, 0, BLK(0, 0, 0, 0, 0, 0, 0), 11, 1},
    {"regblock", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 1, 0), 12, 0},
    {"vectorized", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 0), 13, 0},
    {"double_buffered", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 1), 14, 0},
    {"register_vectors", RK_VEC, 1, 0, 0, VEC(8, 8, 2), 15, 0},
    {"warp_tiles", RK_BLOCK, 1, 0, 0, WRP(128, 128, 8, 8, 8, 8, 1), 16, 0},
    {"tuned", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 1), 17, 0},
};
enum { NRUNGS = sizeof rungs / sizeof rungs[0] };

#define ARGS(p)                                                                               \
    {p, NULL}, {p, &rungs[0]}, {p, &rungs[1]}, {p, &rungs[2]}, {p, &rungs[3]}, {p, &rungs[4]}, \
        {p, &rungs[5]}, {p, &rungs[6]}, {p, &rungs[7]}, {p, &rungs[8]}, {p, &rungs[9]},        \
        {p, &rungs[10]}, {p, &rungs[11]}, {p, &rungs[12]}, {p, &rungs[13]}, {p, &rungs[14]}, {p, &rungs[15]}
static const gemm_arg sargs[] = {ARGS(4)}, dargs[] = {ARGS(8)};

clb_error gemm_clblast_run(clb_ctx *c, clb_result *res);
clb_error gemm_clblast_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error gemm_clblast_tuned_run(clb_ctx *c, clb_result *res);

#define REQ (CLB_REQ_COMPILER | CLB_REQ_APP)
#define GEMM_ROWS(P, REQP, args)                                                                            \
    {"app." P ".sequential", "app", P " on the host, one thread, cache-blocked i-k-j loops (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[0]}, \
    {"app." P ".pthreads", "app", P " on the host, all cores, one band of rows per thread (GFLOP/s)", REQ | REQP, gemm_pthreads_run, host_validate, &args[0]}, \
    {"app." P ".naive", "app", P " seed 002 rung 1: work-items down a column, sum in global memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[1]}, \
    {"app." P ".coalesced", "app", P " rung 2: neighbouring work-items on neighbouring elements of C (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[2]}, \
    {"app." P ".private_acc", "app", P " rung 3: the sum in a private variable (seed 001 listing 2, GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[3]}, \
    {"app." P ".row", "app", P " rung 4: one row of C per work-item (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[4]}, \
    {"app." P ".row_private_a", "app", P " rung 5: the row of A in private memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[5]}, \
    {"app." P ".row_local_b", "app", P " rung 6: the column of B in local memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[6]}, \
    {"app." P ".row_float4", "app", P " rung 7: dot() on 4-vectors built in the loop (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[7]}, \
    {"app." P ".row_float4_noconv", "app", P " rung 8: 4-vectors without conversions in the loop (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[8]}, \
    {"app." P ".row_float8", "app", P " rung 9: 8-vectors (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[9]}, \
    {"app." P ".tiled", "app", P " seed 001 listing 3: 16 x 16 tiles in local memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[10]}, \
    {"app." P ".regblock", "app", P " 64 x 64 tiles, 4 x 4 outputs per work-item in registers (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[11]}, \
    {"app." P ".vectorized", "app", P " regblock with 4-wide global loads (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[12]}, \
    {"app." P ".double_buffered", "app", P " vectorized with two local buffers, one barrier per slice (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[13]}, \
    {"app." P ".register_vectors", "app", P " 8 x 16 outputs per work-item in 8-wide vectors, no local memory (CPU form, GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[14]}, \
    {"app." P ".warp_tiles", "app", P " 128 x 128 x 8 slices, 8 x 8 per work-item read as 4-vectors from local memory, 4 x 8 lanes per warp (GPU form, GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[15]}, \
    {"app." P ".tuned", "app", P " tiles, work-group shape and vector widths searched on this device, cached (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[16]}, \
    {"app." P ".clblast", "app", P " CLBlast's GEMM (dlopen libclblast.so.1), the external reference (GFLOP/s)", REQ | REQP, gemm_clblast_run, gemm_clblast_validate, &args[0]}, \
    {"app." P ".clblast_tuned", "app", P " CLBlast's GEMM with the parameters its tuner found on this device (CLBENCH_CLBLAST_TUNING, GFLOP/s)", REQ | REQP, gemm_clblast_tuned_run, gemm_clblast_validate, &args[0]}

const clb_bench clb_app_gemm_rows[] = {GEMM_ROWS("sgemm", 0, sargs), GEMM_ROWS("dgemm", CLB_REQ_FP64, dargs)};
const size_t clb_app_gemm_row_count = sizeof clb_app_gemm_rows / sizeof clb_app_gemm_rows[0];
