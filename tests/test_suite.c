/* Suite score math with hand-computed cases (docs/suite.md): harmonic against geometric mean,
 * peak/average/stddev of per-run times, void on a failed app, omitted apps, the bootstrap; and
 * the summary of a synthetic suite document, whose per-row times, best rows and scores the test
 * recomputes on its own from the samples, the work models of docs/suite.md and the reference. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "clbench.h"
#include "check.h"
#include "suite_ref.h"
#include "apps/strmatch/strmatch.h" /* STRMATCH_NPAT: the StringMatch work model */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the summary of a synthetic suite document ---- */

/* Seconds per problem per unit of tau (docs/suite.md's work models, written out here). */
static double work_of(const clb_suite_app *a)
{
    double n = atof(a->quick[0]);
    if (strcmp(a->app, "sgemm") == 0)
        return 2 * n * n * n * 1e-9; /* GFLOP/s */
    if (strcmp(a->app, "saxpy") == 0)
        return 12 * n * 1e-9; /* GB/s */
    if (strcmp(a->app, "euler") == 0)
        return n * atof(a->quick[1]) * 1e-9; /* ns per component and step */
    if (strcmp(a->app, "strmatch") == 0)
        return n * STRMATCH_NPAT * 1e-9; /* GB/s of text x patterns */
    return n * 1e-9; /* MonteCarloPi: Gsamples/s */
}

static int lower_better(const clb_suite_app *a) { return strcmp(a->app, "euler") == 0; }

/* Row j of an app runs at base x speed[j % 4] (the fastest is neither the first nor the last
 * of three or more), its runs at x 1, 0.8, 0.9, 0.7 of that (best run != mean run). */
static const double speed[] = {2, 5, 3, 1.5}, spread[] = {1, 0.8, 0.9, 0.7};

static void add_row(cJSON *results, const clb_suite_app *a, const char *name, double v, const char *status)
{
    cJSON *r = cJSON_CreateObject(), *smp = cJSON_AddArrayToObject(r, "samples");
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "status", status);
    cJSON_AddStringToObject(r, "better", lower_better(a) ? "lower" : "higher");
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "params"), "n", atof(a->quick[0]));
    for (size_t i = 0; i < sizeof spread / sizeof spread[0]; i++)
        cJSON_AddItemToArray(smp, cJSON_CreateNumber(lower_better(a) ? v / spread[i] : v * spread[i]));
    cJSON_AddItemToArray(results, r);
}

static int matches(const char *globs, const char *name)
{
    char g[256];
    snprintf(g, sizeof g, "%s", globs);
    for (char *save = NULL, *t = strtok_r(g, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (clb_bench_match(t, name))
            return 1;
    return 0;
}

/* One column with every app's host and OpenCL rows; fail_row: an OpenCL row made invalid. */
static cJSON *suite_doc(const char *fail_row)
{
    cJSON *doc = cJSON_CreateObject(), *dev = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "devices"), dev);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(dev, "device"), "CL_DEVICE_NAME", "synthetic");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(dev, "suite_column"), "variant", "base");
    cJSON *res = cJSON_AddArrayToObject(dev, "results");
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        const clb_suite_app *a = clb_suite_app_at(i);
        double base = 1.0 + (double)i; /* rate (or, lower is better, time) of the slowest rows */
        add_row(res, a, a->sequential, lower_better(a) ? 50 * base : base / 10, "ok");
        add_row(res, a, a->pthreads, lower_better(a) ? 20 * base : base / 4, "ok");
        for (size_t k = 0, j = 0; k < clb_bench_count(); k++) {
            const char *name = clb_bench_at(k)->name;
            if (!matches(a->opencl, name))
                continue;
            double f = speed[j++ % 4];
            add_row(res, a, name, lower_better(a) ? base / f : base * f,
                    fail_row && strcmp(fail_row, name) == 0 ? "invalid_result" : "ok");
        }
    }
    return doc;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static const cJSON *find_result(const cJSON *doc, const char *name)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "devices"), 0), "results"))
        if (strcmp(str(r, "name"), name) == 0)
            return r;
    return NULL;
}

#define REL(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b))

/* One app of the summary against the test's own arithmetic: each OpenCL row's peak and average
 * time from the document's samples, the best row (lowest average time), its reference ratios. */
static void check_app(const cJSON *doc, const cJSON *ref, const clb_suite_app *a, const cJSON *app,
                      double *peak_ratio, double *avg_ratio)
{
    const cJSON *row, *set = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ref, "sets"), "quick");
    const cJSON *refapp = cJSON_GetObjectItemCaseSensitive(set, a->app);
    const char *best = NULL;
    double best_avg = INFINITY, best_peak = NAN;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(app, "rows")) {
        if (strcmp(str(row, "role"), "opencl") != 0)
            continue;
        const cJSON *r = find_result(doc, str(row, "row")), *x;
        double lo = INFINITY, sum = 0, m = 0;
        CHECK(r != NULL);
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(r, "samples")) {
            double t = work_of(a) * (lower_better(a) ? x->valuedouble : 1 / x->valuedouble);
            lo = fmin(lo, t);
            sum += t;
            m++;
        }
        EXPECT(REL(num(row, "peak_s"), lo) && REL(num(row, "avg_s"), sum / m), "%s: peak %g avg %g, want %g %g",
               str(row, "row"), num(row, "peak_s"), num(row, "avg_s"), lo, sum / m);
        if (sum / m < best_avg) {
            best_avg = sum / m;
            best_peak = lo;
            best = str(row, "row");
        }
    }
    EXPECT(best && strcmp(str(app, "best_opencl"), best) == 0, "%s: best_opencl %s, want %s (lowest average time)",
           a->app, str(app, "best_opencl"), best ? best : "(none)");
    *peak_ratio = num(refapp, "peak_s") / best_peak;
    *avg_ratio = num(refapp, "avg_s") / best_avg;
}

static void summary(void)
{
    cJSON *doc = suite_doc(NULL), *ref = suite_ref();
    clb_diag d;
    cJSON *s = clb_suite_summary(doc, ref, 0, &d), *app;
    CHECK(s != NULL);
    const cJSON *col = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "columns"), 0);
    double inv_p = 0, inv_a = 0, log_p = 0, log_a = 0, n = 0;
    size_t i = 0;
    cJSON_ArrayForEach(app, cJSON_GetObjectItemCaseSensitive(col, "apps")) {
        const clb_suite_app *a = clb_suite_app_at(i++);
        double rp = NAN, ra = NAN;
        CHECK(a && strcmp(str(app, "app"), a->app) == 0);
        EXPECT(strcmp(str(app, "verdict"), "scored") == 0, "%s: %s (%s)", a->app, str(app, "verdict"), str(app, "why"));
        check_app(doc, ref, a, app, &rp, &ra);
        inv_p += 1 / rp;
        inv_a += 1 / ra;
        log_p += log(rp);
        log_a += log(ra);
        n++;
    }
    CHECK(n == (double)clb_suite_app_count());
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(col, "score");
    EXPECT(strcmp(str(sc, "status"), "ok") == 0, "score %s: %s", str(sc, "status"), str(sc, "reason"));
    EXPECT(REL(num(sc, "peak"), n / inv_p), "Peak Score %g, want %g", num(sc, "peak"), n / inv_p);
    EXPECT(REL(num(sc, "average"), n / inv_a), "Average Score %g, want %g", num(sc, "average"), n / inv_a);
    EXPECT(REL(num(sc, "peak_geomean"), exp(log_p / n)), "peak geomean %g", num(sc, "peak_geomean"));
    EXPECT(REL(num(sc, "average_geomean"), exp(log_a / n)), "average geomean %g", num(sc, "average_geomean"));
    cJSON_Delete(s);
    cJSON_Delete(doc);

    /* One failed OpenCL row (not the best) voids the score, naming its app. */
    const clb_suite_app *saxpy = NULL;
    for (i = 0; i < clb_suite_app_count(); i++)
        if (strcmp(clb_suite_app_at(i)->app, "saxpy") == 0)
            saxpy = clb_suite_app_at(i);
    CHECK(saxpy != NULL);
    doc = suite_doc("app.saxpy.opencl");
    s = clb_suite_summary(doc, ref, 0, &d);
    sc = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "columns"), 0), "score");
    EXPECT(strcmp(str(sc, "status"), "void") == 0 && strcmp(str(sc, "void_app"), saxpy->title) == 0 &&
               !cJSON_GetObjectItemCaseSensitive(sc, "peak"),
           "one invalid row: score %s, void_app %s", str(sc, "status"), str(sc, "void_app"));
    cJSON_Delete(s);
    cJSON_Delete(doc);

    /* A reference measured at other sizes is not used: every app omitted, the score void. */
    doc = suite_doc(NULL);
    cJSON *sizes = cJSON_AddObjectToObject(cJSON_AddObjectToObject(ref, "sizes"), "quick");
    for (i = 0; i < clb_suite_app_count(); i++)
        for (int k = 0; k < CLB_SUITE_MAX_ENV && clb_suite_app_at(i)->env[k]; k++)
            cJSON_AddStringToObject(sizes, clb_suite_app_at(i)->env[k], clb_suite_app_at(i)->quick[k]);
    s = clb_suite_summary(doc, ref, 0, &d);
    EXPECT(strcmp(str(cJSON_GetObjectItemCaseSensitive(s, "reference"), "status"), "ok") == 0,
           "a reference at the suite's sizes: %s", str(cJSON_GetObjectItemCaseSensitive(s, "reference"), "reason"));
    cJSON_Delete(s);
    cJSON_ReplaceItemInObject(sizes, clb_suite_app_at(0)->env[0], cJSON_CreateString("999"));
    s = clb_suite_summary(doc, ref, 0, &d);
    sc = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "columns"), 0), "score");
    EXPECT(strcmp(str(cJSON_GetObjectItemCaseSensitive(s, "reference"), "status"), "mismatch") == 0 &&
               strcmp(str(sc, "status"), "void") == 0,
           "a reference at other sizes: %s, score %s", str(cJSON_GetObjectItemCaseSensitive(s, "reference"), "status"),
           str(sc, "status"));
    cJSON_Delete(s);
    cJSON_Delete(doc);
    cJSON_Delete(ref);
}

/* A copy of a suite document whose OpenCL rows all take f times as long. */
static cJSON *slower(const cJSON *doc, double f)
{
    cJSON *d = cJSON_Duplicate(doc, 1), *col, *app, *row, *t;
    cJSON_ArrayForEach(col, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "suite"), "columns"))
        cJSON_ArrayForEach(app, cJSON_GetObjectItemCaseSensitive(col, "apps"))
            cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(app, "rows")) {
                if (strcmp(str(row, "role"), "opencl") != 0)
                    continue;
                cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(row, "times_s"))
                    cJSON_SetNumberValue(t, t->valuedouble * f);
                cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "peak_s"), num(row, "peak_s") * f);
                cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "avg_s"), num(row, "avg_s") * f);
                cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "peak_ratio"), num(row, "peak_ratio") / f);
                cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "avg_ratio"), num(row, "avg_ratio") / f);
            }
    return d;
}

/* Regressions compare finds between base and next at a threshold (output discarded). */
static int regressions(const cJSON *base, const cJSON *next, double threshold)
{
    FILE *f = fopen("/dev/null", "w");
    int reg = 0;
    CHECK(f != NULL && clb_suite_compare(f, base, next, threshold, &reg) == 1);
    if (f)
        fclose(f);
    return reg;
}

/* compare of suite documents: both scores regress when every scored row is 1.5x slower (beyond a
 * 5 % threshold and the bootstrap interval), not within a 40 % threshold, not 1.1x slower when
 * the interval reaches 1, not when faster; a score that became void is a regression. */
static void suite_compare(void)
{
    clb_diag d;
    cJSON *ref = suite_ref(), *doc = suite_doc(NULL), *bad = suite_doc("app.saxpy.opencl");
    cJSON *base = cJSON_CreateObject(), *voided = cJSON_CreateObject();
    cJSON_AddItemToObject(base, "suite", clb_suite_summary(doc, ref, 0, &d));
    cJSON_AddItemToObject(voided, "suite", clb_suite_summary(bad, ref, 0, &d));
    cJSON *same = slower(base, 1), *slow = slower(base, 1.5), *fast = slower(base, 1 / 1.5);
    EXPECT(regressions(base, same, 0.05) == 0, "same runs: %d regressions", regressions(base, same, 0.05));
    EXPECT(regressions(base, slow, 0.05) == 2, "1.5x slower: %d regressions, want 2 (peak, average)",
           regressions(base, slow, 0.05));
    EXPECT(regressions(base, slow, 0.40) == 0, "1.5x slower within a 40 %% threshold: %d regressions",
           regressions(base, slow, 0.40));
    /* 10 % slower, but the runs spread over 30 %: the interval reaches 1, no verdict */
    cJSON *near = slower(base, 1.1);
    EXPECT(regressions(base, near, 0.05) == 0, "1.1x slower, wide runs: %d regressions", regressions(base, near, 0.05));
    cJSON_Delete(near);
    EXPECT(regressions(base, fast, 0.05) == 0, "1.5x faster: %d regressions", regressions(base, fast, 0.05));
    EXPECT(regressions(base, voided, 0.05) == 1, "void score: %d regressions, want 1", regressions(base, voided, 0.05));
    EXPECT(regressions(voided, base, 0.05) == 0, "void base: %d regressions", regressions(voided, base, 0.05));
    cJSON *objs[] = {ref, doc, bad, base, voided, same, slow, fast};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++)
        cJSON_Delete(objs[i]);
}

int main(void)
{
    means();
    times();
    scores();
    bootstrap();
    summary();
    suite_compare();
    return failures != 0;
}
