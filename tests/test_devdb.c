/* The device database as data (lib/device/devdb_table.c, devdb_json.c): the embedded
 * data/devdb.json parses whole into the rows the limit guard uses, every prefix of it and
 * byte-flipped copies are refused or parsed without a crash (the loader's input is untrusted
 * for the user's file), and an entry made from results marks its figures measured. */
#include "devdb.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include "check.h"

extern const unsigned char clb_devdb_data[];
extern const size_t clb_devdb_data_len;

static void test_embedded(void)
{
    clb_diag d;
    cJSON *doc = clb_devdb_parse((const char *)clb_devdb_data, clb_devdb_data_len, &d);
    EXPECT(doc != NULL, "data/devdb.json: %s", d.msg);
    size_t n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "entries"));
    CHECK(n >= 20 && clb_devdb_count() == n);
    const clb_devdb_row *h200 = clb_devdb_find("NVIDIA Corporation", "NVIDIA H200");
    CHECK(h200 && strcmp(h200->key, "h200-sxm") == 0 && h200->dram_gbps == 4800 && strstr(h200->src_dram, "https://"));
    CHECK(clb_devdb_find("NVIDIA Corporation", "NVIDIA H200 NVL")->units == 132 &&
          clb_devdb_find("NVIDIA Corporation", "NVIDIA GH200 480GB")->units == 0);
    cJSON_Delete(doc);
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
