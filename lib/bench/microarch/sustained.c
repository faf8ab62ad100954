/* sustained.*: FP32 FMA throughput held for a while (CLBENCH_SUSTAINED_S seconds, 60 by
 * default, 2 under --quick), one throughput sample per second, with SM clock, temperature
 * and power from NVML where it exists (loaded with dlopen; no NVML headers needed) and the
 * CPU clock from cpufreq on CPU devices, so that boost at the start and throttling later
 * show as a curve. The kernel configuration (vector width x chains) is the best of a short
 * search, so the whole device is loaded (near compute.fp32.fma); a rate that falls by more
 * than 5% from its first seconds makes the result throttled. */
#include "bench/microarch/microarch.h"
#include "core/grow.h"
#include "device/nvml.h"

#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NVML through the shared loader (lib/device/nvml.c); m is NULL when there is none, and
 * why_nvml says why. */
static void nvml_read(const clb_nvml *m, double *mhz, double *temp, double *watts)
{
    *mhz = *temp = *watts = NAN;
    if (m)
        clb_nvml_read(m, mhz, temp, watts);
}

/* ---- CPU clock ---- */

/* Mean current clock over the CPUs in MHz from cpufreq (scaling_cur_freq, kHz), else from
 * /proc/cpuinfo's "cpu MHz" lines; NaN when neither exists. *src names the source. */
static double cpu_clock_mhz(const char **src)
{
    glob_t g;
    double sum = 0;
    size_t n = 0;
    char line[256];
    if (glob("/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            FILE *f = fopen(g.gl_pathv[i], "r");
            double khz = 0;
            if (f && fscanf(f, "%lf", &khz) == 1 && khz > 0)
                sum += khz / 1000, n++;
            if (f)
                fclose(f);
        }
        globfree(&g);
    }
    *src = "cpufreq scaling_cur_freq, mean over CPUs";
    if (n)
        return sum / (double)n;
    FILE *f = fopen("/proc/cpuinfo", "r");
    double mhz = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > 0)
            sum += mhz, n++;
    if (f)
        fclose(f);
    *src = n ? "/proc/cpuinfo cpu MHz, mean over CPUs (no cpufreq)" : "unknown (no cpufreq, no cpu MHz)";
    return n ? sum / (double)n : NAN;
}

/* ---- the run ---- */

typedef struct sus_cfg {
    unsigned width, chains;
} sus_cfg;

typedef struct sus_state {
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem in, out;
    float *hin, a, b;
    size_t gsz, lsz;
    cl_int iters;
    sus_cfg cfg;
    int cpu;            /* CPU device: clock from cpufreq */
    const char *clock_src;
} sus_state;

typedef struct series {
    double *t, *gflops, *mhz, *temp, *watts;
    size_t n, cap;
} series;

static double duration_s(const clb_ctx *c)
{
    double v = clb_settings_get()->sustained_s;
    if (v > 0 && v <= 3600)
        return v;
    return c->opts->quick ? 2 : 60;
}

static double flops_per_launch(const sus_state *s)
{
    return 2.0 * 16 * s->cfg.width * s->cfg.chains * (double)s->iters * (double)s->gsz;
}

static int series_push(series *s, double t, double g, const clb_nvml *m, sus_state *st)
{
    void *const arr[] = {&s->t, &s->gflops, &s->mhz, &s->temp, &s->watts};
    const size_t sz[] = {sizeof *s->t, sizeof *s->gflops, sizeof *s->mhz, sizeof *s->temp, sizeof *s->watts};
    if (!clb_grow_all(arr, sz, 5, s->n, &s->cap))
        return -1;
    s->t[s->n] = t;
    s->gflops[s->n] = g;
    nvml_read(m, &s->mhz[s->n], &s->temp[s->n], &s->watts[s->n]);
    if (st->cpu)
        s->mhz[s->n] = cpu_clock_mhz(&st->clock_src);
    s->n++;
    return 0;
}

static void series_free(series *s)
{
    free(s->t);
    free(s->gflops);
    free(s->mhz);
    free(s->temp);
    free(s->watts);
}

/* Launches back to back for the duration; one point per second of FLOPs over kernel time. */
static clb_error hold(clb_ctx *c, sus_state *s, const clb_nvml *m, double secs, series *out)
{
    double flops = flops_per_launch(s), t0 = clb_now();
    double acc_f = 0, acc_t = 0, next = t0 + 1.0, t = 0;
    while (clb_now() - t0 < secs) {
        if (clb_ua_time(c, s->k, s->gsz, s->lsz, &t) != CLB_OK)
            return c->diag.err;
        acc_f += flops;
        acc_t += t;
        if (clb_now() >= next) {
            if (series_push(out, clb_now() - t0, 1e-9 * acc_f / acc_t, m, s) != 0)
                return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
            acc_f = acc_t = 0;
            next += 1.0;
        }
    }
    if (out->n == 0 && acc_t > 0 && series_push(out, clb_now() - t0, 1e-9 * acc_f / acc_t, m, s) != 0)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
    return CLB_OK;
}

static double mean(const double *x, size_t n)
{
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            s += x[i], k++;
    return k ? s / (double)k : NAN;
}

static void report_clocks(clb_result *res, const series *s, const clb_nvml *m, const sus_state *st)
{
    if (m) {
        clb_ua_curve(res, "sm_clock", "time", "s", "SM clock", "MHz", 0, s->t, s->mhz, s->n);
        clb_ua_curve(res, "temperature", "time", "s", "GPU temperature", "C", 0, s->t, s->temp, s->n);
        clb_ua_curve(res, "power", "time", "s", "board power", "W", 0, s->t, s->watts, s->n);
        clb_param_num(res, "sm_clock_first_mhz", s->mhz[0]);
        clb_param_num(res, "sm_clock_last_mhz", s->mhz[s->n - 1]);
        double tmax = NAN;
        for (size_t i = 0; i < s->n; i++)
            tmax = isfinite(s->temp[i]) && !(tmax >= s->temp[i]) ? s->temp[i] : tmax;
        clb_param_num(res, "temperature_max_c", tmax);
        clb_param_num(res, "power_mean_w", mean(s->watts, s->n));
    } else if (st->cpu && isfinite(s->mhz[0])) {
        clb_ua_curve(res, "cpu_clock", "time", "s", "CPU clock", "MHz", 0, s->t, s->mhz, s->n);
        clb_param_num(res, "cpu_clock_first_mhz", s->mhz[0]);
        clb_param_num(res, "cpu_clock_last_mhz", s->mhz[s->n - 1]);
        clb_param_str(res, "cpu_clock_source", st->clock_src);
    } else {
        clb_param_str(res, "sm_clock", "unknown");
        clb_param_str(res, "temperature", "unknown");
        clb_param_str(res, "power", "unknown");
    }
    clb_param_str(res, "telemetry", st->cpu ? st->clock_src : m ? clb_nvml_match(m) : "unknown (no NVML)");
}

static void report(clb_result *res, const series *s, const clb_nvml *m, const sus_state *st, double secs)
{
    size_t first = s->n < 2 ? s->n : 2, half = s->n / 2;
    double steady = clb_median(s->gflops + half, s->n - half);
    clb_ua_curve(res, "throughput", "time", "s", "throughput", "GFLOP/s", 0, s->t, s->gflops, s->n);
    report_clocks(res, s, m, st);
    clb_param_num(res, "duration_s", secs);
    clb_param_num(res, "first_second_gflops", s->gflops[0]);
    clb_param_num(res, "first_seconds_gflops", mean(s->gflops, first));
    clb_param_num(res, "steady_gflops", steady);
    clb_param_num(res, "first_to_steady_ratio", mean(s->gflops, first) / steady);
    clb_param_str(res, "first_to_steady_meaning", "mean of the first 2 s over the median of the second half; > 1: boost or throttling, ~1: stable");
    clb_param_str(res, "compare_with", "value / compute.fp32.fma's value from the same run and device: the fraction of the searched FP32 FMA peak held (docs/results/microarch.md)");
}

/* Throttled: the steady rate more than 5% below the first seconds' (needs >= 4 points). */
static void check_throttle(clb_result *res, const series *s)
{
    size_t first = s->n < 2 ? s->n : 2, half = s->n / 2;
    if (s->n < 4) {
        clb_param_str(res, "throttle_check", "not judged: fewer than 4 one-second points");
        return;
    }
    double f = mean(s->gflops, first), st = clb_median(s->gflops + half, s->n - half);
    clb_param_str(res, "throttle_check", st < 0.95 * f ? "rate fell more than 5%" : "rate held within 5%");
    if (!(st < 0.95 * f))
        return;
    char clk[96] = "clock unknown", gpu[96] = "";
    if (isfinite(s->mhz[0]))
        snprintf(clk, sizeof clk, "clock %.0f -> %.0f MHz", s->mhz[0], s->mhz[s->n - 1]);
    if (isfinite(s->temp[s->n - 1]))
        snprintf(gpu, sizeof gpu, ", %.0f C and %.0f W at the end", s->temp[s->n - 1],
                 s->watts[s->n - 1]);
    char why[512];
    snprintf(why, sizeof why,
             "rate fell %.1f%% from %.1f GFLOP/s (first 2 s) to %.1f (median of the second half); %s%s",
             100 * (1 - st / f), f, st, clk, gpu);
    res->status = CLB_STATUS_THROTTLED;
    snprintf(res->reason, sizeof res->reason, "%s", why);
}

/* ---- the configuration search ---- */

static clb_error build_cfg(clb_ctx *c, sus_state *s, sus_cfg cfg)
{
    clb_diag *d = &c->diag;
    char prefix[512], lanes[160] = "";
    size_t len = 0, maxwg = 0, mult = 0;
    clb_release_kernel(s->k);
    clb_release_program(s->prog);
    s->k = NULL;
    s->prog = NULL;
    for (unsigned l = 0; l < cfg.width && len < sizeof lanes; l++)
        len += (size_t)snprintf(lanes + len, sizeof lanes - len, l ? ", %u.0f" : "%u.0f", l);
    if (cfg.width == 1)
        snprintf(prefix, sizeof prefix, "#define SUS_VT float\n#define SUS_W 1\n#define SUS_LANES 0.0f\n#define SUS_CHAINS %u\n", cfg.chains);
    else
        snprintf(prefix, sizeof prefix, "#define SUS_VT float%u\n#define SUS_W %u\n#define SUS_LANES ((float%u)(%s))\n#define SUS_CHAINS %u\n",
                 cfg.width, cfg.width, cfg.width, lanes, cfg.chains);
    if (clb_build(c, "sustained", prefix, "-w", &s->prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->k = clCreateKernel(s->prog, "fma_chains", CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 3, sizeof s->b, &s->b));
    if (clb_ua_kernel_sizes(c, s->k, &mult, &maxwg) != CLB_OK)
        goto cleanup;
    /* 256 work-items per group as compute.* starts with, or the largest power of two the
     * kernel allows; the global size (a multiple of 1024) stays divisible. */
    for (s->lsz = 256; s->lsz > maxwg && s->lsz > 1; s->lsz /= 2)
        ;
    s->cfg = cfg;
cleanup:
    return d->err;
}

clb_error clb_sustained_validate(clb_ctx *c, void *state, clb_diag *d);

/* Rate of cfg: launches grown to about screen_s, then the median of three (GFLOP/s), each
 * timed by the host's clock around the launch and its wait: never shorter than the launch, so
 * an early END stamp on a loaded host cannot make a configuration look faster than it is.
 * The output starts poisoned and is validated before the rate counts. */
static clb_error screen(clb_ctx *c, sus_state *s, sus_cfg cfg, double *rate)
{
    const double screen_s = c->opts->quick ? 0.002 : 0.02;
    double t = 0, g[3];
    *rate = NAN;
    if (build_cfg(c, s, cfg) != CLB_OK ||
        clb_poison(c, s->out, s->gsz * 16 * sizeof(float)) != CLB_OK)
        return c->diag.err;
    s->iters = 1;
    for (int i = 0; i < 24 && (i == 0 || t < screen_s); i++) {
        if (i)
            s->iters *= t < screen_s / 16 ? 8 : 2;
        if (clSetKernelArg(s->k, 4, sizeof s->iters, &s->iters) != CL_SUCCESS ||
            clb_ua_time(c, s->k, s->gsz, s->lsz, &t) != CLB_OK)
            return clb_diag_set(&c->diag, CLB_ERR_CL, "screening launch failed");
    }
    for (int r = 0; r < 3; r++) {
        double t0 = clb_now();
        if (clb_ua_time(c, s->k, s->gsz, s->lsz, &t) != CLB_OK)
            return c->diag.err;
        g[r] = 1e-9 * flops_per_launch(s) / (clb_now() - t0);
    }
    if (clb_sustained_validate(c, s, &c->diag) != CLB_OK)
        return c->diag.err;
    *rate = clb_median(g, 3);
    return CLB_OK;
}

/* The best (width, chains) of a small grid, recorded in params.search: two passes over the
 * grid, each point's best rate, so that a burst of host load during one screening cannot
 * decide alone. A configuration that does not build or launch is skipped (as in compute.*). */
static clb_error search(clb_ctx *c, sus_state *s, clb_result *res)
{
    static const sus_cfg full[] = {{1, 8}, {1, 16}, {4, 8}, {4, 16}, {8, 4}, {8, 8}, {8, 16}, {16, 4}, {16, 8}, {16, 16}};
    static const sus_cfg quick[] = {{1, 8}, {8, 8}, {16, 4}};
    enum { MAXN = sizeof full / sizeof *full };
    const sus_cfg *grid = c->opts->quick ? quick : full;
    size_t n = c->opts->quick ? sizeof quick / sizeof *quick : MAXN, best = MAXN;
    double rate[MAXN];
    char err[MAXN][160];
    int failed[MAXN] = {0}; /* output failed validation: recorded, never the best */
    for (size_t i = 0; i < n; i++)
        rate[i] = NAN, err[i][0] = '\0';
    for (int pass = 0; pass < (c->opts->quick ? 1 : 2); pass++)
        for (size_t i = 0; i < n; i++) {
            double r = NAN;
            if (err[i][0])
                continue;
            if (screen(c, s, grid[i], &r) != CLB_OK) {
                failed[i] = c->diag.err == CLB_ERR_INVALID_RESULT;
                r = NAN;
                clb_diag_format(&c->diag, err[i], sizeof err[i]);
                clb_diag_clear(&c->diag);
                cJSON_DeleteItemFromObjectCaseSensitive(res->params, "build_log");
            }
            rate[i] = r > rate[i] || !(rate[i] > 0) ? r : rate[i];
        }
    cJSON *tab = cJSON_AddArrayToObject(clb_ua_params(res), "search");
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "width", grid[i].width);
        cJSON_AddNumberToObject(o, "chains", grid[i].chains);
        clb_json_number(o, "screen_gflops", rate[i]);
        if (err[i][0])
            cJSON_AddStringToObject(o, failed[i] ? "failed" : "error", err[i]);
        cJSON_AddItemToArray(tab, o);
        if (rate[i] > 0 && (best == MAXN || rate[i] > rate[best]))
            best = i;
    }
    for (size_t i = 0; best == MAXN && i < n; i++)
        if (failed[i])
            return clb_diag_set(&c->diag, CLB_ERR_INVALID_RESULT,
                                "every configuration of the search failed validation or did not run: %s",
                                err[i]);
    if (best == MAXN)
        return clb_diag_set(&c->diag, CLB_ERR_BUILD, "no configuration of the search ran (params.search)");
    return build_cfg(c, s, grid[best]);
}

static clb_error sus_setup(clb_ctx *c, sus_state *s, clb_result *res)
{
    clb_diag *d = &c->diag;
    cl_uint cu = 1;
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    /* As compute.*: 2048 work-items per compute unit fill a GPU SM, a multiple of 1024. */
    s->gsz = ((size_t)cu * 2048 + 1023) / 1024 * 1024;
    if (clb_ua_random_floats(c, s->gsz, INPUT_CLASSES, 1.0f, 2.0f, 0x5057A1Full, &s->hin, &s->in) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, s->gsz * 16 * sizeof(float), NULL, CLB_ERRP));
    if (search(c, s, res) != CLB_OK)
        goto cleanup;
    /* Launches of about target_s, so that each second holds several. */
    if (clb_ua_calibrate(c, s->k, 4, s->gsz, s->lsz, 16, 1 << 24, &s->iters) != CLB_OK)
        goto cleanup;
cleanup:
    return d->err;
}

static void record_config(clb_result *res, const sus_state *s)
{
    clb_param_num(res, "width", s->cfg.width);
    clb_param_num(res, "chains", s->cfg.chains);
    clb_param_num(res, "work_group_size", (double)s->lsz);
    clb_param_num(res, "global_work_size", (double)s->gsz);
    clb_param_num(res, "iterations", s->iters);
    clb_param_num(res, "unroll", 16);
    clb_param_num(res, "flops_per_launch", flops_per_launch(s));
}

clb_error clb_sustained_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    sus_state s = {.q = clb_device_queue(c->dev), .a = 0.9375f, .b = 0.0625f, .clock_src = "unknown"};
    series ser = {0};
    char why_nvml[256];
    double secs = duration_s(c);
    s.cpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    clb_nvml *m = s.cpu ? NULL : clb_nvml_open(c->dev, why_nvml, sizeof why_nvml);
    if (sus_setup(c, &s, res) != CLB_OK || hold(c, &s, m, secs, &ser) != CLB_OK)
        goto cleanup;
    if (clb_validate(c, &s, s.out, s.gsz * s.cfg.width * sizeof(float)) != CLB_OK)
        goto cleanup;
    report(res, &ser, m, &s, secs);
    record_config(res, &s);
    /* The result: the steady state, i.e. the second half's per-second samples. */
    if (clb_result_set_samples(res, ser.gflops + ser.n / 2, ser.n - ser.n / 2, "GFLOP/s", 1,
                               "cl_event_profiling START->END summed per wall-clock second") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
    check_throttle(res, &ser);
cleanup:
    series_free(&ser);
    clb_nvml_close(m);
    free(s.hin);
    clb_release_kernel(s.k);
    clb_release_program(s.prog);
    clb_release_mem(s.in);
    clb_release_mem(s.out);
    return d->err;
}

/* Recomputes every lane of every work-item: each input class's chains on the host, summed in
 * the kernel's order (work-item i reads class i % INPUT_CLASSES). */
clb_error clb_sustained_validate(clb_ctx *c, void *state, clb_diag *d)
{
    sus_state *s = state;
    const unsigned w = s->cfg.width;
    float ref[INPUT_CLASSES][16], *got = malloc(s->gsz * w * sizeof *got);
    (void)c;
    if (!got)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, s->gsz * w * sizeof *got, got, 0, NULL, NULL));
    for (size_t k = 0; k < INPUT_CLASSES; k++)
        for (unsigned l = 0; l < w; l++)
            for (unsigned ch = 0; ch < s->cfg.chains; ch++) {
                float x = clb_ua_fma_chain(s->hin[k] + (float)(ch * w + l), s->a, s->b, 16u * (uint64_t)s->iters);
                ref[k][l] = ch ? ref[k][l] + x : x;
            }
    for (size_t i = 0; i < s->gsz; i++)
        for (unsigned l = 0; l < w; l++) {
            float want = ref[i % INPUT_CLASSES][l], g = got[i * w + l];
            if (!(fabsf(g - want) <= 1e-5f * fmaxf(1.0f, fabsf(want))))
                CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "work-item %zu lane %u: %.9g, host %.9g", i, l, g, want);
        }
cleanup:
    free(got);
    return d->err;
}

/* The sustained group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_sustained_rows[] = {
    {"sustained.fp32", "sustained", "fp32 fma throughput of the best searched width x chains held for CLBENCH_SUSTAINED_S (60 s; --quick 2 s): steady GFLOP/s, per-second curve, clocks/temperature/power; throttled when it falls > 5%",
     CLB_REQ_COMPILER, clb_sustained_run, clb_sustained_validate, "fp32"},
};
const size_t clb_sustained_row_count = sizeof clb_sustained_rows / sizeof clb_sustained_rows[0];
