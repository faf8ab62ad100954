/* The partial reader of results documents (clb_doc_parse_paths, used by fleet-check): on a real
 * file it keeps exactly what the full parse holds on its paths and nothing else; malformed JSON
 * in the parts it skips is refused as the full parser refuses it, with line:column. */
#include "clbench.h"

#include <stdlib.h>
#include <string.h>
#include "check.h"

static const char *const paths[] = {"schema_version", "devices/#/device/CL_DEVICE_NAME",
                                    "devices/#/results/#/name", "devices/#/results/#/stats"};
enum { NPATHS = sizeof paths / sizeof *paths };

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL)
        *len = fread(buf, 1, (size_t)n, f);
    if (f)
        fclose(f);
    return buf;
}

/* Every result of every device: same name and stats as the full parse, and no other member. */
static void same_as_full(const char *file)
{
    size_t len = 0;
    char *text = slurp(file, &len);
    clb_diag d;
    CHECK(text != NULL);
    cJSON *full = text ? clb_doc_parse(text, len, file, &d) : NULL;
    cJSON *part = text ? clb_doc_parse_paths(text, len, file, paths, NPATHS, &d) : NULL;
    EXPECT(full && part, "%s: %s", file, d.msg);
    const cJSON *fd = cJSON_GetObjectItem(full, "devices"), *pd = cJSON_GetObjectItem(part, "devices");
    CHECK(cJSON_GetArraySize(fd) == cJSON_GetArraySize(pd) && cJSON_GetArraySize(fd) > 0);
    CHECK(cJSON_GetArraySize(part) == 2); /* schema_version and devices only */
    for (int i = 0; i < cJSON_GetArraySize(fd); i++) {
        const cJSON *fr = cJSON_GetObjectItem(cJSON_GetArrayItem(fd, i), "results");
        const cJSON *pr = cJSON_GetObjectItem(cJSON_GetArrayItem(pd, i), "results");
        CHECK(cJSON_GetArraySize(fr) == cJSON_GetArraySize(pr) && cJSON_GetArraySize(fr) > 0);
        for (int j = 0; j < cJSON_GetArraySize(fr); j++) {
            const cJSON *a = cJSON_GetArrayItem(fr, j), *b = cJSON_GetArrayItem(pr, j);
            CHECK(cJSON_Compare(cJSON_GetObjectItem(a, "name"), cJSON_GetObjectItem(b, "name"), 1));
            CHECK(cJSON_Compare(cJSON_GetObjectItem(a, "stats"), cJSON_GetObjectItem(b, "stats"), 1));
            CHECK(cJSON_GetObjectItem(b, "params") == NULL && cJSON_GetArraySize(b) <= 2);
        }
    }
    cJSON_Delete(full);
    cJSON_Delete(part);
    free(text);
}

/* text is refused by both readers; the partial one names the line and column. */
static void refused(const char *text, const char *where)
{
    clb_diag d;
    cJSON *full = clb_doc_parse(text, strlen(text), "t", &d);
    cJSON *part = clb_doc_parse_paths(text, strlen(text), "t", paths, NPATHS, &d);
    EXPECT(!full && !part, "accepted: %s", text);
    EXPECT(part || strstr(d.msg, where), "'%s' lacks '%s'", d.msg, where);
    cJSON_Delete(full);
    cJSON_Delete(part);
}

static char *deep(size_t levels)
{
    const char *head = "{\"schema_version\":\"1.0.0\",\"devices\":[],\"x\":";
    size_t h = strlen(head);
    char *s = malloc(h + 2 * levels + 2);
    if (!s)
        return NULL;
    memcpy(s, head, h);
    memset(s + h, '[', levels);
    memset(s + h + levels, ']', levels);
    memcpy(s + h + 2 * levels, "}", 2);
    return s;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        same_as_full(argv[i]);
    const char *ok = "{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"n\\u0061me\":\"a.b\","
                     "\"params\":{\"x\":[1,-2.5e+3,true,false,null,\"\\\"\\n\"]}}]}]}";
    clb_diag d;
    cJSON *doc = clb_doc_parse_paths(ok, strlen(ok), "t", paths, NPATHS, &d);
    const cJSON *r = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "devices"), 0), "results"), 0);
    EXPECT(doc && cJSON_IsString(cJSON_GetObjectItem(r, "name")), "%s", d.msg);
    CHECK(cJSON_GetObjectItem(r, "params") == NULL);
    cJSON_Delete(doc);
    /* Errors inside the skipped params, each found at its line (2) and column. */
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\":[1,]}}]}]}", "t:2:");
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\":\"\\q\"}}]}]}", "t:2:");
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\":tru}}]}]}", "t:2:");
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\" 1}}]}]}", "t:2:");
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\":-}}]}]}", "t:2:");
    /* A raw tab inside a string: cJSON lets it pass, RFC 8259 (and this reader) does not. */
    const char *tab = "{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":\n{\"x\":\"a\tb\"}}]}]}";
    doc = clb_doc_parse_paths(tab, strlen(tab), "t", paths, NPATHS, &d);
    EXPECT(!doc && strstr(d.msg, "t:2:"), "raw tab: %s", doc ? "accepted" : d.msg);
    cJSON_Delete(doc);
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[]} x", "t:1:");
    refused("{\"schema_version\":\"1.0.0\",\"devices\":[{\"results\":[{\"params\":{\"x\":[1,2", "truncated");
    refused("{\"schema_version\":\"1.0.0\"}", "devices");
    char *s = deep(999), *t = deep(1001);
    doc = s ? clb_doc_parse_paths(s, strlen(s), "t", paths, NPATHS, &d) : NULL;
    EXPECT(doc != NULL, "999 levels: %s", d.msg);
    cJSON_Delete(doc);
    if (t)
        refused(t, "t:1:");
    free(s);
    free(t);
    return failures != 0;
}
