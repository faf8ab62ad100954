/* libFuzzer harness: the results reader and everything that consumes what it accepts (the
 * HTML, CSV and Markdown reports and compare), as `clbench report` and `compare` use them on
 * files from other machines, and the partial reader of fleet-check. Any crash, leak, UB or hang is a bug. */
#include "clbench.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    clb_diag d;
    cJSON *doc = clb_doc_parse((const char *)data, size, "fuzz.json", &d);
    /* The partial reader of fleet-check is stricter than cJSON, never laxer. */
    static const char *const paths[] = {"schema_version", "devices/#/device/CL_DEVICE_NAME",
                                        "devices/#/results/#/name", "devices/#/results/#/stats"};
    cJSON *part = clb_doc_parse_paths((const char *)data, size, "fuzz.json", paths, 4, &d);
    if (part && !doc)
        abort();
    cJSON_Delete(part);
    if (!doc)
        return 0;
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        clb_report_src src[2] = {{"a", doc}, {"b", doc}};
        clb_report_html(sink, src, 2);
        clb_report_csv(sink, src, 2);
        clb_report_markdown(sink, src, 2);
        clb_compare(sink, doc, doc, 0.05, &d);
        fclose(sink);
    }
    cJSON_Delete(doc);
    return 0;
}
