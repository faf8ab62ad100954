/* The tuning service (lib/core/tune.c, tune_cache.c) on synthetic spaces: exhaustive search
 * finds the true minimum and skips disallowed points; random + hill-climbing finds the minimum
 * of a smooth bowl; the evaluation limit and failed points; the cache parser refuses malformed
 * files and round-trips entries. */
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static const int v16[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
static int calls;

/* A bowl with its minimum at (64, 8); 256 x anything is reported invalid. */
static clb_status bowl(const int *p, void *user, double *s, char *why, size_t n)
{
    (void)user;
    calls++;
    if (p[0] == 256) {
        snprintf(why, n, "fails its check");
        return CLB_STATUS_INVALID_RESULT;
    }
    double a = log2(p[0]) - 6, b = log2(p[1]) - 3;
    *s = 1.0 + a * a + b * b;
    return CLB_STATUS_OK;
}

/* Disallows products above 4096 (a work-group limit). */
static int small(const int *p, void *user)
{
    (void)user;
    return (long)p[0] * p[1] <= 4096;
}

static void test_exhaustive(void)
{
    clb_tune_dim dims[2] = {{"tile", v16, 10}, {"wpt", v16, 6}};
    clb_tune_space s = {dims, 2, small, NULL};
    clb_tune_opts o;
    clb_tune_run r;
    clb_diag d;
    clb_tune_opts_default(&o);
    calls = 0;
    CHECK(clb_tune_search(&s, bowl, NULL, &o, &r, &d) == CLB_OK);
    CHECK(strcmp(r.strategy, "exhaustive") == 0);
    CHECK(r.allowed == 57 && r.ncands == 57 && calls == 57); /* 60 points, 3 above 4096 */
    CHECK(r.best >= 0 && r.cands[r.best].point[0] == 64 && r.cands[r.best].point[1] == 8);
    size_t bad = 0;
    for (size_t i = 0; i < r.ncands; i++)
        bad += r.cands[i].status == CLB_STATUS_INVALID_RESULT && r.cands[i].point[0] == 256;
    CHECK(bad == 5 && (long)r.cands[0].point[0] * r.cands[0].point[1] <= 4096);
    clb_tune_run_free(&r);
    o.max_evals = 3;
    CHECK(clb_tune_search(&s, bowl, NULL, &o, &r, &d) == CLB_OK && r.ncands == 3);
    clb_tune_run_free(&r);
}

static void test_random(void)
{
    clb_tune_dim dims[3] = {{"a", v16, 16}, {"b", v16, 16}, {"c", v16, 4}};
    clb_tune_space s = {dims, 3, NULL, NULL};
    clb_tune_opts o;
    clb_tune_run r;
    clb_diag d;
    clb_tune_opts_default(&o);
    o.max_evals = 200; /* of 1024 points */
    calls = 0;
    CHECK(clb_tune_search(&s, bowl, NULL, &o, &r, &d) == CLB_OK);
    CHECK(strcmp(r.strategy, "random+hill-climb") == 0 && r.ncands <= 200 && calls == (int)r.ncands);
    EXPECT(r.best >= 0 && r.cands[r.best].point[0] == 64 && r.cands[r.best].point[1] == 8,
           "best (%d, %d) after %zu evaluations", r.best >= 0 ? r.cands[r.best].point[0] : -1,
           r.best >= 0 ? r.cands[r.best].point[1] : -1, r.ncands);
    for (size_t i = 1; i < r.ncands; i++) /* never the same point twice */
        CHECK(memcmp(r.cands[i].point, r.cands[i - 1].point, sizeof r.cands[i].point) != 0);
    clb_tune_run_free(&r);
    clb_tune_space none = {dims, 3, small, NULL};
    dims[0].values = v16 + 13, dims[0].count = 1, dims[1].values = v16 + 13, dims[1].count = 1;
    CHECK(clb_tune_search(&none, bowl, NULL, &o, &r, &d) == CLB_ERR_UNSUPPORTED && r.best == -1);
    clb_tune_run_free(&r);
}

static void test_cache(void)
{
    static const char *bad[] = {"", "[]", "{}", "{\"version\":1,\"entries\":{}}", "{\"version\":2}",
                                "{\"version\":2,\"entries\":{\"k\":3}}", "{\"version\":2,\"entries\":[]}",
                                "{\"version\":2,\"entries\":{\"k\":{}}", "\xff\xfe"};
    clb_diag d;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *j = clb_tune_cache_parse(bad[i], strlen(bad[i]), &d);
        EXPECT(!j && d.err == CLB_ERR_USAGE, "accepted '%s'", bad[i]);
        cJSON_Delete(j);
    }
    const char *good = "{\"version\":2,\"entries\":{\"sgemm | X | 1.0 | n~2^10\":{\"tsm\":64}}}";
    /* The length bounds the parse: a longer buffer's tail is not read. */
    cJSON *c = clb_tune_cache_parse(good, strlen(good), &d);
    CHECK(c && clb_tune_cache_get(c, "sgemm | X | 1.0 | n~2^10") && !clb_tune_cache_get(c, "other"));
    CHECK(!clb_tune_cache_parse(good, strlen(good) - 1, &d));
    char key[128];
    clb_tune_key(key, sizeof key, "sgemm", "X", "1.0", 1000);
    CHECK(strcmp(key, "sgemm | X | 1.0 | n~2^10") == 0);
    clb_tune_key(key, sizeof key, "sgemm", "X", "1.0", 1500);
    CHECK(strcmp(key, "sgemm | X | 1.0 | n~2^11") == 0);
    clb_tune_cache_put(c, key, cJSON_CreateObject());
    char path[] = "/tmp/clb_tune_testXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && clb_tune_cache_store(path, c, &d) == CLB_OK);
    cJSON *back = clb_tune_cache_load(path, &d);
    CHECK(d.err == CLB_OK && clb_tune_cache_get(back, key) && clb_tune_cache_get(back, "sgemm | X | 1.0 | n~2^10"));
    FILE *f = fopen(path, "w");
    if (f)
        fputs("{\"version\":2,", f), fclose(f);
    cJSON *trunc = clb_tune_cache_load(path, &d);
    CHECK(d.err == CLB_ERR_USAGE && trunc && !clb_tune_cache_get(trunc, key)); /* empty, with a reason */
    remove(path);
    if (fd >= 0)
        close(fd);
    cJSON_Delete(trunc);
    cJSON_Delete(back);
    cJSON_Delete(c);
}

int main(void)
{
    test_exhaustive();
    test_random();
    test_cache();
    printf("tune: %d failure(s)\n", failures);
    return failures != 0;
}
