/* The tuned rung's search: candidate tile sizes, work-group shapes and vector widths of both
 * kernel families, filtered by the device's limits, each built, screened at a moderate size
 * and checked, through the tuning service (lib/core/tune.c); the fastest valid one is cached
 * per device, driver, precision and size class in the service's cache
 * $XDG_CACHE_HOME/clbench/tune.json (~/.cache when unset); --retune searches again. */
#include "apps/gemm/gemm_cl.h"

#include <stdlib.h>
#include <string.h>

#define BLK(m, n, k, wm, wn, v, db) {m, n, k, wm, wn, v, db, 0, 0, 0, 0, 0, 0, 0, 0, 0}
#define VEC(rm, w, vn) {0, 0, 0, 0, 0, 0, 0, 1, rm, w, vn, 0, 0, 0, 0, 0}
#define PAN(rm, w, vn, mb, kc) {0, 0, 0, 0, 0, 0, 0, 2, rm, w, vn, mb, kc, 0, 0, 0}
#define WRP(m, n, k, tm, tn, ln) {m, n, k, tm, tn, 4, 1, 3, 0, 0, 0, 0, 0, ln, 0, 0}
#define WRS(m, n, k, tm, tn, ln) {m, n, k, tm, tn, 4, 1, 3, 0, 0, 0, 0, 0, ln, 1, 0}
#define WR2(m, n, k, tm, tn, ln, db) {m, n, k, tm, tn, 2, db, 3, 0, 0, 0, 0, 0, ln, 0, 0}
#define WR1(m, n, k, tm, tn, ln) {m, n, k, tm, tn, 4, 0, 3, 0, 0, 0, 0, 0, ln, 0, 0}
#define WR2S(m, n, k, tm, tn, ln, db) {m, n, k, tm, tn, 2, db, 3, 0, 0, 0, 0, 0, ln, 1, 0}
#define WRA(m, n, k, tm, tn, v, ln) {m, n, k, tm, tn, v, 2, 3, 0, 0, 0, 0, 0, ln, 0, 0}
#define WRR(m, n, k, ln, st, fa) {m, n, k, 8, 8, 4, st, 3, 0, 0, 0, 0, 0, ln, fa, 0}
#define WRM(m, n, k, ln, db, fa, mr) {m, n, k, 8, 8, 4, db, 3, 0, 0, 0, 0, 0, ln, fa, mr}
static const gemm_blk candidates[] = {
    BLK(64, 64, 16, 4, 4, 1, 0), /* the regblock rung's (the other fixed rungs' are below) */
    BLK(32, 32, 16, 2, 2, 1, 0),   BLK(64, 64, 16, 4, 4, 4, 0),   BLK(64, 64, 16, 4, 4, 4, 1),
    BLK(64, 64, 32, 4, 4, 4, 1),   BLK(128, 64, 16, 8, 4, 4, 1),  BLK(64, 128, 16, 4, 8, 4, 1),
    BLK(128, 128, 8, 8, 8, 4, 1),  BLK(128, 128, 16, 8, 8, 4, 1), BLK(128, 128, 16, 8, 8, 2, 0),
    BLK(128, 128, 32, 8, 8, 4, 0), VEC(8, 8, 2),                  VEC(4, 16, 2),
    VEC(8, 16, 1),                 VEC(6, 16, 2),                 VEC(4, 8, 4),
    VEC(16, 8, 1),                 VEC(4, 4, 2),                  VEC(8, 4, 1),
    VEC(8, 16, 2),                 VEC(12, 16, 2),                VEC(14, 16, 2),
    VEC(16, 16, 1),
    /* packed panels: register blocks that fit 32 zmm (6 x 4, 8 x 3, 12 x 2 float16; 6 x 2
     * float8, AVX2's), K slices for L1/L2; w 8 and 16 only, so GPUs (w <= 4) never see them */
    PAN(6, 16, 4, 8, 256),         PAN(6, 16, 4, 8, 512),         PAN(8, 16, 3, 8, 256),
    PAN(8, 16, 3, 8, 512),         PAN(12, 16, 2, 4, 256),        PAN(12, 16, 2, 8, 512),
    PAN(6, 8, 2, 8, 256),
    /* warp tiles (GPUs only): C block, K slice, outputs per item (8 x 8: 64 accumulators),
     * a warp's lanes along N (8: 4 x 8 lanes, each warp reading 4 A and 8 B vectors a step) */
    WRP(128, 128, 8, 8, 8, 0),     WRP(128, 128, 16, 8, 8, 0),    WRP(128, 64, 8, 8, 4, 0),
    WRP(64, 128, 8, 4, 8, 0),      WRP(128, 64, 16, 8, 8, 0),     WRP(64, 64, 16, 4, 4, 0),
    WRP(128, 128, 8, 8, 8, 8),     WRP(128, 128, 16, 8, 8, 8),    WRP(128, 64, 8, 8, 4, 8),
    WRP(64, 128, 8, 4, 8, 8),      WRP(64, 64, 8, 4, 4, 8),
    /* the 8-deep 128 x 128 tile with fragments at scalar offsets (gemm_blk.fa): 42-44 TFLOPS
     * on the H100 against 26 by vector index (SGEMM; DGEMM the same either way) */
    WRS(128, 128, 8, 8, 8, 0),     WRS(128, 128, 8, 8, 8, 8),
    /* DGEMM's warp tiles (GPUs, double only): double2 fragments (16 bytes a lane, so the 8 or
     * 16 lanes of a row of items read one contiguous run: no bank conflict, where a double4 is
     * two 16-byte reads 32 bytes apart); 128 x 64 / 64 x 128 blocks of 128 items (about 200
     * registers each: two work-groups per SM, one's barrier hidden by the other) with 12-deep
     * slices (37 KB) or 16-deep ones in one buffer (25 KB, two barriers a slice); 128 x 128 at
     * 8 deep (the FP32 layout's best DGEMM) and 16 deep in one buffer (33 KB); 96 x 64 x 16
     * in two buffers (41 KB, 96 items: three work-groups per SM); and two 16-deep ones in one
     * buffer with the double4 fragments, to tell the slice depth from the fragment width */
    WR2(128, 128, 8, 8, 8, 0, 1),  WR2(128, 128, 8, 8, 8, 8, 1),  WR2(128, 128, 16, 8, 8, 8, 0),
    WR2(128, 64, 8, 8, 8, 8, 1),   WR2(128, 64, 12, 8, 8, 8, 1),  WR2(64, 128, 12, 8, 8, 8, 1),
    WR2(128, 64, 16, 8, 8, 8, 0),  WR2(64, 128, 16, 8, 8, 8, 0),  WR2(96, 64, 16, 8, 8, 8, 1),
    WR1(128, 128, 16, 8, 8, 8),    WR1(128, 64, 16, 8, 8, 8),
    /* closer to cuBLAS (H200, 2026-11-25): warps over 8 x 4 and 2 x 16 items (A or B fragments
     * shared by more lanes: fewer shared-memory wavefronts a step), the 16-deep SGEMM tile at
     * scalar offsets, a 12-deep one; DGEMM's 64 x 128 x 16 winner with those warp shapes and at
     * scalar offsets, 32 outputs per item (256 items: more warps to hide latency), and a 32-deep
     * 64 x 64 slice in one buffer (a quarter of the barriers per FMA) */
    WRP(128, 128, 16, 8, 8, 4),    WRP(128, 128, 16, 8, 8, 16),   WRS(128, 128, 16, 8, 8, 4),
    WRP(128, 128, 12, 8, 8, 0),    WR2(64, 128, 16, 8, 8, 4, 0),  WR2(64, 128, 16, 8, 8, 16, 0),
    WR2S(64, 128, 16, 8, 8, 8, 0), WR2(64, 128, 16, 4, 8, 8, 0),  WR2(64, 64, 32, 8, 8, 8, 0),
    /* B's slice by cp.async (dbuf 2; NVIDIA only, inline PTX): the CUDA twin's fastest shapes
     * (docs/results/peers-2026-11-25.md: DGEMM 64 x 128 x 8 at 22.0 TFLOPS, SGEMM 128 x 128 x 16
     * at 44.7) and their neighbours, and DGEMM's 64 x 128 x 8 in two plain buffers */
    WRA(64, 128, 8, 8, 8, 2, 8),   WRA(64, 128, 16, 8, 8, 2, 8),  WRA(128, 64, 8, 8, 8, 2, 8),
    WR2(64, 128, 8, 8, 8, 8, 1),   WRA(128, 128, 16, 8, 8, 4, 8), WRA(128, 128, 16, 8, 8, 4, 0),
    WRA(128, 128, 8, 8, 8, 4, 8),
    /* A and B by cp.async into a ring of 3 or 4 stages, one barrier a slice (dbuf = stages;
     * NVIDIA SGEMM only): cuBLAS's FFMA form, 128 x 128 x 8 in 3 stages; its neighbours in
     * depth, stages, warp shape and fragment spelling, and a 128 x 64 ring (the 512-item
     * blocks are gone: the driver allows 256 items) */
    WRR(128, 128, 8, 8, 3, 0),     WRR(128, 128, 8, 8, 4, 0),     WRR(128, 128, 8, 4, 3, 0),
    WRR(128, 128, 8, 0, 3, 0),     WRR(128, 128, 8, 8, 3, 1),     WRR(128, 128, 8, 4, 4, 1),
    WRR(128, 128, 12, 8, 3, 0),    WRR(128, 64, 8, 8, 4, 0),
    /* at most 128 registers per item (NVIDIA only; H200, 2026-11-25: the 16-deep winner took
     * 155, one work-group of 256 per SM; at 128, two fit the register file): the 16-deep tile
     * in two buffers, B by cp.async, and the 12-deep ring */
    WRM(128, 128, 16, 0, 1, 0, 128), WRM(128, 128, 16, 8, 1, 0, 128), WRM(128, 128, 16, 4, 1, 0, 128),
    WRM(128, 128, 16, 0, 2, 0, 128), WRM(128, 128, 16, 8, 2, 0, 128), WRM(128, 128, 12, 8, 3, 0, 128),
    WRM(128, 128, 16, 0, 1, 1, 128),
};
enum { NCAND = sizeof candidates / sizeof candidates[0] };

/* The fixed rung (regblock .. warp_tiles) whose configuration candidate k is, or NULL: those
 * are screened first and past the filters below, so the tuned row is never below the best
 * fixed rung measured in the same run (short of the noise between the screen and the rows). */
static const char *fixed_rung(size_t k)
{
    size_t nr;
    const gemm_rung *r = gemm_rung_table(&nr);
    for (size_t i = 0; i < nr; i++) {
        gemm_blk b = r[i].blk, cand = candidates[k];
        if ((r[i].kind != RK_BLOCK && r[i].kind != RK_VEC) || strcmp(r[i].name, "tuned") == 0)
            continue;
        if (memcmp(&b, &cand, sizeof b) == 0)
            return r[i].name;
    }
    return NULL;
}

/* ---- the cache (the tuning service's, lib/core/tune_cache.c) ---- */

static clb_error key_of(clb_ctx *c, size_t prec, size_t row_n, char *key, size_t len)
{
    const clb_device_ref *ref = clb_device_reference(c->dev);
    clb_diag *d = &c->diag;
    char driver[128] = "";
    CLB_CL(d, clGetDeviceInfo(ref->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL));
    clb_tune_key(key, len, prec == 4 ? "sgemm" : "dgemm", ref->device_name, driver, (double)row_n);
cleanup:
    return d->err;
}

static const char *const fields[] = {"family", "tsm", "tsn", "tsk", "wptm", "wptn", "vw",
                                     "dbuf", "rm", "w", "vn", "mb", "kc", "lanes_n", "frag_addr",
                                     "max_regs"};
/* mb, kc came with family 2, lanes_n with family 3, frag_addr and max_regs later: absent in
 * older entries, read as 0 */
enum { NREQUIRED = 11 };

static unsigned *field(gemm_blk *b, size_t i)
{
    unsigned *p[] = {&b->family, &b->tsm, &b->tsn, &b->tsk, &b->wptm, &b->wptn,
                     &b->vw, &b->dbuf, &b->rm, &b->w, &b->vn, &b->mb, &b->kc, &b->ln, &b->fa, &b->mr};
    return p[i];
}

/* An entry is used only when it is one of the candidates the search may pick: an entry edited
 * by hand or written by another version never reaches the kernel builder. */
static int from_json(const cJSON *o, gemm_blk *b)
{
    gemm_blk t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, fields[i]);
        if (i >= NREQUIRED && !v)
            continue;
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 4096) ||
            v->valuedouble != (double)(unsigned)v->valuedouble)
            return 0;
        *field(&t, i) = (unsigned)v->valuedouble;
    }
    for (size_t k = 0; k < NCAND; k++) {
        gemm_blk cand = candidates[k];
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && *field(&cand, i) == *field(&t, i))
            i++;
        if (i == sizeof fields / sizeof fields[0]) {
            *b = t;
            return 1;
        }
    }
    return 0;
}

int gemm_tune_cache_parse(const char *text, size_t len, const char *key, gemm_blk *out)
{
    clb_diag d;
    cJSON *cache = clb_tune_cache_parse(text, len, &d);
    int ok = cache && from_json(clb_tune_cache_get(cache, key), out);
    cJSON_Delete(cache);
    return ok;
}

static cJSON *to_json(gemm_blk b, double gflops, size_t n)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        cJSON_AddNumberToObject(o, fields[i], *field(&b, i));
    clb_json_number(o, "screen_gflops", gflops);
    cJSON_AddNumberToObject(o, "screen_n", (double)n);
    return o;
}

/* ---- the search (the tuning service, lib/core/tune.c) ---- */

typedef struct tune_state {
    clb_ctx *c;
    const gemm_rung *r;
    const gemm_mats *m;
    cl_uint pref;
    size_t prec, max_wg;
    cl_ulong local_mem;
    int cpu, nvidia; /* nvidia: the platform is NVIDIA's (inline PTX: the cp.async candidates) */
    long family; /* CLBENCH_TUNE_FAMILY: only this family, on any device (tests); else -1 */
} tune_state;

/* The median of two timed launches after a warm-up (the screen keeps its former cost), then
 * the check of the candidate's own output (poisoned at its setup; --inject-fault planted in it
 * first, so a screen that skips the check shows): a candidate that fails is recorded in the
 * tune table with its status and never wins. */
static clb_status screen(const int *point, void *user, double *seconds, char *why, size_t n)
{
    tune_state *t = user;
    clb_ctx *c = t->c;
    gemm_dev g;
    double s[2] = {0, 0};
    clb_stats st;
    clb_status status = CLB_STATUS_OK;
    if (gemm_dev_setup(c, t->r, &candidates[point[0]], t->m, &g) != CLB_OK ||
        gemm_dev_once(&g, &s[0], &c->diag) != CLB_OK || gemm_dev_once(&g, &s[0], &c->diag) != CLB_OK ||
        gemm_dev_once(&g, &s[1], &c->diag) != CLB_OK ||
        clb_fault_apply(c, g.cbuf, g.mp * g.np * t->prec) != CLB_OK || gemm_dev_check(&g, &c->diag) != CLB_OK ||
        clb_stats_compute(s, 2, &st) != CLB_OK)
        status = clb_status_from_error(c->diag.err ? c->diag.err : CLB_ERR_INVALID_TIMING);
    else
        *seconds = st.median;
    if (status != CLB_STATUS_OK)
        clb_diag_format(&c->diag, why, n);
    gemm_dev_release(&g);
    clb_diag_clear(&c->diag);
    cJSON_DeleteItemFromObjectCaseSensitive(c->res->params, "build_log");
    return status;
}

/* The constraint: vector widths above 4 x the device's preferred width are left out (GPUs
 * prefer 1); local tiles (family 0) must fit local memory (NBUF x TSK x (TSM + TSN) elements)
 * and their work-group (TSM/WPTM x TSN/WPTN) the device's maximum; warp tiles (family 3) the
 * same limits, on GPUs only (a CPU runs their work-groups of 128-256 items as loops; on PoCL
 * they lose to the CPU forms and would only lengthen the search), those with 2-vector
 * fragments (vw 2) or one local buffer (dbuf 0) for DGEMM only (a float2 is half of what one
 * local read can serve; SGEMM's 16-deep slices fit two buffers). */
static int plausible(const int *point, void *user)
{
    const tune_state *t = user;
    const gemm_blk *b = &candidates[point[0]];
    /* a fixed rung's configuration passes the heuristic filters (its rung runs here too), not
     * the device's hard limits: one that cannot fit fails its rung and is no candidate */
    int fixed = fixed_rung((size_t)point[0]) != NULL;
    if (t->family >= 0 && b->family != (unsigned)t->family)
        return 0;
    if (b->mr && !t->nvidia) /* a register cap is NVIDIA's build option: the same kernel elsewhere */
        return 0;
    if (b->family == 3) { /* its vectors are the layout, not a width to match */
        int fits = gemm_warp_local_bytes(b, t->prec) <= t->local_mem && gemm_warp_items(b) <= t->max_wg;
        if (fixed)
            return fits;
        if (b->dbuf >= 2) /* cp.async on NVIDIA; elsewhere only when the family is asked for
                             (tests: the plain copy that stands in for it); the ring (dbuf 3, 4)
                             for SGEMM only */
            return fits && (t->family == 3 || (t->nvidia && !t->cpu)) &&
                   (b->dbuf == 2 ? b->vw == 4 || t->prec == 8 : t->prec == 4);
        return !(t->family < 0 && t->cpu) && ((b->vw == 4 && b->dbuf) || t->prec == 8) && fits;
    }
    unsigned w = b->family ? b->w : b->vw;
    size_t local = (b->dbuf ? 2u : 1u) * b->tsk * (b->tsm + b->tsn) * t->prec;
    size_t wg = b->family ? 1 : (size_t)(b->tsm / b->wptm) * (b->tsn / b->wptn);
    int fits = b->family || (local <= t->local_mem && wg <= t->max_wg);
    return (fixed || w <= 4 * (t->pref ? t->pref : 1)) && fits;
}

static void describe_blk(const gemm_blk *b, char *buf, size_t n)
{
    if (b->family == 3) {
        snprintf(buf, n, "warp tiles %ux%ux%u per item %ux%u lanes_n=%u%s%s%s", b->tsm, b->tsn,
                 b->tsk, b->wptm, b->wptn, b->ln, b->vw == 2 ? " frag=2" : "",
                 b->dbuf == 4   ? " ab_async_4_stages"
                 : b->dbuf == 3 ? " ab_async_3_stages"
                 : b->dbuf == 2 ? " b_async"
                 : b->dbuf      ? ""
                                : " one_buffer",
                 b->fa ? " scalar_offsets" : "");
        if (b->mr && strlen(buf) < n)
            snprintf(buf + strlen(buf), n - strlen(buf), " max_regs=%u", b->mr);
    } else if (b->family == 2)
        snprintf(buf, n, "packed rm=%u w=%u vn=%u mb=%u kc=%u", b->rm, b->w, b->vn, b->mb, b->kc);
    else if (b->family)
        snprintf(buf, n, "vectors rm=%u w=%u vn=%u", b->rm, b->w, b->vn);
    else
        snprintf(buf, n, "tiles %ux%ux%u wpt %ux%u vw=%u dbuf=%u", b->tsm, b->tsn, b->tsk, b->wptm,
                 b->wptn, b->vw, b->dbuf);
}

/* The configuration, and "(rung NAME)" for a fixed rung's. */
static void describe(const int *point, char *buf, size_t n)
{
    const char *rung = fixed_rung((size_t)point[0]);
    describe_blk(&candidates[point[0]], buf, n);
    size_t len = strlen(buf);
    if (rung && len < n)
        snprintf(buf + len, n - len, " (rung %s)", rung);
}

/* Candidates that passed or could not run here (a failed check is neither). */
static size_t valid_or_unsupported(const clb_tune_run *run)
{
    size_t k = 0;
    for (size_t i = 0; i < run->ncands; i++)
        k += run->cands[i].status == CLB_STATUS_OK || run->cands[i].status == CLB_STATUS_UNSUPPORTED;
    return k;
}

static clb_error search(clb_ctx *c, const gemm_rung *r, size_t prec, size_t row_n,
                        gemm_blk *best, double *best_gflops, size_t *n)
{
    int cpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    gemm_mats m = {0};
    /* NVIDIA's own driver, not only its hardware (clb_device_is_nvidia): its compiler takes the
     * inline PTX and -cl-nv-* options these forms use; PoCL's CUDA driver does not. */
    int nvidia = strstr(clb_device_reference(c->dev)->platform_name, "NVIDIA") != NULL;
    tune_state t = {c, r, &m, 1, prec, 0, 0, cpu, nvidia, clb_settings_get()->tune_family};
    cl_device_id dev = clb_device_reference(c->dev)->device;
    int index[NCAND], nfixed = 0, k = 0;
    for (int i = 0; i < NCAND; i++) /* the fixed rungs' configurations first */
        if (fixed_rung((size_t)i))
            index[k++] = i;
    nfixed = k;
    for (int i = 0; i < NCAND; i++)
        if (!fixed_rung((size_t)i))
            index[k++] = i;
    const clb_tune_dim dim = {"candidate", index, NCAND};
    const clb_tune_space space = {&dim, 1, plausible, &t};
    clb_tune_opts o;
    clb_tune_run run = {0};
    size_t valid = 0;
    clb_tune_opts_default(&o);
    o.budget_s = clb_settings_get()->tune_budget_s; /* 0: every candidate is searched */
    o.max_evals = c->opts->quick ? (size_t)nfixed + 3 : 0; /* quick: the fixed rungs' and three more */
    *n = c->opts->quick ? 128 : cpu ? 1024 : 2048;
    *n = *n < row_n ? *n : row_n; /* never above the row's own size */
    *best_gflops = 0;
    CLB_CL(&c->diag, clGetDeviceInfo(dev, prec == 4 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
                                                    : CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                                     sizeof t.pref, &t.pref, NULL));
    CLB_CL(&c->diag, clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof t.local_mem, &t.local_mem, NULL));
    CLB_CL(&c->diag, clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof t.max_wg, &t.max_wg, NULL));
    if (gemm_mats_init(&m, *n, prec, (uint64_t)(clb_now() * 1e9) | 1, &c->diag) != CLB_OK ||
        clb_tune_search(&space, screen, &t, &o, &run, &c->diag) != CLB_OK)
        goto cleanup;
    for (size_t i = 0; i < run.ncands; i++)
        valid += run.cands[i].status == CLB_STATUS_OK;
    clb_param_num(c->res, "tune_candidates", (double)run.ncands);
    clb_param_num(c->res, "tune_valid", (double)valid);
    clb_tune_table_params(c->res, &run, describe, 2.0 * (double)*n * (double)*n * (double)*n, 1e-9, "GFLOP/s");
    if (run.best < 0)
        CLB_FAIL(&c->diag, run.ncands > valid_or_unsupported(&run) ? CLB_ERR_INVALID_RESULT : CLB_ERR_UNSUPPORTED,
                 "none of %zu tile configurations ran and passed the check", run.ncands);
    *best = candidates[run.cands[run.best].point[0]];
    *best_gflops = 2.0 * (double)*n * (double)*n * (double)*n / run.cands[run.best].seconds * 1e-9;
cleanup:
    clb_tune_run_free(&run);
    gemm_mats_free(&m);
    return c->diag.err;
}

clb_error gemm_tune(clb_ctx *c, const gemm_rung *r, size_t prec, size_t row_n, gemm_blk *best)
{
    char path[4096], key[512];
    clb_diag cd;
    int have_path = clb_tune_cache_path(path, sizeof path, &cd) == CLB_OK;
    cJSON *cache = have_path ? clb_tune_cache_load(path, &cd) : NULL;
    double gflops = 0;
    size_t n = 0;
    if (key_of(c, prec, row_n, key, sizeof key) != CLB_OK) {
        cJSON_Delete(cache);
        return c->diag.err;
    }
    if (cd.err != CLB_OK) /* a malformed cache is searched past and replaced, never trusted */
        clb_param_str(c->res, "tune_cache_problem", cd.msg);
    clb_param_str(c->res, "tune_cache", have_path ? path : "none (no HOME or XDG_CACHE_HOME)");
    clb_param_str(c->res, "tune_key", key);
    const cJSON *hit = clb_tune_cache_get(cache, key);
    if (!c->opts->retune && !c->opts->quick && hit && from_json(hit, best)) {
        clb_param_str(c->res, "tune_source", "cache");
    } else if (search(c, r, prec, row_n, best, &gflops, &n) == CLB_OK) {
        clb_param_str(c->res, "tune_source", "search");
        clb_param_num(c->res, "tune_screen_n", (double)n);
        clb_param_num(c->res, "tune_screen_gflops", gflops);
        if (have_path && !c->opts->quick) {
            clb_tune_cache_put(cache, key, to_json(*best, gflops, n));
            if (clb_tune_cache_store(path, cache, &cd) != CLB_OK)
                clb_param_str(c->res, "tune_cache_problem", cd.msg);
        }
    }
    cJSON_Delete(cache);
    return c->diag.err;
}
