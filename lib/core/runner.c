/* The measurement core: program builds, calibration, warm-up, repetitions, event timing
 * cross-checked with the wall clock, validation, and the result's statistics. */
#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_run_opts_default(clb_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->target_s = 0.05;
    o->watchdog_s = 0.2;
    o->warmup = 1;
    o->reps = 10;
}

unsigned clb_reps(const clb_ctx *c)
{
    unsigned r = c->opts->reps ? c->opts->reps : 1;
    return c->opts->time_budget_s > 0 && r < 3 ? 3 : r;
}

/* Upper bound on repetitions under a time budget, so samples stay storable. */
#define CLB_MAX_REPS 100000u

int clb_more_reps(const clb_ctx *c, unsigned i, double started)
{
    if (c->opts->time_budget_s > 0)
        return i < 3 || (i < CLB_MAX_REPS && clb_now() - started < c->opts->time_budget_s);
    return i < clb_reps(c);
}

/* Stores the build log of a failed build in the result's params. */
static void keep_build_log(clb_ctx *c, cl_program prog)
{
    cl_device_id dev = clb_device_reference(c->dev)->device;
    size_t n = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS)
        return;
    char *log = calloc(n + 1, 1);
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS)
        clb_param_str(c->res, "build_log", log);
    free(log);
}

/* Fails d with build_failed (the build log in params) after a failed clBuildProgram. */
static void build_failed(clb_ctx *c, const char *name, cl_program prog)
{
    clb_diag *d = &c->diag;
    if (d->err == CLB_ERR_CL && (d->cl_err == CL_BUILD_PROGRAM_FAILURE || d->cl_err == CL_COMPILE_PROGRAM_FAILURE)) {
        keep_build_log(c, prog);
        clb_diag_set(d, CLB_ERR_BUILD, "building %s.cl failed (%s); see params.build_log", name,
                     clb_cl_error_name(CL_BUILD_PROGRAM_FAILURE));
    }
}

static clb_error build_source(clb_ctx *c, const char *name, const char *prefix, const char *src, const char *all,
                              cl_program *out)
{
    clb_diag *d = &c->diag;
    cl_program prog = NULL;
    const char *parts[2] = {prefix ? prefix : "", src};
    cl_device_id dev = clb_device_reference(c->dev)->device;
    CLB_CL(d, prog = clCreateProgramWithSource(clb_device_context(c->dev), 2, parts, NULL, CLB_ERRP));
    CLB_CL(d, clBuildProgram(prog, 1, &dev, all, NULL, NULL));
cleanup:
    build_failed(c, name, prog);
    if (d->err != CLB_OK && prog) {
        clReleaseProgram(prog);
        prog = NULL;
    }
    *out = prog;
    return d->err;
}

unsigned char *clb_program_binary(cl_program prog, size_t *len)
{
    unsigned char *bin = NULL;
    *len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL) != CL_SUCCESS || *len == 0 ||
        !(bin = malloc(*len)))
        return NULL;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        return NULL;
    }
    return bin;
}

clb_error clb_build_binary(clb_ctx *c, const unsigned char *bin, size_t len, const char *options, cl_program *out)
{
    clb_diag *d = &c->diag;
    cl_program prog = NULL;
    cl_int status = CL_SUCCESS;
    cl_device_id dev = clb_device_reference(c->dev)->device;
    clb_diag_clear(d);
    CLB_CL(d, prog = clCreateProgramWithBinary(clb_device_context(c->dev), 1, &dev, &len, &bin, &status, CLB_ERRP));
    CLB_CL(d, status);
    CLB_CL(d, clBuildProgram(prog, 1, &dev, options, NULL, NULL));
cleanup:
    if (d->err != CLB_OK && prog) {
        clReleaseProgram(prog);
        prog = NULL;
    }
    *out = prog;
    return d->err;
}

/* params.binary_cache: the worst outcome of the row's builds (rebuilt > miss > hit), and the
 * counts; a rejected entry's reason in params.binary_cache_warning (the CLI prints it). */
static void note_cache(clb_ctx *c, const char *name, clb_bincache_outcome o, const char *why)
{
    static const char *const word[] = {"miss", "hit", "rebuilt"};
    static const int rank[] = {1, 0, 2};
    const cJSON *was = cJSON_GetObjectItemCaseSensitive(c->res->params, "binary_cache");
    int prev = -1;
    for (int i = 0; i < 3 && cJSON_IsString(was); i++)
        if (strcmp(was->valuestring, word[i]) == 0)
            prev = rank[i];
    if (rank[o] > prev)
        clb_param_str(c->res, "binary_cache", word[o]);
    const char *count = o == CLB_BINCACHE_HIT ? "binary_cache_hits" : "binary_cache_misses";
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(c->res->params, count);
    clb_param_num(c->res, count, (cJSON_IsNumber(n) ? n->valuedouble : 0) + 1);
    if (why && *why) {
        char w[512];
        snprintf(w, sizeof w, "kernel %s: cached binary rejected (%s); rebuilt from source", name, why);
        clb_param_str(c->res, "binary_cache_warning", w);
    }
}

/* Through the cache: a valid entry is loaded; else the source is built and its binary stored. */
static clb_error build_cached(clb_ctx *c, const char *name, const char *prefix, const char *src, const char *all,
                              clb_build_info *info, cl_program *out)
{
    const char *dir = c->opts->binary_cache_dir;
    unsigned char *bin = NULL;
    size_t len = 0;
    char why[256] = "";
    double t = clb_now();
    memset(info->phase_s, 0, sizeof info->phase_s);
    info->outcome = clb_bincache_read(dir, info->key, &bin, &len, why, sizeof why);
    info->phase_s[CLB_PHASE_READ] = clb_now() - t;
    if (info->outcome == CLB_BINCACHE_HIT && clb_build_binary(c, bin, len, all, out) != CLB_OK) {
        snprintf(why, sizeof why, "the driver refused it: %.200s", c->diag.msg);
        info->outcome = CLB_BINCACHE_REBUILT;
    }
    info->phase_s[CLB_PHASE_BINARY_BUILD] = clb_now() - t - info->phase_s[CLB_PHASE_READ];
    free(bin);
    if (info->outcome == CLB_BINCACHE_REBUILT)
        clb_bincache_remove(dir, info->key);
    if (info->outcome != CLB_BINCACHE_HIT) {
        clb_diag_clear(&c->diag);
        t = clb_now();
        if (build_source(c, name, prefix, src, all, out) != CLB_OK)
            return c->diag.err;
        info->phase_s[CLB_PHASE_SOURCE_BUILD] = clb_now() - t;
        /* stored at once when rejected (it was cached before) or asked for, else on its second build */
        info->stored = info->outcome == CLB_BINCACHE_REBUILT || info->store_now || clb_bincache_admit(dir, info->key);
        if (!info->stored) {
            note_cache(c, name, info->outcome, why);
            return CLB_OK;
        }
        char werr[256];
        bin = clb_program_binary(*out, &len);
        info->phase_s[CLB_PHASE_EXPORT] = clb_now() - t - info->phase_s[CLB_PHASE_SOURCE_BUILD];
        t = clb_now();
        if (bin && clb_bincache_write(dir, info->key, bin, len, werr, sizeof werr) != 0)
            clb_param_str(c->res, "binary_cache_store_failed", werr);
        info->phase_s[CLB_PHASE_STORE] = clb_now() - t;
        free(bin);
    }
    note_cache(c, name, info->outcome, why);
    return CLB_OK;
}

clb_error clb_build_with(clb_ctx *c, const char *name, const char *prefix, const char *options, int use_cache,
                         clb_build_info *info, cl_program *out)
{
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    *out = NULL;
    info->cached = 0;
    const char *src = clb_kernel_source(name);
    if (!src)
        return clb_diag_set(d, CLB_ERR_USAGE, "no embedded kernel named %s", name);
    /* clb_settings.build_options (clbench suite --variant, docs/suite.md) ends every build's options. */
    const char *extra = clb_settings_get()->build_options;
    char all[2048];
    snprintf(all, sizeof all, "%s%s%s", options ? options : "", extra && *extra ? " " : "", extra ? extra : "");
    if (extra && *extra)
        clb_param_str(c->res, "extra_build_options", extra);
    const clb_device_ref *r = clb_device_reference(c->dev);
    info->store_now = use_cache == CLB_CACHE_STORE_NOW;
    info->stored = 0;
    info->cached = use_cache && c->opts->binary_cache_dir && *c->opts->binary_cache_dir &&
                   clb_bincache_key(r->platform, r->device, name, all, prefix, src, info->key, sizeof info->key);
    if (!info->cached)
        return build_source(c, name, prefix, src, all, out);
    return build_cached(c, name, prefix, src, all, info, out);
}

clb_error clb_build(clb_ctx *c, const char *name, const char *prefix, const char *options,
                    cl_program *out)
{
    clb_build_info info;
    return clb_build_with(c, name, prefix, options, CLB_CACHE_ON, &info, out);
}

/* ---- timing one launch ---- */

typedef struct launch_time {
    double event_s; /* START -> END from profiling */
    double wall_s;  /* enqueue -> completion on the host's monotonic clock */
    int over;       /* the event outlasted the wall clock: event_s is not trustworthy */
} launch_time;

static clb_error time_launch(clb_ctx *c, const clb_workload *w, uint64_t scale, launch_time *t)
{
    clb_diag *d = &c->diag;
    cl_event ev = NULL;
    cl_ulong ts[4];
    clb_diag_clear(d);
    double t0 = clb_now();
    if (w->enqueue(w->state, scale, &ev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clWaitForEvents(1, &ev));
    t->wall_s = clb_now() - t0;
    if (clb_event_times(ev, ts, d) != CLB_OK)
        goto cleanup;
    if (ts[3] <= ts[2])
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "profiling END (%llu) is not after START (%llu)",
                 (unsigned long long)ts[3], (unsigned long long)ts[2]);
    t->event_s = 1e-9 * (double)(ts[3] - ts[2]);
    /* An event cannot last longer than the host waited for it (2% and 50 us of slack for
     * clock granularity); if it does, the profiling clock is not trustworthy and the
     * wall clock stands in (clb_measure records the fallback). */
    t->over = clb_event_outlasts_wall(t->event_s, t->wall_s);
    if (t->over)
        t->event_s = t->wall_s;
cleanup:
    clb_release_event(ev);
    return d->err;
}

/* Grows scale until one launch takes about target_s, stepping so that the predicted time
 * stays below half the watchdog budget; a launch over the budget steps back. */
static clb_error calibrate(clb_ctx *c, const clb_workload *w, uint64_t *scale)
{
    const clb_run_opts *o = c->opts;
    uint64_t s = w->min_scale ? w->min_scale : 1;
    uint64_t max = w->max_scale > s ? w->max_scale : s;
    launch_time t;
    /* Twice at the start size: the first launch pays one-time costs (JIT, page faults). */
    if (time_launch(c, w, s, &t) != CLB_OK || time_launch(c, w, s, &t) != CLB_OK)
        return c->diag.err;
    for (int step = 0; !o->quick && step < 64 && t.event_s < 0.8 * o->target_s && s < max; step++) {
        double f = o->target_s / t.event_s;
        double cap = 0.5 * o->watchdog_s / t.event_s;
        f = f < 1.25 ? 1.25 : f > 64 ? 64 : f;
        f = f > cap ? cap : f;
        double want = (double)s * f;
        uint64_t next = want >= (double)max ? max : (uint64_t)want;
        if (next <= s)
            break;
        launch_time tn;
        if (time_launch(c, w, next, &tn) != CLB_OK)
            return c->diag.err;
        if (tn.event_s > o->watchdog_s)
            break; /* nonlinear growth: keep the last size that fitted */
        s = next;
        t = tn;
    }
    if (t.event_s > o->watchdog_s)
        return clb_diag_set(&c->diag, CLB_ERR_INVALID_TIMING,
                            "one launch at the smallest size takes %.3f s, above the watchdog "
                            "budget of %.3f s",
                            t.event_s, o->watchdog_s);
    *scale = s;
    return CLB_OK;
}

clb_error clb_validate(clb_ctx *c, void *state, cl_mem output, size_t output_bytes)
{
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    if (clb_fault_apply(c, output, output_bytes) != CLB_OK)
        goto cleanup;
    if (!c->bench->validate)
        CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "benchmark %s has no validation", c->bench->name);
    if (c->bench->validate(c, state, d) != CLB_OK && d->err == CLB_OK)
        d->err = CLB_ERR_INVALID_RESULT;
cleanup:
    return d->err;
}

/* Records how the measurement was made, next to its samples. */
static void record_timing_params(clb_ctx *c, uint64_t scale, double work, const double *ev,
                                 const double *wall, unsigned n)
{
    clb_stats se, sw;
    clb_stats_compute(ev, n, &se);
    clb_stats_compute(wall, n, &sw);
    clb_param_num(c->res, "scale", (double)scale);
    clb_param_num(c->res, "work_per_launch", work);
    clb_param_num(c->res, "launch_time_median_s", se.median);
    clb_param_num(c->res, "wall_time_median_s", sw.median);
    clb_param_num(c->res, "warmup", c->opts->warmup);
    clb_param_num(c->res, "target_s", c->opts->target_s);
    clb_param_num(c->res, "watchdog_s", c->opts->watchdog_s);
}

clb_error clb_measure(clb_ctx *c, const clb_workload *w)
{
    clb_diag *d = &c->diag;
    const clb_run_opts *o = c->opts;
    uint64_t scale = 0;
    unsigned cap = o->time_budget_s > 0 ? CLB_MAX_REPS : clb_reps(c), n = 0;
    double *x = malloc(cap * sizeof *x), *ev = malloc(cap * sizeof *ev),
           *wall = malloc(cap * sizeof *wall);
    launch_time t;
    if (!x || !ev || !wall)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    /* Every measurement (every screened variant's) starts from a poisoned output, so that
     * work it skips cannot pass on what an earlier variant left there. */
    if (w->output && !w->output_is_input && clb_poison(c, w->output, w->output_bytes) != CLB_OK)
        goto cleanup;
    if (calibrate(c, w, &scale) != CLB_OK)
        goto cleanup;
    for (unsigned i = 0; i < o->warmup; i++)
        if (time_launch(c, w, scale, &t) != CLB_OK)
            goto cleanup;
    double work = w->work(w->state, scale), started = clb_now();
    int over = 0;
    for (n = 0; n < cap && clb_more_reps(c, n, started); n++) {
        if (time_launch(c, w, scale, &t) != CLB_OK)
            goto cleanup;
        ev[n] = t.event_s;
        wall[n] = t.wall_s;
        over += t.over;
    }
    /* One clock for every sample: the wall clock for all once the events failed once. */
    for (unsigned i = 0; i < n; i++) {
        double secs = over ? wall[i] : ev[i];
        x[i] = w->per_work_time ? secs / work * w->unit_factor : work / secs * w->unit_factor;
    }
    if (clb_validate(c, w->state, w->output,
                     w->output_written ? w->output_written(w->state) : w->output_bytes) != CLB_OK)
        goto cleanup;
    record_timing_params(c, scale, work, ev, wall, n);
    if (over)
        clb_param_str(c->res, "timing_fallback",
                      "a profiling event outlasted the host's wall clock around it; every sample is the wall clock");
    if (clb_result_set_samples(c->res, x, n, w->unit, !w->per_work_time,
                               over ? "wall_clock_monotonic enqueue->wait (fallback)"
                                    : "cl_event_profiling START->END, wall-clock checked") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
cleanup:
    free(x);
    free(ev);
    free(wall);
    return d->err;
}

/* Why the device cannot run b, or NULL. */
static const char *missing_capability(clb_device *dev, const clb_bench *b)
{
    cl_bool compiler = CL_FALSE;
    if ((b->requires & CLB_REQ_FP64) && !clb_device_has_fp64(dev))
        return "the device has no double precision (no cl_khr_fp64, CL_DEVICE_DOUBLE_FP_CONFIG is 0)";
    if ((b->requires & CLB_REQ_FP16) && !clb_device_has_fp16(dev))
        return "the device has no half precision arithmetic (no cl_khr_fp16)";
    clGetDeviceInfo(clb_device_reference(dev)->device, CL_DEVICE_COMPILER_AVAILABLE,
                    sizeof compiler, &compiler, NULL);
    if (!compiler)
        return "the device has no online compiler (CL_DEVICE_COMPILER_AVAILABLE is false)";
    return NULL;
}

clb_error clb_bench_run_unjudged(clb_device *dev, const clb_bench *b, const clb_run_opts *o,
                                 clb_result *res)
{
    clb_run_opts defaults;
    if (!o) {
        clb_run_opts_default(&defaults);
        o = &defaults;
    }
    if (clb_result_init(res, b->name, b->group) != CLB_OK)
        return CLB_ERR_NOMEM;
    const char *missing = missing_capability(dev, b);
    if (missing) {
        clb_result_fail(res, CLB_STATUS_UNSUPPORTED, missing);
        return CLB_OK;
    }
    clb_shrink sh = {0, 0, 0, 0, ""};
    const uint32_t poison = clb_poison_draw();
    clb_ctx c;
    clb_error e;
    for (;;) { /* shrink-and-retry: clb_shrink_size halves the size of the next attempt */
        c = (clb_ctx){.dev = dev, .bench = b, .opts = o, .res = res, .shrink = &sh, .poison = poison,
                      .started = clb_now()};
        e = b->run(&c, res);
        if (e == CLB_OK || !sh.more || !clb_alloc_failed(&c.diag))
            break;
        clb_diag_format(&c.diag, sh.reason, sizeof sh.reason);
        sh.halvings++;
        sh.more = 0;
        clb_result_free(res);
        if (clb_result_init(res, b->name, b->group) != CLB_OK)
            return CLB_ERR_NOMEM;
    }
    if (sh.halvings > 0) { /* here, not in the row: rows may replace their params */
        clb_param_num(res, "size_shrunk_from", (double)sh.from);
        clb_param_num(res, "size_shrunk_to", (double)sh.to);
        clb_param_str(res, "size_shrunk_reason", sh.reason);
    }
    if (e != CLB_OK) {
        char why[sizeof res->reason];
        clb_diag_format(&c.diag, why, sizeof why);
        clb_result_fail(res, clb_status_from_error(e), why);
    } else if (res->status == CLB_STATUS_ERROR && strcmp(res->reason, "not run") == 0) {
        clb_result_fail(res, CLB_STATUS_ERROR, "benchmark returned without a result");
    }
    return CLB_OK;
}
