/* Plateau detection (lib/core/plateaus.c) on synthetic staircase curves, clean and noisy. */
#include "core/plateaus.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "check.h"

typedef struct level {
    double size, value; /* value up to and including size */
} level;

/* Sizes 4 KiB, 6 KiB, 8 KiB, 12 KiB, ... up to max (powers of two and 1.5x between). */
static size_t sizes(double *x, double max)
{
    size_t n = 0;
    for (double p = 4096; p <= max; p *= 2) {
        x[n++] = p;
        if (1.5 * p <= max)
            x[n++] = 1.5 * p;
    }
    return n;
}

static double value_at(const level *lv, size_t nl, double x)
{
    for (size_t i = 0; i < nl; i++)
        if (x <= lv[i].size)
            return lv[i].value;
    return lv[nl - 1].value;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Approximately normal noise (sum of 4 uniforms), relative standard deviation sd. */
static double noisy(double v, double sd)
{
    double z = (uniform() + uniform() + uniform() + uniform() - 2.0) * sqrt(3.0);
    return v * (1.0 + sd * z);
}

/* Checks that the detected plateaus match the levels: count, level values within 10%, and
 * each cache level's last size within a factor 2 of the truth. */
static void check(const char *what, const level *lv, size_t nl, double sd, int outlier)
{
    double x[64], y[64];
    clb_plateau p[16];
    size_t n = sizes(x, lv[nl - 1].size);
    for (size_t i = 0; i < n; i++)
        y[i] = noisy(value_at(lv, nl, x[i]), sd);
    if (outlier)
        y[n / 3] *= 2.5; /* one wild point must not create or split a level */
    size_t m = clb_find_plateaus(x, y, n, 0.12, 0.25, p, 16);
    EXPECT(m == nl, "%s: %zu plateaus, want %zu", what, m, nl);
    for (size_t i = 0; i < m && i < nl; i++) {
        EXPECT(fabs(p[i].level / lv[i].value - 1) < 0.1, "%s: level %zu = %g, want %g", what, i,
               p[i].level, lv[i].value);
        if (i + 1 < nl)
            EXPECT(p[i].x_last <= 2 * lv[i].size && p[i].x_last >= 0.5 * lv[i].size,
                   "%s: level %zu ends at %g, want %g", what, i, p[i].x_last, lv[i].size);
    }
}

int main(void)
{
    /* An H200-like curve (cycles): L1 to 128 KiB, near L2 to 16 MiB, far L2 to 32 MiB, HBM. */
    const level gpu[] = {{128 << 10, 40}, {16 << 20, 290}, {32 << 20, 420}, {1024.0 * (1 << 20), 670}};
    /* A CPU-like curve (ns): L1 32 KiB, L2 512 KiB, L3 32 MiB, DRAM. */
    const level cpu[] = {{32 << 10, 1.6}, {512 << 10, 5.0}, {32 << 20, 16}, {1024.0 * (1 << 20), 95}};
    /* A bandwidth curve falls instead of rising. */
    const level bw[] = {{256 << 10, 9000}, {48 << 20, 3500}, {1024.0 * (1 << 20), 2000}};
    check("gpu clean", gpu, 4, 0, 0);
    check("cpu clean", cpu, 4, 0, 0);
    check("bandwidth clean", bw, 3, 0, 0);
    for (int rep = 0; rep < 20; rep++) {
        check("gpu noisy", gpu, 4, 0.03, rep % 2);
        check("cpu noisy", cpu, 4, 0.03, rep % 2);
        check("bandwidth noisy", bw, 3, 0.03, rep % 2);
    }
    /* A flat curve is one plateau; a steady ramp has none; garbage is refused. */
    double x[40], y[40];
    clb_plateau p[8];
    size_t n = sizes(x, 1 << 30);
    for (size_t i = 0; i < n; i++)
        y[i] = 100;
    EXPECT(clb_find_plateaus(x, y, n, 0.12, 0.25, p, 8) == 1, "flat curve");
    for (size_t i = 0; i < n; i++)
        y[i] = 10 * pow(1.3, (double)i);
    EXPECT(clb_find_plateaus(x, y, n, 0.12, 0.25, p, 8) == 0, "ramp has no plateau");
    y[3] = -1;
    EXPECT(clb_find_plateaus(x, y, n, 0.12, 0.25, p, 8) == 0, "negative value refused");
    /* A noise bump between two levels is dropped by the monotonic filter. */
    clb_plateau q[4] = {{0, 1, 4096, 8192, 1.8}, {2, 5, 12288, 196608, 4.4},
                        {6, 7, 786432, 1048576, 31.8}, {8, 9, 1572864, 3145728, 18.8}};
    size_t k = clb_plateaus_monotonic(q, 4, 1);
    EXPECT(k == 3 && q[2].level == 18.8 && q[1].level == 4.4, "monotonic rising: %zu left", k);
    clb_plateau r[3] = {{0, 1, 1, 2, 100}, {2, 3, 4, 8, 120}, {4, 5, 16, 32, 50}};
    k = clb_plateaus_monotonic(r, 3, 0);
    EXPECT(k == 2 && r[0].level == 120 && r[1].level == 50, "monotonic falling: %zu left", k);
    printf("plateaus: %d failure(s)\n", failures);
    return failures != 0;
}
