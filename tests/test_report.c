/* Report and compare logic on synthetic documents: parse errors with line:column, the
 * regression rule (threshold AND non-overlapping CIs, in the direction of "better"), status
 * changes, unusable inputs, and CSV quoting / HTML escaping. */
#include "clbench.h"

#include <stdlib.h>
#include <string.h>
#include "check.h"

/* A document with one device "Dev" and one result "g.r" of the given shape. */
static cJSON *doc1(const char *status, double value, double lo, double hi, const char *better,
                   const char *unit)
{
    char text[1024];
    if (strcmp(status, "ok") == 0)
        snprintf(text, sizeof text,
                 "{\"schema_version\":\"1.2.0\",\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"Dev\"},"
                 "\"results\":[{\"name\":\"g.r\",\"group\":\"g\",\"status\":\"ok\",\"value\":%g,"
                 "\"unit\":\"%s\",\"better\":\"%s\",\"stats\":{\"n\":10,\"median\":%g,\"cv\":0.01,"
                 "\"ci95\":[%g,%g]}}]}]}",
                 value, unit, better, value, lo, hi);
    else
        snprintf(text, sizeof text,
                 "{\"schema_version\":\"1.0.0\",\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"Dev\"},"
                 "\"results\":[{\"name\":\"g.r\",\"group\":\"g\",\"status\":\"%s\",\"reason\":\"r\","
                 "\"value\":null,\"unit\":\"%s\",\"stats\":null}]}]}",
                 status, unit);
    clb_diag d;
    cJSON *doc = clb_doc_parse(text, strlen(text), "doc", &d);
    EXPECT(doc != NULL, "%s", d.msg);
    return doc;
}

static int compare(cJSON *a, cJSON *b, double thr)
{
    clb_diag d;
    FILE *sink = fopen("/dev/null", "w");
    int rc = clb_compare(sink ? sink : stderr, a, b, thr, &d);
    if (sink)
        fclose(sink);
    cJSON_Delete(a);
    cJSON_Delete(b);
    return rc;
}

static void regression_rule(void)
{
    /* Times (lower is better): 10% slower with separate CIs -> regression. */
    EXPECT(compare(doc1("ok", 10, 9.9, 10.1, "lower", "us"), doc1("ok", 11, 10.9, 11.1, "lower", "us"), 0.05) == 1, "slower");
    /* The same but noisy: CIs overlap -> not flagged. */
    EXPECT(compare(doc1("ok", 10, 9, 11.5, "lower", "us"), doc1("ok", 11, 10, 12, "lower", "us"), 0.05) == 0, "noisy");
    /* Separate CIs but within the threshold -> not flagged. */
    EXPECT(compare(doc1("ok", 10, 9.99, 10.01, "lower", "us"), doc1("ok", 10.3, 10.29, 10.31, "lower", "us"), 0.05) == 0, "small");
    /* Faster is an improvement. */
    EXPECT(compare(doc1("ok", 11, 10.9, 11.1, "lower", "us"), doc1("ok", 10, 9.9, 10.1, "lower", "us"), 0.05) == 0, "faster");
    /* Rates (higher is better): 10% lower -> regression; 10% higher -> none. */
    EXPECT(compare(doc1("ok", 100, 99, 101, "higher", "GB/s"), doc1("ok", 90, 89, 91, "higher", "GB/s"), 0.05) == 1, "rate down");
    EXPECT(compare(doc1("ok", 100, 99, 101, "higher", "GB/s"), doc1("ok", 110, 109, 111, "higher", "GB/s"), 0.05) == 0, "rate up");
    /* Unknown direction or another unit: never judged. */
    EXPECT(compare(doc1("ok", 10, 9.9, 10.1, "", "us"), doc1("ok", 20, 19.9, 20.1, "", "us"), 0.05) == 0, "no direction");
    EXPECT(compare(doc1("ok", 10, 9.9, 10.1, "lower", "us"), doc1("ok", 20, 19.9, 20.1, "lower", "ms"), 0.05) == 0, "unit");
    /* ok -> invalid_result is a regression; ok -> unsupported and failed -> ok are not. */
    EXPECT(compare(doc1("ok", 10, 9.9, 10.1, "lower", "us"), doc1("invalid_result", 0, 0, 0, "", "us"), 0.05) == 1, "now failing");
    EXPECT(compare(doc1("ok", 10, 9.9, 10.1, "lower", "us"), doc1("unsupported", 0, 0, 0, "", "us"), 0.05) == 0, "now unsupported");
    EXPECT(compare(doc1("error", 0, 0, 0, "", "us"), doc1("ok", 10, 9.9, 10.1, "lower", "us"), 0.05) == 0, "fixed");
}

static void unusable(void)
{
    clb_diag d;
    const char *bad = "{\n  \"schema_version\": \"1.0.0\",\n  \"devices\": [}\n";
    EXPECT(clb_doc_parse(bad, strlen(bad), "f.json", &d) == NULL, "malformed accepted");
    EXPECT(strncmp(d.msg, "f.json:3:15: malformed JSON", 27) == 0, "got '%s'", d.msg);
    const char *trunc = "{\"schema_version\": \"1.0";
    EXPECT(clb_doc_parse(trunc, strlen(trunc), "t.json", &d) == NULL, "truncated accepted");
    EXPECT(strstr(d.msg, "t.json:1:") && strstr(d.msg, "truncated?"), "got '%s'", d.msg);
    const char *trailing = "{\"schema_version\":\"1.0.0\",\"devices\":[]} x";
    EXPECT(clb_doc_parse(trailing, strlen(trailing), "x.json", &d) == NULL, "trailing text accepted");
    EXPECT(strncmp(d.msg, "x.json:1:41:", 12) == 0, "got '%s'", d.msg);
    const char *v2 = "{\"schema_version\":\"2.0.0\",\"devices\":[]}";
    EXPECT(clb_doc_parse(v2, strlen(v2), "v2.json", &d) == NULL && strstr(d.msg, "major"), "got '%s'", d.msg);
    const char *nodev = "{\"schema_version\":\"1.0.0\"}";
    EXPECT(clb_doc_parse(nodev, strlen(nodev), "n.json", &d) == NULL && strstr(d.msg, "devices"), "got '%s'", d.msg);
    /* Nothing in common: another device name. */
    cJSON *a = doc1("ok", 10, 9.9, 10.1, "lower", "us"), *b = doc1("ok", 10, 9.9, 10.1, "lower", "us");
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(b, "devices"), 0), "device"), "CL_DEVICE_NAME"), "Other");
    EXPECT(compare(a, b, 0.05) == 2, "nothing in common");
}

/* Writes one report into a memory buffer; caller frees. */
static char *render(clb_error (*fn)(FILE *, const clb_report_src *, size_t), const cJSON *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    clb_report_src src = {"dir/in.json", doc};
    if (!f)
        return NULL;
    EXPECT(fn(f, &src, 1) == CLB_OK, "report failed");
    fclose(f);
    return buf;
}

static void escaping(void)
{
    const char *text = "{\"schema_version\":\"1.0.0\",\"devices\":[{\"device\":{\"CL_DEVICE_NAME\":\"A<b>&\\\"c\\\"\"},"
                       "\"results\":[{\"name\":\"g.r\",\"group\":\"g\",\"status\":\"error\","
                       "\"reason\":\"x, \\\"y\\\" | <z>\\nw\",\"value\":null,\"unit\":\"us\",\"stats\":null}]}]}";
    clb_diag d;
    cJSON *doc = clb_doc_parse(text, strlen(text), "e.json", &d);
    EXPECT(doc != NULL, "%s", d.msg);
    char *csv = render(clb_report_csv, doc), *md = render(clb_report_markdown, doc);
    char *html = render(clb_report_html, doc);
    EXPECT(csv && strstr(csv, "\nin.json,\"A<b>&\"\"c\"\"\",g.r,error,,us,,,,,,\"x, \"\"y\"\" | <z>\nw\"\n"), "csv:\n%s", csv);
    EXPECT(md && strstr(md, "| in.json | A&lt;b&gt;&amp;\"c\" | g.r | error |  | us |  |  |  |  |  | x, \"y\" \\| &lt;z&gt; w |\n"), "md:\n%s", md);
    EXPECT(html && strstr(html, "A&lt;b&gt;&amp;&quot;c&quot;") && !strstr(html, "<b>&"), "html not escaped");
    EXPECT(html && strstr(html, "x, &quot;y&quot; | &lt;z&gt;"), "reason not escaped");
    free(csv);
    free(md);
    free(html);
    cJSON_Delete(doc);
}

int main(void)
{
    regression_rule();
    unusable();
    escaping();
    return check_done("test_report");
}
