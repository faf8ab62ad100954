/* Unit tests of the microarchitecture analysis: the knee fit and the SIMD width inference
 * on synthetic curves, clean and with noise, and the cases where nothing must be found. */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

/* Deterministic noise in [-a, a]. */
static double noise(unsigned *s, double a)
{
    *s = *s * 1664525u + 1013904223u;
    return a * (2.0 * ((double)(*s >> 8) / 16777216.0) - 1.0);
}

/* Throughput of a pipeline of depth L against the dependency distance d: d/L, then 1. */
static void knee_curve(double L, double amp, unsigned seed, double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)(i + 1);
        double t = x[i] < L ? x[i] / L : 1.0;
        y[i] = t * (1.0 + noise(&seed, amp));
    }
}

static void test_knee(void)
{
    double x[32], y[32];
    clb_knee k;
    for (int L = 2; L <= 24; L += 2) {
        knee_curve(L, 0, 1, x, y, 32);
        CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK);
        CHECK(k.found && fabs(k.knee_x - L) < 0.01);
    }
    /* 5% noise: within one step of the true depth, over many seeds. */
    for (unsigned seed = 1; seed < 50; seed++) {
        double L = 4 + seed % 12;
        knee_curve(L, 0.05, seed, x, y, 32);
        CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK);
        CHECK(k.found && fabs(k.knee_x - L) <= 1.0);
    }
    /* A neighbour threshold would fire on this single early dip; the fit must not. */
    knee_curve(8, 0, 1, x, y, 32);
    y[2] = y[3];
    CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK && k.found && fabs(k.knee_x - 8) <= 1.0);
    /* No knee: a straight line, and a flat noisy curve. */
    for (size_t i = 0; i < 32; i++)
        x[i] = (double)(i + 1), y[i] = 0.1 * x[i];
    CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK && !k.found && k.knee_x == -1);
    unsigned s = 7;
    for (size_t i = 0; i < 32; i++)
        y[i] = 1.0 + noise(&s, 0.05);
    CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK && !k.found);
    /* A curve that bends up (not a saturation) is no knee either. */
    for (size_t i = 0; i < 32; i++)
        y[i] = i < 10 ? 1.0 : 1.0 + (double)(i - 10);
    CHECK(clb_knee_fit(x, y, 32, &k) == CLB_OK && !k.found);
    /* Bad input. */
    CHECK(clb_knee_fit(x, y, 3, &k) == CLB_ERR_USAGE);
    y[5] = NAN;
    CHECK(clb_knee_fit(x, y, 32, &k) == CLB_ERR_USAGE);
}

/* Throughput against B for a SIMD width W: both paths (half speed) below W, full from W. */
static size_t width_curve(double W, double amp, unsigned seed, double *x, double *y)
{
    size_t n = 0;
    for (double b = 1; b <= 512; b *= 2, n++) {
        x[n] = b;
        y[n] = (b < W ? 0.5 : 1.0) * (1.0 + noise(&seed, amp));
    }
    return n;
}

static void test_width(void)
{
    double x[16], y[16];
    clb_width w;
    for (double W = 2; W <= 64; W *= 2) {
        size_t n = width_curve(W, 0, 1, x, y);
        CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK);
        CHECK(w.found && w.width == W && fabs(w.penalty - 2) < 1e-9);
    }
    for (unsigned seed = 1; seed < 50; seed++) {
        double W = seed % 2 ? 32 : 8;
        size_t n = width_curve(W, 0.1, seed, x, y);
        CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && w.found && w.width == W);
    }
    /* A gradual ramp up to the width (a vectorizer's partial masks) still gives the width. */
    size_t n = 0;
    for (double b = 1; b <= 512; b *= 2, n++)
        x[n] = b, y[n] = b < 8 ? 0.5 + 0.03 * log2(b) : 1.0;
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && w.found && w.width == 8);
    /* No penalty (flat with noise), and a penalty that never goes away. */
    unsigned s = 3;
    for (size_t i = 0; i < n; i++)
        y[i] = 1.0 + noise(&s, 0.05);
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && !w.found && w.width == 0);
    for (size_t i = 0; i < n; i++)
        y[i] = i == n - 1 ? 1.0 : 0.5;
    y[n - 3] = 1.0; /* up, down, up: the step does not hold */
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && !w.found);
    /* A lone high point below the step breaks it too. */
    n = width_curve(32, 0, 1, x, y);
    y[1] = 1.0;
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && !w.found);
    /* One fast outlier at the end is no step. */
    for (size_t i = 0; i < n; i++)
        y[i] = i == n - 1 ? 1.0 : 0.5;
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && !w.found);
    /* A step down is no width. */
    for (size_t i = 0; i < n; i++)
        y[i] = i < 4 ? 1.0 : 0.5;
    CHECK(clb_infer_width(x, y, n, 1.3, &w) == CLB_OK && !w.found);
    CHECK(clb_infer_width(x, y, 2, 1.3, &w) == CLB_ERR_USAGE);
}

static void test_median(void)
{
    double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2};
    CHECK(clb_median(a, 3) == 3);
    CHECK(clb_median(b, 4) == 2.5);
}

/* The host's fma chain (used to validate kernels) must equal the naive loop, early exits at a
 * fixed point or a 2-cycle included. */
static void test_fma_chain(void)
{
    const float as[] = {0.5f, 0.875f, -0.9375f, -1.0f, 0.99999994f};
    const float bs[] = {0.3f, 0.0625f, 1.0f, 0.0f};
    const uint64_t ns[] = {0, 1, 2, 3, 10, 101, 1000, 4097};
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++)
        for (size_t j = 0; j < sizeof bs / sizeof bs[0]; j++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                float x = 1.25f;
                for (uint64_t s = 0; s < ns[k]; s++)
                    x = fmaf(x, as[i], bs[j]);
                float got = clb_ua_fma_chain(1.25f, as[i], bs[j], ns[k]);
                if (memcmp(&got, &x, sizeof x) != 0) {
                    fprintf(stderr, "fma chain a=%g b=%g n=%llu: %.9g, naive %.9g\n", (double)as[i],
                            (double)bs[j], (unsigned long long)ns[k], (double)got, (double)x);
                    failures++;
                }
            }
}

int main(void)
{
    test_fma_chain();
    test_knee();
    test_width();
    test_median();
    printf("test_microarch: %d failure(s)\n", failures);
    return failures != 0;
}
