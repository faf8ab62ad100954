/* Suite score math with hand-computed cases (docs/suite.md): harmonic against geometric mean,
 * peak/average/stddev of per-run times, void on a failed app, omitted apps, the bootstrap. */
#include "clbench.h"
#include "check.h"

#include <math.h>

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static void means(void)
{
    /* ratios 1, 4: harmonic 2 / (1 + 1/4) = 1.6, geometric sqrt(4) = 2 */
    const double x[] = {1, 4};
    double h = 0, g = 0;
    CHECK(clb_suite_means(x, 2, &h, &g) == CLB_OK);
    EXPECT(NEAR(h, 1.6, 1e-12), "harmonic %g", h);
    EXPECT(NEAR(g, 2.0, 1e-12), "geometric %g", g);
    /* 2, 8, 4: harmonic 3 / (7/8) = 24/7, geometric 4 */
    const double y[] = {2, 8, 4};
    CHECK(clb_suite_means(y, 3, &h, &g) == CLB_OK);
    EXPECT(NEAR(h, 24.0 / 7.0, 1e-12), "harmonic %g", h);
    EXPECT(NEAR(g, 4.0, 1e-12), "geometric %g", g);
    const double bad[] = {2, 0};
    CHECK(clb_suite_means(bad, 2, &h, &g) == CLB_ERR_USAGE);
    CHECK(clb_suite_means(x, 0, &h, &g) == CLB_ERR_USAGE);
}

static void times(void)
{
    /* 2, 4, 6: peak 2, average 4, sample sd 2 */
    const double t[] = {4, 2, 6};
    double p = 0, a = 0, s = 0;
    CHECK(clb_suite_times(t, 3, &p, &a, &s) == CLB_OK);
    CHECK(p == 2 && NEAR(a, 4, 1e-12) && NEAR(s, 2, 1e-12));
    const double one[] = {3};
    CHECK(clb_suite_times(one, 1, &p, &a, &s) == CLB_OK && p == 3 && a == 3 && s == 0);
    const double neg[] = {1, -1};
    CHECK(clb_suite_times(neg, 2, &p, &a, &s) == CLB_ERR_USAGE);
}

static void scores(void)
{
    clb_suite_entry e[4] = {{"GEMM", CLB_SUITE_SCORED, 1, 2, NULL},
                            {"SAXPY", CLB_SUITE_SCORED, 4, 2, NULL},
                            {"MonteCarloPi", CLB_SUITE_OMITTED, NAN, NAN, "not in this build"},
                            {"Euler", CLB_SUITE_SCORED, 4, 8, NULL}};
    clb_suite_score s;
    clb_suite_score_compute(e, 4, &s);
    /* peak 1, 4, 4: harmonic 3 / 1.5 = 2, geometric 16^(1/3); average 2, 2, 8: 3 / 1.125, 32^(1/3) */
    CHECK(!s.is_void && s.scored == 3 && s.omitted == 1);
    EXPECT(NEAR(s.peak, 2.0, 1e-12), "peak %g", s.peak);
    EXPECT(NEAR(s.peak_geomean, cbrt(16.0), 1e-12), "peak geomean %g", s.peak_geomean);
    EXPECT(NEAR(s.average, 3.0 / 1.125, 1e-12), "average %g", s.average);
    EXPECT(NEAR(s.average_geomean, cbrt(32.0), 1e-12), "average geomean %g", s.average_geomean);
    CHECK(s.peak < s.peak_geomean); /* harmonic <= geometric, strictly for unequal ratios */
    e[1] = (clb_suite_entry){"SAXPY", CLB_SUITE_FAILED, NAN, NAN, "app.saxpy.opencl: invalid_result"};
    clb_suite_score_compute(e, 4, &s);
    CHECK(s.is_void && s.void_app && s.void_app[0] == 'S' && isnan(s.peak) && isnan(s.average));
    clb_suite_entry only_omitted[1] = {{"StringMatch", CLB_SUITE_OMITTED, NAN, NAN, "not in this build"}};
    clb_suite_score_compute(only_omitted, 1, &s);
    CHECK(s.is_void && s.void_app == NULL && s.omitted == 1);
}

static void bootstrap(void)
{
    /* the same runs on both sides: ratio 1 exactly, the interval around it */
    const double b[] = {1.0, 1.1, 0.9, 1.05, 0.95, 1.0, 1.02, 0.98, 1.01, 0.99};
    const double n2[] = {2.0, 2.2, 1.8, 2.1, 1.9, 2.0, 2.04, 1.96, 2.02, 1.98};
    clb_suite_pair p = {b, b, 10, 10, 10, 10};
    double r = 0, lo = 0, hi = 0;
    CHECK(clb_suite_bootstrap(&p, 1, 0, 1000, 42, &r, &lo, &hi) == CLB_OK);
    EXPECT(NEAR(r, 1.0, 1e-12) && lo < 1 && hi > 1 && lo > 0.9 && hi < 1.1, "r %g [%g, %g]", r, lo, hi);
    /* next twice as slow: average score ratio 0.5, the interval excludes 1 */
    p.next = n2;
    CHECK(clb_suite_bootstrap(&p, 1, 0, 1000, 42, &r, &lo, &hi) == CLB_OK);
    EXPECT(NEAR(r, 0.5, 1e-12) && hi < 1 && lo <= 0.5 && hi >= 0.5, "r %g [%g, %g]", r, lo, hi);
    /* the same seed gives the same interval */
    double lo2 = 0, hi2 = 0;
    CHECK(clb_suite_bootstrap(&p, 1, 0, 1000, 42, &r, &lo2, &hi2) == CLB_OK && lo2 == lo && hi2 == hi);
    p.nnext = 0;
    CHECK(clb_suite_bootstrap(&p, 1, 0, 1000, 42, &r, &lo, &hi) == CLB_ERR_USAGE);
}

int main(void)
{
    means();
    times();
    scores();
    bootstrap();
    return failures != 0;
}
