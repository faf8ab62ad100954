/* The device database as data (docs/decide.md): the user's file of entries from measured runs
 * (`clbench db add`), the one parser of that file, which treats it as untrusted input (the
 * built-in table is read through it too: devdb_table.c), and the one writer of a figure. User
 * entries never feed the physical-limit guard: a measured figure is not a physical limit. */
#include "device/devdb.h"
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define USER_VERSION 1

void clb_devdb_figure(cJSON *figs, const char *key, double v, const char *origin, const char *source)
{
    if (!(v > 0) || !isfinite(v))
        return;
    cJSON *f = cJSON_AddObjectToObject(figs, key);
    cJSON_AddNumberToObject(f, "value", v);
    cJSON_AddStringToObject(f, "origin", origin);
    cJSON_AddStringToObject(f, "source", source ? source : "");
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

/* Beyond the shape: no number anywhere is non-finite, every entry is well formed. */
static const char *check_doc(const cJSON *doc)
{
    const cJSON *e;
    if (has_nonfinite(doc))
        return "a number is not finite";
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "entries"))
    {
        const char *why = check_entry(e);
        if (why)
            return why;
    }
    return NULL;
}

cJSON *clb_devdb_parse(const char *buf, size_t len, clb_diag *d)
{
    return clb_user_json_parse(buf, len, "device database file", USER_VERSION, 0, check_doc, d);
}

clb_error clb_devdb_user_path(char *buf, size_t n, int create, clb_diag *d)
{
    return clb_user_file(buf, n, clb_settings_get()->xdg_config_home, "XDG_CONFIG_HOME", ".config", "devdb.json", create, d);
}
