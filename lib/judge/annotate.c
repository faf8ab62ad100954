/* The apps' annotations (docs/architecture.md, "Applications"): a verdict over one device's
 * results that relates each ok app row to the rows it is measured against in the same run
 * (sequential, the previous rung, CLBlast, the compute peak or the triad). Rows are found by
 * the one rule of the document layer (rj_ok_in). */
#include "doc/doc.h"
#include "core/internal.h"

#include <stdio.h>
#include <string.h>

static double value_of(const cJSON *r)
{
    return cJSON_GetObjectItemCaseSensitive(r, "value")->valuedouble;
}

static const char *param_str(const cJSON *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double param_num(const cJSON *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void put(cJSON *r, const char *key, double v)
{
    cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
    cJSON_DeleteItemFromObjectCaseSensitive(p, key);
    clb_json_number(p, key, v);
}

/* The ok row of the same app with the highest rung index below this one's. */
static const cJSON *previous_rung(const cJSON *results, const char *app, double idx)
{
    const cJSON *best = NULL, *r;
    double best_idx = -1;
    cJSON_ArrayForEach(r, results) {
        const char *a = param_str(r, "app");
        double i = param_num(r, "rung_index");
        if (a && strcmp(a, app) == 0 && i >= 0 && i < idx && i > best_idx &&
            rj_ok_in(results, cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring) == r) {
            best = r;
            best_idx = i;
        }
    }
    return best;
}

static void annotate_one(cJSON *results, cJSON *r)
{
    const char *app = param_str(r, "app"), *peer = param_str(r, "peer_row");
    char name[96];
    snprintf(name, sizeof name, "app.%s.sequential", app);
    const cJSON *seq = rj_ok_in(results, name);
    if (seq && seq != r)
        put(r, "speedup_vs_sequential", value_of(r) / value_of(seq));
    double idx = param_num(r, "rung_index");
    const cJSON *prev = idx > 0 ? previous_rung(results, app, idx) : NULL;
    if (prev) {
        put(r, "speedup_vs_previous_rung", value_of(r) / value_of(prev));
        cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        cJSON_DeleteItemFromObjectCaseSensitive(p, "previous_rung");
        cJSON_AddStringToObject(p, "previous_rung",
                                cJSON_GetObjectItemCaseSensitive(prev, "name")->valuestring);
    }
    snprintf(name, sizeof name, "app.%s.clblast", app);
    const cJSON *blas = rj_ok_in(results, name);
    if (blas && blas != r)
        put(r, "ratio_vs_clblast", value_of(r) / value_of(blas));
    const cJSON *pk = peer ? rj_ok_in(results, peer) : NULL;
    if (pk && strncmp(peer, "compute.", 8) == 0)
        put(r, "pct_of_compute_peak", 100.0 * value_of(r) / value_of(pk));
    else if (pk)
        put(r, "pct_of_triad", 100.0 * value_of(r) / value_of(pk));
}

void clb_apps_annotate(cJSON *results)
{
    cJSON *r;
    cJSON_ArrayForEach(r, results) {
        if (param_str(r, "app") && rj_ok_in(results, cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring) == r)
            annotate_one(results, r);
    }
}
