/* app.euler without a device: the tile schedules are sound (every block of every level computed
 * once, inputs present, no two tiles of a launch touching the same word), a broken schedule is
 * caught, the strategies reproduce seed 003's GTX 280 example, tiled_2d's geometry is the
 * documented one and its scheme (patch, reflection, shrinking region, short last launch) replayed
 * on the host equals the sequential run bit for bit, pthreads equals the sequential
 * run bit for bit, the windowed reference equals the full run, and the error measure fails on
 * corrupted or NaN output. */
#include "check.h"
#include "apps/euler/euler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_schedules(void)
{
    char why[256];
    const size_t blocks[] = {7, 16, 33, 100};
    const size_t steps[] = {1, 2, 5, 17, 40};
    int checked = 0;
    for (size_t b = 0; b < 4; b++)
        for (size_t w = 4; w <= 24; w += 4)
            for (size_t hc = 0; hc <= 5; hc += 1)
                for (int col = 0; col <= 1; col++)
                    for (size_t st = 0; st < 5; st++) {
                        eu_geom g;
                        size_t bs = 4, n = blocks[b] * bs;
                        /* local memory for exactly w blocks: the plan must choose w or less */
                        size_t local = (col ? w + 5 : 2 * (w + 2)) * bs * 4;
                        if (eu_geom_plan(&g, n, bs, 4, local, 1, EU_MULT, col, col ? 0 : hc, NULL) != CLB_OK)
                            continue;
                        CHECK(g.local_bytes <= local);
                        CHECK(g.dia_blocks % 2 == 0 && g.dia_blocks >= 4);
                        EXPECT(eu_geom_check(&g, steps[st], why, sizeof why) == 0,
                               "K %zu W %zu hs %zu m %zu steps %zu: %s", g.blocks, g.dia_blocks, g.hs,
                               g.m, steps[st], why);
                        checked++;
                    }
    EXPECT(checked > 500, "only %d schedules checked", checked);
    /* a wrong period leaves gaps or overlaps: the check must notice */
    eu_geom g;
    CHECK(eu_geom_plan(&g, 400, 4, 4, 2 * (10 + 2) * 16, 1, EU_MULT, 0, 0, NULL) == CLB_OK);
    g.period += 2;
    CHECK(eu_geom_check(&g, 30, why, sizeof why) != 0);
    /* untiled traffic is 2 n per step; a tiled run moves less once tiles are tall */
    CHECK(eu_geom_plan(&g, 4000, 4, 4, 2 * (100 + 2) * 16, 1, EU_MULT, 0, 0, NULL) == CLB_OK);
    double per = eu_geom_traffic(&g, 500) / (4000.0 * 500);
    EXPECT(per > 0.01 && per < 0.5, "tiled traffic %.3f components per update", per);
}

/* Seed 003, 7.1.1: GTX 280, 16 KiB local memory, 30 compute units, STRING n = 80000. */
static void check_strategies(void)
{
    eu_geom g;
    const struct { eu_strategy s; size_t w, bytes; } want[] = {
        {EU_MULT, 334, 10752}, {EU_ADD, 500, 16064}, {EU_KORR, 340, 10944}};
    for (int i = 0; i < 3; i++) {
        CHECK(eu_geom_plan(&g, 80000, 4, 4, 16384, 30, want[i].s, 0, 0, NULL) == CLB_OK);
        EXPECT(g.dia_blocks == want[i].w, "strategy %d: dia_blocks %zu, seed %zu", i, g.dia_blocks, want[i].w);
        EXPECT(g.local_bytes == want[i].bytes, "strategy %d: %zu B, seed %zu", i, g.local_bytes, want[i].bytes);
    }
    clb_diag d;
    clb_diag_clear(&d);
    /* BRUSS2D N = 4096 (blocks of 8192 floats) cannot fit 48 KiB: unsupported, with why */
    CHECK(eu_geom_plan(&g, 2 * 4096 * 4096, 8192, 4, 49152, 132, EU_KORR, 0, 0, &d) == CLB_ERR_UNSUPPORTED);
    CHECK(strstr(d.msg, "local memory") != NULL);
}

/* tiled_2d's scheme on the host, as eu_tile2d does it: launches of k <= s steps, every tile's
 * patch loaded with reflected indices, the region still valid computed, the interior stored. */
static int reflect(long i, long n)
{
    long per = 2 * (n - 1);
    i %= per;
    i = i < 0 ? i + per : i;
    return (int)(i < n ? i : per - i);
}

static void tile2d_replay(const eu_ode *o, const eu_geom2d *g, double *y, double *yn, size_t steps,
                          double *p, double *q)
{
    long n = (long)o->grid, pw = (long)g->pw, ph = (long)g->ph, s = (long)g->s;
    for (size_t l = 0; l < eu_geom2d_launches(g, steps); l++) {
        long k = (long)(steps - l * g->s < g->s ? steps - l * g->s : g->s), m = s - k;
        for (size_t ty = 0; ty < g->tiles_y; ty++)
            for (size_t tx = 0; tx < g->tiles_x; tx++) {
                long gy0 = (long)(ty * g->ty) - s, gx0 = (long)(tx * g->tx) - s;
                for (long r = m; r < ph - m; r++)
                    for (long c = m; c < pw - m; c++)
                        for (int v = 0; v < 2; v++)
                            p[2 * (r * pw + c) + v] = y[2 * (reflect(gy0 + r, n) * n + reflect(gx0 + c, n)) + v];
                for (long j = 1; j <= k; j++) {
                    long lo = m + j;
                    for (long r = lo; r < ph - lo; r++)
                        for (long c = lo; c < pw - lo; c++) {
                            const double *x = p + 2 * (r * pw + c);
                            double u = x[0], uuv = u * u * x[1], lap[2];
                            for (int v = 0; v < 2; v++)
                                lap[v] = x[v - 2 * pw] + x[v + 2 * pw] + x[v - 2] + x[v + 2] - 4.0 * x[v];
                            q[2 * (r * pw + c)] = x[0] + o->h * (1.0 + uuv - 4.4 * u + o->alpha * lap[0]);
                            q[2 * (r * pw + c) + 1] = x[1] + o->h * (3.4 * u - uuv + o->alpha * lap[1]);
                        }
                    for (long r = lo; r < ph - lo; r++)
                        memcpy(p + 2 * (r * pw + lo), q + 2 * (r * pw + lo), (size_t)(pw - 2 * lo) * 2 * sizeof *p);
                }
                for (long r = s; r < s + (long)g->ty && gy0 + r < n; r++)
                    for (long c = s; c < s + (long)g->tx && gx0 + c < n; c++)
                        for (int v = 0; v < 2; v++)
                            yn[2 * ((gy0 + r) * n + gx0 + c) + v] = p[2 * (r * pw + c) + v];
            }
        memcpy(y, yn, o->n * sizeof *y);
    }
}

/* tiled_2d: the geometry on a 48 KiB GPU and on small work-groups, its counted traffic, and its
 * scheme against the sequential run for grids that are not multiples of the tile, halos wider
 * than the grid and step counts that are not multiples of s. */
static void check_tile2d(void)
{
    eu_geom2d g;
    clb_diag d;
    clb_diag_clear(&d);
    CHECK(eu_geom2d_plan(&g, 4096, 4, 49151, 1024, 0, 256, 0, &d) == CLB_OK);
    EXPECT(g.lx == 16 && g.ly == 16 && g.pw == 64 && g.ph == 64 && g.s == 6 && g.tx == 52 &&
           g.local_bytes == 32768 && g.tiles_x == 79,
           "f32 48 KiB: %zu x %zu items, patch %zu x %zu, s %zu, %zu tiles", g.lx, g.ly, g.pw, g.ph, g.s, g.tiles_x);
    CHECK(eu_geom2d_plan(&g, 4096, 8, 49151, 1024, 0, 256, 0, &d) == CLB_OK);
    EXPECT(g.pw == 64 && g.ph == 32 && g.s == 4 && g.tx == 56 && g.ty == 24 && g.local_bytes == 32768,
           "f64 48 KiB: patch %zu x %zu, s %zu", g.pw, g.ph, g.s);
    CHECK(eu_geom2d_plan(&g, 4096, 4, 49151, 64, 0, 256, 0, &d) == CLB_OK);
    EXPECT(g.lx == 16 && g.ly == 4 && g.pw == 32 && g.ph == 32 && g.s == 3, "64 items: %zu x %zu, patch %zu x %zu, s %zu",
           g.lx, g.ly, g.pw, g.ph, g.s);
    CHECK(eu_geom2d_plan(&g, 4096, 4, 49151, 256, 0, 5, 9, &d) == CLB_OK && g.s == 5); /* s <= steps */
    CHECK(eu_geom2d_plan(&g, 4096, 4, 100, 256, 0, 5, 0, &d) == CLB_ERR_UNSUPPORTED);
    /* 24 points per item: the largest patch under 49151 B is 5 x 4 points (80 x 64, 40 KiB) */
    CHECK(eu_geom2d_plan(&g, 4096, 4, 49151, 256, 24, 256, 0, &d) == CLB_OK);
    EXPECT(g.pw == 80 && g.ph == 64 && g.local_bytes == 40960, "24 points: patch %zu x %zu", g.pw, g.ph);
    CHECK(strstr(d.msg, "local memory") != NULL);
    /* 4096 = 78 tiles of 52 + 40: per full launch 79^2 patches of 64^2 and 4096^2 stores */
    CHECK(eu_geom2d_plan(&g, 4096, 4, 49151, 256, 0, 12, 6, NULL) == CLB_OK);
    double want = 2 * 2.0 * (79.0 * 79 * 64 * 64 + 4096.0 * 4096);
    EXPECT(fabs(eu_geom2d_traffic(&g, 4096, 12) - want) < 1, "traffic %g, want %g", eu_geom2d_traffic(&g, 4096, 12), want);
    CHECK(fabs(eu_geom2d_redundancy(&g, 6) - (62.0 * 62 + 60 * 60 + 58 * 58 + 56 * 56 + 54 * 54 + 52 * 52) / (6 * 52.0 * 52)) < 1e-12);
    const struct { size_t grid, steps, wg, s, elem, pts; } cases[] = {
        {16, 7, 256, 0, 4, 0}, {30, 13, 64, 0, 4, 0}, {46, 11, 48, 4, 8, 0}, {40, 9, 256, 31, 4, 0},
        {60, 1, 16, 0, 8, 0}, {100, 17, 256, 0, 4, 24}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        eu_ode o;
        eu_ode_init(&o, EU_BRUSS, cases[i].grid);
        CHECK(eu_geom2d_plan(&g, o.grid, cases[i].elem, 1 << 20, cases[i].wg, cases[i].pts, cases[i].steps, cases[i].s, NULL) == CLB_OK);
        double *a = malloc(o.n * sizeof *a), *b = malloc(o.n * sizeof *b), *t = malloc(o.n * sizeof *t);
        double *p = malloc(g.pw * g.ph * 2 * sizeof *p), *q = malloc(g.pw * g.ph * 2 * sizeof *q);
        if (a && b && t && p && q) {
            eu_initial(&o, a);
            memcpy(b, a, o.n * sizeof *a);
            eu_seq_f64(&o, a, t, cases[i].steps);
            tile2d_replay(&o, &g, b, t, cases[i].steps, p, q);
            /* ghost columns sum their neighbours in the other order: equal up to rounding */
            EXPECT(eu_max_rel_error(b, 1, NULL, a, o.n) < 1e-14, "N %zu steps %zu patch %zu x %zu s %zu: error %g",
                   o.grid, cases[i].steps, g.pw, g.ph, g.s, eu_max_rel_error(b, 1, NULL, a, o.n));
        } else
            EXPECT(0, "out of memory");
        free(a), free(b), free(t), free(p), free(q);
    }
}

/* tiled_1d (STRING in registers): the rule halo pw / 34, clipped to the run and to the patch;
 * tiles, redundancy and counted traffic for the H200 run (n = 1e8: 5e7 points, 96 steps). */
static void check_tile1d(void)
{
    eu_geom2d g;
    clb_diag d;
    clb_diag_clear(&d);
    CHECK(eu_geom1d_plan(&g, 50000000, 256, 16, 0, 0, 4, &d) == CLB_OK);
    EXPECT(g.one_d && g.pw == 4096 && g.s == 120 && g.tx == 3856 && g.ph == 1 && g.ty == 1 && g.local_bytes == 4096,
           "rule: patch %zu, s %zu, tile %zu, local %zu", g.pw, g.s, g.tx, g.local_bytes);
    CHECK(eu_geom1d_plan(&g, 50000000, 256, 16, 96, 0, 4, &d) == CLB_OK);
    EXPECT(g.s == 96 && g.tx == 3904 && g.tiles_x == 12808 && eu_geom2d_launches(&g, 96) == 1,
           "96 steps: s %zu, tile %zu, %zu tiles", g.s, g.tx, g.tiles_x);
    EXPECT(fabs(eu_geom2d_redundancy(&g, 96) - 1.0243340163934427) < 1e-12, "redundancy %.16g", eu_geom2d_redundancy(&g, 96));
    double want = 2.0 * (12808.0 * 4096 + 5e7); /* one launch: every patch loaded, every point stored */
    EXPECT(fabs(eu_geom1d_traffic(&g, 50000000, 96) - want) < 1, "traffic %g, want %g", eu_geom1d_traffic(&g, 50000000, 96), want);
    CHECK(eu_geom1d_plan(&g, 1000, 16, 3, 29, 7, 4, &d) == CLB_OK && g.s == 7 && g.tx == 34 && eu_geom2d_launches(&g, 29) == 5);
    CHECK(eu_geom1d_plan(&g, 1000, 1, 5, 9, 0, 4, &d) == CLB_OK && g.s == 1 && g.tx == 3); /* (5 - 1) / 2 = 2, rule 5 / 34 -> 1 */
    CHECK(eu_geom1d_plan(&g, 1000, 1, 2, 9, 0, 4, &d) == CLB_ERR_UNSUPPORTED && strstr(d.msg, "below 3") != NULL);
}

static void check_host(eu_problem p, size_t size, size_t steps)
{
    eu_ode o;
    eu_ode_init(&o, p, size);
    double *a = malloc(o.n * sizeof *a), *b = malloc(o.n * sizeof *b), *t = malloc(o.n * sizeof *t);
    float *f = malloc(o.n * sizeof *f), *ft = malloc(o.n * sizeof *ft);
    size_t *idx = NULL, count = 0;
    double *ref = NULL;
    if (!a || !b || !t || !f || !ft) {
        EXPECT(0, "out of memory");
        goto done;
    }
    eu_initial(&o, a);
    memcpy(b, a, o.n * sizeof *a);
    for (size_t i = 0; i < o.n; i++)
        f[i] = (float)a[i];
    eu_seq_f64(&o, a, t, steps);
    CHECK(eu_pthreads_f64(&o, b, t, steps, 3) == CLB_OK);
    CHECK(memcmp(a, b, o.n * sizeof *a) == 0);
    CHECK(eu_pthreads_f32(&o, f, ft, steps, 2) == CLB_OK);
    double e32 = eu_max_rel_error(f, 0, NULL, a, o.n);
    EXPECT(e32 > 0 && e32 < 1e-4, "float vs double after %zu steps: %g", steps, e32);
    /* the state moved: a wrong f would go unnoticed on a fixed point */
    eu_initial(&o, b);
    CHECK(eu_max_rel_error(b, 1, NULL, a, o.n) > 1e-6);
    CHECK(eu_reference(&o, steps, 2, &idx, &ref, &count) == CLB_OK);
    EXPECT(idx == NULL && count == o.n, "every component expected for n %zu, got %zu", o.n, count);
    CHECK(count && eu_max_rel_error(a, 1, idx, ref, count) == 0);
    /* A tile a kernel skipped (left at the initial state) between where windows at 0 and n/4
     * would have looked: caught wherever it lies. */
    eu_initial(&o, b);
    double keep[64];
    memcpy(keep, a + o.n / 8, sizeof keep);
    memcpy(a + o.n / 8, b + o.n / 8, sizeof keep);
    EXPECT(eu_max_rel_error(a, 1, idx, ref, count) > 1e-3, "a skipped tile at n/8 passes: %g",
           eu_max_rel_error(a, 1, idx, ref, count));
    memcpy(a + o.n / 8, keep, sizeof keep);
    a[idx ? idx[count / 2] : 0] += 1.0;
    CHECK(eu_max_rel_error(a, 1, idx, ref, count) > 1e-3);
    a[idx ? idx[1] : 1] = NAN;
    CHECK(!(eu_max_rel_error(a, 1, idx, ref, count) <= 1.0));
done:
    free(a), free(b), free(t), free(f), free(ft), free(idx), free(ref);
}

int main(void)
{
    check_schedules();
    check_strategies();
    check_tile2d();
    check_tile1d();
    check_host(EU_STRING, 40000, 20);
    check_host(EU_BRUSS, 128, 3);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("PASS: euler schedules, strategies, tiled_2d, tiled_1d, host runs, reference\n");
    return failures != 0;
}
