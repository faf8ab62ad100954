/* The tuning service (docs/decide.md): search a kernel's parameter space on a device with the
 * caller's measurement (runner statistics), exhaustively when small, else random sampling plus
 * hill-climbing under a time budget. */
#include "core/grow.h"
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this many points the space is not enumerated to count its allowed points. */
#define ENUMERATE_MAX 100000.0

void clb_tune_opts_default(clb_tune_opts *o)
{
    o->exhaustive_max = 64;
    o->budget_s = 30;
    o->max_evals = 0;
    o->seed = 0x9e3779b97f4a7c15ull;
}

void clb_tune_run_free(clb_tune_run *r)
{
    if (!r)
        return;
    free(r->cands);
    memset(r, 0, sizeof *r);
    r->best = -1;
}

typedef struct search {
    const clb_tune_space *s;
    clb_tune_eval eval;
    void *user;
    const clb_tune_opts *o;
    clb_tune_run *out;
    size_t cap;
    double started;
} search;

static int allowed(const search *x, const int *idx)
{
    int p[CLB_TUNE_MAX_DIMS];
    for (size_t i = 0; i < x->s->ndims; i++)
        p[i] = x->s->dims[i].values[idx[i]];
    return !x->s->allowed || x->s->allowed(p, x->s->user);
}

/* Advances the index vector like an odometer; 0 after the last point. */
static int next_point(const clb_tune_space *s, int *idx)
{
    for (size_t i = 0; i < s->ndims; i++) {
        if ((size_t)++idx[i] < s->dims[i].count)
            return 1;
        idx[i] = 0;
    }
    return 0;
}

static int out_of_time(const search *x)
{
    return (x->o->max_evals && x->out->ncands >= x->o->max_evals) ||
           (x->out->ncands > 0 && x->o->budget_s > 0 && clb_now() - x->started > x->o->budget_s);
}

/* Index of the candidate at idx, or -1 when not measured yet. */
static long seen(const search *x, const int *idx)
{
    for (size_t c = 0; c < x->out->ncands; c++) {
        int same = 1;
        for (size_t i = 0; i < x->s->ndims && same; i++)
            same = x->out->cands[c].point[i] == x->s->dims[i].values[idx[i]];
        if (same)
            return (long)c;
    }
    return -1;
}

/* Measures the point at idx; returns its candidate index, or -1 out of memory. */
static long measure(search *x, const int *idx)
{
    clb_tune_run *r = x->out;
    if (!clb_grow(&r->cands, sizeof *r->cands, r->ncands, &x->cap))
        return -1;
    clb_tune_cand *c = &r->cands[r->ncands];
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < x->s->ndims; i++)
        c->point[i] = x->s->dims[i].values[idx[i]];
    c->status = x->eval(c->point, x->user, &c->seconds, c->why, sizeof c->why);
    if (c->status == CLB_STATUS_OK && !(isfinite(c->seconds) && c->seconds > 0)) {
        c->status = CLB_STATUS_INVALID_TIMING;
        snprintf(c->why, sizeof c->why, "the evaluation gave no positive finite time");
    }
    if (c->status == CLB_STATUS_OK && (r->best < 0 || c->seconds < r->cands[r->best].seconds))
        r->best = (long)r->ncands;
    return (long)r->ncands++;
}

static clb_error exhaustive(search *x, clb_diag *d)
{
    int idx[CLB_TUNE_MAX_DIMS] = {0};
    do {
        if (allowed(x, idx) && measure(x, idx) < 0)
            return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    } while (!out_of_time(x) && next_point(x->s, idx));
    return CLB_OK;
}

/* Hill-climbing from the best point: one index step up or down in each dimension, moving to
 * the first faster neighbour, until none is faster or the budget is spent. */
static clb_error climb(search *x, clb_diag *d)
{
    int improved = 1;
    while (improved && x->out->best >= 0 && !out_of_time(x)) {
        int base[CLB_TUNE_MAX_DIMS];
        const clb_tune_cand *b = &x->out->cands[x->out->best];
        for (size_t i = 0; i < x->s->ndims; i++)
            for (base[i] = 0; x->s->dims[i].values[base[i]] != b->point[i]; base[i]++)
                ;
        long before = x->out->best;
        improved = 0;
        for (size_t i = 0; i < x->s->ndims && !improved && !out_of_time(x); i++)
            for (int step = -1; step <= 1 && !improved && !out_of_time(x); step += 2) {
                int n[CLB_TUNE_MAX_DIMS];
                memcpy(n, base, sizeof n);
                n[i] += step;
                if (n[i] < 0 || (size_t)n[i] >= x->s->dims[i].count || !allowed(x, n) || seen(x, n) >= 0)
                    continue;
                if (measure(x, n) < 0)
                    return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
                improved = x->out->best != before;
            }
    }
    return CLB_OK;
}

/* Random sampling for half the budget (or of the evaluations), then hill-climbing. */
static clb_error sample_and_climb(search *x, double total, clb_diag *d)
{
    uint64_t st = x->o->seed | 1;
    size_t tries = 0, limit = (size_t)fmin(total * 4 + 64, 1e6);
    double half = x->o->budget_s > 0 ? x->o->budget_s / 2 : INFINITY;
    size_t half_evals = x->o->max_evals ? (x->o->max_evals + 1) / 2 : 0;
    while (tries++ < limit && !out_of_time(x) && !(x->out->ncands > 0 && clb_now() - x->started > half) &&
           !(half_evals && x->out->ncands >= half_evals)) {
        int idx[CLB_TUNE_MAX_DIMS];
        for (size_t i = 0; i < x->s->ndims; i++)
            idx[i] = (int)(clb_rand64(&st) % x->s->dims[i].count);
        if (!allowed(x, idx) || seen(x, idx) >= 0)
            continue;
        if (measure(x, idx) < 0)
            return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    }
    if (x->out->ncands == 0)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "random sampling found no allowed point in %zu tries", limit);
    return climb(x, d);
}

/* Number of allowed points; the product of the counts (unenumerated) when it is large. */
static double count_allowed(const search *x, double total)
{
    if (total > ENUMERATE_MAX)
        return total;
    int idx[CLB_TUNE_MAX_DIMS] = {0};
    double n = 0;
    do
        n += allowed(x, idx);
    while (next_point(x->s, idx));
    return n;
}

clb_error clb_tune_search(const clb_tune_space *s, clb_tune_eval eval, void *user,
                          const clb_tune_opts *o, clb_tune_run *out, clb_diag *d)
{
    clb_diag_clear(d);
    memset(out, 0, sizeof *out);
    out->best = -1;
    if (!s || !eval || !o || s->ndims == 0 || s->ndims > CLB_TUNE_MAX_DIMS)
        return clb_diag_set(d, CLB_ERR_USAGE, "tune: 1 to %d dimensions and an evaluation are needed", CLB_TUNE_MAX_DIMS);
    double total = 1;
    for (size_t i = 0; i < s->ndims; i++) {
        if (!s->dims[i].values || s->dims[i].count == 0)
            return clb_diag_set(d, CLB_ERR_USAGE, "tune: dimension %zu has no values", i);
        total *= (double)s->dims[i].count;
    }
    search x = {s, eval, user, o, out, 0, clb_now()};
    double n = count_allowed(&x, total);
    out->allowed = total > ENUMERATE_MAX ? 0 : (size_t)n;
    if (n == 0)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "no point of the %.0f in the space is allowed on this device", total);
    out->strategy = n <= (double)o->exhaustive_max ? "exhaustive" : "random+hill-climb";
    return n <= (double)o->exhaustive_max ? exhaustive(&x, d) : sample_and_climb(&x, total, d);
}

void clb_tune_table_params(clb_result *res, const clb_tune_run *run,
                           void (*config)(const int *point, char *buf, size_t n), double work,
                           double unit_factor, const char *rate_unit)
{
    cJSON *t = cJSON_CreateArray();
    char buf[128];
    for (size_t i = 0; t && i < run->ncands; i++) {
        const clb_tune_cand *k = &run->cands[i];
        cJSON *o = cJSON_CreateObject();
        config(k->point, buf, sizeof buf);
        cJSON_AddStringToObject(o, "config", buf);
        cJSON_AddStringToObject(o, "status", clb_status_name(k->status));
        if (k->status == CLB_STATUS_OK) {
            clb_json_number(o, "median_s", k->seconds);
            clb_json_number(o, "rate", work / k->seconds * unit_factor);
            cJSON_AddStringToObject(o, "rate_unit", rate_unit);
        } else {
            cJSON_AddStringToObject(o, "reason", k->why);
        }
        cJSON_AddBoolToObject(o, "winner", (long)i == run->best);
        cJSON_AddItemToArray(t, o);
    }
    clb_param_num(res, "tune_table", 0); /* creates params when absent */
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "tune_table");
    cJSON_AddItemToObject(res->params, "tune_table", t);
    clb_param_str(res, "tune_strategy", run->strategy ? run->strategy : "none");
}
