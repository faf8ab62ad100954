/* Core library pieces without a device: error names, the CL check macro, globbing, result
 * serialization (no number for failures, no NaN/Inf) and locale independence. */
#include "clbench.h"
#include "core/grow.h"
#include "core/internal.h"
#include "core/strtab.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* Stand-ins for OpenCL calls: one returns a status, one reports through errcode_ret. */
static cl_int fails_with(cl_int code) { return code; }
static void *creates(cl_int code, cl_int *errcode_ret)
{
    *errcode_ret = code;
    return code == CL_SUCCESS ? (void *)&failures : NULL;
}

static clb_error check_status_call(clb_diag *d, cl_int code)
{
    clb_diag_clear(d);
    CLB_CL(d, fails_with(code));
cleanup:
    return d->err;
}

static clb_error check_creator_call(clb_diag *d, cl_int code, void **out)
{
    clb_diag_clear(d);
    CLB_CL(d, *out = creates(code, CLB_ERRP));
cleanup:
    return d->err;
}

static void test_check_macro(void)
{
    clb_diag d;
    void *obj = NULL;
    CHECK(check_status_call(&d, CL_SUCCESS) == CLB_OK);
    CHECK(check_status_call(&d, CL_OUT_OF_RESOURCES) == CLB_ERR_CL);
    CHECK(d.cl_err == CL_OUT_OF_RESOURCES);
    CHECK(d.call && strstr(d.call, "fails_with(code)"));
    CHECK(d.file && strstr(d.file, "test_core.c"));
    CHECK(d.line > 0);
    char buf[512];
    clb_diag_format(&d, buf, sizeof buf);
    CHECK(strstr(buf, "CL_OUT_OF_RESOURCES") && strstr(buf, "test_core.c:"));
    CHECK(check_creator_call(&d, CL_SUCCESS, &obj) == CLB_OK && obj != NULL);
    CHECK(check_creator_call(&d, CL_INVALID_VALUE, &obj) == CLB_ERR_CL && obj == NULL);
    CHECK(strcmp(clb_cl_error_name(d.cl_err), "CL_INVALID_VALUE") == 0);
}

static void test_names(void)
{
    CHECK(strcmp(clb_error_name(CLB_ERR_NO_PLATFORM), "CLB_ERR_NO_PLATFORM") == 0);
    CHECK(strcmp(clb_error_name((clb_error)999), "CLB_ERR_UNKNOWN") == 0);
    CHECK(strcmp(clb_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR") == 0);
    CHECK(strcmp(clb_cl_error_name(-5), "CL_OUT_OF_RESOURCES") == 0);
    CHECK(strcmp(clb_cl_error_name(-12345), "CL_UNKNOWN_ERROR_CODE") == 0);
    CHECK(strcmp(clb_status_name(CLB_STATUS_INVALID_TIMING), "invalid_timing") == 0);
    CHECK(clb_status_from_error(CLB_ERR_BUILD) == CLB_STATUS_BUILD_FAILED);
    CHECK(clb_status_from_error(CLB_ERR_CL) == CLB_STATUS_ERROR);
}

static void test_registry(void)
{
    CHECK(clb_bench_count() >= 8);
    CHECK(clb_bench_match("launch.*", "launch.roundtrip"));
    CHECK(!clb_bench_match("launch.*", "compile.short"));
    CHECK(clb_bench_match("*.s[hu]*", "compile.short"));
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        size_t g = strlen(b->group);
        /* Names are group.variant, unique, and every row can run and validate. */
        CHECK(strncmp(b->name, b->group, g) == 0 && b->name[g] == '.');
        CHECK(b->run != NULL && b->validate != NULL && b->description != NULL);
        CHECK(clb_bench_find(b->name) == b);
    }
    CHECK(clb_kernel_source("launch") != NULL && clb_kernel_source("nope") == NULL);
}

static char *result_text(double v)
{
    clb_result r;
    double x[3] = {v, v * 2, v * 3};
    clb_result_init(&r, "t.x", "t");
    clb_result_set_samples(&r, x, 3, "GB/s", 1, "test");
    cJSON *j = clb_result_to_json(&r);
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    clb_result_free(&r);
    return s;
}

static void test_result_json(void)
{
    clb_result r;
    clb_result_init(&r, "t.fail", "t");
    clb_result_fail(&r, CLB_STATUS_INVALID_RESULT, "wrong sum");
    r.value = NAN;
    cJSON *j = clb_result_to_json(&r);
    char *s = cJSON_PrintUnformatted(j);
    CHECK(strstr(s, "\"status\":\"invalid_result\"") && strstr(s, "\"reason\":\"wrong sum\""));
    CHECK(strstr(s, "\"value\":null") && strstr(s, "\"stats\":null"));
    CHECK(!strstr(s, "nan") && !strstr(s, "inf"));
    free(s);
    cJSON_Delete(j);
    clb_result_free(&r);

    const double bad[] = {1, INFINITY};
    clb_result_init(&r, "t.inf", "t");
    CHECK(clb_result_set_samples(&r, bad, 2, "s", 0, "test") != CLB_OK);
    CHECK(r.status == CLB_STATUS_INVALID_TIMING);
    clb_result_free(&r);

    /* a count out of size_t's range (found by fuzz_worker under UBSan) reads as none */
    cJSON *in = cJSON_Parse("{\"name\":\"t.x\",\"group\":\"t\",\"status\":\"ok\",\"stats\":{\"n\":3.1e33}}");
    CHECK(in && clb_result_from_json(in, &r) == CLB_OK && r.stats.n == 0);
    clb_result_free(&r);
    cJSON_Delete(in);
    in = cJSON_Parse("{\"name\":\"t.x\",\"group\":\"t\",\"status\":\"ok\",\"stats\":{\"n\":1e16}}");
    CHECK(in && clb_result_from_json(in, &r) == CLB_OK && r.stats.n == 0); /* beyond any real count */
    clb_result_free(&r);
    cJSON_Delete(in);
    in = cJSON_Parse("{\"name\":\"t.x\",\"group\":\"t\",\"status\":\"ok\",\"stats\":{\"n\":7}}");
    CHECK(in && clb_result_from_json(in, &r) == CLB_OK && r.stats.n == 7);
    clb_result_free(&r);
    cJSON_Delete(in);

    s = result_text(2.5);
    CHECK(strstr(s, "\"value\":5") && strstr(s, "\"samples\":[2.5,5,7.5]"));
    CHECK(strstr(s, "\"median\":5") && strstr(s, "\"ci95\":[2.5,7.5]"));
    free(s);
}

/* Under a locale with a decimal comma the JSON must not change. LOCPATH may point at a
 * locale generated by the test driver (tests/CMakeLists.txt). */
static void test_locale(void)
{
    char *c_text = result_text(3.25);
    if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
        fprintf(stderr, "locale de_DE.UTF-8 is not available: cannot test locale independence\n");
        failures++;
        free(c_text);
        return;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", 3.25);
    CHECK(strcmp(buf, "3,25") == 0); /* the locale really is active */
    char *de_text = result_text(3.25);
    CHECK(strcmp(c_text, de_text) == 0);
    CHECK(strstr(de_text, "3.25") != NULL);
    setlocale(LC_ALL, "C");
    free(c_text);
    free(de_text);
}

/* The one curve writer (docs/schema.md): its fields in order, a label only when given, and a
 * point that is not finite as null. */
static void test_curve(void)
{
    const double x[] = {1, 2}, y[] = {3.5, NAN};
    cJSON *c = clb_curve("n", "B", "rate", "GB/s", 1, "wall clock", x, y, 2);
    char *s = cJSON_PrintUnformatted(c);
    EXPECT(s && strcmp(s, "{\"x_name\":\"n\",\"x_unit\":\"B\",\"y_name\":\"rate\",\"y_unit\":\"GB/s\","
                          "\"x_log\":true,\"label\":\"wall clock\",\"points\":[[1,3.5],[2,null]]}") == 0,
           "curve: %s", s ? s : "(null)");
    free(s);
    cJSON_Delete(c);
    c = clb_curve_new("n", "", "t", "ns", 0, NULL);
    clb_curve_push(clb_curve_points(c), 4, 5);
    s = cJSON_PrintUnformatted(c);
    EXPECT(s && strcmp(s, "{\"x_name\":\"n\",\"x_unit\":\"\",\"y_name\":\"t\",\"y_unit\":\"ns\","
                          "\"x_log\":false,\"points\":[[4,5]]}") == 0,
           "unlabelled curve: %s", s ? s : "(null)");
    free(s);
    cJSON_Delete(c);
}

/* Growth keeps the contents and doubles; sizes that overflow are refused, the array untouched. */
static void test_grow(void)
{
    int *a = NULL;
    size_t cap = 0;
    int ok = 1;
    for (size_t i = 0; i < 100; i++) {
        if (!clb_grow(&a, sizeof *a, i, &cap) || cap <= i)
            ok = 0;
        else
            a[i] = (int)i * 7;
    }
    CHECK(ok && a && cap == 128);
    for (size_t i = 0; a && i < 100; i++)
        ok &= a[i] == (int)i * 7;
    CHECK(ok);
    int *keep = a;
    size_t c = cap;
    CHECK(!clb_grow(&a, (SIZE_MAX >> 4) + 2, c, &c) && a == keep && c == cap); /* 16 * sz wraps to 16 */
    CHECK(!clb_grow_by(&a, 1, SIZE_MAX, 2, &c) && a == keep && c == cap);    /* n + k wraps to 1 */
    c = SIZE_MAX / 2 + 1;
    CHECK(!clb_grow(&a, 1, c, &c) && a == keep && c == SIZE_MAX / 2 + 1); /* the doubling wraps to 0 */
    free(a);

    unsigned char *z = malloc(128); /* room for 32, counted as 16: what the growth adds must be zeroed */
    size_t zc = 16;
    if (z)
        memset(z, 0xff, 128);
    CHECK(z && clb_grow_zeroed(&z, 4, 16, &zc) && zc == 32 && z[63] == 0xff && z[64] == 0 && z[127] == 0);
    free(z);

    double *x = NULL;
    long *y = NULL;
    void *const arr[] = {&x, &y};
    const size_t sz[] = {sizeof *x, sizeof *y};
    size_t pc = 0;
    for (size_t i = 0; i < 40; i++) {
        if (!clb_grow_all(arr, sz, 2, i, &pc) || pc <= i)
            ok = 0;
        else
            x[i] = (double)i, y[i] = (long)i;
    }
    CHECK(ok && pc == 64 && x && y && x[39] == 39 && y[0] == 0 && y[39] == 39);
    free(x), free(y);
}

/* Key i of the string table's test: scattered digits, so that slots collide. */
static size_t strtab_key(char *k, size_t cap, size_t i)
{
    return (size_t)snprintf(k, cap, "%llx.%zu", (unsigned long long)i * 0x9E3779B97F4A7C15ull, i);
}

/* Each string once, numbered in the order first added, found again after the table grew. */
static void test_strtab(void)
{
    clb_strtab t = {.copy = 1};
    char k[48];
    int added, ok = 1;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < 1000; i++) {
            size_t at = clb_strtab_add(&t, k, strtab_key(k, sizeof k, i % 500), &added);
            ok &= at == i % 500 && added == (round == 0 && i < 500);
        }
    size_t n = strtab_key(k, sizeof k, 499);
    CHECK(ok && t.n == 500 && t.nslot >= 1000 && t.len[499] == n && strcmp(t.s[499], k) == 0);
    CHECK(clb_strtab_add(&t, k, n + 1, &added) == 500 && added); /* with its NUL: another length, another string */
    clb_strtab_free(&t);
    CHECK(t.n == 0 && !t.s && t.copy);

    const char *lit[] = {"a", "b", "a"};
    clb_strtab b = {0};
    for (int i = 0; i < 3; i++)
        CHECK(clb_strtab_add(&b, lit[i], 1, &added) == (size_t)(i % 2) && b.s[i % 2] == lit[i % 2]);
    clb_strtab_free(&b);
}

int main(void)
{
    test_check_macro();
    test_names();
    test_registry();
    test_result_json();
    test_locale();
    test_curve();
    test_grow();
    test_strtab();
    return check_done("test_core");
}
