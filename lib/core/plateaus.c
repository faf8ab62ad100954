/* Plateau detection: a robust greedy segmentation of a staircase curve in log space. */
#include "core/plateaus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1]. */
static double median_of(const double *v, size_t n)
{
    double *t = malloc(n * sizeof *t);
    double m;
    if (!t)
        return v[n / 2];
    memcpy(t, v, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_double);
    m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

/* 3-point running median: one outlier cannot start or break a plateau. */
static void smooth(const double *y, size_t n, double *s)
{
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || i + 1 == n) {
            s[i] = y[i];
            continue;
        }
        double a = y[i - 1], b = y[i], c = y[i + 1];
        s[i] = a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
    }
}

static int within(double a, double b, double tol)
{
    return fabs(log(a / b)) <= log1p(tol);
}

/* Merges plateau k+1 into k when their levels are close. */
static size_t merge_close(const double *y, clb_plateau *p, size_t m, double merge_tol)
{
    size_t w = 0;
    for (size_t i = 0; i < m; i++) {
        if (w > 0 && within(p[w - 1].level, p[i].level, merge_tol)) {
            p[w - 1].last = p[i].last;
            p[w - 1].x_last = p[i].x_last;
            p[w - 1].level = median_of(y + p[w - 1].first, p[w - 1].last - p[w - 1].first + 1);
        } else {
            p[w++] = p[i];
        }
    }
    return w;
}

size_t clb_find_plateaus(const double *x, const double *y, size_t n, double tol, double merge_tol,
                         clb_plateau *out, size_t cap)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    clb_plateau *all = malloc((n ? n : 1) * sizeof *all);
    size_t m = 0;
    if (!s || !all || n < 2) {
        free(s);
        free(all);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!(y[i] > 0) || !isfinite(y[i])) {
            free(s);
            free(all);
            return 0;
        }
    smooth(y, n, s);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && within(s[j], median_of(s + i, j - i), tol) &&
               within(s[j], s[i], 2 * tol))
            j++;
        if (j - i >= 2) {
            all[m].first = i;
            all[m].last = j - 1;
            all[m].x_first = x[i];
            all[m].x_last = x[j - 1];
            all[m].level = median_of(y + i, j - i);
            m++;
        }
        i = j;
    }
    m = merge_close(y, all, m, merge_tol);
    if (m > cap)
        m = cap;
    memcpy(out, all, m * sizeof *out);
    free(s);
    free(all);
    return m;
}

size_t clb_plateaus_monotonic(clb_plateau *p, size_t m, int rising)
{
    size_t top = 0; /* p[0..top-1] is the kept, monotonic prefix */
    for (size_t i = 0; i < m; i++) {
        while (top > 0 && (rising ? p[top - 1].level >= p[i].level : p[top - 1].level <= p[i].level))
            top--;
        p[top++] = p[i];
    }
    return top;
}

/* A plateau of fewer than a doubling of sizes, squeezed between the levels around it. */
static int is_mixture(const clb_plateau *p, size_t i, size_t m)
{
    return i > 0 && i + 1 < m && p[i].x_last < 2 * p[i].x_first && p[i - 1].level < p[i].level &&
           p[i].level < p[i + 1].level;
}

size_t clb_cache_levels(clb_plateau *p, size_t m, double step)
{
    size_t w = 0;
    for (size_t i = 0; i < m; i++) /* is_mixture reads the neighbours as found */
        if (!is_mixture(p, i, m))
            p[w++] = p[i];
    m = w;
    w = 0;
    for (size_t i = 0; i < m; i++) {
        if (w > 0 && p[i].level < step * p[w - 1].level) {
            p[w - 1].last = p[i].last;
            p[w - 1].x_last = p[i].x_last;
        } else {
            p[w++] = p[i];
        }
    }
    return w;
}

void clb_level_ends(const double *x, const double *y, size_t n, clb_plateau *p, size_t m)
{
    for (size_t i = 0; i + 1 < m; i++) {
        double mid = sqrt(p[i].level * p[i + 1].level);
        for (size_t j = p[i].last + 1; j < p[i + 1].first && j < n && y[j] < mid; j++) {
            p[i].last = j;
            p[i].x_last = x[j];
        }
    }
}

double clb_nearest_level(const clb_plateau *p, size_t m, double want, int *agrees)
{
    double best = NAN;
    for (size_t i = 0; i < m; i++)
        if (!(fabs(log(p[i].x_last / want)) >= fabs(log(best / want))))
            best = p[i].x_last;
    *agrees = isfinite(best) && best >= 0.5 * want && best <= 2.0 * want;
    return best;
}
