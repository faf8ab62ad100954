/* The report's seed-derived parts on synthetic documents: the summary counts inconclusive
 * results apart from failed ones; seed 004's system block (its Fig. 6) in the HTML, escaped;
 * the suite's aggregate speedups are geometric means of the per-app ones. */
#define _POSIX_C_SOURCE 200809L /* strtok_r, open_memstream */
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "suite_ref.h"

/* Renders the HTML report of one document text into a buffer; caller frees. */
static char *html_of(const char *text)
{
    clb_diag d;
    cJSON *doc = clb_doc_parse(text, strlen(text), "doc.json", &d);
    EXPECT(doc != NULL, "%s", d.msg);
    if (!doc)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clb_report_src src = {"doc.json", doc};
    if (f) {
        EXPECT(clb_report_html(f, &src, 1) == CLB_OK, "report failed");
        fclose(f);
    }
    cJSON_Delete(doc);
    return buf;
}

#define RES(name, status) \
    "{\"name\":\"" name "\",\"group\":\"g\",\"status\":\"" status "\",\"reason\":\"r\",\"value\":null,\"unit\":\"us\",\"stats\":null}"

/* One ok-less document: 2 inconclusive, 1 unsupported, 1 invalid_result. */
static void inconclusive_not_failed(void)
{
    const char *text = "{\"schema_version\":\"1.0.0\",\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"Dev\"},"
                       "\"results\":[" RES("g.a", "inconclusive") "," RES("g.b", "inconclusive") ","
                       RES("g.c", "unsupported") "]}]}";
    char *html = html_of(text);
    EXPECT(html && strstr(html, "0 ok, 1 unsupported, 2 inconclusive, <span class=\"\">0 failed</span>"),
           "summary counts:\n%s", html ? strstr(html, "<th>Results</th>") : "(none)");
    free(html);
    const char *bad = "{\"schema_version\":\"1.0.0\",\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"Dev\"},"
                      "\"results\":[" RES("g.a", "inconclusive") "," RES("g.b", "invalid_result") "]}]}";
    html = html_of(bad);
    EXPECT(html && strstr(html, "0 ok, 0 unsupported, 1 inconclusive, <span class=\"st st-bad\">1 failed</span>"),
           "summary counts:\n%s", html ? strstr(html, "<th>Results</th>") : "(none)");
    free(html);
}

/* Fig. 6's fields from provenance.host reach the HTML, hostile text escaped. */
static void system_block(void)
{
    const char *text =
        "{\"schema_version\":\"1.0.0\",\"provenance\":{\"host\":{\"user\":\"<u>&\",\"cpu\":\"EPYC\","
        "\"cpu_mhz\":2596.5,\"caches\":{\"L1d\":32768,\"L2\":1048576},\"memory_bytes\":25276502016,"
        "\"compiler\":\"gcc <12>\",\"compiler_flags\":\"-O2 \\\"x\\\"\",\"host_rows_flags\":\"-O3\"}},"
        "\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"Dev\"},\"results\":[" RES("g.a", "ok") "]}]}";
    char *html = html_of(text);
    static const char *const want[] = {"<th>user</th><td>&lt;u&gt;&amp;</td>", "<th>cpu_mhz</th><td>2596.5</td>",
                                       "<th>memory_bytes</th><td>25276502016</td>",
                                       "<th>compiler</th><td>gcc &lt;12&gt;</td>",
                                       "<th>compiler_flags</th><td>-O2 &quot;x&quot;</td>", "L1d", "1048576"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        EXPECT(html && strstr(html, want[i]), "HTML lacks %s", want[i]);
    EXPECT(html && !strstr(html, "<u>&"), "raw user name in the HTML");
    free(html);
}

/* A suite document: every app's sequential row at rate 1 (time 1 where lower is better), its
 * OpenCL rows at rate 2^(i+1), two runs each (peak != average); CUDA twins for the first two
 * apps. */
static void add_row(cJSON *res, const clb_suite_app *a, const char *name, double v)
{
    int lower = strcmp(a->app, "euler") == 0;
    cJSON *r = cJSON_CreateObject(), *smp = cJSON_AddArrayToObject(r, "samples");
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "status", "ok");
    cJSON_AddStringToObject(r, "better", lower ? "lower" : "higher");
    cJSON *p = cJSON_AddObjectToObject(r, "params");
    cJSON_AddNumberToObject(p, "n", atof(a->quick[0]));
    cJSON_AddNumberToObject(p, "mean_run_s", lower ? v : 1 / v);
    cJSON_AddItemToArray(smp, cJSON_CreateNumber(lower ? 1 / v : v));
    cJSON_AddItemToArray(smp, cJSON_CreateNumber(lower ? 1.25 / v : 0.8 * v));
    cJSON_AddItemToArray(res, r);
}

static cJSON *suite_doc(void)
{
    cJSON *doc = cJSON_CreateObject(), *dev = cJSON_CreateObject();
    cJSON *host = cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "provenance"), "host");
    cJSON_AddStringToObject(host, "user", "<dani>");
    cJSON_AddNumberToObject(host, "cpu_mhz", 2800);
    cJSON_AddNumberToObject(host, "cpu_max_mhz", 3400);
    cJSON *caches = cJSON_AddObjectToObject(host, "caches");
    cJSON_AddNumberToObject(caches, "L1d", 32768);
    cJSON_AddNumberToObject(caches, "L2", 262144);
    cJSON_AddNumberToObject(caches, "L3", 3145728);
    cJSON_AddNumberToObject(host, "memory_bytes", 4033908736.0);
    cJSON_AddStringToObject(host, "compiler_flags", "-O2 -g");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "devices"), dev);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(dev, "device"), "CL_DEVICE_NAME", "synthetic");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(dev, "suite_column"), "variant", "base");
    cJSON *res = cJSON_AddArrayToObject(dev, "results");
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        const clb_suite_app *a = clb_suite_app_at(i);
        char globs[256], cuda[256];
        add_row(res, a, a->sequential, 1);
        add_row(res, a, a->pthreads, 1.5);
        snprintf(globs, sizeof globs, "%s", a->opencl);
        for (size_t k = 0; k < clb_bench_count(); k++)
            for (char *save = NULL, *g = strtok_r(globs, " ", &save); g; g = strtok_r(NULL, " ", &save))
                if (clb_bench_match(g, clb_bench_at(k)->name)) {
                    add_row(res, a, clb_bench_at(k)->name, pow(2, (double)i + 1));
                    break;
                }
        if (a->cuda && i < 2) {
            snprintf(cuda, sizeof cuda, "%s", a->cuda);
            add_row(res, a, strtok(cuda, " "), 3 * pow(2, (double)i + 1));
        }
    }
    return doc;
}

/* Seed 004's score figure in the suite HTML: per ok column a Peak and an Average bar whose
 * data-score is the column's score and whose width is in proportion (the longer at 350 px);
 * a void column shows "void" and no bar. */
static void score_bars(cJSON *s)
{
    cJSON *col = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "columns"), 0);
    double pk = 2.5, av = 1.25; /* the figure draws what the score holds (scores: test_suite) */
    cJSON *sc = cJSON_CreateObject();
    cJSON_AddStringToObject(sc, "status", "ok");
    cJSON_AddNumberToObject(sc, "peak", pk);
    cJSON_AddNumberToObject(sc, "average", av);
    cJSON_ReplaceItemInObjectCaseSensitive(col, "score", sc);
    for (int pass = 0; pass < 2; pass++) {
        char *buf = NULL, want[2][160];
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            return;
        clb_suite_html(f, s);
        fclose(f);
        double top = pk > av ? pk : av;
        snprintf(want[0], sizeof want[0], "<rect class=\"peak\" x=\"220\" y=\"8\" width=\"%.1f\" height=\"14\" fill=\"#1f77b4\" data-score=\"%.17g\"/>", 350 * pk / top, pk);
        snprintf(want[1], sizeof want[1], "<rect class=\"average\" x=\"220\" y=\"24\" width=\"%.1f\" height=\"14\" fill=\"#ff7f0e\" data-score=\"%.17g\"/>", 350 * av / top, av);
        EXPECT(buf && strstr(buf, "<svg class=\"scores\""), "no score figure in the suite HTML");
        for (int k = 0; k < 2; k++)
            EXPECT(buf && (pass == 0) == (strstr(buf, want[k]) != NULL), "%s: bar '%s' %s", pass ? "void" : "ok", want[k],
                   pass ? "drawn for a void column" : "missing");
        EXPECT(buf && (pass == 1) == (strstr(buf, ">void</text>") != NULL), "the void label %s", pass ? "missing" : "on an ok column");
        free(buf);
        cJSON_ReplaceItemInObjectCaseSensitive(sc, "status", cJSON_CreateString("void"));
    }
}

/* speedup_geomean against the per-app speedups: each kind's geometric mean over the apps that
 * have it, and how many those are. */
static void aggregate_speedups(void)
{
    cJSON *doc = suite_doc(), *ref = suite_ref();
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ref, "sets"), "quick");
    clb_diag d;
    cJSON *s = clb_suite_summary(doc, ref, 0, &d);
    EXPECT(s != NULL, "%s", d.msg);
    const cJSON *col = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(s, "columns"), 0), *app;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(col, "speedup_geomean");
    static const char *const kinds[] = {"vs_sequential", "vs_pthreads", "vs_cuda"};
    for (size_t k = 0; k < 3; k++) {
        double lp = 0, la = 0, n = 0, total = 0;
        cJSON_ArrayForEach(app, cJSON_GetObjectItemCaseSensitive(col, "apps")) {
            const cJSON *sp = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(app, "speedups"), kinds[k]);
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(sp, "peak"), *a = cJSON_GetObjectItemCaseSensitive(sp, "average");
            total++;
            if (cJSON_IsNumber(p) && cJSON_IsNumber(a)) {
                lp += log(p->valuedouble);
                la += log(a->valuedouble);
                n++;
            }
        }
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(g, kinds[k]);
        const cJSON *gp = cJSON_GetObjectItemCaseSensitive(x, "peak"), *ga = cJSON_GetObjectItemCaseSensitive(x, "average");
        const cJSON *gn = cJSON_GetObjectItemCaseSensitive(x, "apps"), *gt = cJSON_GetObjectItemCaseSensitive(x, "of");
        EXPECT(n > 0 && cJSON_IsNumber(gp) && fabs(gp->valuedouble - exp(lp / n)) <= 1e-9 * exp(lp / n),
               "%s: peak geomean %g, want %g over %g apps", kinds[k], gp ? gp->valuedouble : NAN, exp(lp / n), n);
        EXPECT(n > 0 && cJSON_IsNumber(ga) && fabs(ga->valuedouble - exp(la / n)) <= 1e-9 * exp(la / n),
               "%s: average geomean %g, want %g", kinds[k], ga ? ga->valuedouble : NAN, exp(la / n));
        EXPECT(cJSON_IsNumber(gn) && gn->valuedouble == n && cJSON_IsNumber(gt) && gt->valuedouble == total,
               "%s: apps %g of %g, want %g of %g", kinds[k], gn ? gn->valuedouble : NAN, gt ? gt->valuedouble : NAN, n, total);
    }
    /* Seed 004's score ratio vs sequential: sum over the apps of (sequential time / reference)
     * over the same of the best OpenCL row, peak and average. */
    double num[2] = {0, 0}, den[2] = {0, 0};
    size_t i = 0;
    cJSON_ArrayForEach(app, cJSON_GetObjectItemCaseSensitive(col, "apps")) {
        const cJSON *refapp = cJSON_GetObjectItemCaseSensitive(set, clb_suite_app_at(i++)->app), *r;
        const char *best = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(app, "best_opencl"));
        static const char *const tk[] = {"peak_s", "avg_s"};
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(app, "rows")) {
            const char *role = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "role"));
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "row"));
            int is_seq = role && strcmp(role, "sequential") == 0, is_best = best && name && strcmp(name, best) == 0;
            for (int k = 0; k < 2 && (is_seq || is_best); k++) {
                double t = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(r, tk[k]));
                double rt = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(refapp, tk[k]));
                *(is_seq ? &num[k] : &den[k]) += t / rt;
            }
        }
    }
    const cJSON *sr = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(g, "vs_sequential"), "score_ratio");
    static const char *const sk[] = {"peak", "average"};
    for (int k = 0; k < 2; k++) {
        double got = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sr, sk[k])), want = num[k] / den[k];
        EXPECT(fabs(got - want) <= 1e-9 * want, "seed 004 score ratio (%s) %g, want %g", sk[k], got, want);
    }
    /* The CUDA twins of two apps: the mean covers those two only. */
    const cJSON *cu = cJSON_GetObjectItemCaseSensitive(g, "vs_cuda");
    EXPECT(cJSON_GetObjectItemCaseSensitive(cu, "apps") && cJSON_GetObjectItemCaseSensitive(cu, "apps")->valuedouble == 2,
           "vs_cuda over %g apps, want 2", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cu, "apps")));
    /* The text table and the HTML carry the aggregate row. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        clb_suite_print(f, s);
        clb_suite_html(f, s);
        fclose(f);
    }
    EXPECT(buf && strstr(buf, "  all apps (geometric mean) ") && strstr(buf, "<tr class=\"aggregate\"><td>all apps (geometric mean)</td>") &&
               strstr(buf, "  all apps (seed 004: score ratio) "),
           "no aggregate rows in the suite's text and HTML");
    /* Seed 004's system block (Fig. 6: user, clock, L1/L2/L3, RAM, flags), as text and HTML. */
    static const char *const sys[] = {"  user       <dani>\n", "  clock      2800 MHz (max 3400 MHz)\n",
                                      "  caches     L1d 32 KiB, L2 256 KiB, L3 3 MiB\n", "  memory     3.8 GiB\n",
                                      "<th>user</th><td>&lt;dani&gt;</td>", "<th>caches</th><td>L1d 32 KiB, L2 256 KiB, L3 3 MiB</td>"};
    for (i = 0; i < sizeof sys / sizeof sys[0]; i++)
        EXPECT(buf && strstr(buf, sys[i]), "suite output lacks '%s'", sys[i]);
    free(buf);
    score_bars(s);
    cJSON_Delete(s);
    cJSON_Delete(doc);
    cJSON_Delete(ref);
}

int main(void)
{
    inconclusive_not_failed();
    system_block();
    aggregate_speedups();
    return check_done("test_seeds_report");
}
