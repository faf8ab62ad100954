/* Cache levels from latency plateaus (clb_cache_levels, lib/core/plateaus.c) on curves shaped
 * like the 2-core EPYC VM's (L1d 32 KiB, L2 1 MiB, L3 32 MiB in sysfs): the mixtures between two
 * levels and the TLB creep inside one are not levels; each level ends within a factor 2 of sysfs.
 * The factor-2 verdict, and the database's L2 figures it judges GPUs by. A level's end follows the
 * slope after its plateau (clb_level_ends) on the VM's own curve and on the H200's recorded one. */
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

/* Levels of a measured curve (x, y: n points), ends moved along the slopes. */
static size_t levels_measured(const double *x, const double *y, size_t n, clb_plateau *p)
{
    size_t m = clb_find_plateaus(x, y, n, 0.12, 0.25, p, 16);
    m = clb_cache_levels(p, clb_plateaus_monotonic(p, m, 1), 1.5);
    clb_level_ends(x, y, n, p, m);
    return m;
}

/* Levels of a recorded curve pts[0..n-1] (size, fastest ns): m levels, want L1's and L2's ends. */
static void h200_case(const char *what, const double (*pts)[2], size_t n, double l1, double l2)
{
    double x[64], y[64];
    for (size_t i = 0; i < n; i++) {
        x[i] = pts[i][0];
        y[i] = pts[i][1];
    }
    clb_plateau p[16];
    size_t m = levels_measured(x, y, n, p);
    EXPECT(m == 3, "%s: %zu levels, want L1, L2 and the last (DRAM)", what, m);
    if (m != 3)
        return;
    EXPECT(p[0].x_last == l1, "%s: L1 ends at %.0f bytes, want %.0f", what, p[0].x_last, l1);
    EXPECT(p[1].x_last == l2, "%s: L2 ends at %.0f bytes, want %.0f", what, p[1].x_last, l2);
    const clb_devdb_row *r = clb_devdb_find("NVIDIA Corporation", "NVIDIA H200");
    double one_sm = clb_devdb_l2_one_sm(r);
    int ok = 0;
    double near = clb_nearest_level(p, 2, one_sm, &ok);
    EXPECT(near == l2 && ok == 1, "%s: level nearest to one SM's L2 (%.0f): %.0f, agrees %d", what, one_sm, near, ok);
}

/* memory.caches on the H200, each size's fastest repetition. At midday (2026-11-25,
 * docs/results/data/2026-11-25-h200-seeds.tar.xz, 4 KiB .. 64 MiB): L1 19.8 ns to 192 KiB, L2
 * 145 ns to 16 MiB, then a slope (172 ns at 24 MiB, 219 at 32) to 247-270 ns at 48-64 MiB: L2 ends
 * at 24 MiB, below the 193 ns between 145 and 258. In the evening (2026-11-25-h200-caches.tar.xz,
 * to 192 MiB): L2 146 ns to 12 MiB, 191-213 ns at 16-32 MiB (one level with it: less than 1.5x),
 * DRAM 291-311 ns from 96 MiB: L2 ends at 32 MiB. */
static void h200_recorded(void)
{
    static const double evening[][2] = {
        {4096, 19.9},      {6144, 19.9},      {8192, 19.9},      {12288, 20.0},     {16384, 20.0},
        {24576, 20.1},     {32768, 20.2},     {49152, 20.4},     {65536, 20.6},     {98304, 21.1},
        {131072, 21.2},    {196608, 22.1},    {262144, 89.8},    {393216, 145.9},   {524288, 145.4},
        {786432, 146.1},   {1048576, 146.1},  {1572864, 146.0},  {2097152, 146.2},  {3145728, 146.1},
        {4194304, 145.9},  {6291456, 146.1},  {8388608, 146.0},  {12582912, 146.3}, {16777216, 190.9},
        {25165824, 194.5}, {33554432, 212.6}, {50331648, 248.3}, {67108864, 279.2}, {100663296, 290.8},
        {134217728, 292.6}, {201326592, 310.5}};
    h200_case("H200 evening", evening, sizeof evening / sizeof evening[0], 196608, 33554432);
    static const double pts[][2] = {
        {4096, 19.80},     {6144, 19.80},     {8192, 19.81},     {12288, 19.82},    {16384, 19.82},
        {24576, 19.84},    {32768, 19.86},    {49152, 19.89},    {65536, 19.93},    {98304, 20.00},
        {131072, 20.07},   {196608, 20.24},   {262144, 83.60},   {393216, 145.39},  {524288, 144.88},
        {786432, 145.37},  {1048576, 145.41}, {1572864, 145.36}, {2097152, 145.46}, {3145728, 145.46},
        {4194304, 145.42}, {6291456, 145.48}, {8388608, 145.55}, {12582912, 145.47}, {16777216, 145.49},
        {25165824, 172.05}, {33554432, 219.45}, {50331648, 246.85}, {67108864, 269.88}};
    h200_case("H200 midday", pts, sizeof pts / sizeof pts[0], 196608, 25165824);
    /* The database: GH100 and GA100 L2s in two partitions, with their source; one SM's share. */
    for (size_t i = 0; i < clb_devdb_count(); i++) {
        const clb_devdb_row *r = clb_devdb_at(i);
        int two = r->l2_bytes == 52428800 || r->l2_bytes == 41943040;
        EXPECT(!two || (r->l2_partitions == 2 && r->src_l2_partitions && strstr(r->src_l2_partitions, "https://") &&
                        clb_devdb_l2_one_sm(r) == r->l2_bytes / 2),
               "%s: L2 %.0f in %.0f partitions, one SM's %.0f", r->key, r->l2_bytes, r->l2_partitions,
               clb_devdb_l2_one_sm(r));
        EXPECT(two || r->l2_partitions == 0, "%s: partitions %.0f without a known two-partition L2", r->key, r->l2_partitions);
    }
}

/* memory.caches on the 2-core EPYC VM (2026-11-25, fastest repetitions, shaped like a loaded run):
 * L2's plateau ends at 384 KiB, the latency then rises through 512 KiB, 768 KiB and 1 MiB to L3's
 * 5.6 ns (a host chase does the same with 2 MiB pages: not conflict misses). */
static void epyc_slope(void)
{
    static const double pts[][2] = {
        {4096, 1.35},    {8192, 1.35},    {16384, 1.37},   {32768, 1.35},   {49152, 2.80},
        {65536, 2.83},   {131072, 2.82},  {262144, 2.85},  {393216, 2.77},  {524288, 3.35},
        {786432, 3.80},  {1048576, 4.50}, {1572864, 5.40}, {2097152, 5.62}, {4194304, 5.70},
        {6291456, 6.20}, {8388608, 34.0}, {16777216, 44.3}, {33554432, 50.2}, {134217728, 48.5}};
    double x[64], y[64];
    size_t n = sizeof pts / sizeof pts[0];
    for (size_t i = 0; i < n; i++) {
        x[i] = pts[i][0];
        y[i] = pts[i][1];
    }
    clb_plateau p[16];
    size_t m = levels_measured(x, y, n, p);
    EXPECT(m == 4, "EPYC slope: %zu levels, want L1, L2, the VM's L3 share and DRAM", m);
    EXPECT(m >= 2 && p[0].x_last == 32768, "EPYC L1 ends at %.0f bytes, want 32 KiB", m ? p[0].x_last : NAN);
    EXPECT(m >= 2 && p[1].x_last == 786432, "EPYC L2 ends at %.0f bytes, want 768 KiB (3.80 ns, below the 3.99 between 2.83 and 5.62)",
           m >= 2 ? p[1].x_last : NAN);
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
    /* The steps again with the ends moved along the slopes: no end moves past a factor 2. */
    double x[64], y[64];
    size_t n = curve(creep, sizeof creep / sizeof creep[0], x, y);
    m = levels_measured(x, y, n, p);
    expect_sysfs("creep, slopes followed", p, m);
    n = curve(split, sizeof split / sizeof split[0], x, y);
    m = levels_measured(x, y, n, p);
    expect_sysfs("split, slopes followed", p, m);
    h200_recorded();
    epyc_slope();
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
