/* The device database as data (lib/device/devdb_table.c, devdb_json.c): the embedded
 * data/devdb.json parses whole into the rows the limit guard uses, every prefix of it and
 * byte-flipped copies are refused or parsed without a crash (the loader's input is untrusted
 * for the user's file), and an entry made from results marks its figures measured. */
#include "device/devdb.h"
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>
#include "check.h"

extern const unsigned char clb_devdb_data[];
extern const size_t clb_devdb_data_len;

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A figure's value (0: absent) and source ("": absent) as the file has them. */
static double fig(const cJSON *e, const char *k)
{
    return num(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "figures"), k), "value");
}

static const char *src(const cJSON *e, const char *k)
{
    return str(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "figures"), k), "source");
}

static void test_embedded(void)
{
    clb_diag d;
    cJSON *doc = clb_devdb_parse((const char *)clb_devdb_data, clb_devdb_data_len, &d);
    EXPECT(doc != NULL, "data/devdb.json: %s", d.msg);
    size_t n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "entries"));
    CHECK(n >= 20 && clb_devdb_count() == n);
    cJSON_Delete(doc);
    /* Every row the guard uses against the file read here with plain cJSON, field by field (the
     * figures themselves are checked against the architecture in test_limits). */
    cJSON *raw = cJSON_ParseWithLength((const char *)clb_devdb_data, clb_devdb_data_len);
    const cJSON *e;
    size_t k = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(raw, "entries")) {
        const clb_devdb_row *r = clb_devdb_at(k++);
        if (!r) {
            EXPECT(0, "entry %zu has no row", k - 1);
            break;
        }
        EXPECT(strcmp(r->key, str(e, "key")) == 0 && strcmp(r->vendor, str(e, "vendor")) == 0 &&
               strcmp(r->name, str(e, "name")) == 0, "row %zu is %s, the file's entry %s", k - 1, r->key, str(e, "key"));
        EXPECT(r->units == num(e, "units") && r->fp32_lanes == num(e, "fp32_lanes") &&
               r->fp64_lanes == num(e, "fp64_lanes"), "%s: units or lanes differ from the file", r->key);
        EXPECT(r->fp32_gflops == fig(e, "fp32_gflops") && r->fp64_gflops == fig(e, "fp64_gflops") &&
               r->dram_gbps == fig(e, "dram_gbps") && r->link_gbps == fig(e, "link_gbps"),
               "%s: a figure differs from the file (%g %g %g %g)", r->key, r->fp32_gflops, r->fp64_gflops,
               r->dram_gbps, r->link_gbps);
        if (fig(e, "dram_gbps") > 0)
            EXPECT(strcmp(r->src_dram, src(e, "dram_gbps")) == 0 && strcmp(r->src_link, src(e, "link_gbps")) == 0 &&
                   strcmp(r->src_fp, src(e, "fp32_gflops")) == 0, "%s: a source differs from the file", r->key);
    }
    CHECK(k == clb_devdb_count());
    cJSON_Delete(raw);
}

static void test_untrusted(void)
{
    clb_diag d;
    size_t len = clb_devdb_data_len, accepted = 0;
    char *buf = malloc(len);
    if (!buf)
        return;
    memcpy(buf, clb_devdb_data, len);
    for (size_t k = 0; k + 2 < len; k += 13) { /* prefixes: only whole documents parse */
        cJSON *j = clb_devdb_parse(buf, k, &d);
        accepted += j != NULL;
        CHECK(j != NULL || d.err == CLB_ERR_USAGE);
        cJSON_Delete(j);
    }
    CHECK(accepted == 0);
    uint64_t st = 7;
    for (int i = 0; i < 300; i++) { /* byte flips: parsed or refused, never a crash */
        size_t at = (size_t)(clb_rand64(&st) % len);
        char keep = buf[at];
        buf[at] = (char)clb_rand64(&st);
        cJSON_Delete(clb_devdb_parse(buf, len, &d));
        buf[at] = keep;
    }
    free(buf);
    static const char *bad = "{\"version\":1,\"entries\":[{\"key\":\"k\",\"vendor\":\"v\",\"name\":\"n\",\"figures\":{\"x\":{\"value\":1e999,\"origin\":\"measured\"}}}]}";
    CHECK(clb_devdb_parse(bad, strlen(bad), &d) == NULL && strstr(d.msg, "finite"));
    /* outside the figures too (found by fuzz_devdb): an infinity in any field is refused */
    static const char *bad2 = "{\"version\":1,\"entries\":[{\"key\":\"k\",\"vendor\":\"v\",\"name\":\"n\",\"figures\":{},\"x\":[1,-1e999]}]}";
    CHECK(clb_devdb_parse(bad2, strlen(bad2), &d) == NULL && strstr(d.msg, "not finite"));
}

static void test_from_results(void)
{
    const char *t = "{\"device\":{\"CL_DEVICE_NAME\":\"Acme X 9\",\"CL_DEVICE_VENDOR\":\"Acme\"},\"results\":["
                    "{\"name\":\"compute.fp32.fma\",\"status\":\"ok\",\"value\":100,\"unit\":\"GFLOP/s\"},"
                    "{\"name\":\"memory.triad\",\"status\":\"invalid\",\"value\":5,\"unit\":\"GB/s\"}]}";
    cJSON *e = cJSON_Parse(t), *bare = cJSON_Parse("{\"device\":{\"CL_DEVICE_NAME\":\"A\",\"CL_DEVICE_VENDOR\":\"B\"}}");
    clb_diag d;
    cJSON *u = clb_devdb_entry_from_results(e, "f.json", &d);
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(u, "figures");
    const cJSON *fp = cJSON_GetObjectItemCaseSensitive(figs, "fp32_gflops");
    CHECK(u && strcmp(cJSON_GetObjectItemCaseSensitive(u, "key")->valuestring, "acme-x-9-user") == 0);
    CHECK(fp && strcmp(cJSON_GetObjectItemCaseSensitive(fp, "origin")->valuestring, "measured") == 0 &&
          !cJSON_GetObjectItemCaseSensitive(figs, "dram_gbps"));
    CHECK(clb_devdb_entry_from_results(bare, "f.json", &d) == NULL && d.err == CLB_ERR_USAGE);
    cJSON_Delete(u);
    cJSON_Delete(e);
    cJSON_Delete(bare);
}

int main(void)
{
    test_embedded();
    test_untrusted();
    test_from_results();
    printf("devdb: %d failure(s)\n", failures);
    return failures != 0;
}
