/* The suite's "vs CUDA" compares the best OpenCL row with the best CUDA row of the app (twin or
 * vendor library, lib/apps/suite.c): a synthetic column where app.sgemm.cuda is faster than
 * app.sgemm.cublas compares with the twin; when the twin failed, with cuBLAS; both rows listed. */
#include "clbench.h"
#include "check.h"

#include <math.h>
#include <string.h>

/* A GFLOP/s row at the quick suite's n (1024) with three samples of value v. */
static void row(cJSON *results, const char *name, const char *status, double v)
{
    cJSON *r = cJSON_CreateObject(), *p = cJSON_CreateObject(), *s = cJSON_CreateArray();
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "status", status);
    cJSON_AddStringToObject(r, "better", "higher");
    cJSON_AddNumberToObject(p, "n", 1024);
    cJSON_AddItemToObject(r, "params", p);
    for (int i = 0; i < 3 && strcmp(status, "ok") == 0; i++)
        cJSON_AddItemToArray(s, cJSON_CreateNumber(v));
    cJSON_AddItemToObject(r, "samples", s);
    if (strcmp(status, "ok") == 0)
        cJSON_AddNumberToObject(r, "value", v);
    cJSON_AddItemToArray(results, r);
}

/* vs_cuda.peak of sgemm with the twin at twin_v (status twin_st), cuBLAS at 200, OpenCL at 100. */
static double vs_cuda(const char *twin_st, double twin_v, const char **best_cuda, int *cuda_rows)
{
    cJSON *doc = cJSON_CreateObject(), *devs = cJSON_AddArrayToObject(doc, "devices"), *dev = cJSON_CreateObject();
    cJSON_AddItemToArray(devs, dev);
    cJSON_AddItemToObject(dev, "suite_column", cJSON_CreateObject());
    cJSON *res = cJSON_AddArrayToObject(dev, "results");
    row(res, "app.sgemm.tiled", "ok", 100);
    row(res, "app.sgemm.cublas", "ok", 200);
    row(res, "app.sgemm.cuda", twin_st, twin_v);
    clb_diag d;
    cJSON *s = clb_suite_summary(doc, NULL, 0, &d);
    double peak = NAN;
    static char name[64];
    *best_cuda = "", *cuda_rows = 0;
    const cJSON *app, *r, *cols = cJSON_GetObjectItem(s, "columns");
    cJSON_ArrayForEach(app, cJSON_GetObjectItem(cJSON_GetArrayItem(cols, 0), "apps")) {
        if (strcmp(cJSON_GetObjectItem(app, "app")->valuestring, "sgemm") != 0)
            continue;
        const cJSON *b = cJSON_GetObjectItem(app, "best_cuda");
        snprintf(name, sizeof name, "%s", cJSON_IsString(b) ? b->valuestring : "");
        *best_cuda = name;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(app, "rows"))
            *cuda_rows += strcmp(cJSON_GetObjectItem(r, "role")->valuestring, "cuda") == 0;
        const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(app, "speedups"), "vs_cuda"), "peak");
        peak = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    }
    cJSON_Delete(s);
    cJSON_Delete(doc);
    return peak;
}

int main(void)
{
    const char *best;
    int n;
    /* times: OpenCL 1/100, cuBLAS 1/200, twin 1/400: vs_cuda = t_cuda / t_opencl */
    double p = vs_cuda("ok", 400, &best, &n);
    CHECK(strcmp(best, "app.sgemm.cuda") == 0);
    CHECK(fabs(p - 0.25) < 1e-12);
    CHECK(n == 2);
    p = vs_cuda("ok", 150, &best, &n); /* cuBLAS faster than the twin */
    CHECK(strcmp(best, "app.sgemm.cublas") == 0);
    CHECK(fabs(p - 0.5) < 1e-12);
    p = vs_cuda("invalid_result", 0, &best, &n); /* a failed twin never wins */
    CHECK(strcmp(best, "app.sgemm.cublas") == 0);
    CHECK(fabs(p - 0.5) < 1e-12);
    if (!failures)
        printf("test_suite_cuda: ok\n");
    return failures != 0;
}
