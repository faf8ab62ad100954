/* Suite-aware compare: per column present in both documents (same device name and variant),
 * NEW/BASE of the Peak and Average Scores with 95% bootstrap intervals from the per-run times
 * (docs/suite.md, "compare"). */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOOT_ITERS 2000u
#define BOOT_SEED 0x5EED5C0FEull

static const cJSON *find_column(const cJSON *cols, const cJSON *c)
{
    const cJSON *x;
    const char *dev = rj_str(c, "device"), *var = rj_str(c, "variant");
    cJSON_ArrayForEach(x, cols) {
        const char *d2 = rj_str(x, "device"), *v2 = rj_str(x, "variant");
        if (dev && var && d2 && v2 && strcmp(dev, d2) == 0 && strcmp(var, v2) == 0)
            return x;
    }
    return NULL;
}

/* The scored (best OpenCL) row of an app, or NULL. */
static const cJSON *scored_row(const cJSON *app)
{
    const cJSON *r;
    const char *best = rj_str(app, "best_opencl"), *v = rj_str(app, "verdict");
    if (!best || !v || strcmp(v, "scored") != 0)
        return NULL;
    cJSON_ArrayForEach(r, rj_arr(app, "rows")) {
        if (rj_str(r, "row") && strcmp(rj_str(r, "row"), best) == 0)
            return r;
    }
    return NULL;
}

/* Copies up to cap finite times of row into t; returns how many. */
static size_t times(const cJSON *row, double *t, size_t cap)
{
    const cJSON *x;
    size_t n = 0;
    cJSON_ArrayForEach(x, rj_arr(row, "times_s")) {
        if (n < cap && cJSON_IsNumber(x) && isfinite(x->valuedouble))
            t[n++] = x->valuedouble;
    }
    return n;
}

typedef struct pair_buf {
    clb_suite_pair p[16];
    double tb[16][256], tn[16][256];
    size_t n;
} pair_buf;

/* The apps scored in both columns, with the reference times recovered from ratio x time. */
static int collect(const cJSON *cb, const cJSON *cn, pair_buf *pb)
{
    const cJSON *ab;
    pb->n = 0;
    cJSON_ArrayForEach(ab, rj_arr(cb, "apps")) {
        const cJSON *an, *rb = scored_row(ab), *rn = NULL;
        cJSON_ArrayForEach(an, rj_arr(cn, "apps")) {
            if (rj_str(an, "app") && rj_str(ab, "app") && strcmp(rj_str(an, "app"), rj_str(ab, "app")) == 0)
                rn = scored_row(an);
        }
        if (!rb != !rn)
            return 0; /* a different set of scored apps: the scores do not compare */
        double pr, ar, pk, av;
        if (!rb || pb->n == 16 || !rj_num(rb, "peak_ratio", &pr) || !rj_num(rb, "avg_ratio", &ar) ||
            !rj_num(rb, "peak_s", &pk) || !rj_num(rb, "avg_s", &av))
            continue;
        clb_suite_pair *p = &pb->p[pb->n];
        p->nbase = times(rb, pb->tb[pb->n], 256);
        p->nnext = times(rn, pb->tn[pb->n], 256);
        p->base = pb->tb[pb->n];
        p->next = pb->tn[pb->n];
        p->ref_peak = pr * pk;
        p->ref_avg = ar * av;
        pb->n++;
    }
    return pb->n > 0;
}

/* One line per score kind; 1 when it regressed. */
static int score_line(FILE *f, const pair_buf *pb, int peak, double threshold)
{
    double r, lo, hi;
    if (clb_suite_bootstrap(pb->p, pb->n, peak, BOOT_ITERS, BOOT_SEED, &r, &lo, &hi) != CLB_OK) {
        fprintf(f, "  %-13s no interval (too few runs)\n", peak ? "Peak Score" : "Average Score");
        return 0;
    }
    int reg = r < 1 - threshold && hi < 1;
    fprintf(f, "  %-13s new/base %.4f [%.4f, %.4f] (%+.2f%%)%s\n", peak ? "Peak Score" : "Average Score", r, lo, hi,
            100 * (r - 1), reg ? "  REGRESSION" : r > 1 + threshold && lo > 1 ? "  improvement" : "");
    return reg;
}

static int is_void(const cJSON *c)
{
    const char *s = rj_str(rj_obj(c, "score"), "status");
    return !s || strcmp(s, "ok") != 0;
}

int clb_suite_compare(FILE *f, const cJSON *base, const cJSON *next, double threshold, int *regressions)
{
    const cJSON *cb, *cols_n = rj_arr(rj_obj(next, "suite"), "columns");
    int compared = 0;
    pair_buf *pb = NULL;
    if (!rj_obj(base, "suite") || !cols_n || !(pb = malloc(sizeof *pb)))
        return 0;
    fprintf(f, "\nsuite scores (95%% bootstrap intervals, %u resamples of the runs, fixed seed)\n", BOOT_ITERS);
    cJSON_ArrayForEach(cb, rj_arr(rj_obj(base, "suite"), "columns")) {
        const cJSON *cn = find_column(cols_n, cb);
        fprintf(f, "== %s, variant %s\n", rj_str(cb, "device") ? rep_term(rj_str(cb, "device")) : "?",
                rj_str(cb, "variant") ? rep_term(rj_str(cb, "variant")) : "?");
        if (!cn) {
            fputs("  only in base\n", f);
            continue;
        }
        compared++;
        if (is_void(cb) || is_void(cn)) {
            int reg = !is_void(cb) && is_void(cn);
            fprintf(f, "  score void in %s%s\n", is_void(cb) && is_void(cn) ? "both" : is_void(cb) ? "base" : "new",
                    reg ? "  REGRESSION" : "");
            *regressions += reg;
            continue;
        }
        if (!collect(cb, cn, pb)) {
            fputs("  not comparable: the two runs scored different sets of apps\n", f);
            continue;
        }
        *regressions += score_line(f, pb, 1, threshold);
        *regressions += score_line(f, pb, 0, threshold);
    }
    free(pb);
    return compared;
}
