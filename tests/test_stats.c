/* Statistics with known inputs. */
#include "clbench.h"

#include <math.h>
#include <stdio.h>

#include "check.h"

#define EXPECT_NEAR(got, want, tol)                                                     \
    do {                                                                                \
        double g_ = (got), w_ = (want);                                                 \
        if (!(fabs(g_ - w_) <= (tol))) {                                                \
            fprintf(stderr, "%s:%d: %s = %.12g, expected %.12g\n", __FILE__, __LINE__, #got, \
                    g_, w_);                                                            \
            failures++;                                                                 \
        }                                                                               \
    } while (0)

static void odd_sample(void)
{
    /* 1..9 shuffled: median 5, mean 5, sample sd sqrt(7.5), MAD 2. */
    const double x[] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(x, 9, &s), CLB_OK, 0);
    EXPECT_NEAR((double)s.n, 9, 0);
    EXPECT_NEAR(s.min, 1, 0);
    EXPECT_NEAR(s.max, 9, 0);
    EXPECT_NEAR(s.median, 5, 0);
    EXPECT_NEAR(s.mean, 5, 1e-12);
    EXPECT_NEAR(s.stddev, sqrt(7.5), 1e-12);
    EXPECT_NEAR(s.mad, 2, 0);
    EXPECT_NEAR(s.cv, sqrt(7.5) / 5, 1e-12);
    /* n = 9: P(Bin(9,.5) <= 1) = 10/512, coverage 1 - 20/512 = 0.9609 with j = 1 -> [2, 8]. */
    EXPECT_NEAR(s.ci95_lo, 2, 0);
    EXPECT_NEAR(s.ci95_hi, 8, 0);
    EXPECT_NEAR(s.ci95_level, 1.0 - 20.0 / 512.0, 1e-12);
}

static void even_sample(void)
{
    const double x[] = {4, 1, 3, 2};
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(x, 4, &s), CLB_OK, 0);
    EXPECT_NEAR(s.median, 2.5, 0);
    EXPECT_NEAR(s.mad, 1, 0); /* |x - 2.5| = 1.5 .5 .5 1.5 -> median 1 */
    /* n < 6: no interval reaches 95%; [min, max] with coverage 1 - 2/16. */
    EXPECT_NEAR(s.ci95_lo, 1, 0);
    EXPECT_NEAR(s.ci95_hi, 4, 0);
    EXPECT_NEAR(s.ci95_level, 0.875, 1e-12);
}

static void large_sample(void)
{
    /* n = 100 of 0..99: the CI of the median spans ranks 39..60 (j = 39, coverage 0.9648). */
    double x[100];
    for (int i = 0; i < 100; i++)
        x[i] = (double)((i * 37) % 100);
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(x, 100, &s), CLB_OK, 0);
    EXPECT_NEAR(s.median, 49.5, 0);
    EXPECT_NEAR(s.ci95_lo, 39, 0);
    EXPECT_NEAR(s.ci95_hi, 60, 0);
    if (s.ci95_level < 0.95 || s.ci95_level > 0.97) {
        fprintf(stderr, "coverage %.4f outside [0.95, 0.97]\n", s.ci95_level);
        failures++;
    }
}

static void skewed_sample(void)
{
    /* 1 2 3 4 100: median 3 far from the mean 22; |x - 3| = 2 1 0 1 97 -> MAD 1 (around the
     * mean it would be 20). */
    const double x[] = {100, 3, 1, 4, 2};
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(x, 5, &s), CLB_OK, 0);
    EXPECT_NEAR(s.median, 3, 0);
    EXPECT_NEAR(s.mean, 22, 1e-12);
    EXPECT_NEAR(s.mad, 1, 0);
}

static void single_and_constant(void)
{
    const double one = 42, same[] = {3, 3, 3};
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(&one, 1, &s), CLB_OK, 0);
    EXPECT_NEAR(s.stddev, 0, 0);
    EXPECT_NEAR(s.median, 42, 0);
    EXPECT_NEAR(clb_stats_compute(same, 3, &s), CLB_OK, 0);
    EXPECT_NEAR(s.cv, 0, 0);
    EXPECT_NEAR(s.mad, 0, 0);
}

static void rejects_bad_input(void)
{
    const double bad[] = {1, NAN, 3}, inf[] = {INFINITY};
    clb_stats s;
    EXPECT_NEAR(clb_stats_compute(bad, 3, &s), CLB_ERR_USAGE, 0);
    EXPECT_NEAR(clb_stats_compute(inf, 1, &s), CLB_ERR_USAGE, 0);
    EXPECT_NEAR(clb_stats_compute(bad, 0, &s), CLB_ERR_USAGE, 0);
}

int main(void)
{
    odd_sample();
    even_sample();
    large_sample();
    skewed_sample();
    single_and_constant();
    rejects_bad_input();
    return check_done("test_stats");
}
