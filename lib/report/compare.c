/* clbench compare: NEW/BASE ratios per common result and a regression verdict. Strings from the
 * documents reach the terminal through rep_term (no control sequences). */
#include "report/report.h"

#include <math.h>
#include <string.h>

typedef struct cmp_tally {
    int common, compared, regressions, improvements;
} cmp_tally;

/* The device of doc with the same name as dev and the same occurrence among equal names
 * (two identical GPUs stay apart). */
static const cJSON *match_device(const cJSON *base, const cJSON *dev, const cJSON *next)
{
    const char *name = rj_device_name(dev);
    int k = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, rj_devices(base)) {
        if (d == dev)
            break;
        k += strcmp(rj_device_name(d), name) == 0;
    }
    cJSON_ArrayForEach(d, rj_devices(next)) {
        if (strcmp(rj_device_name(d), name) == 0 && k-- == 0)
            return d;
    }
    return NULL;
}

/* "12.3 us [11.9, 12.8]" or the status when not ok. */
static void side(char *buf, size_t n, const rj_result *x)
{
    char v[32], lo[32], hi[32];
    if (strcmp(x->status, "ok") != 0 || !x->has_value) {
        snprintf(buf, n, "%s", *x->status ? x->status : "(no status)");
        return;
    }
    rj_fmt(v, sizeof v, x->value);
    rj_fmt(lo, sizeof lo, x->has_ci ? x->ci_lo : NAN);
    rj_fmt(hi, sizeof hi, x->has_ci ? x->ci_hi : NAN);
    snprintf(buf, n, "%s %.16s [%s, %s]", v, x->unit, lo, hi);
}

/* Verdict for two ok results; counts regressions and improvements. */
static const char *judge(const rj_result *b, const rj_result *x, double ratio, double thr,
                         cmp_tally *t)
{
    int higher = strcmp(b->better, "higher") == 0, lower = strcmp(b->better, "lower") == 0;
    if (strcmp(b->unit, x->unit) != 0)
        return "units differ: not compared";
    t->compared++;
    if (!higher && !lower)
        return "no direction ('better' missing)";
    int worse = higher ? ratio < 1 - thr : ratio > 1 + thr;
    int better = higher ? ratio > 1 + thr : ratio < 1 - thr;
    if (!worse && !better)
        return "unchanged (within threshold)";
    /* Without intervals only the threshold can decide. */
    int apart = !b->has_ci || !x->has_ci || x->ci_hi < b->ci_lo || x->ci_lo > b->ci_hi;
    if (!apart)
        return "within noise (CIs overlap)";
    if (worse) {
        t->regressions++;
        return "REGRESSION";
    }
    t->improvements++;
    return "improvement";
}

static void compare_result(FILE *f, const cJSON *rb, const cJSON *rn, double thr, cmp_tally *t)
{
    rj_result b, x;
    char sb[160], sn[160], ratio_s[32] = "-";
    const char *verdict;
    rj_result_read(rb, &b);
    rj_result_read(rn, &x);
    int bok = strcmp(b.status, "ok") == 0 && b.has_value;
    int nok = strcmp(x.status, "ok") == 0 && x.has_value;
    t->common++;
    if (bok && nok && b.value != 0) {
        double ratio = x.value / b.value;
        snprintf(ratio_s, sizeof ratio_s, "%.3f", ratio);
        verdict = judge(&b, &x, ratio, thr, t);
    } else if (bok && !nok) {
        verdict = strcmp(x.status, "unsupported") == 0 ? "now unsupported" : "REGRESSION (now failing)";
        t->regressions += strcmp(x.status, "unsupported") != 0;
    } else {
        verdict = nok ? "fixed (failed in base)" : "not ok in either";
    }
    side(sb, sizeof sb, &b);
    side(sn, sizeof sn, &x);
    fprintf(f, "  %-28s %-34s %-34s %8s  %s\n", rep_term(b.name), rep_term(sb), rep_term(sn), ratio_s, verdict);
}

static void compare_device(FILE *f, const cJSON *db, const cJSON *dn, double thr, cmp_tally *t)
{
    const cJSON *rb, *rn;
    rj_index ib, in; /* each side's results by name: one search per name, not one scan */
    if (rj_index_build(&ib, db) != CLB_OK || rj_index_build(&in, dn) != CLB_OK) {
        rj_index_free(&ib);
        fputs("  out of memory\n", f);
        return;
    }
    fprintf(f, "\n== %s\n  %-28s %-34s %-34s %8s  %s\n", rep_term(rj_device_name(db)), "benchmark",
            "base [95% CI]", "new [95% CI]", "new/base", "verdict");
    cJSON_ArrayForEach(rb, rj_arr(db, "results")) {
        const char *name = rj_str(rb, "name");
        const cJSON *match = name ? rj_index_find(&in, name) : NULL;
        if (match)
            compare_result(f, rb, match, thr, t);
        else if (name)
            fprintf(f, "  %-28s only in base\n", rep_term(name));
    }
    cJSON_ArrayForEach(rn, rj_arr(dn, "results")) {
        const char *name = rj_str(rn, "name");
        if (name && !rj_index_find(&ib, name))
            fprintf(f, "  %-28s only in new\n", rep_term(name));
    }
    rj_index_free(&ib);
    rj_index_free(&in);
}

int clb_compare(FILE *f, const cJSON *base, const cJSON *next, double threshold, clb_diag *d)
{
    cmp_tally t = {0, 0, 0, 0};
    const cJSON *db;
    clb_diag_clear(d);
    if (clb_doc_check(base, "base", d) != CLB_OK || clb_doc_check(next, "new", d) != CLB_OK)
        return CLB_COMPARE_UNUSABLE;
    if (!(threshold >= 0) || !isfinite(threshold)) {
        clb_diag_set(d, CLB_ERR_USAGE, "threshold must be a finite fraction >= 0");
        return CLB_COMPARE_UNUSABLE;
    }
    fprintf(f, "threshold %.4g%%; a regression is a change in the bad direction beyond it whose "
               "95%% CIs do not overlap\n", 100 * threshold);
    cJSON_ArrayForEach(db, rj_devices(base)) {
        const cJSON *dn = match_device(base, db, next);
        if (dn)
            compare_device(f, db, dn, threshold, &t);
        else
            fprintf(f, "\n== %s: only in base\n", rep_term(rj_device_name(db)));
    }
    cJSON_ArrayForEach(db, rj_devices(next)) {
        if (!match_device(next, db, base))
            fprintf(f, "\n== %s: only in new\n", rep_term(rj_device_name(db)));
    }
    int suite_cols = clb_suite_compare(f, base, next, threshold, &t.regressions); /* suite documents */
    if (t.common == 0 && suite_cols == 0) {
        clb_diag_set(d, CLB_ERR_USAGE,
                     "nothing in common: no result has the same device name and benchmark name in both files");
        return CLB_COMPARE_UNUSABLE;
    }
    fprintf(f, "\n%d common result(s), %d compared by value: %d regression(s), %d improvement(s)\n",
            t.common, t.compared, t.regressions, t.improvements);
    return t.regressions ? CLB_COMPARE_REGRESSION : CLB_COMPARE_OK;
}
