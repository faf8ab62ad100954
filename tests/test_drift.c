/* The drift test (lib/judge/drift.c, docs/drift.md) on seeded synthetic histories: steady noisy
 * series stay steady (false-alarm rate measured), a 10 % step is found at its index, one
 * outlying run is no move, slow drift beyond and within the floor, too few runs, unknown
 * spreads, the noise floor from the runs' own spread. And the fleet comparison on plain arrays
 * (lib/judge/fleet_compare.c) that fleet-check from files and from the store share.
 * `test_drift --bench N` times N series of 10 runs (ns per series); `test_drift --series FILE
 * DEVICES ROWS RUNS SAMPLES` runs the test over a simulated fleet's every history;
 * `test_drift --bench-fleet DEVICES ROWS` times the fleet comparison. */
#include "judge/drift.h"
#include "judge/fleet_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"

#define RUNS 10

static uint64_t rng_state;

static double uniform01(void)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2 * log(uniform01())) * cos(6.283185307179586 * uniform01());
}

typedef struct hist {
    double v[RUNS], cv[RUNS];
    int n[RUNS];
    int64_t t[RUNS];
} hist;

/* A history of RUNS runs around 100 with run-to-run noise sd (relative), each run's own cv
 * and samples; one run a day from 2026-11-01. */
static void steady(hist *h, uint64_t seed, double sd, double cv, int n)
{
    rng_state = 0x9E3779B97F4A7C15ULL ^ (seed * 0xBF58476D1CE4E5B9ULL);
    for (int i = 0; i < RUNS; i++) {
        h->v[i] = 100 * (1 + sd * gauss());
        h->cv[i] = cv, h->n[i] = n;
        h->t[i] = 1793491200 + 86400 * (int64_t)i;
    }
}

static clb_drift_result test(const hist *h, size_t n, const clb_drift_opts *o, clb_drift_work *w)
{
    clb_drift_series s = {h->v, h->cv, h->n, h->t, n};
    clb_drift_result r;
    CHECK(clb_drift_test(&s, o, w, &r) == (int)r.verdict);
    return r;
}

/* Fraction of `count` seeded steady series (noise sd, spread cv) the test calls moved. */
static double false_alarms(const clb_drift_opts *o, clb_drift_work *w, int count, double sd, double cv)
{
    int moved = 0;
    hist h;
    for (int s = 0; s < count; s++) {
        steady(&h, (uint64_t)s + 1, sd, cv, 10);
        moved += test(&h, RUNS, o, w).verdict == CLB_DRIFT_MOVED;
    }
    return (double)moved / count;
}

static void test_steady(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    /* Runs scattering by 1 % whose own spread is 1 %: the floor (3 %) alone stops alarms. */
    double fa = false_alarms(&o, w, 20000, 0.01, 0.01);
    EXPECT(fa <= 0.01, "false alarms %.4f over steady series (sd 1 %%)", fa);
    /* The test's own level: no floor, no known spread, runs scattering by 2 %. Bonferroni over
     * the splits keeps the family-wise rate at most alpha (0.1 %); the bound allows three
     * standard errors of a rate measured over 20,000 series (0.07 %). */
    o.min_rel = 0;
    double cal = false_alarms(&o, w, 20000, 0.02, NAN);
    EXPECT(cal <= o.alpha + 3 * sqrt(o.alpha / 20000), "false alarms %.5f without the floor, alpha %.3f", cal,
           o.alpha);
    printf("false alarms: %.5f with the floor (sd 1 %%), %.5f of the t-test alone (alpha %.3f)\n", fa, cal,
           o.alpha);
}

static void test_step(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    for (uint64_t seed = 1; seed <= 50; seed++) {
        hist h;
        steady(&h, seed, 0.005, 0.005, 10);
        for (int i = 6; i < RUNS; i++)
            h.v[i] *= 0.90; /* 10 % slower from run 6 on */
        clb_drift_result r = test(&h, RUNS, &o, w);
        EXPECT(r.verdict == CLB_DRIFT_MOVED && r.split == 6, "seed %llu: verdict %d at %zu",
               (unsigned long long)seed, r.verdict, r.split);
        CHECK(fabs(r.ratio - 0.90) < 0.02 && r.p <= o.alpha && r.t < 0);
        CHECK(r.time_before == h.t[5] && r.time_after == h.t[6] && r.splits == 5 && r.runs == RUNS);
    }
    /* The same step found where it is, with a missing run before it: indices are the caller's. */
    hist h;
    steady(&h, 7, 0.005, 0.005, 10);
    h.v[2] = NAN;
    for (int i = 4; i < RUNS; i++)
        h.v[i] *= 1.10;
    clb_drift_result r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && r.split == 4 && r.runs == RUNS - 1 && r.time_before == h.t[3]);
}

static void test_outlier(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    static const int where[] = {0, 4, 5, 9};
    for (size_t j = 0; j < sizeof where / sizeof *where; j++)
        for (uint64_t seed = 1; seed <= 50; seed++) {
            hist h;
            steady(&h, seed, 0.005, 0.005, 10);
            h.v[where[j]] *= 0.6; /* one run 40 % slow */
            clb_drift_result r = test(&h, RUNS, &o, w);
            EXPECT(r.verdict == CLB_DRIFT_STEADY, "outlier at %d, seed %llu: %s at %zu (ratio %.3f)",
                   where[j], (unsigned long long)seed, clb_drift_verdict_name(r.verdict), r.split, r.ratio);
        }
}

static void test_gradual(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    hist h;
    /* 2 % per run (18 % in all): a move by the trend (no split's t reaches the corrected
     * level), named at the first run where the line is 3 % (the floor) below its start. */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        steady(&h, seed, 0.002, 0.002, 10);
        for (int i = 0; i < RUNS; i++)
            h.v[i] *= 1 - 0.02 * i;
        clb_drift_result r = test(&h, RUNS, &o, w);
        CHECK(r.verdict == CLB_DRIFT_MOVED && r.trend && r.split == 2 && fabs(r.ratio - 0.82) < 0.01);
        CHECK(r.time_before == h.t[1] && r.p <= o.alpha && r.t < 0);
    }
    /* One 10 % step is a split, not a trend. */
    steady(&h, 3, 0.002, 0.002, 10);
    for (int i = 6; i < RUNS; i++)
        h.v[i] *= 0.9;
    clb_drift_result r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && !r.trend && r.split == 6);
    /* 0.2 % per run (1.8 % in all): within the floor, steady. */
    steady(&h, 3, 0.002, 0.002, 10);
    for (int i = 0; i < RUNS; i++)
        h.v[i] *= 1 - 0.002 * i;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_STEADY && fabs(r.ratio - 1) < 0.03);
}

static void test_too_few(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    hist h;
    steady(&h, 1, 0.005, 0.005, 10);
    for (int i = 3; i < RUNS; i++)
        h.v[i] *= 0.5;
    /* 5 runs, 1 run, 0 runs: no verdict however large the step. */
    static const size_t counts[] = {5, 1, 0};
    for (size_t j = 0; j < 3; j++) {
        clb_drift_result r = test(&h, counts[j], &o, w);
        CHECK(r.verdict == CLB_DRIFT_TOO_FEW && r.runs == counts[j] && isnan(r.p));
    }
    /* 10 runs of which 5 have a value. */
    for (int i = 0; i < RUNS; i += 2)
        h.v[i] = NAN;
    clb_drift_result r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_TOO_FEW && r.runs == 5);
    CHECK(strcmp(clb_drift_verdict_name(CLB_DRIFT_TOO_FEW), "too few runs") == 0);
    /* Six runs: one split, a verdict. */
    steady(&h, 1, 0.005, 0.005, 10);
    for (int i = 3; i < 6; i++)
        h.v[i] *= 0.8;
    r = test(&h, 6, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && r.splits == 1 && r.split == 3);
    /* Identical runs without a known spread: steady, p = 1; the same with an exact 5 % step:
     * moved there (t infinite, p 0), no NaN on the way. */
    for (int i = 0; i < RUNS; i++)
        h.v[i] = 42, h.cv[i] = NAN, h.n[i] = 0;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_STEADY && r.p == 1 && r.ratio == 1);
    for (int i = 7; i < RUNS; i++)
        h.v[i] = 39.9;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && r.split == 7 && r.p == 0 && isinf(r.t) && r.t < 0);
    /* A history longer than the work was made for is refused. */
    clb_drift_work *small = clb_drift_work_new(4);
    clb_drift_series s = {h.v, h.cv, h.n, h.t, RUNS};
    CHECK(small && clb_drift_test(&s, &o, small, &r) == -1);
    clb_drift_work_free(small);
}

static void test_spread(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    hist h;
    /* Unknown spreads (NaN, or no array): the floor is min_rel; a 10 % step is a move. */
    steady(&h, 5, 0.005, NAN, 10);
    for (int i = 5; i < RUNS; i++)
        h.v[i] *= 0.9;
    clb_drift_result r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && r.split == 5 && r.floor == o.min_rel);
    clb_drift_series s = {h.v, NULL, NULL, NULL, RUNS};
    CHECK(clb_drift_test(&s, &o, w, &r) == CLB_DRIFT_MOVED && r.split == 5 && r.time_after == 0);
    /* Some spreads known: their median sets the floor (6 %), and 10 % clears it. */
    for (int i = 0; i < RUNS; i++)
        h.cv[i] = i % 3 ? NAN : 0.06;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_MOVED && fabs(r.floor - 0.06) < 1e-12);
    /* A 2 % step on runs that barely scatter (0.1 %): significant, but under the 3 % floor. */
    steady(&h, 9, 0.001, 0.001, 10);
    for (int i = 5; i < RUNS; i++)
        h.v[i] *= 0.98;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_STEADY && r.p <= o.alpha && r.split == 5);
    o.min_rel = 0.01;
    CHECK(test(&h, RUNS, &o, w).verdict == CLB_DRIFT_MOVED);
    o.min_rel = 0.03;
    /* Runs whose samples scatter by 8 %: a 5 % step of their medians is within that floor. */
    steady(&h, 9, 0.002, 0.08, 100);
    for (int i = 5; i < RUNS; i++)
        h.v[i] *= 0.95;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_STEADY && fabs(r.floor - 0.08) < 1e-12);
    /* Medians that agree by chance while each run's own spread says they scatter by 2.5 %
     * (cv 2 %, one sample): a 4 % step is no significant move. */
    for (int i = 0; i < RUNS; i++)
        h.v[i] = i < 5 ? 100 : 96, h.cv[i] = 0.02, h.n[i] = 1;
    r = test(&h, RUNS, &o, w);
    CHECK(r.verdict == CLB_DRIFT_STEADY && r.p > o.alpha && isfinite(r.t));
    /* ... while with 100 samples per run the medians are that exact, and it is a move. */
    for (int i = 0; i < RUNS; i++)
        h.n[i] = 100;
    CHECK(test(&h, RUNS, &o, w).verdict == CLB_DRIFT_MOVED);
}

/* The verdict in words: the change, its direction, when (by date, else by run), the test. */
static void test_describe(clb_drift_work *w)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    hist h;
    char line[256];
    steady(&h, 1, 0.005, 0.005, 10);
    for (int i = 6; i < RUNS; i++)
        h.v[i] *= 0.8;
    clb_drift_result r = test(&h, RUNS, &o, w);
    clb_drift_describe(line, sizeof line, &r, &o);
    EXPECT(strstr(line, "moved 2") == line && strstr(line, "% down since 2026-11-07 (last steady run 2026-11-06)") &&
               strstr(line, "over 6 tests, floor 3.0 %"), "%s", line);
    clb_drift_series s = {h.v, h.cv, h.n, NULL, RUNS};
    clb_drift_test(&s, &o, w, &r);
    clb_drift_describe(line, sizeof line, &r, &o);
    EXPECT(strstr(line, "since run 6 (last steady run run 5)") != NULL, "%s", line);
    for (int i = 0; i < RUNS; i++)
        h.v[i] = 100 * (1 + 0.02 * i);
    r = test(&h, RUNS, &o, w);
    clb_drift_describe(line, sizeof line, &r, &o);
    EXPECT(strstr(line, "% up by a slow drift, beyond the floor from 2026-11-03") != NULL, "%s", line);
    steady(&h, 2, 0.005, 0.005, 10);
    r = test(&h, RUNS, &o, w);
    clb_drift_describe(line, sizeof line, &r, &o);
    EXPECT(strstr(line, "steady: the largest change") == line, "%s", line);
    r = test(&h, 4, &o, w);
    clb_drift_describe(line, sizeof line, &r, &o);
    EXPECT(strcmp(line, "too few runs: 4 with a value, 6 needed for a verdict") == 0, "%s", line);
}

/* The shared fleet comparison: a slow device among ten, a time, a noisy result, a pair. */
static void test_fleet(void)
{
    clb_fleet_opts o;
    clb_fleet_opts_default(&o);
    double v[10], cv[10], reps[10], tmp[10];
    clb_fleet_dev out[10];
    clb_fleet_row row;
    for (int i = 0; i < 10; i++)
        v[i] = 100 * (1 + 0.001 * (i % 3)), cv[i] = 0.005, reps[i] = 10;
    v[4] = 93;      /* 7 % slow */
    v[7] = NAN;     /* no value: skipped */
    clb_fleet_values in = {v, cv, reps, 10, 1};
    CHECK(clb_fleet_compare(&in, &o, tmp, &row, out) == 1 && out[4].flagged && row.k == 9);
    CHECK(row.outcome == CLB_FLEET_JUDGED && fabs(out[4].rel + 0.07) < 0.002 && out[4].z < -4.5);
    CHECK(isnan(out[7].z) && !out[7].flagged);
    /* As a time (lower is better) the slow value is the better one: nothing flagged. */
    in.higher_better = 0;
    CHECK(clb_fleet_compare(&in, &o, tmp, &row, out) == 0 && row.flags == 0);
    /* A noisy result (median cv 10 %) is not judged. */
    for (int i = 0; i < 10; i++)
        cv[i] = 0.10;
    in.higher_better = 1;
    CHECK(clb_fleet_compare(&in, &o, tmp, &row, NULL) == 0 && row.outcome == CLB_FLEET_TOO_NOISY);
    /* Unknown spreads count as 0 and repetitions as 1: 7 % is beyond the scale's floor. */
    in.cv = NULL, in.reps = NULL;
    CHECK(clb_fleet_compare(&in, &o, tmp, &row, out) == 1 && out[4].flagged && row.cv == 0);
    /* Two devices: the worse against the better. */
    double pv[2] = {100, 93}, pcv[2] = {0.005, 0.005}, pr[2] = {10, 10};
    clb_fleet_values pair = {pv, pcv, pr, 2, 1};
    CHECK(clb_fleet_compare(&pair, &o, tmp, &row, out) == 1 && out[1].flagged && row.ref == 100);
    /* The median of an even count is the mean of the middle two, as fleet-check prints it;
     * 93 is 8.4 % below it. The caller's values keep their order. */
    double ev[6] = {101.6, 101.4, 93, 101.7, 101.3, 101.8}, ecv[6] = {0.005, 0.005, 0.005, 0.005, 0.005, 0.005};
    clb_fleet_values even = {ev, ecv, NULL, 6, 1};
    CHECK(clb_fleet_compare(&even, &o, tmp, &row, out) == 1 && row.ref == 101.5 && out[2].flagged);
    CHECK(fabs(out[2].rel - (93 - 101.5) / 101.5) < 1e-12 && ev[0] == 101.6 && ev[2] == 93);
    /* One device: no peer. */
    pair.n = 1;
    CHECK(clb_fleet_compare(&pair, &o, tmp, &row, out) == 0 && row.outcome == CLB_FLEET_NO_PEER);
}

static int bench(long count)
{
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    clb_drift_work *w = clb_drift_work_new(RUNS);
    enum { POOL = 1024 };
    hist *pool = malloc(POOL * sizeof *pool);
    if (!w || !pool)
        return 2;
    for (int i = 0; i < POOL; i++) {
        steady(&pool[i], (uint64_t)i + 1, 0.01, 0.01, 10);
        if (i % 50 == 0)
            for (int j = 5; j < RUNS; j++)
                pool[i].v[j] *= 0.9;
    }
    struct timespec a, b;
    long moved = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < count; i++) {
        const hist *h = &pool[i % POOL];
        clb_drift_series s = {h->v, h->cv, h->n, h->t, RUNS};
        clb_drift_result r;
        moved += clb_drift_test(&s, &o, w, &r) == CLB_DRIFT_MOVED;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double sec = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    printf("%ld series of %d runs: %.3f s, %.0f ns per series, %ld moved\n", count, RUNS, sec,
           1e9 * sec / (double)count, moved);
    free(pool);
    clb_drift_work_free(w);
    return 0;
}

/* The fleet comparison over rows x devices values scattering by 1 % (cv 1 %, 3 samples). */
static int bench_fleet(size_t nd, size_t nr)
{
    double *v = malloc(4 * nd * sizeof *v);
    clb_fleet_dev *out = malloc(nd * sizeof *out);
    if (!v || !out)
        return 2;
    clb_fleet_opts o;
    clb_fleet_opts_default(&o);
    clb_fleet_values in = {v, v + nd, v + 2 * nd, nd, 1};
    clb_fleet_row row;
    size_t flags = 0;
    double sec = 0;
    rng_state = 12345;
    for (size_t r = 0; r < nr; r++) {
        for (size_t i = 0; i < nd; i++)
            v[i] = 100 * (1 + 0.01 * gauss()), v[nd + i] = 0.01, v[2 * nd + i] = 3;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        flags += clb_fleet_compare(&in, &o, v + 3 * nd, &row, out);
        clock_gettime(CLOCK_MONOTONIC, &b);
        sec += (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    }
    printf("%zu rows x %zu devices: %.3f s in clb_fleet_compare, %zu flags\n", nr, nd, sec, flags);
    free(v);
    free(out);
    return 0;
}

/* The drift test over every history of a simulated fleet (peers/fleet_sim.py --series: float64
 * medians in the order run, device, row, then each row's cv): one line per move, "moved DEVICE
 * ROW SPLIT RATIO TREND", and the time on stderr. */
static int series(const char *path, size_t nd, size_t nr, size_t nt, int k)
{
    FILE *f = fopen(path, "rb");
    size_t cells = nd * nr * nt;
    double *all = malloc((cells + nr) * sizeof *all), v[64], cv[64];
    int ns[64];
    clb_drift_work *w = clb_drift_work_new(nt);
    if (!f || !all || !w || nt > 64 || fread(all, sizeof *all, cells + nr, f) != cells + nr) {
        fprintf(stderr, "test_drift: cannot read %zu x %zu x %zu medians and %zu spreads from %s\n", nt, nd, nr,
                nr, path);
        return 2;
    }
    fclose(f);
    clb_drift_opts o;
    clb_drift_opts_default(&o);
    struct timespec a, b;
    size_t moved = 0, few = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (size_t d = 0; d < nd; d++)
        for (size_t r = 0; r < nr; r++) {
            for (size_t t = 0; t < nt; t++)
                v[t] = all[(t * nd + d) * nr + r], cv[t] = all[cells + r], ns[t] = k;
            clb_drift_series s = {v, cv, ns, NULL, nt};
            clb_drift_result res;
            int verdict = clb_drift_test(&s, &o, w, &res);
            few += verdict == CLB_DRIFT_TOO_FEW;
            if (verdict == CLB_DRIFT_MOVED) {
                printf("moved %zu %zu %zu %.4f %d\n", d, r, res.split, res.ratio, res.trend);
                moved++;
            }
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double sec = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    fprintf(stderr, "%zu series of %zu runs: %.3f s (%.0f ns per series, gathering included); %zu moved, %zu too few\n",
            nd * nr, nt, sec, 1e9 * sec / (double)(nd * nr), moved, few);
    free(all);
    clb_drift_work_free(w);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--bench") == 0)
        return bench(atol(argv[2]));
    if (argc == 4 && strcmp(argv[1], "--bench-fleet") == 0)
        return bench_fleet((size_t)atol(argv[2]), (size_t)atol(argv[3]));
    if (argc == 7 && strcmp(argv[1], "--series") == 0)
        return series(argv[2], (size_t)atol(argv[3]), (size_t)atol(argv[4]), (size_t)atol(argv[5]), atoi(argv[6]));
    clb_drift_work *w = clb_drift_work_new(64);
    CHECK(w != NULL);
    if (!w)
        return 1;
    test_steady(w);
    test_step(w);
    test_outlier(w);
    test_gradual(w);
    test_too_few(w);
    test_spread(w);
    test_describe(w);
    test_fleet();
    clb_drift_work_free(w);
    printf("%s: %d failure(s)\n", argv[0], failures);
    return failures != 0;
}
