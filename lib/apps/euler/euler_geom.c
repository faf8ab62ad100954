/* app.euler tiling geometry: dia_blocks from local memory with the seed's three strategies,
 * diamond and honeycomb (hexagon) rows, the traffic they cause and a host check of the
 * schedule (docs/apps/euler.md, "Tiling"). */
#include "apps/euler/euler.h"

#include <stdlib.h>
#include <string.h>

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* The number of diamonds D the strategy settles on: the first D >= dmin it visits. */
static size_t strategy_diamonds(eu_strategy s, size_t cu, size_t dmin)
{
    if (s == EU_ADD) /* D = CU + add */
        return dmin > cu ? dmin : cu;
    size_t mult = ceil_div(dmin, cu);
    if (s == EU_MULT) /* D = mult CU */
        return cu * (mult ? mult : 1);
    mult = ceil_div(dmin + 1, cu); /* D = mult CU - 1 */
    while (cu * mult < 2)
        mult++;
    return cu * mult - 1;
}

clb_error eu_geom_plan(eu_geom *g, size_t n, size_t bs, size_t elem, size_t local_mem,
                       size_t cu, eu_strategy s, int column, size_t honeycomb_steps,
                       clb_diag *d)
{
    memset(g, 0, sizeof *g);
    if (!bs || n % bs)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "n = %zu is not a multiple of the block size %zu", n, bs);
    size_t blk = bs * elem, fit = column ? local_mem / blk : local_mem / (2 * blk);
    size_t extra = column ? 5 : 2; /* border blocks (+ the column sweep's 3 rolling blocks) */
    size_t wmax = fit > extra ? (fit - extra) / 2 * 2 : 0;
    if (wmax < 4)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED,
                            "a tile of 4 blocks of %zu components needs %zu B of local memory, "
                            "the device has %zu B",
                            bs, (column ? 4 + extra : 2 * (4 + extra)) * blk, local_mem);
    g->bs = bs;
    g->blocks = n / bs;
    g->column = column;
    g->diamonds = strategy_diamonds(s, cu ? cu : 1, ceil_div(g->blocks, wmax));
    size_t w = ceil_div(g->blocks, g->diamonds);
    w = (w + 1) / 2 * 2;
    g->dia_blocks = w < 4 ? 4 : w;
    size_t half = g->dia_blocks / 2;
    g->hs = honeycomb_steps ? (honeycomb_steps < half ? honeycomb_steps : half) : half;
    g->m = half - g->hs;
    g->period = 4 * g->m + 2 * g->hs;
    g->local_bytes = (column ? g->dia_blocks + 5 : 2 * (g->dia_blocks + 2)) * blk;
    return CLB_OK;
}

size_t eu_geom_launches(const eu_geom *g, size_t steps)
{
    return steps ? (steps - 1) / g->hs + 2 : 0;
}

void eu_geom_row(const eu_geom *g, size_t launch, long *t0, long *c0, size_t *tiles)
{
    long r = (long)launch - 1, half = (long)(g->m + g->hs), K = (long)g->blocks;
    *t0 = r * (long)g->hs;
    *c0 = r % 2 ? (long)g->period / 2 : 0;
    *tiles = *c0 - half >= K ? 0 : (size_t)((K - 1 + half - *c0) / (long)g->period) + 1;
}

long eu_geom_width(const eu_geom *g, long s)
{
    long hs = (long)g->hs, up = s < 2 * hs - s ? s : 2 * hs - s;
    return (long)g->m + up;
}

/* What one tile does at level s, in blocks: loads [lo, hi) minus [klo, khi) (kept from the
 * previous level), computes [clo, chi), and stores block b when eu_stores says so. */
typedef struct tile_level {
    long lo, hi, klo, khi, clo, chi, w, t;
    int all; /* store every computed block */
    int edge; /* store the two outer blocks on each side */
} tile_level;

static long lmax(long a, long b) { return a > b ? a : b; }
static long lmin(long a, long b) { return a < b ? a : b; }

static void level_plan(const eu_geom *g, long c, long t0, long s, long sfirst, size_t steps,
                       tile_level *p)
{
    long K = (long)g->blocks, w = eu_geom_width(g, s);
    long wp = s == sfirst ? -1 : eu_geom_width(g, s - 1);
    p->w = w;
    p->t = t0 + s;
    p->lo = lmax(c - w - 1, 0);
    p->hi = lmin(c + w + 1, K);
    p->klo = wp < 0 ? 0 : c - wp;
    p->khi = wp < 0 ? 0 : c + wp;
    p->clo = lmax(c - w, 0);
    p->chi = lmin(c + w, K);
    p->all = s == 2 * (long)g->hs || p->t == (long)steps;
    p->edge = eu_geom_width(g, s + 1) < w;
}

static int stores(const tile_level *p, long c, long b)
{
    return p->all || (p->edge && (b < c - p->w + 2 || b >= c + p->w - 2));
}

static int loads(const tile_level *p, long b) { return b < p->klo || b >= p->khi; }

double eu_geom_traffic(const eu_geom *g, size_t steps)
{
    double blocks = 0;
    for (size_t l = 0; l < eu_geom_launches(g, steps); l++) {
        long t0, c0;
        size_t tiles;
        eu_geom_row(g, l, &t0, &c0, &tiles);
        long sfirst = lmax(1, 1 - t0), slast = lmin(2 * (long)g->hs, (long)steps - t0);
        for (size_t j = 0; j < tiles; j++) {
            long c = c0 + (long)j * (long)g->period;
            for (long s = sfirst; s <= slast; s++) {
                tile_level p;
                level_plan(g, c, t0, s, sfirst, steps, &p);
                for (long b = p.lo; b < p.hi; b++)
                    blocks += loads(&p, b);
                for (long b = p.clo; b < p.chi; b++)
                    blocks += stores(&p, c, b);
            }
        }
    }
    return blocks * (double)g->bs;
}

/* Schedule check state: levels held in the two global arrays (committed at the end of a
 * launch), who wrote what in the current launch, how often each (block, level) was done. */
typedef struct check {
    long *glob[2], *pend[2], *writer[2], *reader[2];
    unsigned char *done;
    long K;
} check;

static int check_tile(const eu_geom *g, check *k, long tile_id, long c, long t0, size_t steps,
                      char *why, size_t n)
{
    long sfirst = lmax(1, 1 - t0), slast = lmin(2 * (long)g->hs, (long)steps - t0);
    long *lvl = calloc((size_t)k->K, sizeof *lvl);
    int bad = !lvl;
    for (long b = 0; !bad && b < k->K; b++)
        lvl[b] = -1;
    for (long s = sfirst; !bad && s <= slast; s++) {
        tile_level p;
        level_plan(g, c, t0, s, sfirst, steps, &p);
        int par = (int)((p.t - 1) & 1);
        for (long b = p.lo; !bad && b < p.hi; b++) {
            if (loads(&p, b)) {
                bad = k->glob[par][b] != p.t - 1 ||
                      (k->writer[par][b] >= 0 && k->writer[par][b] != tile_id);
                k->reader[par][b] = tile_id;
            } else
                bad = lvl[b] != p.t - 1;
            if (bad)
                snprintf(why, n, "tile at %ld level %ld: input block %ld of level %ld missing", c, p.t, b, p.t - 1);
        }
        for (long b = p.clo; !bad && b < p.chi; b++) {
            unsigned char *dn = &k->done[(size_t)(p.t - 1) * (size_t)k->K + (size_t)b];
            bad = (*dn)++ != 0;
            lvl[b] = p.t;
            if (bad)
                snprintf(why, n, "block %ld of level %ld computed twice", b, p.t);
            if (!bad && stores(&p, c, b)) {
                int q = (int)(p.t & 1);
                bad = k->reader[q][b] >= 0 && k->reader[q][b] != tile_id;
                if (bad)
                    snprintf(why, n, "block %ld: level %ld overwrites what another tile reads", b, p.t);
                k->pend[q][b] = p.t;
                k->writer[q][b] = tile_id;
            }
        }
    }
    free(lvl);
    return bad;
}

int eu_geom_check(const eu_geom *g, size_t steps, char *why, size_t n)
{
    check k = {.K = (long)g->blocks};
    size_t K = g->blocks;
    int bad = 0;
    for (int q = 0; q < 2; q++) {
        k.glob[q] = malloc(K * sizeof(long));
        k.pend[q] = malloc(K * sizeof(long));
        k.writer[q] = malloc(K * sizeof(long));
        k.reader[q] = malloc(K * sizeof(long));
        bad |= !k.glob[q] || !k.pend[q] || !k.writer[q] || !k.reader[q];
    }
    k.done = calloc(K * steps + 1, 1);
    bad |= !k.done;
    for (size_t b = 0; !bad && b < K; b++)
        k.glob[0][b] = k.pend[0][b] = 0, k.glob[1][b] = k.pend[1][b] = -1;
    snprintf(why, n, "out of memory");
    for (size_t l = 0; !bad && l < eu_geom_launches(g, steps); l++) {
        long t0, c0;
        size_t tiles;
        eu_geom_row(g, l, &t0, &c0, &tiles);
        for (size_t b = 0; b < 2 * K; b++)
            k.writer[b / K][b % K] = k.reader[b / K][b % K] = -1;
        for (size_t j = 0; !bad && j < tiles; j++)
            bad = check_tile(g, &k, (long)j, c0 + (long)j * (long)g->period, t0, steps, why, n);
        for (size_t b = 0; b < 2 * K; b++)
            k.glob[b / K][b % K] = k.pend[b / K][b % K];
    }
    for (size_t i = 0; !bad && i < K * steps; i++)
        if (k.done[i] != 1) {
            snprintf(why, n, "block %zu of level %zu computed %d times", i % K, i / K + 1, k.done[i]);
            bad = 1;
        }
    for (size_t b = 0; !bad && b < K; b++)
        if (k.glob[steps & 1][b] != (long)steps) {
            snprintf(why, n, "block %zu: final level not stored", b);
            bad = 1;
        }
    for (int q = 0; q < 2; q++)
        free(k.glob[q]), free(k.pend[q]), free(k.writer[q]), free(k.reader[q]);
    free(k.done);
    return bad;
}

/* ---- 2-D overlapped tiling (tiled_2d) ---- */

/* Cells computed over cells kept for a launch of k steps of a pw x ph patch with halo s. */
static double redundancy2d(size_t pw, size_t ph, size_t s, size_t k)
{
    double done = 0, kept = (double)(pw - 2 * s) * (double)(ph - 2 * s) * (double)k;
    for (size_t j = 1; j <= k; j++) /* step j computes [s - k + j, p - (s - k + j)) */
        done += (double)(pw - 2 * (s - k + j)) * (double)(ph - 2 * (s - k + j));
    return kept > 0 ? done / kept : 0;
}

/* The largest halo whose redundancy stays <= 1.25 (at least 1, below half the patch). */
static size_t rule_halo(size_t pw, size_t ph)
{
    size_t s = 1, smax = ((pw < ph ? pw : ph) - 1) / 2;
    while (s < smax && redundancy2d(pw, ph, s + 1, s + 1) <= 1.25)
        s++;
    return s;
}

/* Global components moved per point update kept, for full launches of the rule's halo. */
static double patch_traffic(size_t pw, size_t ph)
{
    size_t s = rule_halo(pw, ph);
    return ((double)(pw * ph) / ((double)(pw - 2 * s) * (double)(ph - 2 * s)) + 1) / (double)s;
}

clb_error eu_geom2d_plan(eu_geom2d *g, size_t grid, size_t elem, size_t local_mem, size_t wg,
                         size_t points, size_t steps, size_t s_want, clb_diag *d)
{
    memset(g, 0, sizeof *g);
    size_t lx = wg >= 16 ? 16 : wg ? wg : 1, ly = wg / lx < 16 ? wg / lx : 16;
    size_t most = points ? points : 128 / (2 * elem), cells = local_mem / (2 * elem);
    double best = 0;
    ly = ly ? ly : 1;
    for (size_t rx = 1; rx <= most; rx++)
        for (size_t ry = 1; rx * ry <= most; ry++) {
            size_t pw = rx * lx, ph = ry * ly;
            if (pw < 3 || ph < 3 || pw * ph > cells)
                continue;
            double t = patch_traffic(pw, ph);
            if (!g->pw || t < best || (t == best && pw > g->pw))
                g->rx = rx, g->ry = ry, g->pw = pw, g->ph = ph, best = t;
        }
    if (!g->pw)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED,
                            "tiled_2d: the smallest patch (one point per work-item of %zu x %zu, at "
                            "least 3 x 3) does not fit %zu B of local memory",
                            lx, ly, local_mem);
    g->lx = lx;
    g->ly = ly;
    size_t smax = ((g->pw < g->ph ? g->pw : g->ph) - 1) / 2;
    g->s = !s_want ? rule_halo(g->pw, g->ph) : s_want < smax ? s_want : smax;
    g->s = steps && steps < g->s ? steps : g->s;
    g->tx = g->pw - 2 * g->s;
    g->ty = g->ph - 2 * g->s;
    g->tiles_x = ceil_div(grid, g->tx);
    g->tiles_y = ceil_div(grid, g->ty);
    g->local_bytes = g->pw * g->ph * 2 * elem;
    return CLB_OK;
}

size_t eu_geom2d_launches(const eu_geom2d *g, size_t steps)
{
    return ceil_div(steps, g->s);
}

double eu_geom2d_redundancy(const eu_geom2d *g, size_t k)
{
    if (g->one_d) { /* step j computes [s - k + j, pw - (s - k + j)) */
        double done = 0, kept = (double)g->tx * (double)k;
        for (size_t j = 1; j <= k; j++)
            done += (double)(g->pw - 2 * (g->s - k + j));
        return kept > 0 ? done / kept : 0;
    }
    return redundancy2d(g->pw, g->ph, g->s, k);
}

clb_error eu_geom1d_plan(eu_geom2d *g, size_t np, size_t wg, size_t points, size_t steps, size_t s_want,
                         size_t elem, clb_diag *d)
{
    memset(g, 0, sizeof *g);
    g->one_d = 1;
    g->lx = wg ? wg : 256;
    g->rx = points ? points : 16;
    g->ly = g->ry = g->ph = g->ty = g->tiles_y = 1;
    g->pw = g->lx * g->rx;
    if (g->pw < 3)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED,
                            "tiled_1d: a patch of %zu x %zu points is below 3", g->lx, g->rx);
    size_t smax = (g->pw - 1) / 2, rule = g->pw / 34 ? g->pw / 34 : 1;
    g->s = s_want ? s_want : rule;
    g->s = g->s < smax ? g->s : smax;
    g->s = steps && steps < g->s ? steps : g->s;
    g->tx = g->pw - 2 * g->s;
    g->tiles_x = ceil_div(np, g->tx);
    g->local_bytes = 4 * g->lx * elem;
    return CLB_OK;
}

double eu_geom2d_traffic(const eu_geom2d *g, size_t grid, size_t steps)
{
    double comps = 0, tiles = (double)g->tiles_x * (double)g->tiles_y;
    for (size_t l = 0; l < eu_geom2d_launches(g, steps); l++) {
        size_t k = steps - l * g->s < g->s ? steps - l * g->s : g->s, m = g->s - k;
        if (g->one_d) /* grid: the points; every patch loaded whole */
            comps += 2 * (tiles * (double)g->pw + (double)grid);
        else
            comps += 2 * (tiles * (double)(g->pw - 2 * m) * (double)(g->ph - 2 * m) + (double)grid * (double)grid);
    }
    return comps;
}
