/* Cache levels from latency plateaus (clb_cache_levels, lib/core/plateaus.c) on curves shaped
 * like the 2-core EPYC VM's (L1d 32 KiB, L2 1 MiB, L3 32 MiB in sysfs): the mixtures between two
 * levels and the TLB creep inside one are not levels; each level ends within a factor 2 of sysfs.
 * The factor-2 verdict, and the database's L2 figures it judges GPUs by. */
#include "core/plateaus.h"
#include "device/devdb.h"

#include <math.h>
#include <string.h>
#include <stdio.h>
#include "check.h"

static const double sysfs[3] = {32768, 1048576, 33554432};

/* Sizes 4 KiB, 6 KiB, 8 KiB, ... 128 MiB (the memory.caches grid), latency by a piecewise table. */
static size_t curve(const double (*pts)[2], size_t np, double *x, double *y)
{
    size_t n = 0;
    for (double p = 4096; p <= 134217728; p *= 2)
        for (int h = 0; h < 2 && (h == 0 || 1.5 * p <= 134217728); h++) {
            x[n] = h ? 1.5 * p : p;
            y[n] = pts[np - 1][1];
            for (size_t k = 0; k < np; k++)
                if (x[n] <= pts[k][0]) {
                    y[n] = pts[k][1];
                    break;
                }
            n++;
        }
    return n;
}

static size_t levels_of(const double (*pts)[2], size_t np, clb_plateau *p)
{
    double x[64], y[64];
    size_t n = curve(pts, np, x, y);
    size_t m = clb_find_plateaus(x, y, n, 0.12, 0.25, p, 16);
    return clb_cache_levels(p, clb_plateaus_monotonic(p, m, 1), 1.5);
}

static void expect_sysfs(const char *what, const clb_plateau *p, size_t m)
{
    EXPECT(m == 4, "%s: %zu levels, want 3 caches and DRAM", what, m);
    for (size_t i = 0; i < 3 && i < m; i++)
        EXPECT(p[i].x_last >= 0.5 * sysfs[i] && p[i].x_last <= 2 * sysfs[i],
               "%s: level %zu ends at %.0f bytes, sysfs %.0f", what, i, p[i].x_last, sysfs[i]);
}

int main(void)
{
    /* Page-local chase: L1 3.3 ns, L2 9-12 ns creeping (one level), a two-point mixture
     * L2/L3 at 15-16 ns, L3 30 ns to 24 MiB, one mixture point, DRAM 150 ns. */
    static const double creep[][2] = {{32768, 3.3},     {131072, 9.0},     {262144, 10.0},
                                      {786432, 12.0},   {1048576, 15.0},   {1572864, 16.0},
                                      {3145728, 22.0},  {25165824, 30.0},  {33554432, 70.0},
                                      {134217728, 150.0}};
    clb_plateau p[16];
    size_t m = levels_of(creep, sizeof creep / sizeof creep[0], p);
    expect_sysfs("creep and mixtures", p, m);
    /* The split: L1 seen to 8 KiB then a 1.3x bump to 32 KiB, L2 in two plateaus 13 and
     * 19 ns, L3 in 40 and 55 ns: still three levels. */
    static const double split[][2] = {{8192, 3.5},        {32768, 4.5},      {49152, 8.0},
                                      {393216, 13.0},     {1048576, 19.0},   {1572864, 28.0},
                                      {6291456, 40.0},    {25165824, 55.0},  {33554432, 90.0},
                                      {134217728, 200.0}};
    m = levels_of(split, sizeof split / sizeof split[0], p);
    expect_sysfs("split plateaus", p, m);
    /* Nearest level on a log scale; within a factor 2 or not. */
    clb_plateau lv[3] = {{.x_last = 24576}, {.x_last = 786432}, {.x_last = 100663296}};
    int ok = -1;
    double near = clb_nearest_level(lv, 3, 1048576, &ok);
    EXPECT(near == 786432 && ok == 1, "nearest to 1 MiB: %.0f, agrees %d", near, ok);
    near = clb_nearest_level(lv, 3, 33554432, &ok);
    EXPECT(near == 100663296 && ok == 0, "nearest to 32 MiB: %.0f (3x), agrees %d", near, ok);
    near = clb_nearest_level(lv, 0, 32768, &ok);
    EXPECT(isnan(near) && ok == 0, "no levels: %.0f, agrees %d", near, ok);
    /* GPUs are judged by the database's L2: H100, H200 50 MiB and A100 40 MiB, with sources. */
    static const struct {
        const char *name;
        double l2;
    } gpus[] = {{"NVIDIA H100 80GB HBM3", 52428800}, {"NVIDIA H200", 52428800}, {"NVIDIA A100-SXM4-80GB", 41943040}};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        const clb_devdb_row *r = clb_devdb_find("NVIDIA Corporation", gpus[i].name);
        EXPECT(r && r->l2_bytes == gpus[i].l2 && r->src_l2 && strstr(r->src_l2, "https://"),
               "%s: entry %s, L2 %.0f", gpus[i].name, r ? r->key : "(none)", r ? r->l2_bytes : NAN);
    }
    if (failures)
        fprintf(stderr, "test_cache_levels: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
