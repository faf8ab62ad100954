/* The application layer's pure logic: GEMM validation catches planted errors and passes the
 * host results, the host sequential and pthreads GEMMs agree, app rows carry CLB_REQ_APP
 * (a plain run skips them), and the annotate post-pass computes its ratios. */
#include "apps/gemm/gemm.h"
#include "apps/saxpy/saxpy.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_check(size_t n, size_t prec)
{
    gemm_mats m = {0};
    clb_diag d;
    CHECK(gemm_mats_init(&m, n, prec, 42, &d) == CLB_OK);
    void *c = malloc(n * n * prec);
    gemm_host_sequential(&m, c);
    EXPECT(gemm_check(&m, c, n, 7, &d) == CLB_OK, "n=%zu prec=%zu: %s", n, prec, d.msg);
    /* pthreads computes the same bands: bit-identical to the sequential result. */
    void *p = malloc(n * n * prec);
    CHECK(gemm_host_pthreads(&m, p, 3, &d) == CLB_OK);
    CHECK(memcmp(c, p, n * n * prec) == 0);
    /* A wrong element on the last row (where partial tiles end) is caught. */
    if (prec == 4)
        ((float *)c)[(n - 1) * n + n / 2] += 0.01f;
    else
        ((double *)c)[(n - 1) * n + n / 2] += 1e-9;
    EXPECT(gemm_check(&m, c, n, 7, &d) == CLB_ERR_INVALID_RESULT, "n=%zu: planted error passed", n);
    /* A whole wrong row in the middle (an indexing bug) is caught by Freivalds or the check. */
    memcpy(p, c, n * n * prec);
    memset((char *)p + (n / 3) * n * prec, 0, n * prec);
    CHECK(gemm_check(&m, p, n, 9, &d) == CLB_ERR_INVALID_RESULT);
    free(c);
    free(p);
    gemm_mats_free(&m);
}

static double get(const void *c, size_t prec, size_t i)
{
    return prec == 4 ? (double)((const float *)c)[i] : ((const double *)c)[i];
}

static void set(void *c, size_t prec, size_t i, double v)
{
    if (prec == 4)
        ((float *)c)[i] = (float)v;
    else
        ((double *)c)[i] = v;
}

/* 1 when every one of seeds check seeds rejects c (a defect must not pass by luck). */
static int rejected(const gemm_mats *m, const void *c, const char *what, uint64_t seeds)
{
    clb_diag d;
    int all = 1;
    for (uint64_t seed = 1; seed <= seeds; seed++)
        if (gemm_check(m, c, m->n, seed * 0x9E3779B97F4A7C15ull, &d) != CLB_ERR_INVALID_RESULT) {
            fprintf(stderr, "n=%zu prec=%zu: %s passes the check with seed %llu\n", m->n, m->prec,
                    what, (unsigned long long)seed);
            all = 0;
        }
    return all;
}

/* Above GEMM_CHECK_ALL_N the planted defects of a wrong kernel, away from the last row and
 * column (which are checked element by element): one wrong element (off by far less than
 * the elements' size), one wrong 16 x 16 tile (computed with K one short) and a K off by one
 * everywhere. Each is caught with two seeds; the correct product passes. */
static void test_planted(size_t n, size_t prec)
{
    gemm_mats m = {0};
    clb_diag d;
    size_t nn = n * n;
    CHECK(gemm_mats_init(&m, n, prec, 43, &d) == CLB_OK);
    void *c = malloc(nn * prec), *p = malloc(nn * prec);
    CHECK(c && p);
    if (!c || !p)
        goto done;
    gemm_host_sequential(&m, c);
    for (uint64_t seed = 1; seed <= 2; seed++)
        EXPECT(gemm_check(&m, c, n, seed * 0x9E3779B97F4A7C15ull, &d) == CLB_OK, "n=%zu: %s", n, d.msg);
    /* one element, off by 1 in single precision (|C| ~ sqrt(n) / 3 = 8), 1e-6 in double */
    memcpy(p, c, nn * prec);
    size_t e = (n / 3) * n + n / 2;
    set(p, prec, e, get(c, prec, e) + (prec == 4 ? 1.0 : 1e-6));
    CHECK(rejected(&m, p, "one wrong element", 2));
    /* one 16 x 16 tile at (n/2, n/4) without its last k */
    memcpy(p, c, nn * prec);
    for (size_t i = n / 2; i < n / 2 + 16; i++)
        for (size_t j = n / 4; j < n / 4 + 16; j++)
            set(p, prec, i * n + j, get(c, prec, i * n + j) - get(m.a, prec, i * n + n - 1) * get(m.b, prec, (n - 1) * n + j));
    CHECK(rejected(&m, p, "one wrong tile", 2));
    /* K off by one: every element without its first product */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            set(p, prec, i * n + j, get(c, prec, i * n + j) - get(m.a, prec, i * n) * get(m.b, prec, j));
    CHECK(rejected(&m, p, "K off by one", 2));
done:
    free(c);
    free(p);
    gemm_mats_free(&m);
}

/* Single precision at n = 1024: one element off by 1, above the two-vector bound (about 0.6
 * here, docs/apps/gemm.md) and below what one vector of uniform weights bounded by |A| |B| |x|
 * reliably sees (about 1 times a weight below 1: it passed that check with one of the seeds). */
static void test_between(void)
{
    gemm_mats m = {0};
    clb_diag d;
    size_t n = 1024;
    CHECK(gemm_mats_init(&m, n, 4, 44, &d) == CLB_OK);
    float *c = malloc(n * n * sizeof *c);
    CHECK(c != NULL);
    if (c) {
        gemm_host_pthreads(&m, c, 2, &d);
        c[(n / 2) * n + n / 3] += 1.0f;
        CHECK(rejected(&m, c, "one element off by 1", 4));
    }
    free(c);
    gemm_mats_free(&m);
}

/* SAXPY's check after k in-place passes: the host passes pass; one element a kernel skipped in
 * the last pass (y0 + (k - 1) a x), one left at y0, one NaN (poison) are each caught. */
static void test_saxpy_check(void)
{
    enum { N = 4096, K = 5 };
    float a, x[N], y0[N], y[N], keep;
    uint64_t rng = 99;
    clb_diag d;
    saxpy_fill(&a, x, y0, N, &rng);
    memcpy(y, y0, sizeof y);
    for (int k = 0; k < K; k++)
        saxpy_host_sequential(a, x, y, N);
    EXPECT(saxpy_check(a, x, y0, y, N, K, &d) == CLB_OK, "%s", d.msg);
    keep = y[N / 3];
    y[N / 3] -= a * x[N / 3];
    CHECK(saxpy_check(a, x, y0, y, N, K, &d) == CLB_ERR_INVALID_RESULT);
    y[N / 3] = y0[N / 3];
    CHECK(saxpy_check(a, x, y0, y, N, K, &d) == CLB_ERR_INVALID_RESULT);
    y[N / 3] = NAN;
    CHECK(saxpy_check(a, x, y0, y, N, K, &d) == CLB_ERR_INVALID_RESULT);
    y[N / 3] = keep;
    CHECK(saxpy_check(a, x, y0, y, N, K, &d) == CLB_OK);
}

static void test_rows_named_only(void)
{
    size_t apps = 0;
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        int is_app = strncmp(b->name, "app.", 4) == 0;
        EXPECT(is_app == !!(b->requires & CLB_REQ_APP), "%s", b->name);
        apps += (size_t)is_app;
    }
    EXPECT(apps >= 2 * 18 + 4, "%zu app rows", apps);
    CHECK(clb_bench_find("app.sgemm.tiled") && clb_bench_find("app.dgemm.tuned") &&
          clb_bench_find("app.saxpy.opencl") && clb_bench_find("app.sgemm.clblast"));
}

static cJSON *row(const char *name, double v, const char *app, int rung, const char *peer)
{
    cJSON *r = cJSON_CreateObject(), *p = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "status", "ok");
    cJSON_AddNumberToObject(r, "value", v);
    if (app)
        cJSON_AddStringToObject(p, "app", app);
    if (rung >= 0)
        cJSON_AddNumberToObject(p, "rung_index", rung);
    if (peer)
        cJSON_AddStringToObject(p, "peer_row", peer);
    cJSON_AddItemToObject(r, "params", p);
    return r;
}

static double pnum(const cJSON *results, int i, const char *key)
{
    const cJSON *p = cJSON_GetObjectItem(cJSON_GetArrayItem(results, i), "params");
    const cJSON *v = cJSON_GetObjectItem(p, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void test_annotate(void)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, row("compute.fp32.fma", 200, NULL, -1, NULL));
    cJSON_AddItemToArray(a, row("app.sgemm.sequential", 10, "sgemm", 0, NULL));
    cJSON_AddItemToArray(a, row("app.sgemm.naive", 5, "sgemm", 2, "compute.fp32.fma"));
    cJSON *broken = row("app.sgemm.coalesced", 99, "sgemm", 3, "compute.fp32.fma");
    cJSON_ReplaceItemInObject(broken, "status", cJSON_CreateString("invalid_result"));
    cJSON_AddItemToArray(a, broken);
    cJSON_AddItemToArray(a, row("app.sgemm.tiled", 40, "sgemm", 11, "compute.fp32.fma"));
    cJSON_AddItemToArray(a, row("app.sgemm.clblast", 20, "sgemm", -1, "compute.fp32.fma"));
    clb_apps_annotate(a);
    CHECK(fabs(pnum(a, 4, "speedup_vs_sequential") - 4.0) < 1e-12);
    /* The failed rung 3 is skipped: tiled's previous rung is naive. */
    CHECK(fabs(pnum(a, 4, "speedup_vs_previous_rung") - 8.0) < 1e-12);
    CHECK(fabs(pnum(a, 4, "pct_of_compute_peak") - 20.0) < 1e-12);
    CHECK(fabs(pnum(a, 4, "ratio_vs_clblast") - 2.0) < 1e-12);
    CHECK(pnum(a, 3, "speedup_vs_sequential") < 0); /* no number on a failed row */
    CHECK(pnum(a, 1, "speedup_vs_sequential") < 0);
    cJSON_Delete(a);
}

/* Repetitions (seed 004: one warm-up, then 10 runs): once the budget has passed an app row
 * stops after 3, unless --all-reps (the suite's full mode), which takes all 10. */
static unsigned reps_taken(const clb_ctx *c, double started)
{
    unsigned n = 0;
    while (app_more_reps(c, n, clb_reps(c), started) && n < 1000)
        n++;
    return n;
}

static void test_rep_policy(void)
{
    clb_run_opts o;
    clb_run_opts_default(&o);
    clb_ctx c = {.opts = &o};
    double long_ago = clb_now() - 2 * APP_REP_BUDGET_S - 1; /* the budget has passed */
    CHECK(o.warmup == 1 && o.reps == 10);
    EXPECT(reps_taken(&c, long_ago) == 3, "budget passed: %u runs, want 3", reps_taken(&c, long_ago));
    EXPECT(reps_taken(&c, clb_now() + 3600) == 10, "within the budget: %u runs, want 10", reps_taken(&c, clb_now() + 3600));
    o.all_reps = 1;
    EXPECT(reps_taken(&c, long_ago) == 10, "--all-reps: %u runs, want 10", reps_taken(&c, long_ago));
    o.reps = 2; /* never more than --reps */
    EXPECT(reps_taken(&c, long_ago) == 2, "--all-reps --reps 2: %u runs", reps_taken(&c, long_ago));
}

int main(void)
{
    test_check(100, 4);  /* every element */
    test_check(100, 8);
    test_check(601, 4);  /* Freivalds + samples + edges */
    test_check(601, 8);
    test_planted(601, 4);
    test_planted(601, 8);
    test_between();
    test_saxpy_check();
    test_rows_named_only();
    test_annotate();
    test_rep_policy();
    printf("test_apps: %d failure(s)\n", failures);
    return failures != 0;
}
