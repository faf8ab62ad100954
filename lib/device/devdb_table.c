/* The device database's built-in entries: data/devdb.json (vendor figures, each with its
 * source; docs/limits.md lists them too), embedded at build time (cmake/EmbedDataScript.cmake)
 * and read once through the same parser as the user's file (clb_devdb_parse), so the binary
 * stays self-contained and the table is versioned data. The rows point into the parsed
 * document, which lives as long as the process. */
#include "device/devdb.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define MAX_ROWS 64

extern const unsigned char clb_devdb_data[];
extern const size_t clb_devdb_data_len;

typedef struct table {
    clb_devdb_row rows[MAX_ROWS];
    size_t n;
    cJSON *doc;
} table;

static table builtin; /* written once under pthread_once, read-only after */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *text(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static unsigned count(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 1e6 ? (unsigned)v->valuedouble : 0;
}

/* A figure's value (0: not in the datasheet) and its source. */
static double fig(const cJSON *e, const char *k, const char **src)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "figures"), k);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "value");
    if (src && text(f, "source"))
        *src = text(f, "source");
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void to_row(const cJSON *e, clb_devdb_row *r)
{
    memset(r, 0, sizeof *r);
    r->key = text(e, "key");
    r->vendor = text(e, "vendor");
    r->name = text(e, "name");
    r->exclude = text(e, "exclude");
    r->product = text(e, "product") ? text(e, "product") : r->name;
    r->fp32_lanes = count(e, "fp32_lanes");
    r->fp64_lanes = count(e, "fp64_lanes");
    r->units = count(e, "units");
    r->src_fp = text(e, "lanes_source");
    r->fp32_gflops = fig(e, "fp32_gflops", &r->src_fp);
    r->fp64_gflops = fig(e, "fp64_gflops", NULL);
    r->dram_gbps = fig(e, "dram_gbps", &r->src_dram);
    r->link_gbps = fig(e, "link_gbps", &r->src_link);
    r->l2_bytes = fig(e, "l2_bytes", &r->src_l2);
    r->l2_partitions = fig(e, "l2_partitions", &r->src_l2_partitions);
    r->note = text(e, "note") ? text(e, "note") : "";
}

static void load(void)
{
    const cJSON *e;
    builtin.doc = clb_devdb_parse((const char *)clb_devdb_data, clb_devdb_data_len, NULL);
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(builtin.doc, "entries"))
        if (builtin.n < MAX_ROWS)
            to_row(e, &builtin.rows[builtin.n++]);
}

double clb_devdb_l2_one_sm(const clb_devdb_row *r)
{
    if (!r || !(r->l2_bytes > 0))
        return 0;
    return r->l2_partitions >= 1 ? r->l2_bytes / r->l2_partitions : r->l2_bytes;
}

size_t clb_devdb_count(void)
{
    pthread_once(&once, load);
    return builtin.n;
}

const clb_devdb_row *clb_devdb_at(size_t i)
{
    return i < clb_devdb_count() ? &builtin.rows[i] : NULL;
}

/* ---- the built-in table as JSON entries (clbench db list) ---- */

static cJSON *row_json(const clb_devdb_row *r)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "key", r->key);
    cJSON_AddStringToObject(e, "origin", "builtin");
    cJSON_AddStringToObject(e, "vendor", r->vendor);
    cJSON_AddStringToObject(e, "name", r->name);
    if (r->exclude)
        cJSON_AddStringToObject(e, "exclude", r->exclude);
    cJSON_AddStringToObject(e, "product", r->product);
    cJSON_AddNumberToObject(e, "fp32_lanes", r->fp32_lanes);
    cJSON_AddNumberToObject(e, "fp64_lanes", r->fp64_lanes);
    cJSON_AddNumberToObject(e, "units", r->units);
    cJSON *f = cJSON_AddObjectToObject(e, "figures");
    clb_devdb_figure(f, "fp32_gflops", r->fp32_gflops, "vendor", r->src_fp);
    clb_devdb_figure(f, "fp64_gflops", r->fp64_gflops, "vendor", r->src_fp);
    clb_devdb_figure(f, "dram_gbps", r->dram_gbps, "vendor", r->src_dram);
    clb_devdb_figure(f, "link_gbps", r->link_gbps, "vendor", r->src_link);
    clb_devdb_figure(f, "l2_bytes", r->l2_bytes, "vendor", r->src_l2);
    clb_devdb_figure(f, "l2_partitions", r->l2_partitions, "vendor", r->src_l2_partitions);
    if (!r->units)
        cJSON_AddStringToObject(e, "lanes_source", r->src_fp);
    cJSON_AddStringToObject(e, "note", r->note ? r->note : "");
    return e;
}

cJSON *clb_devdb_json(void)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < clb_devdb_count(); i++)
        cJSON_AddItemToArray(a, row_json(clb_devdb_at(i)));
    return a;
}
