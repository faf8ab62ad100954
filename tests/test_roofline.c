/* The roofline post-pass (docs/roofline.md) on a synthetic device entry: ceilings from the rows,
 * % of the physical limit, each point's verdict (a point above its roof is invalid; a working
 * set in a measured cache may beat DRAM; a missing roof leaves the point unchecked), and the
 * annotate step that turns an invalid point's row into an invalid result. */
#include "check.h"
#include "report/report_cols.h"

#include <math.h>
#include <string.h>

static const char entry_json[] =
    "{\"device\":{\"CL_DEVICE_NAME\":\"test\"},"
    "\"derived\":{\"global_cache\":{\"value\":{\"size_bytes\":8388608},\"how\":\"t\"},"
    "\"limit_fp32\":{\"value\":200,\"unit\":\"GFLOP/s\",\"how\":\"datasheet\"}},"
    "\"results\":["
    "{\"name\":\"compute.fp32.add\",\"status\":\"ok\",\"value\":50,\"unit\":\"GFLOP/s\",\"params\":{}},"
    "{\"name\":\"compute.fp32.fma\",\"status\":\"ok\",\"value\":100,\"unit\":\"GFLOP/s\",\"params\":{}},"
    "{\"name\":\"memory.copy\",\"status\":\"ok\",\"value\":8,\"unit\":\"GB/s\",\"params\":{}},"
    "{\"name\":\"memory.triad\",\"status\":\"ok\",\"value\":10,\"unit\":\"GB/s\","
    " \"params\":{\"limit\":{\"value\":20,\"unit\":\"GB/s\",\"source\":\"s\"}}},"
    "{\"name\":\"memory.caches\",\"status\":\"ok\",\"value\":1,\"unit\":\"ns\",\"params\":{\"levels\":["
    " {\"size_bytes\":1048576,\"bandwidth_gbs\":50},{\"size_bytes\":2097152,\"bandwidth_gbs\":null}]}},"
    /* AI 2, in DRAM: roof 20 */
    "{\"name\":\"app.a.dram_ok\",\"status\":\"ok\",\"value\":19,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":2e9,\"bytes\":1e9}},"
    "{\"name\":\"app.a.dram_above\",\"status\":\"ok\",\"value\":30,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":2e9,\"bytes\":1e9},\"stats\":{},\"samples\":[30]},"
    /* AI 2, working set in the 1 MiB level of 50 GB/s: roof 100 */
    "{\"name\":\"app.a.in_cache\",\"status\":\"ok\",\"value\":30,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":2e9,\"bytes\":1e9,\"working_set_bytes\":524288}},"
    "{\"name\":\"app.a.above_compute\",\"status\":\"ok\",\"value\":120,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":1e11,\"bytes\":1e9}},"
    /* GB/s x intensity: 9 GB/s x 2/12 = 1.5 GFLOP/s */
    "{\"name\":\"app.a.bandwidth\",\"status\":\"ok\",\"value\":9,\"unit\":\"GB/s\","
    " \"params\":{\"flops\":2e8,\"bytes\":1.2e9}},"
    "{\"name\":\"app.a.compute_only\",\"status\":\"ok\",\"value\":40,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":1e9,\"bytes\":0}},"
    "{\"name\":\"app.a.host\",\"status\":\"ok\",\"value\":500,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":1e9,\"bytes\":1e6,\"runs_on\":\"host CPU\"}},"
    /* fp64: no compute.fp64.* row; a time-valued row with params.gflops */
    "{\"name\":\"app.a.fp64\",\"status\":\"ok\",\"value\":3,\"unit\":\"ns\","
    " \"params\":{\"flops\":1e9,\"bytes\":1e9,\"precision\":\"f64\",\"gflops\":5}},"
    /* 4 MiB: fits the 8 MiB cache the driver reports, whose bandwidth was not measured */
    "{\"name\":\"app.a.cache_unknown\",\"status\":\"ok\",\"value\":30,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":2e9,\"bytes\":1e9,\"working_set_bytes\":4194304}},"
    "{\"name\":\"app.a.failed\",\"status\":\"error\",\"value\":null,\"unit\":\"GFLOP/s\","
    " \"params\":{\"flops\":2e9,\"bytes\":1e9}}"
    "]}";

static const cJSON *point(const cJSON *rl, const char *row)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, rj_arr(rl, "points"))
        if (rj_str(p, "row") && strcmp(rj_str(p, "row"), row) == 0)
            return p;
    return NULL;
}

static void expect_verdict(const cJSON *rl, const char *row, const char *want, const char *in_reason)
{
    const cJSON *p = point(rl, row);
    const char *v = rj_str(p, "verdict"), *why = rj_str(p, "reason");
    EXPECT(v && strcmp(v, want) == 0, "%s: verdict %s, want %s (%s)", row, v ? v : "(none)", want,
           why ? why : "");
    if (in_reason)
        EXPECT(why && strstr(why, in_reason), "%s: reason '%s' lacks '%s'", row, why ? why : "", in_reason);
}

static const cJSON *ceiling(const cJSON *rl, const char *name)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, rj_arr(rl, "ceilings"))
        if (rj_str(c, "name") && strcmp(rj_str(c, "name"), name) == 0)
            return c;
    return NULL;
}

static void test_ceilings(const cJSON *rl)
{
    double v = 0, pct = 0;
    const cJSON *fp32 = ceiling(rl, "fp32 peak"), *dram = ceiling(rl, "DRAM");
    CHECK(rj_num(fp32, "value", &v) && v == 100); /* the best compute.fp32.* row */
    CHECK(rj_num(fp32, "pct_of_physical", &pct) && fabs(pct - 50) < 1e-9);
    CHECK(rj_str(fp32, "row") && strcmp(rj_str(fp32, "row"), "compute.fp32.fma") == 0);
    CHECK(rj_num(dram, "value", &v) && v == 10); /* triad beats copy */
    CHECK(rj_num(dram, "pct_of_physical", &pct) && fabs(pct - 50) < 1e-9);
    CHECK(rj_num(ceiling(rl, "cache L1 1 MiB"), "capacity_bytes", &v) && v == 1048576);
    CHECK(ceiling(rl, "fp64 peak") == NULL);
    CHECK(cJSON_GetArraySize(rj_arr(rl, "theoretical")) == 2); /* fp32 and DRAM datasheet lines */
    CHECK(point(rl, "app.a.failed") == NULL);                  /* only ok rows are points */
    CHECK(cJSON_GetArraySize(rj_arr(rl, "points")) == 9);
}

static void test_verdicts(const cJSON *rl)
{
    double perf = 0;
    expect_verdict(rl, "app.a.dram_ok", "ok", NULL);
    expect_verdict(rl, "app.a.dram_above", "invalid", "DRAM bandwidth roof");
    expect_verdict(rl, "app.a.in_cache", "ok", NULL);
    expect_verdict(rl, "app.a.above_compute", "invalid", "compute.fp32.fma");
    expect_verdict(rl, "app.a.bandwidth", "ok", NULL);
    CHECK(rj_num(point(rl, "app.a.bandwidth"), "performance", &perf) && fabs(perf - 1.5) < 1e-9);
    expect_verdict(rl, "app.a.compute_only", "ok", NULL);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(point(rl, "app.a.compute_only"), "compute_only")));
    expect_verdict(rl, "app.a.host", "host", NULL);
    expect_verdict(rl, "app.a.fp64", "unchecked", "compute roof");
    CHECK(rj_num(point(rl, "app.a.fp64"), "performance", &perf) && perf == 5);
    expect_verdict(rl, "app.a.cache_unknown", "unchecked", "memory.caches");
}

/* The post-pass: the invalid rows lose their number (kept as params.measured_value). */
static void test_annotate(cJSON *entry)
{
    CHECK(clb_roofline_annotate(entry) == 2); /* dram_above and above_compute */
    const cJSON *rl = rj_obj(entry, "roofline");
    CHECK(rl != NULL);
    const cJSON *bad = rj_find_result(entry, "app.a.dram_above"), *good = rj_find_result(entry, "app.a.dram_ok");
    double mv = 0;
    CHECK(rj_str(bad, "status") && strcmp(rj_str(bad, "status"), "invalid") == 0);
    CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bad, "value")));
    CHECK(cJSON_GetArraySize(rj_arr(bad, "samples")) == 0);
    CHECK(rj_num(rj_obj(bad, "params"), "measured_value", &mv) && mv == 30);
    CHECK(rj_str(bad, "reason") && strstr(rj_str(bad, "reason"), "above the DRAM"));
    CHECK(rj_str(good, "status") && strcmp(rj_str(good, "status"), "ok") == 0);
    CHECK(clb_roofline_annotate(entry) == 0); /* again: no new invalid row, the object replaced */
    int n = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, entry) n += strcmp(it->string, "roofline") == 0;
    CHECK(n == 1);
}

/* The report's host-path shortening (provenance without --provenance-paths). */
static void test_strip_paths(void)
{
    static const char *const cases[][2] = {
        {"[\"/home/u/clbench\",\"--json\",\"/tmp/x/r.json\"]", "[\"clbench\",\"--json\",\"r.json\"]"},
        {"--json=/a/b.json", "--json=b.json"},
        {"/usr/lib:/opt/pocl/lib/", "lib:lib/"},
        {"build/clbench a/b 1/2", "build/clbench a/b 1/2"}, /* relative paths and ratios stay */
        {"/", "/"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cases[i][0]);
        rep_strip_paths(buf);
        EXPECT(strcmp(buf, cases[i][1]) == 0, "'%s' -> '%s', want '%s'", cases[i][0], buf, cases[i][1]);
    }
}

/* Ceilings from --quick rows (params.quick) are lower bounds: a point above one is unchecked,
 * not invalid; the same point above a full-run roof is invalid. */
static void test_quick_ceiling(void)
{
    static const char quick_json[] =
        "{\"device\":{},\"results\":["
        "{\"name\":\"compute.fp32.fma\",\"status\":\"ok\",\"value\":100,\"unit\":\"GFLOP/s\",\"params\":{\"quick\":1}},"
        "{\"name\":\"app.q.fast\",\"status\":\"ok\",\"value\":150,\"unit\":\"GFLOP/s\",\"params\":{\"flops\":1e9,\"bytes\":0}}]}";
    cJSON *e = cJSON_Parse(quick_json);
    cJSON *rl = clb_roofline_model(e);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ceiling(rl, "fp32 peak"), "quick")));
    expect_verdict(rl, "app.q.fast", "unchecked", "--quick");
    cJSON_Delete(rl);
    cJSON *fma = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "results"), 0);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(fma, "params"), "quick");
    rl = clb_roofline_model(e);
    expect_verdict(rl, "app.q.fast", "invalid", "compute roof");
    cJSON_Delete(rl);
    cJSON_Delete(e);
}

/* On a CPU device the DRAM roof is in bytes moved: triad 10 x 4/3 = 13.3 beats copy 8 x 3/2 = 12;
 * the dram_ok point (19 GFLOP/s at AI 2) stays below 26.7, dram_above (30) does not. */
static void test_cpu_write_allocate(void)
{
    cJSON *e = cJSON_Parse(entry_json);
    CHECK(e != NULL);
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(e, "device"), "CL_DEVICE_TYPE", "CL_DEVICE_TYPE_CPU");
    cJSON *rl = clb_roofline_model(e);
    double v = 0, f = 0, counted = 0;
    const cJSON *dram = ceiling(rl, "DRAM");
    CHECK(rj_num(dram, "value", &v) && fabs(v - 40.0 / 3) < 1e-9 && strcmp(rj_str(dram, "row"), "memory.triad") == 0);
    CHECK(rj_num(dram, "write_allocate_factor", &f) && fabs(f - 4.0 / 3) < 1e-12 && rj_num(dram, "counted_value", &counted) &&
          counted == 10);
    expect_verdict(rl, "app.a.dram_ok", "ok", NULL);
    expect_verdict(rl, "app.a.dram_above", "invalid", "13.33 GB/s");
    cJSON_Delete(rl);
    cJSON_Delete(e);
}

/* The 5 % tolerance at both roofs: 4 % above a roof is ok, 6 % above it is invalid. */
static void test_tolerance(void)
{
    static const char edge_json[] =
        "{\"device\":{},\"results\":["
        "{\"name\":\"compute.fp32.fma\",\"status\":\"ok\",\"value\":100,\"unit\":\"GFLOP/s\",\"params\":{}},"
        "{\"name\":\"memory.triad\",\"status\":\"ok\",\"value\":10,\"unit\":\"GB/s\",\"params\":{}},"
        "{\"name\":\"app.e.compute_4\",\"status\":\"ok\",\"value\":104,\"unit\":\"GFLOP/s\",\"params\":{\"flops\":1e9,\"bytes\":0}},"
        "{\"name\":\"app.e.compute_6\",\"status\":\"ok\",\"value\":106,\"unit\":\"GFLOP/s\",\"params\":{\"flops\":1e9,\"bytes\":0}},"
        "{\"name\":\"app.e.dram_4\",\"status\":\"ok\",\"value\":20.8,\"unit\":\"GFLOP/s\",\"params\":{\"flops\":2e9,\"bytes\":1e9}},"
        "{\"name\":\"app.e.dram_6\",\"status\":\"ok\",\"value\":21.2,\"unit\":\"GFLOP/s\",\"params\":{\"flops\":2e9,\"bytes\":1e9}}]}";
    cJSON *e = cJSON_Parse(edge_json);
    cJSON *rl = clb_roofline_model(e);
    expect_verdict(rl, "app.e.compute_4", "ok", NULL);
    expect_verdict(rl, "app.e.compute_6", "invalid", "compute roof");
    expect_verdict(rl, "app.e.dram_4", "ok", NULL);
    expect_verdict(rl, "app.e.dram_6", "invalid", "DRAM bandwidth roof");
    cJSON_Delete(rl);
    cJSON_Delete(e);
}

int main(void)
{
    test_strip_paths();
    test_tolerance();
    test_cpu_write_allocate();
    test_quick_ceiling();
    cJSON *entry = cJSON_Parse(entry_json);
    CHECK(entry != NULL);
    cJSON *rl = clb_roofline_model(entry);
    test_ceilings(rl);
    test_verdicts(rl);
    cJSON_Delete(rl);
    test_annotate(entry);
    cJSON_Delete(entry);
    printf("roofline: %d failure(s)\n", failures);
    return failures != 0;
}
