/* The application layer's pure logic: GEMM validation catches planted errors and passes the
 * host results, the host sequential and pthreads GEMMs agree, app rows carry CLB_REQ_APP
 * (a plain run skips them), and the annotate post-pass computes its ratios. */
#include "apps/gemm/gemm.h"
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

int main(void)
{
    test_check(100, 4);  /* every element */
    test_check(100, 8);
    test_check(601, 4);  /* Freivalds + samples + edges */
    test_check(601, 8);
    test_rows_named_only();
    test_annotate();
    printf("test_apps: %d failure(s)\n", failures);
    return failures != 0;
}
