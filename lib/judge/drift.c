/* Drift over time: a change-point test per (device, row) history (drift.h, docs/drift.md). */
#include "judge/drift.h"

#include "doc/doc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct clb_drift_work {
    size_t cap;
    double *x;      /* the values kept, in order */
    size_t *idx;    /* their indices in the caller's arrays */
    double *tmp;    /* spreads, then the sorted prefix */
    double *med_a;  /* med_a[k]: median of x[k..n) */
    double *med_b;  /* med_b[k]: median of x[0..k) */
    double *s1, *s2; /* prefix sums of (x - x[0]) and its square */
};

clb_drift_work *clb_drift_work_new(size_t max_runs)
{
    clb_drift_work *w = calloc(1, sizeof *w);
    size_t c = max_runs ? max_runs : 1;
    if (!w)
        return NULL;
    w->cap = max_runs;
    w->x = malloc(c * sizeof *w->x);
    w->idx = malloc(c * sizeof *w->idx);
    w->tmp = malloc(c * sizeof *w->tmp);
    w->med_a = malloc((c + 1) * sizeof *w->med_a);
    w->med_b = malloc((c + 1) * sizeof *w->med_b);
    w->s1 = malloc((c + 1) * sizeof *w->s1);
    w->s2 = malloc((c + 1) * sizeof *w->s2);
    if (!w->x || !w->idx || !w->tmp || !w->med_a || !w->med_b || !w->s1 || !w->s2) {
        clb_drift_work_free(w);
        return NULL;
    }
    return w;
}

void clb_drift_work_free(clb_drift_work *w)
{
    if (!w)
        return;
    free(w->x);
    free(w->idx);
    free(w->tmp);
    free(w->med_a);
    free(w->med_b);
    free(w->s1);
    free(w->s2);
    free(w);
}

void clb_drift_opts_default(clb_drift_opts *o)
{
    o->alpha = 0.001;
    o->min_rel = 0.03;
    o->min_side = 3;
}

const char *clb_drift_verdict_name(clb_drift_verdict v)
{
    return v == CLB_DRIFT_MOVED ? "moved" : v == CLB_DRIFT_STEADY ? "steady" : "too few runs";
}

/* The continued fraction of the regularized incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int pass = 0; pass < 2; pass++) {
            d = 1 + aa * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + aa / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (fabs(d * c - 1) < 1e-12)
            break;
    }
    return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double beta_inc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lbt) * beta_cf(a, b, x) / a;
    return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

/* Two-sided p of Student's t with df degrees of freedom. */
static double t_two_sided(double t, double df)
{
    if (isnan(t))
        return 1;
    if (isinf(t))
        return 0;
    return beta_inc(0.5 * df, 0.5, df / (df + t * t));
}

/* The split's two-sided p, Bonferroni-corrected over the splits tested (at most 1). */
static double corrected_p(double t, double df, size_t splits)
{
    return fmin(1, t_two_sided(t, df) * (double)splits);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Inserts v into the sorted s[0..n). */
static void insert_sorted(double *s, size_t n, double v)
{
    size_t i = n;
    for (; i > 0 && s[i - 1] > v; i--)
        s[i] = s[i - 1];
    s[i] = v;
}

/* Median of the known spreads (cv) and of the run medians' relative standard errors
 * (1.2533 cv / sqrt(n); an unknown n counts as 1); NaN when no spread is known. */
static void typical_spread(const clb_drift_series *s, clb_drift_work *w, size_t n, double *cv,
                           double *se)
{
    size_t k = 0;
    for (size_t i = 0; s->spread && i < n; i++) {
        double c = s->spread[w->idx[i]];
        if (isfinite(c) && c >= 0)
            insert_sorted(w->tmp, k++, c);
    }
    *cv = k ? median_sorted(w->tmp, k) : NAN;
    size_t j = 0;
    for (size_t i = 0; s->spread && i < n; i++) {
        double c = s->spread[w->idx[i]];
        int m = s->nsamp ? s->nsamp[w->idx[i]] : 0;
        if (isfinite(c) && c >= 0)
            insert_sorted(w->tmp, j++, 1.2533 * c / sqrt(m > 0 ? (double)m : 1.0));
    }
    *se = j ? median_sorted(w->tmp, j) : NAN;
}

/* One split: Student's two-sample t of x[k..n) against x[0..k) with the pooled variance (under
 * the null hypothesis both sides are one distribution, so one variance; Welch's df estimate from
 * three runs on a side is too optimistic in the tails the correction needs), at least the
 * variance of a run's median from its own spread (se_rel x the series' mean, squared). */
static double student(const clb_drift_work *w, size_t k, size_t n, double se_rel)
{
    double nb = (double)k, na = (double)(n - k);
    double sb = w->s1[k], sa = w->s1[n] - sb, mb = sb / nb, ma = sa / na;
    double ss = w->s2[n] - sb * mb - sa * ma; /* the squares about each side's mean */
    double v = fmax(0, ss / (nb + na - 2));
    if (isfinite(se_rel)) {
        double f = se_rel * (w->s1[n] / (nb + na) + w->x[0]);
        v = fmax(v, f * f);
    }
    double e = v * (1 / nb + 1 / na);
    if (e <= 0)
        return ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
    return (ma - mb) / sqrt(e);
}

/* Keeps the finite values and their indices; the prefix sums and the after-medians. */
static size_t prepare(const clb_drift_series *s, clb_drift_work *w)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (isfinite(s->value[i])) {
            w->x[n] = s->value[i];
            w->idx[n++] = i;
        }
    w->s1[0] = w->s2[0] = 0;
    for (size_t i = 0; i < n; i++) {
        double d = w->x[i] - w->x[0];
        w->s1[i + 1] = w->s1[i] + d;
        w->s2[i + 1] = w->s2[i] + d * d;
    }
    for (size_t k = n; k-- > 0;) {
        insert_sorted(w->tmp, n - 1 - k, w->x[k]);
        w->med_a[k] = median_sorted(w->tmp, n - k);
    }
    return n;
}

/* The straight line through (i, x[i]): Student's t of its slope (the residual variance at least
 * a run median's, as for a split) and the line's values at the first and the last run. */
static double trend(const clb_drift_work *w, size_t n, double se_rel, double *first, double *last)
{
    double nn = (double)n, mi = (nn - 1) / 2, sxx = nn * (nn * nn - 1) / 12, sxy = 0;
    double my = w->s1[n] / nn; /* about x[0], as the prefix sums */
    for (size_t i = 0; i < n; i++)
        sxy += ((double)i - mi) * (w->x[i] - w->x[0]);
    double b = sxy / sxx, v = fmax(0, (w->s2[n] - w->s1[n] * my - b * sxy) / (nn - 2));
    if (isfinite(se_rel)) {
        double f = se_rel * (my + w->x[0]);
        v = fmax(v, f * f);
    }
    *first = my + w->x[0] - b * mi, *last = my + w->x[0] + b * mi;
    if (v <= 0)
        return b == 0 ? 0 : (b > 0 ? INFINITY : -INFINITY);
    return b / sqrt(v / sxx);
}

static double rel_shift(double before, double after)
{
    return before != 0 ? after / before - 1 : (after != 0 ? INFINITY : 0);
}

/* The splits: the largest |t| of all (*best) and of those whose medians moved beyond the floor
 * (*best_floor, 0 when none); med_b filled for the report. */
static void steps(clb_drift_work *w, size_t n, size_t m, double se, double floor, size_t *best,
                  size_t *best_floor)
{
    double best_t = -1, best_floor_t = -1;
    *best = *best_floor = 0;
    for (size_t i = 0; i + 1 < m; i++)
        insert_sorted(w->tmp, i, w->x[i]);
    for (size_t k = m; k + m <= n; k++) {
        insert_sorted(w->tmp, k - 1, w->x[k - 1]); /* tmp[0..k): x[0..k) sorted */
        double before = median_sorted(w->tmp, k), t = fabs(student(w, k, n, se));
        w->med_b[k] = before;
        if (t > best_t)
            *best = k, best_t = t;
        if (fabs(rel_shift(before, w->med_a[k])) >= floor && t > best_floor_t)
            *best_floor = k, best_floor_t = t;
    }
}

static void report_split(const clb_drift_series *s, const clb_drift_work *w, size_t k, clb_drift_result *r)
{
    r->split = w->idx[k];
    r->time_before = s->time ? s->time[w->idx[k - 1]] : 0;
    r->time_after = s->time ? s->time[w->idx[k]] : 0;
}

int clb_drift_test(const clb_drift_series *s, const clb_drift_opts *o, clb_drift_work *w,
                   clb_drift_result *r)
{
    if (!s || !o || !w || !r || !s->value || s->n > w->cap)
        return -1;
    size_t m = o->min_side < 2 ? 2 : o->min_side;
    *r = (clb_drift_result){.verdict = CLB_DRIFT_TOO_FEW, .before = NAN, .after = NAN, .ratio = NAN,
                            .t = NAN, .df = NAN, .p = NAN, .floor = NAN};
    size_t n = prepare(s, w);
    r->runs = n;
    if (n < 2 * m)
        return (int)r->verdict;
    double cv, se;
    typical_spread(s, w, n, &cv, &se);
    r->floor = isfinite(cv) ? fmax(o->min_rel, cv) : o->min_rel;
    r->splits = n - 2 * m + 1;
    size_t tests = r->splits + 1; /* the splits and the trend */
    /* One df for every test: p falls as |t| grows, so the best is the largest |t|. */
    double df = (double)n - 2, first, last;
    size_t best, best_floor;
    steps(w, n, m, se, r->floor, &best, &best_floor);
    double tt = trend(w, n, se, &first, &last);
    double ts = best_floor ? student(w, best_floor, n, se) : 0;
    int trend_moves = fabs(rel_shift(first, last)) >= r->floor && fabs(tt) > fabs(ts);
    double t = trend_moves ? tt : ts, p = corrected_p(t, df, tests);
    r->df = df;
    if ((best_floor || trend_moves) && p <= o->alpha) {
        r->verdict = CLB_DRIFT_MOVED;
        r->trend = trend_moves;
        r->t = t, r->p = p;
        if (trend_moves) { /* when the line first left the floor */
            size_t i = 1;
            double step = (last - first) / (double)(n - 1);
            while (i + 1 < n && fabs(rel_shift(first, first + step * (double)i)) < r->floor)
                i++;
            report_split(s, w, i, r);
            r->before = first, r->after = last;
        } else {
            report_split(s, w, best_floor, r);
            r->before = w->med_b[best_floor], r->after = w->med_a[best_floor];
        }
    } else { /* steady: the most significant split */
        r->verdict = CLB_DRIFT_STEADY;
        r->t = student(w, best, n, se), r->p = corrected_p(r->t, df, tests);
        report_split(s, w, best, r);
        r->before = w->med_b[best], r->after = w->med_a[best];
    }
    r->ratio = r->before != 0 ? r->after / r->before : NAN;
    return (int)r->verdict;
}

/* "2026-10-04" from unix seconds, or "run N" without a time. */
static void when(char *buf, size_t cap, int64_t t, size_t index)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (t > 0 && gmtime_r(&tt, &tm))
        strftime(buf, cap, "%Y-%m-%d", &tm);
    else
        snprintf(buf, cap, "run %zu", index);
}

int clb_drift_describe(char *buf, size_t cap, const clb_drift_result *r, const clb_drift_opts *o)
{
    if (r->verdict == CLB_DRIFT_TOO_FEW)
        return snprintf(buf, cap, "too few runs: %zu with a value, %zu needed for a verdict", r->runs,
                        2 * (o->min_side < 2 ? 2 : o->min_side));
    char b[32], a[32], t0[32], t1[32];
    rj_fmt(b, sizeof b, r->before);
    rj_fmt(a, sizeof a, r->after);
    when(t0, sizeof t0, r->time_before, r->split - 1);
    when(t1, sizeof t1, r->time_after, r->split);
    double pct = 100 * fabs(r->ratio - 1);
    const char *dir = r->ratio < 1 ? "down" : "up";
    if (r->verdict == CLB_DRIFT_STEADY)
        return snprintf(buf, cap, "steady: the largest change, %.1f %% %s at %s, is %s (p = %.2g over %zu tests, "
                        "floor %.1f %%)", pct, dir, t1, r->p > o->alpha ? "not significant" : "under the floor",
                        r->p, r->splits + 1, 100 * r->floor);
    return snprintf(buf, cap, "moved %.1f %% %s %s %s (last steady run %s): %s -> %s (x%.3f), t = %.2f, p = %.2g "
                    "over %zu tests, floor %.1f %%", pct, dir, r->trend ? "by a slow drift, beyond the floor from" :
                    "since", t1, t0, b, a, r->ratio, r->t, r->p, r->splits + 1, 100 * r->floor);
}
