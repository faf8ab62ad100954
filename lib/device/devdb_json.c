/* The device database as data (docs/decide.md): the built-in table as JSON entries, the user's
 * file of entries from measured runs (`clbench db add`), and the one parser of that file, which
 * treats it as untrusted input. User entries never feed the physical-limit guard: a measured
 * figure is not a physical limit. */
#include "devdb.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define USER_VERSION 1

static void figure(cJSON *figs, const char *key, double v, const char *origin, const char *source)
{
    if (!(v > 0) || !isfinite(v))
        return;
    cJSON *f = cJSON_AddObjectToObject(figs, key);
    cJSON_AddNumberToObject(f, "value", v);
    cJSON_AddStringToObject(f, "origin", origin);
    cJSON_AddStringToObject(f, "source", source ? source : "");
}

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
    figure(f, "fp32_gflops", r->fp32_gflops, "vendor", r->src_fp);
    figure(f, "fp64_gflops", r->fp64_gflops, "vendor", r->src_fp);
    figure(f, "dram_gbps", r->dram_gbps, "vendor", r->src_dram);
    figure(f, "link_gbps", r->link_gbps, "vendor", r->src_link);
    figure(f, "l2_bytes", r->l2_bytes, "vendor", r->src_l2);
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

/* ---- the user's file ---- */

static int short_string(const cJSON *o, const char *k, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return v ? cJSON_IsString(v) && strlen(v->valuestring) < 256 && (!required || v->valuestring[0]) : !required;
}

/* NULL when the entry is well formed, else why not. */
static const char *check_entry(const cJSON *e)
{
    const cJSON *figs = cJSON_GetObjectItemCaseSensitive(e, "figures"), *f;
    if (!cJSON_IsObject(e))
        return "an entry is not an object";
    if (!short_string(e, "key", 1) || !short_string(e, "vendor", 1) || !short_string(e, "name", 1) ||
        !short_string(e, "product", 0))
        return "an entry lacks \"key\", \"vendor\" or \"name\" (strings below 256 bytes)";
    if (!cJSON_IsObject(figs))
        return "an entry has no \"figures\" object";
    cJSON_ArrayForEach(f, figs)
    {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(f, "value");
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(f, "origin");
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble <= 0)
            return "a figure has no positive finite \"value\"";
        if (!cJSON_IsString(o) || (strcmp(o->valuestring, "measured") != 0 && strcmp(o->valuestring, "vendor") != 0))
            return "a figure's \"origin\" is neither \"measured\" nor \"vendor\"";
    }
    return NULL;
}

/* 1 when a number anywhere under j is not finite (1e999 parses as infinity): no user number may
 * reach the limit guard as one, whatever field holds it. */
static int has_nonfinite(const cJSON *j)
{
    const cJSON *it;
    if (cJSON_IsNumber(j) && !isfinite(j->valuedouble))
        return 1;
    cJSON_ArrayForEach(it, j)
        if (has_nonfinite(it))
            return 1;
    return 0;
}

cJSON *clb_devdb_parse(const char *buf, size_t len, clb_diag *d)
{
    clb_diag_clear(d);
    cJSON *j = buf ? cJSON_ParseWithLength(buf, len) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "version");
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(j, "entries"), *e;
    const char *why = !j ? "malformed JSON" : !cJSON_IsObject(j) ? "not a JSON object"
                      : !cJSON_IsNumber(v) || v->valuedouble != USER_VERSION ? "no \"version\": 1"
                      : !cJSON_IsArray(es) ? "no \"entries\" array"
                      : has_nonfinite(j) ? "a number is not finite" : NULL;
    const cJSON *walk = why ? NULL : es;
    cJSON_ArrayForEach(e, walk)
        if (!why)
            why = check_entry(e);
    if (why) {
        clb_diag_set(d, CLB_ERR_USAGE, "device database file: %s", why);
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

clb_error clb_devdb_user_path(char *buf, size_t n, int create, clb_diag *d)
{
    return clb_user_file(buf, n, "XDG_CONFIG_HOME", ".config", "devdb.json", create, d);
}

/* ---- an entry from a measured run ---- */

static double ok_value(const cJSON *entry, const char *name, const char *unit)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(entry, "results"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "name"), *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "value"), *u = cJSON_GetObjectItemCaseSensitive(r, "unit");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0 && cJSON_IsString(st) &&
            strcmp(st->valuestring, "ok") == 0 && cJSON_IsNumber(v) && cJSON_IsString(u) && strcmp(u->valuestring, unit) == 0)
            return v->valuedouble;
    }
    return NAN;
}

static const char *dev_str(const cJSON *entry, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "device"), k);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

cJSON *clb_devdb_entry_from_results(const cJSON *entry, const char *file, clb_diag *d)
{
    static const char *const rows[][3] = {{"fp32_gflops", "compute.fp32.fma", "GFLOP/s"},
                                          {"fp64_gflops", "compute.fp64.fma", "GFLOP/s"},
                                          {"dram_gbps", "memory.triad", "GB/s"},
                                          {"link_gbps", "transfer.h2d_pinned", "GB/s"}};
    const char *name = dev_str(entry, "CL_DEVICE_NAME"), *vendor = dev_str(entry, "CL_DEVICE_VENDOR");
    clb_diag_clear(d);
    if (!name || !vendor) {
        clb_diag_set(d, CLB_ERR_USAGE, "a device entry without CL_DEVICE_NAME or CL_DEVICE_VENDOR");
        return NULL;
    }
    char key[96], src[600];
    size_t k = 0;
    for (const char *p = name; *p && k + 6 < sizeof key; p++)
        key[k++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) ? *p : '-');
    snprintf(key + k, sizeof key - k, "-user");
    cJSON *e = cJSON_CreateObject(), *f;
    cJSON_AddStringToObject(e, "key", key);
    cJSON_AddStringToObject(e, "origin", "user");
    cJSON_AddStringToObject(e, "vendor", vendor);
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "product", name);
    f = cJSON_AddObjectToObject(e, "figures");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(src, sizeof src, "measured: %s median in %s", rows[i][1], file ? file : "a results document");
        figure(f, rows[i][0], ok_value(entry, rows[i][1], rows[i][2]), "measured", src);
    }
    if (!f->child) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: none of compute.fp32.fma, compute.fp64.fma, memory.triad, transfer.h2d_pinned is ok", name);
        cJSON_Delete(e);
        return NULL;
    }
    return e;
}
