/* Suite score math (docs/suite.md): per-run time statistics, harmonic and geometric means of
 * reference ratios, void and omitted entries, and the bootstrap interval of a score ratio.
 * Pure functions of their arguments; unit-tested in tests/test_suite.c. */
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

clb_error clb_suite_means(const double *x, size_t n, double *hmean, double *gmean)
{
    double inv = 0, logs = 0;
    if (n == 0)
        return CLB_ERR_USAGE;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !(x[i] > 0))
            return CLB_ERR_USAGE;
        inv += 1.0 / x[i];
        logs += log(x[i]);
    }
    *hmean = (double)n / inv;
    *gmean = exp(logs / (double)n);
    return CLB_OK;
}

clb_error clb_suite_times(const double *t, size_t n, double *peak, double *avg, double *sd)
{
    double lo = INFINITY, sum = 0, ss = 0;
    if (n == 0)
        return CLB_ERR_USAGE;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(t[i]) || !(t[i] > 0))
            return CLB_ERR_USAGE;
        lo = t[i] < lo ? t[i] : lo;
        sum += t[i];
    }
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (t[i] - mean) * (t[i] - mean);
    *peak = lo;
    *avg = mean;
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    return CLB_OK;
}

void clb_suite_score_compute(const clb_suite_entry *e, size_t n, clb_suite_score *out)
{
    double *pk = calloc(n ? n : 1, sizeof *pk), *av = calloc(n ? n : 1, sizeof *av);
    memset(out, 0, sizeof *out);
    out->peak = out->average = out->peak_geomean = out->average_geomean = NAN;
    for (size_t i = 0; i < n; i++) {
        if (e[i].verdict == CLB_SUITE_OMITTED) {
            out->omitted++;
        } else if (e[i].verdict == CLB_SUITE_FAILED) {
            if (!out->is_void) {
                out->is_void = 1;
                out->void_app = e[i].app;
                out->void_reason = e[i].why;
            }
        } else if (pk && av) {
            pk[out->scored] = e[i].peak_ratio;
            av[out->scored++] = e[i].avg_ratio;
        }
    }
    if (!out->is_void && (out->scored == 0 || !pk || !av ||
                          clb_suite_means(pk, out->scored, &out->peak, &out->peak_geomean) != CLB_OK ||
                          clb_suite_means(av, out->scored, &out->average, &out->average_geomean) != CLB_OK)) {
        out->is_void = 1;
        out->void_reason = out->scored == 0 ? "no app was scored" : "a ratio is not finite and positive";
    }
    if (out->is_void)
        out->peak = out->average = out->peak_geomean = out->average_geomean = NAN;
    free(pk);
    free(av);
}

/* ---- bootstrap ---- */

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Peak (min) or mean of n draws with replacement from t (resample) or of t itself. */
static double stat_of(const double *t, size_t n, int peak, uint64_t *rng)
{
    double lo = INFINITY, sum = 0;
    for (size_t i = 0; i < n; i++) {
        double v = rng ? t[next_rand(rng) % n] : t[i];
        lo = v < lo ? v : lo;
        sum += v;
    }
    return peak ? lo : sum / (double)n;
}

/* The harmonic-mean score of one side (0 base, 1 next); NAN when a ratio is unusable. */
static double side_score(const clb_suite_pair *a, size_t n, int which, int peak, uint64_t *rng)
{
    double inv = 0;
    for (size_t i = 0; i < n; i++) {
        const double *t = which ? a[i].next : a[i].base;
        size_t m = which ? a[i].nnext : a[i].nbase;
        double ratio = (peak ? a[i].ref_peak : a[i].ref_avg) / stat_of(t, m, peak, rng);
        if (!isfinite(ratio) || !(ratio > 0))
            return NAN;
        inv += 1.0 / ratio;
    }
    return (double)n / inv;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

clb_error clb_suite_bootstrap(const clb_suite_pair *apps, size_t n, int peak, unsigned iters,
                              uint64_t seed, double *ratio, double *lo, double *hi)
{
    clb_error e = CLB_ERR_USAGE;
    double *r = NULL;
    uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++)
        if (apps[i].nbase == 0 || apps[i].nnext == 0)
            goto cleanup;
    if (n == 0 || iters < 20 || !(r = malloc(iters * sizeof *r)))
        goto cleanup;
    *ratio = side_score(apps, n, 1, peak, NULL) / side_score(apps, n, 0, peak, NULL);
    if (!isfinite(*ratio))
        goto cleanup;
    for (unsigned k = 0; k < iters; k++)
        r[k] = side_score(apps, n, 1, peak, &rng) / side_score(apps, n, 0, peak, &rng);
    qsort(r, iters, sizeof *r, cmp_double);
    *lo = r[(size_t)floor(0.025 * (iters - 1))];
    *hi = r[(size_t)ceil(0.975 * (iters - 1))];
    e = isfinite(*lo) && isfinite(*hi) ? CLB_OK : CLB_ERR_USAGE;
cleanup:
    free(r);
    return e;
}
