/* Drift over time (docs/drift.md): did one row of one device move during its history? A
 * change-point test over the runs' medians in time order. For every split k (at least
 * min_side runs on each side) the runs before k and from k on are compared with Student's t
 * (pooled variance, at least the variance a run's median has from its own spread), and a
 * straight line through all runs is tested for a slope (slow drift, which no single split
 * separates well). A move: the smallest two-sided p, times the number of tests (Bonferroni),
 * is at most alpha, AND its shift clears the noise floor max(min_rel, the runs' typical relative
 * spread): for a split the medians of its two sides, for the line its change from the first run
 * to the last. The medians make one outlying run no move: it cannot shift the median of a side
 * of three or more runs. Pure arithmetic over plain arrays, no allocation
 * per series: the caller owns a clb_drift_work sized for its longest history. */
#ifndef CLB_DRIFT_H
#define CLB_DRIFT_H

#include <stddef.h>
#include <stdint.h>

typedef enum clb_drift_verdict {
    CLB_DRIFT_STEADY = 0, /* no split passes both the test and the noise floor */
    CLB_DRIFT_MOVED = 1,  /* a split does: the row moved beyond its noise (exit 1) */
    CLB_DRIFT_TOO_FEW = 2 /* fewer than 2 x min_side runs with a value: no verdict */
} clb_drift_verdict;

typedef struct clb_drift_opts {
    double alpha;    /* family-wise false-alarm level over the splits: 0.001 */
    double min_rel;  /* the smallest relative shift of the medians that is a move: 0.03 */
    size_t min_side; /* runs on each side of a split: 3 (>= 2) */
} clb_drift_opts;

/* One (device, row) history, oldest first. value: the runs' medians (a non-finite value, a
 * run without a number, is skipped); spread: each run's relative spread (its cv), NaN or
 * negative when unknown, or NULL; nsamp: each run's samples, <= 0 when unknown, or NULL;
 * time: unix seconds, or NULL. */
typedef struct clb_drift_series {
    const double *value;
    const double *spread;
    const int *nsamp;
    const int64_t *time;
    size_t n;
} clb_drift_series;

/* The verdict and where. MOVED by a step: the split that passes both conditions with the
 * smallest p; MOVED by a trend: the line's first and last values, and the first run at which
 * the line is beyond the floor; STEADY: the split with the smallest p (NaN fields when TOO_FEW). */
typedef struct clb_drift_result {
    clb_drift_verdict verdict;
    size_t runs;          /* runs with a value */
    size_t splits;        /* splits tested (the Bonferroni factor is splits + 1: the trend) */
    int trend;            /* MOVED by the straight line's slope rather than by one split */
    size_t split;         /* index into the caller's arrays of the first run after the change */
    int64_t time_before;  /* time of the last run before the change (0 without times) */
    int64_t time_after;   /* time of the first run after it */
    double before, after; /* medians of the runs' medians before and after (trend: the line's ends) */
    double ratio;         /* after / before */
    double t, df;         /* Student's t (after - before; trend: of the slope), df = runs - 2 */
    double p;             /* its two-sided p times (splits + 1), at most 1 */
    double floor;         /* the noise floor applied: max(min_rel, the median spread) */
} clb_drift_result;

/* Scratch for histories of up to max_runs runs; reused for every series. */
typedef struct clb_drift_work clb_drift_work;
clb_drift_work *clb_drift_work_new(size_t max_runs);
void clb_drift_work_free(clb_drift_work *w);

void clb_drift_opts_default(clb_drift_opts *o);
/* Tests one series. Returns the verdict (also in r->verdict), or -1 when s->n exceeds the
 * work's max_runs or an argument is NULL. */
int clb_drift_test(const clb_drift_series *s, const clb_drift_opts *o, clb_drift_work *w,
                   clb_drift_result *r);
/* "moved", "steady", "too few runs". */
const char *clb_drift_verdict_name(clb_drift_verdict v);
/* The verdict in one line for people, e.g. "moved 19.0 % down since 2026-10-04 (last steady run
 * 2026-09-27): 2975 -> 2410 (x0.810), t = -9.10, p = 1.2e-05 over 6 tests, floor 3.0 %"; a
 * trend says "moved 18.0 % down by a slow drift, beyond the floor from ..."; without times the
 * runs are named by index ("run 6"). Returns what snprintf returns. */
int clb_drift_describe(char *buf, size_t cap, const clb_drift_result *r, const clb_drift_opts *o);

#endif
