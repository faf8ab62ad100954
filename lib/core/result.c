/* Results as plain data, and their JSON form. */
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLB_STATUS_NAME_(name, text) text,
static const char *const status_names[] = {CLB_STATUS_LIST(CLB_STATUS_NAME_)};

const char *clb_status_name(clb_status s)
{
    return (unsigned)s < CLB_STATUS_COUNT_ ? status_names[s] : "error";
}

int clb_status_has_value(clb_status s) { return s == CLB_STATUS_OK || s == CLB_STATUS_THROTTLED; }

clb_status clb_status_from_error(clb_error e)
{
    switch (e) {
    case CLB_OK:
        return CLB_STATUS_OK;
    case CLB_ERR_UNSUPPORTED:
        return CLB_STATUS_UNSUPPORTED;
    case CLB_ERR_BUILD:
        return CLB_STATUS_BUILD_FAILED;
    case CLB_ERR_INVALID_RESULT:
        return CLB_STATUS_INVALID_RESULT;
    case CLB_ERR_INVALID_TIMING:
        return CLB_STATUS_INVALID_TIMING;
    default:
        return CLB_STATUS_ERROR;
    }
}

clb_error clb_result_init(clb_result *res, const char *name, const char *group)
{
    memset(res, 0, sizeof *res);
    snprintf(res->name, sizeof res->name, "%s", name);
    snprintf(res->group, sizeof res->group, "%s", group);
    res->status = CLB_STATUS_ERROR;
    snprintf(res->reason, sizeof res->reason, "not run");
    res->params = cJSON_CreateObject();
    return res->params ? CLB_OK : CLB_ERR_NOMEM;
}

void clb_result_free(clb_result *res)
{
    if (!res)
        return;
    free(res->samples);
    cJSON_Delete(res->params);
    res->samples = NULL;
    res->nsamples = 0;
    res->params = NULL;
}

void clb_result_fail(clb_result *res, clb_status st, const char *reason)
{
    res->status = st == CLB_STATUS_OK ? CLB_STATUS_ERROR : st;
    snprintf(res->reason, sizeof res->reason, "%s", reason && *reason ? reason : "unknown");
}

clb_error clb_result_set_samples(clb_result *res, const double *x, size_t n, const char *unit,
                                 int higher_is_better, const char *timer)
{
    clb_stats st;
    clb_error e = clb_stats_compute(x, n, &st);
    if (e != CLB_OK) {
        clb_result_fail(res, CLB_STATUS_INVALID_TIMING, "samples are empty or not finite");
        return CLB_ERR_INVALID_TIMING;
    }
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return CLB_ERR_NOMEM;
    memcpy(copy, x, n * sizeof *copy);
    free(res->samples);
    res->samples = copy;
    res->nsamples = n;
    res->stats = st;
    res->value = st.median;
    res->higher_is_better = higher_is_better;
    snprintf(res->unit, sizeof res->unit, "%s", unit);
    snprintf(res->timer, sizeof res->timer, "%s", timer);
    res->status = CLB_STATUS_OK;
    res->reason[0] = '\0';
    return CLB_OK;
}

static cJSON *stats_to_json(const clb_stats *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)s->n);
    clb_json_number(o, "min", s->min);
    clb_json_number(o, "max", s->max);
    clb_json_number(o, "median", s->median);
    clb_json_number(o, "mean", s->mean);
    clb_json_number(o, "stddev", s->stddev);
    clb_json_number(o, "mad", s->mad);
    clb_json_number(o, "cv", s->cv);
    cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
    cJSON_AddItemToArray(ci, clb_json_number(NULL, NULL, s->ci95_lo));
    cJSON_AddItemToArray(ci, clb_json_number(NULL, NULL, s->ci95_hi));
    clb_json_number(o, "ci95_level", s->ci95_level);
    return o;
}

cJSON *clb_result_to_json(const clb_result *res)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int ok = clb_status_has_value(res->status);
    cJSON_AddStringToObject(o, "name", res->name);
    cJSON_AddStringToObject(o, "group", res->group);
    cJSON_AddStringToObject(o, "status", clb_status_name(res->status));
    if (res->status == CLB_STATUS_OK)
        cJSON_AddNullToObject(o, "reason");
    else
        cJSON_AddStringToObject(o, "reason", res->reason);
    /* A result that is not ok carries no number. */
    if (ok) {
        clb_json_number(o, "value", res->value);
        cJSON_AddStringToObject(o, "unit", res->unit);
        cJSON_AddStringToObject(o, "better", res->higher_is_better ? "higher" : "lower");
        cJSON_AddStringToObject(o, "timer", res->timer);
        cJSON_AddItemToObject(o, "stats", stats_to_json(&res->stats));
    } else {
        cJSON_AddNullToObject(o, "value");
        cJSON_AddStringToObject(o, "unit", res->unit);
        cJSON_AddNullToObject(o, "stats");
    }
    cJSON_AddItemToObject(o, "params",
                          res->params ? cJSON_Duplicate(res->params, 1) : cJSON_CreateObject());
    cJSON *samples = cJSON_AddArrayToObject(o, "samples");
    for (size_t i = 0; ok && i < res->nsamples; i++)
        cJSON_AddItemToArray(samples, clb_json_number(NULL, NULL, res->samples[i]));
    return o;
}

static double num_or_nan(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void copy_str(char *dst, size_t n, const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    snprintf(dst, n, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static clb_status status_named(const char *s)
{
    for (int i = 0; i < CLB_STATUS_COUNT_; i++)
        if (strcmp(s, clb_status_name((clb_status)i)) == 0)
            return (clb_status)i;
    return CLB_STATUS_ERROR;
}

static void stats_from_json(const cJSON *o, clb_stats *s)
{
    double n = num_or_nan(o, "n"); /* untrusted (a worker's line, a file): cast only in range */
    s->n = n >= 1 && n <= 1e15 ? (size_t)n : 0;
    s->min = num_or_nan(o, "min");
    s->max = num_or_nan(o, "max");
    s->median = num_or_nan(o, "median");
    s->mean = num_or_nan(o, "mean");
    s->stddev = num_or_nan(o, "stddev");
    s->mad = num_or_nan(o, "mad");
    s->cv = num_or_nan(o, "cv");
    s->ci95_level = num_or_nan(o, "ci95_level");
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(o, "ci95");
    s->ci95_lo = cJSON_IsNumber(cJSON_GetArrayItem(ci, 0)) ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN;
    s->ci95_hi = cJSON_IsNumber(cJSON_GetArrayItem(ci, 1)) ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN;
}

clb_error clb_result_from_json(const cJSON *j, clb_result *res)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    const cJSON *group = cJSON_GetObjectItemCaseSensitive(j, "group");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    if (!cJSON_IsString(name) || !cJSON_IsString(group) || !cJSON_IsString(status))
        return CLB_ERR_USAGE;
    if (clb_result_init(res, name->valuestring, group->valuestring) != CLB_OK)
        return CLB_ERR_NOMEM;
    res->status = status_named(status->valuestring);
    copy_str(res->reason, sizeof res->reason, j, "reason");
    copy_str(res->unit, sizeof res->unit, j, "unit");
    copy_str(res->timer, sizeof res->timer, j, "timer");
    const cJSON *better = cJSON_GetObjectItemCaseSensitive(j, "better");
    res->higher_is_better = cJSON_IsString(better) && strcmp(better->valuestring, "higher") == 0;
    res->value = num_or_nan(j, "value");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "stats");
    if (cJSON_IsObject(st))
        stats_from_json(st, &res->stats);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
    if (cJSON_IsObject(params)) {
        cJSON_Delete(res->params);
        res->params = cJSON_Duplicate(params, 1);
    }
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(j, "samples");
    int n = cJSON_GetArraySize(samples);
    if (n > 0 && (res->samples = malloc((size_t)n * sizeof *res->samples)) != NULL) {
        const cJSON *x;
        cJSON_ArrayForEach(x, samples)
            res->samples[res->nsamples++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
    }
    return res->params ? CLB_OK : CLB_ERR_NOMEM;
}
