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

/* Sizes: the seed's loop orders at n = 1000 (its first program's size; a plain j-i-k at 2000
 * takes tens of seconds a run); the seed ladder and the host rows at the seed's n = 2000 (DGEMM on CPU devices at
 * 1000, so `run 'app.*'` fits in about 10 minutes on two cores); the blocked rungs and
 * CLBlast at n = 8192 (SGEMM) / 4096 (DGEMM) on GPUs, 2000 on CPU devices; --quick 100. */
static size_t gemm_n(const clb_ctx *c, const gemm_arg *a)
{
    if (a->loop) /* the seed's loop orders at its first program's n = 1000 */
        return app_size(c, clb_settings_get()->gemm_ladder_n, 100, 1000, 1000);
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
    int loop;           /* GEMM_LOOP_* + 1, or 0 */
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
    } else if (s->loop) {
        gemm_host_loop(&s->m, (gemm_loop)(s->loop - 1), s->out);
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
    host_state s = {.c = c, .threaded = threaded, .loop = a->loop, .threads = app_host_threads(),
                    .seed = fresh_seed()};
    size_t n = gemm_n(c, a);
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (gemm_mats_init(&s.m, n, a->prec, s.seed, d) != CLB_OK)
        goto cleanup;
    if (!(s.out = malloc(n * n * a->prec)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    char variant[32];
    snprintf(variant, sizeof variant, "seq_%s", gemm_loop_name((gemm_loop)(a->loop - 1)));
    common_params(c, a, n, a->loop ? variant : threaded ? "pthreads" : "sequential");
    if (a->loop) /* beside the ladder, not a rung of it */
        clb_param_str(c->res, "loop_order", gemm_loop_name((gemm_loop)(a->loop - 1)));
    else
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
        if (b->mr)
            clb_param_num(res, "max_registers", b->mr);
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

/* Seed 002's own speedup for this rung (CPUTime / GPUTotalTime as its logs print it) on the
 * seed's device of this kind, and the row ours compares with: the seed's CPUTime is its
 * unblocked c-r-cr (j-i-k) loop, app.sgemm.seq_jik here (the seed measured float only). */
static void seed_params(clb_ctx *c, const gemm_rung *r)
{
    int cpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    clb_param_num(c->res, "seed_speedup", cpu ? r->seed_x_cpu : r->seed_x_gpu);
    clb_param_str(c->res, "seed_speedup_device", cpu ? "the seed's CPU through OpenCL (_device = 0), n = 2000"
                                                     : "Radeon HD 4870 (_device = 1), n = 2000");
    clb_param_str(c->res, "seed_sequential_row", "app.sgemm.seq_jik");
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
    if (r->index >= 0)
        clb_param_num(res, "rung_index", r->index);
    if (r->kind == RK_2D || r->kind == RK_ROW)
        clb_param_str(res, "b_layout", r->bt ? "column-major (B transposed on the host before the upload, untimed, as the seed generates it)"
                                             : "row-major");
    if (r->seed_x_cpu > 0 && a->prec == 4) /* the seed measured float only */
        seed_params(c, r);
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

#define R(p, i) {p, &gemm_rungs[i], 0}
#define L(p, l) {p, NULL, GEMM_LOOP_##l + 1}
#define ARGS(p)                                                                               \
    {p, NULL, 0}, R(p, 0), R(p, 1), R(p, 2), R(p, 3), R(p, 4), R(p, 5), R(p, 6), R(p, 7),       \
        R(p, 8), R(p, 9), R(p, 10), R(p, 11), R(p, 12), R(p, 13), R(p, 14), R(p, 15),          \
        R(p, 16), R(p, 17), L(p, IJK), L(p, IKJ), L(p, JIK), L(p, JKI), L(p, KIJ), L(p, KJI),  \
        L(p, BLOCKED)
static const gemm_arg sargs[] = {ARGS(4)}, dargs[] = {ARGS(8)};

clb_error gemm_clblast_run(clb_ctx *c, clb_result *res);
clb_error gemm_clblast_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error gemm_clblast_tuned_run(clb_ctx *c, clb_result *res);

#define REQ (CLB_REQ_COMPILER | CLB_REQ_APP)
#define GEMM_ROWS(P, REQP, args)                                                                            \
    {"app." P ".sequential", "app", P " on the host, one thread, cache-blocked i-k-j loops (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[0]}, \
    {"app." P ".pthreads", "app", P " on the host, all cores, one band of rows per thread (GFLOP/s)", REQ | REQP, gemm_pthreads_run, host_validate, &args[0]}, \
    {"app." P ".naive", "app", P " seed 002 rung 1: work-items down a column, sum in global memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[1]}, \
    {"app." P ".coalesced", "app", P " seed 002 rung 2: rung 1 with B stored column-major, read contiguously (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[2]}, \
    {"app." P ".private_acc", "app", P " seed 002 rung 3: the sum in a private variable, B column-major (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[3]}, \
    {"app." P ".row", "app", P " seed 002 rung 4: one row of C per work-item, B column-major (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[4]}, \
    {"app." P ".row_private_a", "app", P " seed 002 rung 5: the row of A in private memory, B column-major (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[5]}, \
    {"app." P ".row_local_b", "app", P " seed 002 rung 6: the column of B in local memory (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[6]}, \
    {"app." P ".row_float4", "app", P " seed 002 rung 7: rung 5 with dot() on 4-vectors built in the loop (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[7]}, \
    {"app." P ".row_float4_noconv", "app", P " seed 002 rung 8: the row of A held as 4-vectors (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[8]}, \
    {"app." P ".row_float8", "app", P " seed 002 rung 9: 8-vectors (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[9]}, \
    {"app." P ".coalesced_map", "app", P " not the seed's rung 2: mapping swapped so work-items take neighbouring columns, B row-major (GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[17]}, \
    {"app." P ".private_acc_map", "app", P " coalesced_map with the sum in a private variable (seed 001 listing 2, GFLOP/s)", REQ | REQP, gemm_cl_run, dev_validate, &args[18]}, \
    {"app." P ".seq_ijk", "app", P " seed 002 loop orders: host, plain i-j-k loop (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[19]}, \
    {"app." P ".seq_ikj", "app", P " seed 002 loop orders: host, plain i-k-j loop (the seed's r-cr-c, GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[20]}, \
    {"app." P ".seq_jik", "app", P " seed 002 loop orders: host, plain j-i-k loop (the seed's c-r-cr, its CPUTime, GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[21]}, \
    {"app." P ".seq_jki", "app", P " seed 002 loop orders: host, plain j-k-i loop (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[22]}, \
    {"app." P ".seq_kij", "app", P " seed 002 loop orders: host, plain k-i-j loop (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[23]}, \
    {"app." P ".seq_kji", "app", P " seed 002 loop orders: host, plain k-j-i loop (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[24]}, \
    {"app." P ".seq_blocked", "app", P " seed 002 loop orders: host, 64 x 64 x 64 tiles, i-k-j inside (GFLOP/s)", REQ | REQP, gemm_seq_run, host_validate, &args[25]}, \
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
