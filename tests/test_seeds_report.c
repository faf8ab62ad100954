/* The report's seed-derived parts on synthetic documents: the summary counts inconclusive
 * results apart from failed ones. */
#include "clbench.h"

#include <stdlib.h>
#include <string.h>
#include "check.h"

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

int main(void)
{
    inconclusive_not_failed();
    if (failures)
        fprintf(stderr, "test_seeds_report: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
