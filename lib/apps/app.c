/* The application layer's shared pieces: fixed-size timing, sizes, and the post-pass that
 * relates app rows to each other and to the device's peaks (clb_apps_annotate). */
#include "app.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

clb_error app_launch(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                     const size_t *local, double *seconds, clb_diag *d)
{
    return clb_launch_timed(q, k, dims, global, local, seconds, d);
}

clb_error app_parallel(unsigned n, void *jobs, size_t job_size, void *(*fn)(void *), clb_diag *d)
{
    pthread_t *tid = calloc(n, sizeof *tid);
    unsigned started = 0;
    clb_diag_clear(d);
    if (!tid)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (; started < n; started++)
        if (pthread_create(&tid[started], NULL, fn, (char *)jobs + started * job_size) != 0)
            CLB_FAIL(d, CLB_ERR_NOMEM, "pthread_create failed after %u threads", started);
cleanup:
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    return d->err;
}

clb_error app_measure(clb_ctx *c, const app_timing *t)
{
    clb_diag *d = &c->diag;
    unsigned cap = clb_reps(c) < 3 ? 3 : clb_reps(c), n = 0;
    double *x = malloc(cap * sizeof *x), s = 0, wall_sum = 0;
    clb_diag_clear(d);
    if (!x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < c->opts->warmup; i++)
        if (t->once(t->state, &s, d) != CLB_OK)
            goto cleanup;
    double started = clb_now();
    while (n < clb_reps(c) && !(n >= 3 && clb_now() - started > APP_REP_BUDGET_S)) {
        if (t->once(t->state, &s, d) != CLB_OK)
            goto cleanup;
        if (!(s > 0))
            CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "a run took no measurable time");
        x[n++] = t->work / s * t->factor;
        wall_sum += s;
    }
    if (clb_validate(c, t->state, t->output, t->output_bytes) != CLB_OK)
        goto cleanup;
    clb_param_num(c->res, "reps_taken", n);
    clb_param_num(c->res, "work_per_run", t->work);
    clb_param_num(c->res, "mean_run_s", wall_sum / n);
    if (clb_result_set_samples(c->res, x, n, t->unit, 1, t->timer) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
cleanup:
    free(x);
    return d->err;
}

double app_rep_budget_s(void)
{
    const char *v = getenv("CLBENCH_APP_REP_BUDGET_S");
    char *end = NULL;
    unsigned long s = v && *v ? strtoul(v, &end, 10) : 0;
    return end && *end == '\0' && s > 0 && s <= 86400 ? (double)s : 3.0;
}

size_t app_size(const clb_ctx *c, const char *env, size_t quick_n, size_t cpu_n, size_t gpu_n)
{
    const char *v = getenv(env);
    if (v && *v) {
        char *end = NULL;
        unsigned long long n = strtoull(v, &end, 10);
        if (end && *end == '\0' && n > 0)
            return clb_shrink_size(c, (size_t)n, 16);
    }
    size_t n = c->opts->quick ? quick_n
               : (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) ? cpu_n : gpu_n;
    return clb_shrink_size(c, n, 16); /* halved after an allocation failure */
}

unsigned app_host_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

double app_uniform(uint64_t *state)
{
    return (double)(clb_rand64(state) >> 11) * 0x1p-52 - 1.0;
}

/* ---- the post-pass ---- */

static const cJSON *find_ok(const cJSON *results, const char *name)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(r, "name");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");
        if (cJSON_IsString(nm) && strcmp(nm->valuestring, name) == 0 && cJSON_IsString(st) &&
            strcmp(st->valuestring, "ok") == 0 &&
            cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "value")))
            return r;
    }
    return NULL;
}

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
            find_ok(results, cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring) == r) {
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
    const cJSON *seq = find_ok(results, name);
    if (seq && seq != r)
        put(r, "speedup_vs_sequential", value_of(r) / value_of(seq));
    /* A seed's rung: against the seed's own sequential baseline, to set beside its speedup. */
    const char *seed_seq = param_str(r, "seed_sequential_row");
    const cJSON *sseq = seed_seq ? find_ok(results, seed_seq) : NULL;
    if (sseq && sseq != r)
        put(r, "speedup_vs_seed_sequential", value_of(r) / value_of(sseq));
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
    const cJSON *blas = find_ok(results, name);
    if (blas && blas != r)
        put(r, "ratio_vs_clblast", value_of(r) / value_of(blas));
    const cJSON *pk = peer ? find_ok(results, peer) : NULL;
    if (pk && strncmp(peer, "compute.", 8) == 0)
        put(r, "pct_of_compute_peak", 100.0 * value_of(r) / value_of(pk));
    else if (pk)
        put(r, "pct_of_triad", 100.0 * value_of(r) / value_of(pk));
}

void clb_apps_annotate(cJSON *results)
{
    cJSON *r;
    cJSON_ArrayForEach(r, results) {
        if (param_str(r, "app") && find_ok(results, cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring) == r)
            annotate_one(results, r);
    }
}
