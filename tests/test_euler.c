/* app.euler without a device: the tile schedules are sound (every block of every level computed
 * once, inputs present, no two tiles of a launch touching the same word), a broken schedule is
 * caught, the strategies reproduce seed 003's GTX 280 example, pthreads equals the sequential
 * run bit for bit, the windowed reference equals the full run, and the error measure fails on
 * corrupted or NaN output. */
#include "check.h"
#include "euler.h"

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
    CHECK(eu_reference(&o, steps, 64, 2, &idx, &ref, &count) == CLB_OK);
    EXPECT(idx != NULL && count == 5 * 64, "windows expected for n %zu, got %zu components", o.n, count);
    CHECK(count && eu_max_rel_error(a, 1, idx, ref, count) == 0);
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
    check_host(EU_STRING, 40000, 20);
    check_host(EU_BRUSS, 128, 3);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("PASS: euler schedules, strategies, host runs, reference\n");
    return failures != 0;
}
