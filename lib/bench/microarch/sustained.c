/* sustained.*: FP32 FMA throughput held for a while (CLBENCH_SUSTAINED_S seconds, 60 by
 * default, 2 under --quick), one throughput sample per second, with SM clock, temperature
 * and power from NVML where it exists (loaded with dlopen; no NVML headers needed), so that
 * boost at the start and throttling later show as a curve. */
#include "microarch.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- NVML, the few entry points we need, declared here ---- */

typedef void *nvml_dev;
typedef struct nvml {
    void *lib;
    nvml_dev dev;
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_index)(unsigned, nvml_dev *);
    int (*by_bus)(const char *, nvml_dev *);
    int (*clock)(nvml_dev, int, unsigned *);
    int (*temp)(nvml_dev, int, unsigned *);
    int (*power)(nvml_dev, unsigned *);
    char match[96];
} nvml;

enum { NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0 };
#define CLB_DEVICE_PCI_BUS_ID_NV 0x4008
#define CLB_DEVICE_PCI_SLOT_ID_NV 0x4009
#define CLB_DEVICE_PCI_DOMAIN_ID_NV 0x400A

/* POSIX dlsym returns an object pointer; converting it to a function pointer goes through
 * memcpy so that -Wpedantic builds stay quiet. */
static void sym(void *lib, const char *name, void *fn_ptr, size_t size)
{
    void *p = dlsym(lib, name);
    memcpy(fn_ptr, &p, size);
}

static cl_uint nv_attr(cl_device_id id, cl_device_info what)
{
    cl_uint v = 0;
    return clGetDeviceInfo(id, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0xffffffffu;
}

/* Opens NVML for the device when it is an NVIDIA GPU; m->lib stays NULL otherwise. */
static void nvml_open(clb_ctx *c, nvml *m)
{
    cl_device_id id = clb_device_reference(c->dev)->device;
    memset(m, 0, sizeof *m);
    snprintf(m->match, sizeof m->match, "unknown (no NVML)");
    if (!clb_device_has_extension(c->dev, "cl_nv_device_attribute_query"))
        return;
    m->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!m->lib)
        return;
    sym(m->lib, "nvmlInit_v2", &m->init, sizeof m->init);
    sym(m->lib, "nvmlShutdown", &m->shutdown, sizeof m->shutdown);
    sym(m->lib, "nvmlDeviceGetHandleByIndex_v2", &m->by_index, sizeof m->by_index);
    sym(m->lib, "nvmlDeviceGetHandleByPciBusId_v2", &m->by_bus, sizeof m->by_bus);
    sym(m->lib, "nvmlDeviceGetClockInfo", &m->clock, sizeof m->clock);
    sym(m->lib, "nvmlDeviceGetTemperature", &m->temp, sizeof m->temp);
    sym(m->lib, "nvmlDeviceGetPowerUsage", &m->power, sizeof m->power);
    if (!m->init || m->init() != 0) {
        dlclose(m->lib);
        m->lib = NULL;
        return;
    }
    /* The OpenCL device's PCI address, when the NV attributes give it; else NVML index 0. */
    cl_uint bus = nv_attr(id, CLB_DEVICE_PCI_BUS_ID_NV), slot = nv_attr(id, CLB_DEVICE_PCI_SLOT_ID_NV),
            dom = nv_attr(id, CLB_DEVICE_PCI_DOMAIN_ID_NV);
    char busid[64];
    /* The slot attribute packs device << 3 | function (as clinfo decodes it). */
    snprintf(busid, sizeof busid, "%08x:%02x:%02x.%x", dom == 0xffffffffu ? 0 : dom, bus & 0xffu,
             (slot >> 3) & 0xffu, slot & 7u);
    if (bus != 0xffffffffu && slot != 0xffffffffu && m->by_bus && m->by_bus(busid, &m->dev) == 0) {
        snprintf(m->match, sizeof m->match, "NVML by PCI bus id %s", busid);
    } else if (m->by_index && m->by_index(0, &m->dev) == 0) {
        snprintf(m->match, sizeof m->match, "NVML device index 0 (PCI bus id not matched)");
    } else {
        m->shutdown();
        dlclose(m->lib);
        m->lib = NULL;
    }
}

static void nvml_close(nvml *m)
{
    if (!m->lib)
        return;
    if (m->shutdown)
        m->shutdown();
    dlclose(m->lib);
}

/* SM clock (MHz), temperature (C), power (W); NaN where unreadable. */
static void nvml_read(const nvml *m, double *mhz, double *temp, double *watts)
{
    unsigned v = 0;
    *mhz = *temp = *watts = NAN;
    if (!m->lib)
        return;
    if (m->clock && m->clock(m->dev, NVML_CLOCK_SM, &v) == 0)
        *mhz = v;
    if (m->temp && m->temp(m->dev, NVML_TEMPERATURE_GPU, &v) == 0)
        *temp = v;
    if (m->power && m->power(m->dev, &v) == 0)
        *watts = 1e-3 * v;
}

/* ---- the run ---- */

typedef struct sus_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem in, out;
    float *hin, a, b;
    size_t gsz;
    cl_int iters;
} sus_state;

typedef struct series {
    double *t, *gflops, *mhz, *temp, *watts;
    size_t n, cap;
} series;

static double duration_s(const clb_ctx *c)
{
    const char *e = getenv("CLBENCH_SUSTAINED_S");
    double v = e ? strtod(e, NULL) : 0;
    if (v > 0 && v <= 3600)
        return v;
    return c->opts->quick ? 2 : 60;
}

static int series_push(series *s, double t, double g, const nvml *m)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        double **arrs[5] = {&s->t, &s->gflops, &s->mhz, &s->temp, &s->watts};
        for (int i = 0; i < 5; i++) {
            double *p = realloc(*arrs[i], cap * sizeof *p);
            if (!p)
                return -1;
            *arrs[i] = p;
        }
        s->cap = cap;
    }
    s->t[s->n] = t;
    s->gflops[s->n] = g;
    nvml_read(m, &s->mhz[s->n], &s->temp[s->n], &s->watts[s->n]);
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
static clb_error hold(clb_ctx *c, sus_state *s, const nvml *m, double secs, series *out)
{
    double flops = 2.0 * 8 * 16 * (double)s->iters * (double)s->gsz, t0 = clb_now();
    double acc_f = 0, acc_t = 0, next = t0 + 1.0, t = 0;
    while (clb_now() - t0 < secs) {
        if (clb_ua_time(c, s->k, s->gsz, 0, &t) != CLB_OK)
            return c->diag.err;
        acc_f += flops;
        acc_t += t;
        if (clb_now() >= next) {
            if (series_push(out, clb_now() - t0, 1e-9 * acc_f / acc_t, m) != 0)
                return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
            acc_f = acc_t = 0;
            next += 1.0;
        }
    }
    if (out->n == 0 && acc_t > 0 && series_push(out, clb_now() - t0, 1e-9 * acc_f / acc_t, m) != 0)
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

static void report(clb_result *res, const series *s, const nvml *m, double secs)
{
    size_t first = s->n < 2 ? s->n : 2, half = s->n / 2;
    double steady = clb_median(s->gflops + half, s->n - half);
    clb_ua_curve(res, "throughput", "time", "s", "throughput", "GFLOP/s", 0, s->t, s->gflops, s->n);
    if (m->lib) {
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
    } else {
        clb_param_str(res, "sm_clock", "unknown");
        clb_param_str(res, "temperature", "unknown");
        clb_param_str(res, "power", "unknown");
    }
    clb_param_str(res, "telemetry", m->match);
    clb_param_num(res, "duration_s", secs);
    clb_param_num(res, "first_seconds_gflops", mean(s->gflops, first));
    clb_param_num(res, "steady_gflops", steady);
    clb_param_num(res, "first_to_steady_ratio", mean(s->gflops, first) / steady);
    clb_param_str(res, "first_to_steady_meaning", "mean of the first 2 s over the median of the second half; > 1: boost or throttling, ~1: stable");
}

static clb_error sus_setup(clb_ctx *c, sus_state *s, cl_program prog)
{
    clb_diag *d = &c->diag;
    cl_uint cu = 1;
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    /* Enough work-items to fill every compute unit many times over. */
    s->gsz = (size_t)cu * 2048;
    if (clb_ua_random_floats(c, s->gsz, 1.0f, 2.0f, 0x5057A1Full, &s->hin, &s->in) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s->out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, s->gsz * sizeof(float), NULL, CLB_ERRP));
    CLB_CL(d, s->k = clCreateKernel(prog, "fma8", CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s->k, 0, sizeof s->in, &s->in));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->out, &s->out));
    CLB_CL(d, clSetKernelArg(s->k, 2, sizeof s->a, &s->a));
    CLB_CL(d, clSetKernelArg(s->k, 3, sizeof s->b, &s->b));
    /* Launches of about target_s, so that each second holds several. */
    if (clb_ua_calibrate(c, s->k, 4, s->gsz, 0, 16, 1 << 24, &s->iters) != CLB_OK)
        goto cleanup;
cleanup:
    return d->err;
}

clb_error clb_sustained_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    sus_state s = {.q = clb_device_queue(c->dev), .a = 0.9375f, .b = 0.0625f};
    cl_program prog = NULL;
    series ser = {0};
    nvml m;
    double secs = duration_s(c);
    nvml_open(c, &m);
    if (clb_build(c, "sustained", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    if (sus_setup(c, &s, prog) != CLB_OK || hold(c, &s, &m, secs, &ser) != CLB_OK)
        goto cleanup;
    if (clb_validate(c, &s, s.out, s.gsz * sizeof(float)) != CLB_OK)
        goto cleanup;
    report(res, &ser, &m, secs);
    clb_param_num(res, "global_work_size", (double)s.gsz);
    clb_param_num(res, "iterations", s.iters);
    clb_param_num(res, "flops_per_launch", 2.0 * 8 * 16 * (double)s.iters * (double)s.gsz);
    /* The result: the steady state, i.e. the second half's per-second samples. */
    if (clb_result_set_samples(res, ser.gflops + ser.n / 2, ser.n - ser.n / 2, "GFLOP/s", 1,
                               "cl_event_profiling START->END summed per wall-clock second") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    series_free(&ser);
    nvml_close(&m);
    free(s.hin);
    clb_release_kernel(s.k);
    clb_release_mem(s.in);
    clb_release_mem(s.out);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_sustained_validate(clb_ctx *c, void *state, clb_diag *d)
{
    sus_state *s = state;
    float got[2];
    (void)c;
    size_t lanes[2] = {0, s->gsz - 1};
    for (int j = 0; j < 2; j++) {
        CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, lanes[j] * sizeof(float), sizeof(float), &got[j], 0, NULL, NULL));
        float x[8], want;
        for (int i = 0; i < 8; i++)
            x[i] = clb_ua_fma_chain(s->hin[lanes[j]] + (float)i, s->a, s->b, 16u * (uint64_t)s->iters);
        want = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
        if (!(fabsf(got[j] - want) <= 1e-5f * fmaxf(1.0f, fabsf(want))))
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "lane %zu: %.9g, host %.9g", lanes[j], got[j], want);
    }
cleanup:
    return d->err;
}

/* The sustained group's registry rows (listed in lib/bench/groups.h). */
const clb_bench clb_sustained_rows[] = {
    {"sustained.fp32", "sustained", "fp32 fma throughput held for CLBENCH_SUSTAINED_S (60 s; --quick 2 s): steady GFLOP/s, per-second curve, clocks/temperature/power",
     CLB_REQ_COMPILER, clb_sustained_run, clb_sustained_validate, "fp32"},
};
const size_t clb_sustained_row_count = sizeof clb_sustained_rows / sizeof clb_sustained_rows[0];
