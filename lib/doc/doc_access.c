/* Tolerant accessors for parsed results documents (doc/doc.h). */
#include "doc/doc.h"

#include <math.h>
#include <string.h>

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

const char *rj_str(const cJSON *obj, const char *key)
{
    const cJSON *m = member(obj, key);
    return cJSON_IsString(m) && m->valuestring ? m->valuestring : NULL;
}

int rj_num(const cJSON *obj, const char *key, double *v)
{
    const cJSON *m = member(obj, key);
    if (!cJSON_IsNumber(m) || !isfinite(m->valuedouble))
        return 0;
    *v = m->valuedouble;
    return 1;
}

const cJSON *rj_arr(const cJSON *obj, const char *key)
{
    const cJSON *m = member(obj, key);
    return cJSON_IsArray(m) ? m : NULL;
}

const cJSON *rj_obj(const cJSON *obj, const char *key)
{
    const cJSON *m = member(obj, key);
    return cJSON_IsObject(m) ? m : NULL;
}

static const char *str_or_empty(const cJSON *obj, const char *key)
{
    const char *s = rj_str(obj, key);
    return s ? s : "";
}

/* ci95 is [lo, hi] with two finite numbers. */
static int read_ci(const cJSON *stats, double *lo, double *hi)
{
    const cJSON *ci = rj_arr(stats, "ci95");
    if (cJSON_GetArraySize(ci) != 2)
        return 0;
    const cJSON *a = cJSON_GetArrayItem(ci, 0), *b = cJSON_GetArrayItem(ci, 1);
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !isfinite(a->valuedouble) ||
        !isfinite(b->valuedouble))
        return 0;
    *lo = a->valuedouble;
    *hi = b->valuedouble;
    return 1;
}

void rj_result_read(const cJSON *r, rj_result *o)
{
    memset(o, 0, sizeof *o);
    o->name = str_or_empty(r, "name");
    o->group = str_or_empty(r, "group");
    o->status = str_or_empty(r, "status");
    o->unit = str_or_empty(r, "unit");
    o->reason = str_or_empty(r, "reason");
    o->better = str_or_empty(r, "better");
    o->timer = str_or_empty(r, "timer");
    o->has_value = rj_num(r, "value", &o->value);
    const cJSON *st = rj_obj(r, "stats");
    o->has_stats = st && rj_num(st, "median", &o->median) && rj_num(st, "cv", &o->cv) &&
                   rj_num(st, "n", &o->n);
    if (o->has_stats) {
        /* Optional members: absent ones print as "-". */
        o->mean = o->stddev = o->min = o->max = NAN;
        rj_num(st, "mean", &o->mean);
        rj_num(st, "stddev", &o->stddev);
        rj_num(st, "min", &o->min);
        rj_num(st, "max", &o->max);
    }
    o->has_ci = st && read_ci(st, &o->ci_lo, &o->ci_hi);
}

const char *rj_device_name(const cJSON *dev)
{
    const char *s = rj_str(rj_obj(dev, "device"), "CL_DEVICE_NAME");
    return s && *s ? s : "unknown device";
}

const cJSON *rj_devices(const cJSON *doc)
{
    return rj_arr(doc, "devices");
}

const cJSON *rj_find_result(const cJSON *dev, const char *name)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *s = rj_str(r, "name");
        if (s && strcmp(s, name) == 0)
            return r;
    }
    return NULL;
}

const cJSON *rj_ok_in(const cJSON *results, const char *name)
{
    const cJSON *r;
    double v;
    if (!cJSON_IsArray(results))
        return NULL;
    cJSON_ArrayForEach(r, results) {
        const char *s = rj_str(r, "name"), *st = rj_str(r, "status");
        if (s && strcmp(s, name) == 0)
            return st && strcmp(st, "ok") == 0 && rj_num(r, "value", &v) ? r : NULL;
    }
    return NULL;
}

const cJSON *rj_ok_result(const cJSON *dev, const char *name)
{
    return rj_ok_in(rj_arr(dev, "results"), name);
}

double rj_ok_value(const cJSON *dev, const char *name, const char *unit)
{
    const cJSON *r = rj_ok_result(dev, name);
    const char *u = rj_str(r, "unit");
    double v;
    if (!r || (unit && (!u || strcmp(u, unit) != 0)) || !rj_num(r, "value", &v))
        return NAN;
    return v;
}

void rj_fmt(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (fabs(v) >= 1e15 || (v != 0 && fabs(v) < 1e-4))
        snprintf(buf, n, "%.4g", v);
    else if (fabs(v) >= 1e4 || v == floor(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

const char *rj_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
