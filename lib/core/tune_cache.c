/* The tuning service's cache of winners (docs/decide.md): one JSON file for every app, keyed
 * by app, device, driver and problem size class. The file is untrusted input. */
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_CACHE_VERSION 2

static cJSON *empty_cache(void)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(c, "version", TUNE_CACHE_VERSION);
    cJSON_AddObjectToObject(c, "entries");
    return c;
}

static const char *check_entries(const cJSON *doc)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(doc, "entries"))
        if (!cJSON_IsObject(it) || !it->string)
            return "an entry is not an object";
    return NULL;
}

cJSON *clb_tune_cache_parse(const char *buf, size_t len, clb_diag *d)
{
    return clb_user_json_parse(buf, len, "tune cache", TUNE_CACHE_VERSION, 1, check_entries, d);
}

clb_error clb_tune_cache_path(char *buf, size_t n, clb_diag *d)
{
    return clb_user_file(buf, n, clb_settings_get()->xdg_cache_home, "XDG_CACHE_HOME", ".cache", "tune.json", 1, d);
}

clb_error clb_tune_cache_file(char *buf, size_t n, clb_diag *d)
{
    return clb_user_file(buf, n, clb_settings_get()->xdg_cache_home, "XDG_CACHE_HOME", ".cache", "tune.json", 0, d);
}

cJSON *clb_tune_cache_load(const char *path, clb_diag *d)
{
    clb_diag_clear(d);
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (!f)
        return empty_cache();
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n < (1L << 24) && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) != (size_t)n)
        n = -1;
    fclose(f);
    cJSON *j = text && n >= 0 ? clb_tune_cache_parse(text, (size_t)n, d) : NULL;
    if (!j && d && d->err == CLB_OK)
        clb_diag_set(d, CLB_ERR_USAGE, "tune cache %s: unreadable or larger than 16 MiB", path);
    free(text);
    return j ? j : empty_cache();
}

clb_error clb_tune_cache_store(const char *path, const cJSON *cache, clb_diag *d)
{
    clb_output *o = NULL;
    FILE *f = NULL;
    char *text = cJSON_Print(cache);
    if (!text)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    if (clb_output_open(path, &o, &f, d) == CLB_OK) {
        int ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        clb_output_close(o, ok, d);
    }
    free(text);
    return d ? d->err : CLB_OK;
}

const cJSON *clb_tune_cache_get(const cJSON *cache, const char *key)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cache, "entries"), key);
    return cJSON_IsObject(e) ? e : NULL;
}

void clb_tune_cache_put(cJSON *cache, const char *key, cJSON *entry)
{
    cJSON *e = cJSON_GetObjectItemCaseSensitive(cache, "entries");
    if (!cJSON_IsObject(e)) {
        cJSON_Delete(entry);
        return;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(e, key);
    cJSON_AddItemToObject(e, key, entry);
}

void clb_tune_key(char *buf, size_t n, const char *app, const char *device, const char *driver,
                  double size)
{
    int k = size >= 1 && isfinite(size) ? (int)floor(log2(size) + 0.5) : 0;
    snprintf(buf, n, "%s | %s | %s | n~2^%d", app, device, driver, k);
}
