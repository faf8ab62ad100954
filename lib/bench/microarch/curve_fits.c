/* Pure analysis of the microarchitecture probes' curves: a two-line knee fit (dependency
 * distance sweep) and a two-level step fit (divergence sweep). No OpenCL here. */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double clb_median(const double *x, size_t n)
{
    double *t = malloc(n * sizeof *t);
    if (!t || n == 0) {
        free(t);
        return NAN;
    }
    memcpy(t, x, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_double);
    double m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

/* Least-squares line through (x[i], y[i]) for i in [a, b]; returns its residual sum. */
static double line_fit(const double *x, const double *y, size_t a, size_t b, double *slope,
                       double *icpt)
{
    double n = (double)(b - a + 1), sx = 0, sy = 0, sxx = 0, sxy = 0, sse = 0;
    for (size_t i = a; i <= b; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double den = n * sxx - sx * sx;
    *slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
    *icpt = (sy - *slope * sx) / n;
    for (size_t i = a; i <= b; i++) {
        double r = y[i] - (*slope * x[i] + *icpt);
        sse += r * r;
    }
    return sse;
}

static int increasing(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || (i && x[i] <= x[i - 1]))
            return 0;
    return 1;
}

static int all_finite(const double *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return 0;
    return 1;
}

clb_error clb_knee_fit(const double *x, const double *y, size_t n, clb_knee *out)
{
    memset(out, 0, sizeof *out);
    out->knee_x = -1;
    if (!x || !y || n < 4 || !increasing(x, n) || !all_finite(y, n))
        return CLB_ERR_USAGE;
    double m, b;
    out->sse_one = line_fit(x, y, 0, n - 1, &m, &b);
    double best = INFINITY;
    for (size_t s = 1; s + 2 <= n; s++) {
        double ml, bl, mr, br;
        double sse = line_fit(x, y, 0, s, &ml, &bl) + line_fit(x, y, s, n - 1, &mr, &br);
        if (sse < best) {
            best = sse;
            out->split = s;
            out->slope_left = ml, out->intercept_left = bl;
            out->slope_right = mr, out->intercept_right = br;
        }
    }
    out->sse_two = best;
    size_t s = out->split;
    double dm = out->slope_left - out->slope_right;
    /* The lines must bend down (saturation) and explain clearly more than one line does. */
    if (!(dm > 0) || !(out->sse_two < 0.25 * out->sse_one))
        return CLB_OK;
    double k = (out->intercept_right - out->intercept_left) / dm;
    double lo = x[s - 1], hi = x[s + 1];
    out->knee_x = k < lo ? lo : k > hi ? hi : k;
    out->found = 1;
    return CLB_OK;
}

clb_error clb_infer_width(const double *x, const double *y, size_t n, double min_penalty,
                          clb_width *out)
{
    memset(out, 0, sizeof *out);
    if (!x || !y || n < 3 || !increasing(x, n) || !all_finite(y, n))
        return CLB_ERR_USAGE;
    double best = INFINITY;
    size_t split = 0;
    /* The upper level needs two points: one fast outlier at the end is no step. */
    for (size_t s = 1; s + 2 <= n; s++) {
        double lo = 0, hi = 0, sse = 0;
        for (size_t i = 0; i < n; i++)
            *(i < s ? &lo : &hi) += y[i];
        lo /= (double)s;
        hi /= (double)(n - s);
        for (size_t i = 0; i < n; i++) {
            double r = y[i] - (i < s ? lo : hi);
            sse += r * r;
        }
        if (sse < best) {
            best = sse;
            split = s;
            out->low = lo;
            out->high = hi;
        }
    }
    out->penalty = out->low > 0 ? out->high / out->low : NAN;
    if (!(out->penalty >= min_penalty))
        return CLB_OK;
    /* The step must hold: no point past it may fall back to the lower half, and none before
     * it may reach the upper half. */
    double mid = 0.5 * (out->low + out->high);
    for (size_t i = 0; i < n; i++)
        if (i < split ? y[i] >= mid : y[i] < mid)
            return CLB_OK;
    out->width = x[split];
    out->found = 1;
    return CLB_OK;
}
