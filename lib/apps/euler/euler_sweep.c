/* app.euler.<problem>.<prec>.sweep_*: the seed's parameter sweeps as curves (seed 003, figures
 * 5.4/5.5 and 7.9/7.10: work-group size and count for the linear and diamond versions; 9.3/9.4:
 * the honeycomb's step count; 7.4: the diamond strategies against n, STRING only; 4.1: the
 * pthreads version against its thread count, on the host). Every point is measured and validated like a row; the headline
 * is the best point, with its samples. */
#include "apps/euler/euler.h"
#include "apps/app.h"

#include <stdlib.h>
#include <string.h>

#define SWEEP_REPS 3u

typedef struct best {
    double ns, x[SWEEP_REPS];
    unsigned n;
    const char *variant;
    size_t lsize, groups, hs;
    unsigned threads; /* sweep_threads */
    double setup_s, read_s, comps; /* the point's setup and timed readback (params.total_s), its n */
} best;

static cJSON *new_curve(cJSON *curves, const char *x_name, const char *label)
{
    cJSON *cv = clb_curve_new(x_name, "", "time per component and step", "ns", 1, label);
    cJSON_AddItemToArray(curves, cv);
    return clb_curve_points(cv);
}

/* A state for one variant that borrows the parent's initial state and reference. */
static clb_error open_variant(clb_ctx *c, const eu_state *p, eu_row *row, eu_kind kind, eu_state *s)
{
    double t0 = clb_now();
    *row = (eu_row){p->row->prob, p->row->fp64, kind, EU_KORR, 0, 0, 0};
    memset(s, 0, sizeof *s);
    s->row = row;
    s->o = p->o;
    s->steps = p->steps;
    s->elem = p->elem;
    s->threads = p->threads;
    s->tol = p->tol;
    s->tile_groups_per_cu = p->tile_groups_per_cu;
    s->y0 = p->y0;
    s->ridx = p->ridx;
    s->ref = p->ref;
    s->rcount = p->rcount;
    s->ref_steps = p->steps;
    s->out = malloc(s->o.n * s->elem);
    if (!s->out)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
    clb_error e = eu_cl_setup(c, s, 0, 0, 0);
    s->setup_s = p->setup_s + clb_now() - t0; /* the size's host data (sweep_n) and this build */
    return e;
}

static void close_variant(eu_state *s)
{
    eu_cl_release(s);
    free(s->out);
}

/* Measures and validates s as configured; appends [x, median] to points. A configuration the
 * device cannot take (work-group size above the kernel's limit) is skipped. */
static clb_error point(clb_ctx *c, eu_state *s, size_t lsize, size_t groups, size_t hs, double x,
                       cJSON *points, best *b, double *err)
{
    double v[SWEEP_REPS];
    unsigned n = 0;
    clb_stats st;
    if (eu_cl_configure(c, s, lsize, groups, hs) != CLB_OK)
        return c->diag.err;
    if (lsize && s->lsize != lsize)
        return CLB_OK;
    unsigned cap = clb_reps(c) < SWEEP_REPS ? clb_reps(c) : SWEEP_REPS;
    if (eu_measure(c, s, v, cap, &n) != CLB_OK || eu_check_output(c, s) != CLB_OK)
        return c->diag.err;
    if (clb_stats_compute(v, n, &st) != CLB_OK)
        return clb_diag_set(&c->diag, CLB_ERR_INVALID_TIMING, "samples are not finite");
    clb_curve_push(points, x, st.median);
    *err = s->err > *err ? s->err : *err;
    if (st.median < b->ns) {
        static const char *dia[3] = {"diamond_row_mult", "diamond_row_add", "diamond_row_korr"};
        double t0 = clb_now();
        if (eu_cl_read(c, s) != CLB_OK) /* the readback of the total time, timed alone */
            return c->diag.err;
        *b = (best){st.median, {0}, n, s->row->kind == EU_COALESCED ? "coalesced"
                                       : s->row->kind == EU_HONEYCOMB ? "honeycomb" : dia[s->row->strat],
                    s->lsize, s->groups, s->tiled ? s->geom.hs : 0, 0, s->setup_s, clb_now() - t0, (double)s->o.n};
        memcpy(b->x, v, n * sizeof *v);
    }
    return CLB_OK;
}

/* 1 when v occurs in vals[0..n). */
static int memchr_size(const size_t *vals, size_t n, size_t v)
{
    for (size_t i = 0; i < n; i++)
        if (vals[i] == v)
            return 1;
    return 0;
}

/* One series: the variant over a list of work-group counts or sizes. */
static clb_error series(clb_ctx *c, eu_state *p, eu_kind kind, int by_size, const size_t *vals,
                        size_t nv, cJSON *curves, best *b)
{
    eu_row row;
    eu_state s;
    cJSON *pts = new_curve(curves, by_size ? "work-items per group" : "work-groups",
                           kind == EU_COALESCED ? "coalesced" : "diamond_row (korrStrat)");
    clb_error e = open_variant(c, p, &row, kind, &s);
    for (size_t i = 0; e == CLB_OK && i < nv; i++)
        if (!i || memchr_size(vals, i, vals[i]) == 0)
            e = point(c, &s, by_size ? vals[i] : 0, by_size ? 0 : vals[i], 0, (double)vals[i], pts, b, &p->err);
    close_variant(&s);
    return e;
}

static clb_error sweep_groups(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    size_t cu = p->cu, half = cu / 2 ? cu / 2 : 1;
    const size_t lin[] = {half, cu, 2 * cu, 4 * cu, 8 * cu, 16 * cu, 32 * cu, 64 * cu};
    const size_t dia[] = {half, cu, cu + 1, 2 * cu, 2 * cu + 1, 3 * cu, 4 * cu};
    if (series(c, p, EU_COALESCED, 0, lin, 8, curves, b) != CLB_OK)
        return c->diag.err;
    return series(c, p, EU_DIA_ROW, 0, dia, 7, curves, b);
}

static clb_error sweep_local(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    const size_t ls[] = {16, 32, 64, 128, 256, 512, 1024};
    if (series(c, p, EU_COALESCED, 1, ls, 7, curves, b) != CLB_OK)
        return c->diag.err;
    return series(c, p, EU_DIA_ROW, 1, ls, 7, curves, b);
}

/* ---- the honeycomb's tile height on the tuning service (lib/core/tune.c) ---- */

typedef struct hc_tune {
    clb_ctx *c;
    eu_state *p, *s;
    cJSON *pts;
    best *b;
} hc_tune;

/* One honeycomb height: measured and validated by point() (which adds it to the curve); the
 * service gets its median. */
static clb_status hc_eval(const int *point_v, void *user, double *seconds, char *why, size_t n)
{
    hc_tune *t = user;
    int before = cJSON_GetArraySize(t->pts);
    clb_status st = CLB_STATUS_OK;
    if (point(t->c, t->s, 0, 0, (size_t)point_v[0], point_v[0], t->pts, t->b, &t->p->err) != CLB_OK ||
        cJSON_GetArraySize(t->pts) == before) {
        st = t->c->diag.err ? clb_status_from_error(t->c->diag.err) : CLB_STATUS_UNSUPPORTED;
        clb_diag_format(&t->c->diag, why, n);
        clb_diag_clear(&t->c->diag);
        return st;
    }
    *seconds = cJSON_GetArrayItem(cJSON_GetArrayItem(t->pts, before), 1)->valuedouble * 1e-9;
    return st;
}

static clb_error error_of(clb_status st)
{
    return st == CLB_STATUS_INVALID_RESULT   ? CLB_ERR_INVALID_RESULT
           : st == CLB_STATUS_INVALID_TIMING ? CLB_ERR_INVALID_TIMING
           : st == CLB_STATUS_BUILD_FAILED   ? CLB_ERR_BUILD
           : st == CLB_STATUS_UNSUPPORTED    ? CLB_ERR_UNSUPPORTED
                                             : CLB_ERR_CL;
}

static void hc_config(const int *point_v, char *buf, size_t n)
{
    snprintf(buf, n, "tile_steps=%d", point_v[0]);
}

/* The cache key of the honeycomb height: problem, precision, device, driver, size class. */
static clb_error hc_key(clb_ctx *c, const eu_state *s, char *key, size_t n)
{
    clb_diag *d = &c->diag;
    const clb_device_ref *ref = clb_device_reference(c->dev);
    char driver[128] = "", app[64];
    CLB_CL(d, clGetDeviceInfo(ref->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL));
    snprintf(app, sizeof app, "euler.honeycomb.%s.%s", s->o.prob == EU_STRING ? "string" : "bruss2d",
             s->row->fp64 ? "f64" : "f32");
    clb_tune_key(key, n, app, ref->device_name, driver, (double)s->o.n);
cleanup:
    return d->err;
}

/* Stores the winner's height (not under --quick: its sizes are not the row's). */
static void hc_store(clb_ctx *c, const eu_state *s, int hs, double ns)
{
    char path[4096], key[512];
    clb_diag d;
    if (c->opts->quick || hc_key(c, s, key, sizeof key) != CLB_OK ||
        clb_tune_cache_path(path, sizeof path, &d) != CLB_OK)
        return;
    cJSON *cache = clb_tune_cache_load(path, &d), *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "tile_steps", hs);
    clb_json_number(e, "ns_per_component_step", ns);
    clb_tune_cache_put(cache, key, e);
    if (clb_tune_cache_store(path, cache, &d) != CLB_OK)
        clb_param_str(c->res, "tune_cache_problem", d.msg);
    clb_param_str(c->res, "tune_key", key);
    clb_param_str(c->res, "tune_cache", path);
    clb_param_str(c->res, "tune_source", "search");
    cJSON_Delete(cache);
}

size_t eu_cached_tile_steps(clb_ctx *c, const eu_state *s)
{
    char path[4096], key[512];
    clb_diag d;
    size_t hs = 0;
    if (hc_key(c, s, key, sizeof key) != CLB_OK) {
        clb_diag_clear(&c->diag);
        return 0;
    }
    if (!c->opts->retune && !c->opts->quick && clb_tune_cache_path(path, sizeof path, &d) == CLB_OK) {
        cJSON *cache = clb_tune_cache_load(path, &d);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(clb_tune_cache_get(cache, key), "tile_steps");
        hs = cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble <= 1e6 ? (size_t)v->valuedouble : 0;
        cJSON_Delete(cache);
    }
    clb_param_str(c->res, "tune_key", key);
    clb_param_str(c->res, "tune_source", hs ? "cache" : "rule (dia_blocks x 2 / 25)");
    return hs;
}

/* Honeycomb steps 1, 2, 4, ... up to the diamond (dia_blocks / 2) or the run's step count: a
 * space searched whole by the tuning service; every height is a point of the curve, the
 * winner goes to the cache for the honeycomb row. */
static clb_error sweep_honeycomb(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    eu_row row;
    eu_state s;
    int vals[32];
    size_t nv = 0;
    clb_tune_run run = {0};
    clb_tune_opts o;
    hc_tune t = {c, p, &s, new_curve(curves, "honeycomb steps (tile half-height)", "honeycomb (korrStrat)"), b};
    clb_error e = open_variant(c, p, &row, EU_HONEYCOMB, &s);
    size_t top = s.geom.dia_blocks / 2 < p->steps ? s.geom.dia_blocks / 2 : p->steps;
    for (size_t hs = 1; hs <= top && nv < 32; hs *= 2)
        vals[nv++] = (int)hs;
    const clb_tune_dim dim = {"tile_steps", vals, nv};
    const clb_tune_space space = {&dim, 1, NULL, NULL};
    clb_tune_opts_default(&o);
    o.budget_s = 0; /* at most 32 heights: searched whole */
    if (e == CLB_OK && nv && clb_tune_search(&space, hc_eval, &t, &o, &run, &c->diag) == CLB_OK) {
        clb_tune_table_params(c->res, &run, hc_config, 1, 1e-9, "Gupdates/s");
        if (run.best >= 0)
            hc_store(c, &s, run.cands[run.best].point[0], run.cands[run.best].seconds * 1e9);
        else if (run.ncands) /* no height ran: the row fails as its first point did */
            clb_diag_set(&c->diag, error_of(run.cands[0].status), "tile_steps=%d: %s", run.cands[0].point[0],
                         run.cands[0].why);
    }
    e = c->diag.err;
    clb_tune_run_free(&run);
    close_variant(&s);
    return e;
}

static clb_error device_cu(clb_ctx *c, eu_state *s)
{
    clb_diag *d = &c->diag;
    cl_device_id dev = clb_device_reference(c->dev)->device;
    cl_uint cu = 0;
    cl_ulong lm = 0;
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    s->cu = cu ? cu : 1;
    s->local_mem = (size_t)lm;
cleanup:
    return d->err;
}

/* The three strategies at STRING sizes around n1, the largest n whose diamonds still fit one
 * per compute unit (seed figure 7.4): a state of its own per size (the kernel is specialized
 * on n), reconfigured per strategy. */
static clb_error sweep_strategies(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    static const char *label[3] = {"multStrat", "addStrat", "korrStrat"};
    const double f[] = {0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4};
    size_t fit = p->local_mem / (2 * 4 * p->elem), wmax = fit > 2 ? (fit - 2) / 2 * 2 : 0;
    double n1 = (double)(p->cu * wmax * 4);
    cJSON *pts[3];
    clb_error e = CLB_OK;
    for (int k = 0; k < 3; k++)
        pts[k] = new_curve(curves, "n (components)", label[k]);
    for (size_t i = 0; e == CLB_OK && i < sizeof f / sizeof f[0]; i++) {
        eu_row row = {EU_STRING, p->row->fp64, EU_DIA_ROW, EU_MULT, 0, 0, 0};
        eu_state s = {.row = &row, .steps = p->steps, .elem = p->elem, .threads = p->threads,
                      .tol = p->tol, .tile_groups_per_cu = p->tile_groups_per_cu};
        double t0 = clb_now();
        eu_ode_init(&s.o, EU_STRING, (size_t)(f[i] * n1) > 64 ? (size_t)(f[i] * n1) : 64);
        e = eu_prepare_host(c, &s);
        if (e == CLB_OK)
            e = eu_cl_setup(c, &s, 0, 0, 0);
        s.setup_s = clb_now() - t0;
        for (int k = 0; e == CLB_OK && k < 3; k++) {
            row.strat = (eu_strategy)k;
            e = point(c, &s, 0, 0, 0, (double)s.o.n, pts[k], b, &p->err);
        }
        eu_state_free(&s);
    }
    return e;
}

/* The thread counts swept: every count up to 16, then doubling, and the cores themselves. */
static unsigned next_threads(unsigned t, unsigned cores)
{
    if (t < 16 || t == cores)
        return t + 1;
    return t * 2 < cores ? t * 2 : cores;
}

/* Threads 1 .. cores: the pthreads code on the host, each count measured and validated like
 * the pthreads row (params: the one-thread time, the cores, the speedup of the best count). */
static clb_error sweep_threads(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    cJSON *pts = new_curve(curves, "threads", "pthreads");
    unsigned cores = p->threads, cap = clb_reps(c) < SWEEP_REPS ? clb_reps(c) : SWEEP_REPS;
    double one = 0;
    clb_error e = CLB_OK;
    for (unsigned t = 1; e == CLB_OK && t <= cores; t = next_threads(t, cores)) {
        double v[SWEEP_REPS];
        unsigned n = 0;
        clb_stats st;
        p->threads = t;
        if ((e = eu_measure(c, p, v, cap, &n)) != CLB_OK || (e = eu_check_output(c, p)) != CLB_OK)
            break;
        if (clb_stats_compute(v, n, &st) != CLB_OK)
            e = clb_diag_set(&c->diag, CLB_ERR_INVALID_TIMING, "samples are not finite");
        else {
            cJSON *pt = cJSON_CreateArray();
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(t));
            cJSON_AddItemToArray(pt, cJSON_CreateNumber(st.median));
            cJSON_AddItemToArray(pts, pt);
            one = t == 1 ? st.median : one;
            if (st.median < b->ns) {
                *b = (best){st.median, {0}, n, "pthreads", 0, 0, 0, t, 0, 0, (double)p->o.n}; /* host: no setup of its own, no readback */
                memcpy(b->x, v, n * sizeof *v);
            }
        }
    }
    clb_param_num(c->res, "host_cores", cores);
    if (e == CLB_OK && one > 0 && b->n) {
        clb_param_num(c->res, "one_thread_ns", one);
        clb_param_num(c->res, "speedup_best_over_one_thread", one / b->ns);
    }
    p->threads = b->threads ? b->threads : cores;
    return e;
}

/* Seed 003's strategy comparison (figures 9.5-9.8, STRING): the linear version (coalesced, seed
 * 5.2), the korrStrat row diamonds and the honeycomb against n = 1/16 .. 2 x the row's n. Per
 * size one host state and reference, shared by the three variants; a variant the size does not
 * fit (too few blocks for a diamond) leaves its point out. */
static clb_error sweep_n(clb_ctx *c, eu_state *p, cJSON *curves, best *b)
{
    static const eu_kind kinds[3] = {EU_COALESCED, EU_DIA_ROW, EU_HONEYCOMB};
    static const char *label[3] = {"linear (coalesced, seed 5.2)", "diamond_row_korr", "honeycomb"};
    const double f[] = {1.0 / 16, 1.0 / 8, 0.25, 0.5, 1, 2};
    cJSON *pts[3];
    clb_error e = CLB_OK;
    for (int k = 0; k < 3; k++)
        pts[k] = new_curve(curves, "n (components)", label[k]);
    for (size_t i = 0; e == CLB_OK && i < sizeof f / sizeof f[0]; i++) {
        eu_state ps = {.row = p->row, .steps = p->steps, .elem = p->elem, .threads = p->threads,
                       .tol = p->tol, .tile_groups_per_cu = p->tile_groups_per_cu};
        size_t n = (size_t)(f[i] * (double)p->o.n);
        double t0 = clb_now();
        eu_ode_init(&ps.o, EU_STRING, n > 64 ? n : 64);
        ps.ref_steps = ps.steps;
        e = eu_prepare_host(c, &ps);
        ps.setup_s = clb_now() - t0;
        if (e == CLB_OK && eu_reference(&ps.o, ps.steps, ps.threads, &ps.ridx, &ps.ref, &ps.rcount) != CLB_OK)
            e = clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory for the reference");
        for (int k = 0; e == CLB_OK && k < 3; k++) {
            eu_row row;
            eu_state s;
            e = open_variant(c, &ps, &row, kinds[k], &s);
            if (e == CLB_OK)
                e = point(c, &s, 0, 0, 0, (double)ps.o.n, pts[k], b, &p->err);
            close_variant(&s);
            if (e == CLB_ERR_UNSUPPORTED) { /* this size does not fit the variant: no point */
                clb_diag_clear(&c->diag);
                e = CLB_OK;
            }
        }
        eu_state_free(&ps);
    }
    return e;
}

clb_error eu_sweep(clb_ctx *c, eu_state *s, clb_result *res)
{
    clb_diag *d = &c->diag;
    best b = {.ns = 1e300};
    cJSON *curves = cJSON_CreateArray();
    if (!curves)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    int host = s->row->sweep == 4;
    /* params.total_s: the row's setup before the sweep (sizes, host data), the best point's own
     * setup (its build and upload; sweep_n: its size's host data too), its kernel time and a timed
     * readback of its output */
    double pre_s = c->started > 0 ? clb_now() - c->started : -1;
    if (!host && device_cu(c, s) != CLB_OK)
        goto cleanup;
    s->ref_steps = s->steps;
    if (eu_reference(&s->o, s->steps, s->threads, &s->ridx, &s->ref, &s->rcount) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for the reference");
    clb_error e = s->row->sweep == 0   ? sweep_groups(c, s, curves, &b)
                  : s->row->sweep == 1 ? sweep_local(c, s, curves, &b)
                  : s->row->sweep == 2 ? sweep_honeycomb(c, s, curves, &b)
                  : s->row->sweep == 3 ? sweep_strategies(c, s, curves, &b)
                  : s->row->sweep == 5 ? sweep_n(c, s, curves, &b)
                                       : sweep_threads(c, s, curves, &b);
    if (e != CLB_OK)
        goto cleanup;
    if (!b.n)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "no configuration of the sweep ran on this device");
    if (clb_result_set_samples(res, b.x, b.n, "ns", 0,
                               host ? "wall_clock_monotonic per run"
                                    : "cl_event_profiling first START->last END, wall-clock checked") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    eu_record(res, s, res->value);
    cJSON_DeleteItemFromObject(res->params, "bytes_per_component_step"); /* depend on the point */
    cJSON_DeleteItemFromObject(res->params, "effective_bandwidth_gbs");
    cJSON_DeleteItemFromObject(res->params, "bytes"); /* no roofline point: bytes depend on the point */
    clb_param_str(res, "best_variant", b.variant);
    if (host)
        clb_param_num(res, "best_threads", b.threads);
    else {
        clb_param_num(res, "best_local_size", (double)b.lsize);
        clb_param_num(res, "best_work_groups", (double)b.groups);
    }
    if (b.hs)
        clb_param_num(res, "best_tile_steps", (double)b.hs);
    if (pre_s >= 0)
        app_total_parts(c, pre_s + b.setup_s, b.ns * 1e-9 * b.comps * (double)s->steps, b.read_s);
    cJSON_AddItemToObject(res->params, "curves", curves);
    curves = NULL;
cleanup:
    cJSON_Delete(curves);
    return d->err;
}
