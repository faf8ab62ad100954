/* The models of `clbench recommend` (docs/decide.md): a predicted time per device and workload
 * from the measured parameters in a results document. Pure functions of the document: they
 * open no OpenCL and read no file, so the CLI, the library API and the tests share them. */
#include "doc/doc.h"
#include "judge/judge.h"

#include <math.h>
#include <string.h>

/* Assumed GEMM efficiency when only compute.fp32.fma was measured (printed as an assumption). */
#define GEMM_EFFICIENCY 0.5
#define STENCIL_STEPS 64.0
#define STENCIL_BYTES 8.0 /* 2 x sizeof(float) per component and step, untiled (docs/apps/euler.md) */

static const char *const names[CLB_WORKLOAD_COUNT_] = {"stream", "gemm", "stencil", "transfer", "latency"};
static const double sizes[CLB_WORKLOAD_COUNT_] = {1 << 26, 4096, 1 << 22, 1 << 26, 1024};
static const char *const rows_stream[] = {"memory.triad", "launch.queued_end", "transfer.h2d_pageable",
                                          "transfer.d2h_pageable", NULL};
static const char *const rows_gemm[] = {"app.sgemm.tuned", "compute.fp32.fma", NULL};
static const char *const rows_stencil[] = {"memory.copy", NULL};
static const char *const rows_transfer[] = {"transfer.h2d_pageable", NULL};
static const char *const rows_latency[] = {"launch.roundtrip", "memory.latency", NULL};
static const char *const *const rows[CLB_WORKLOAD_COUNT_] = {rows_stream, rows_gemm, rows_stencil,
                                                             rows_transfer, rows_latency};

const char *clb_workload_name(clb_workload_kind w)
{
    return w < CLB_WORKLOAD_COUNT_ ? names[w] : "unknown";
}

int clb_workload_parse(const char *s, clb_workload_kind *out)
{
    for (int i = 0; s && i < CLB_WORKLOAD_COUNT_; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (clb_workload_kind)i;
            return 1;
        }
    return 0;
}

double clb_workload_default_size(clb_workload_kind w)
{
    return w < CLB_WORKLOAD_COUNT_ ? sizes[w] : NAN;
}

const char *const *clb_workload_rows(clb_workload_kind w)
{
    static const char *const none[] = {NULL};
    return w < CLB_WORKLOAD_COUNT_ ? rows[w] : none;
}

/* ---- reading the document ---- */

/* The value of an ok row in unit when positive, or NaN. */
static double value_of(const cJSON *entry, const char *name, const char *unit)
{
    double v = rj_ok_value(entry, name, unit);
    return v > 0 ? v : NAN;
}

static double param_of(const cJSON *row, const char *key)
{
    double v = NAN;
    return rj_num(rj_obj(row, "params"), key, &v) ? v : NAN;
}

/* The points of the row's params.curve ([x, y] pairs), NULL without a curve. */
static const cJSON *curve_points(const cJSON *row)
{
    return rj_arr(rj_obj(rj_obj(row, "params"), "curve"), "points");
}

/* Member i of a point when it is a number, else NaN. */
static double point_at(const cJSON *pt, int i)
{
    const cJSON *v = cJSON_GetArrayItem(pt, i);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* y of params.curve at x, interpolated linearly in log x between the points around it; the
 * nearest end point outside them. NaN without a curve. */
static double curve_at(const cJSON *row, double x)
{
    const cJSON *pts = curve_points(row);
    double px = NAN, py = NAN, y = NAN;
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        double cx = point_at(p, 0), cy = point_at(p, 1);
        if (!(cx > 0 && cy > 0))
            continue;
        if (cx >= x) {
            double t = px > 0 ? (log(x) - log(px)) / (log(cx) - log(px)) : 0;
            return px > 0 && x > px ? py + t * (cy - py) : cy;
        }
        px = cx, py = cy, y = cy;
    }
    return y;
}

/* Appends "name" to the missing list. */
static void miss(clb_prediction *p, const char *name)
{
    size_t n = strlen(p->missing);
    snprintf(p->missing + n, sizeof p->missing - n, "%s%s", n ? ", " : "", name);
}

/* ---- the models ---- */

static void predict_stream(const cJSON *e, double n, int on_host, clb_prediction *p)
{
    double triad = value_of(e, "memory.triad", "GB/s"), launch = value_of(e, "launch.queued_end", "us");
    double h2d = value_of(e, "transfer.h2d_pageable", "GB/s"), d2h = value_of(e, "transfer.d2h_pageable", "GB/s");
    if (!isfinite(triad))
        miss(p, "memory.triad");
    if (!isfinite(launch))
        miss(p, "launch.queued_end");
    if (on_host && !isfinite(h2d))
        miss(p, "transfer.h2d_pageable");
    if (on_host && !isfinite(d2h))
        miss(p, "transfer.d2h_pageable");
    double move = on_host ? 8 * n / (h2d * 1e9) + 4 * n / (d2h * 1e9) : 0;
    /* triad's counted bytes leave out a CPU's write-allocate reads; SAXPY moves only its 12 n B */
    double wa = clb_write_allocate_factor(e, "memory.triad");
    p->seconds = 12 * n / (wa * triad * 1e9) + launch * 1e-6 + move;
    snprintf(p->model, sizeof p->model, "12 n B / triad%s + launch%s", wa != 1 ? " x 4/3 (write-allocate on a CPU)" : "",
             on_host ? " + 8 n B / h2d + 4 n B / d2h (data on the host)" : " (data on the device)");
    snprintf(p->deciding, sizeof p->deciding, "memory.triad %.4g GB/s, launch.queued_end %.4g us%s", triad,
             launch, on_host ? "" : "");
    if (on_host) {
        size_t k = strlen(p->deciding);
        snprintf(p->deciding + k, sizeof p->deciding - k, ", transfer.h2d_pageable %.4g GB/s, transfer.d2h_pageable %.4g GB/s",
                 h2d, d2h);
    }
}

/* The fastest ok OpenCL rung of app.sgemm (host rows excluded: they do not run on the device). */
static const cJSON *best_sgemm(const cJSON *e, double *gflops)
{
    const cJSON *r, *best = NULL;
    *gflops = NAN;
    cJSON_ArrayForEach(r, rj_arr(e, "results"))
    {
        const char *n = rj_str(r, "name");
        if (!n || strncmp(n, "app.sgemm.", 10) != 0 || strstr(n, ".sequential") || strstr(n, ".pthreads"))
            continue;
        double g = value_of(e, n, "GFLOP/s");
        if (isfinite(g) && !(g <= *gflops))
            *gflops = g, best = r;
    }
    return best;
}

static void predict_gemm(const cJSON *e, double n, clb_prediction *p)
{
    double rate;
    const cJSON *rung = best_sgemm(e, &rate);
    snprintf(p->model, sizeof p->model, "2 n^3 / GEMM rate");
    if (rung) {
        snprintf(p->deciding, sizeof p->deciding, "%s %.4g GFLOP/s at n=%.0f (best OpenCL rung)",
                 rj_str(rung, "name"), rate, param_of(rung, "n"));
    } else {
        double peak = value_of(e, "compute.fp32.fma", "GFLOP/s");
        if (!isfinite(peak))
            miss(p, "app.sgemm.* (an OpenCL rung) or compute.fp32.fma");
        rate = peak * GEMM_EFFICIENCY;
        snprintf(p->deciding, sizeof p->deciding, "compute.fp32.fma %.4g GFLOP/s x %.2f", peak, GEMM_EFFICIENCY);
        snprintf(p->assumption, sizeof p->assumption,
                 "no app.sgemm rung measured: GEMM assumed to reach %.0f%% of the FMA peak", 100 * GEMM_EFFICIENCY);
    }
    p->seconds = 2 * n * n * n / (rate * 1e9);
}

static void predict_stencil(const cJSON *e, double n, clb_prediction *p)
{
    double copy = value_of(e, "memory.copy", "GB/s");
    if (!isfinite(copy))
        miss(p, "memory.copy");
    p->seconds = n * STENCIL_STEPS * STENCIL_BYTES / (copy * 1e9);
    snprintf(p->model, sizeof p->model, "n x %.0f steps x %.0f B / copy bandwidth (Euler bytes model, untiled)",
             STENCIL_STEPS, STENCIL_BYTES);
    snprintf(p->deciding, sizeof p->deciding, "memory.copy %.4g GB/s", copy);
}

/* The h2d curve at the size (interpolated; beyond its ends its last point), plus the latency
 * of its smallest point. */
static void predict_transfer(const cJSON *e, double bytes, clb_prediction *p)
{
    const cJSON *row = rj_ok_result(e, "transfer.h2d_pageable");
    double bw = curve_at(row, bytes), small = curve_at(row, 1);
    double x0 = point_at(cJSON_GetArrayItem(curve_points(row), 0), 0);
    double lat = x0 / (small * 1e9);
    if (!isfinite(bw) || !isfinite(lat))
        miss(p, row ? "transfer.h2d_pageable's curve" : "transfer.h2d_pageable");
    p->seconds = bytes / (bw * 1e9) + lat;
    snprintf(p->model, sizeof p->model, "bytes / h2d bandwidth at that size + latency (pageable host memory)");
    snprintf(p->deciding, sizeof p->deciding, "transfer.h2d_pageable's curve %.4g GB/s at %.0f B, latency %.3g us (its %.0f-byte point)",
             bw, bytes, lat * 1e6, x0);
}

/* 1 when the entry's device is a CPU (CL_DEVICE_TYPE names CPU). */
static int is_cpu(const cJSON *e)
{
    const char *t = rj_str(rj_obj(e, "device"), "CL_DEVICE_TYPE");
    return t && strstr(t, "CPU") != NULL;
}

/* The latency workload: one launch of `loads` dependent loads through memory.latency's
 * largest cycle (memory.chase_roundtrip's footprint too), waited for. Per load: memory.latency
 * (its headline is that largest working set). The launch: launch.roundtrip, the empty kernel in
 * a hot loop; on a CPU device the chase's own launch costs more (the kernel runs on the host's
 * cores: the runtime's worker threads and the waiting host thread sleep through a kernel of
 * hundreds of us and must be woken, the arguments change every launch), and memory.latency
 * measures exactly that launch of the same kernel on the same buffer: wall clock minus event
 * time of its launches (docs/decide.md). */
static void predict_latency(const cJSON *e, double loads, clb_prediction *p)
{
    const cJSON *row = rj_ok_result(e, "memory.latency");
    double launch = value_of(e, "launch.roundtrip", "us"), mem = value_of(e, "memory.latency", "ns");
    double wall = param_of(row, "wall_time_median_s"), ev = param_of(row, "launch_time_median_s");
    double outside = wall > ev && ev > 0 ? 1e6 * (wall - ev) : NAN; /* us per launch outside the kernel */
    double ws = param_of(row, "working_set_bytes");
    int cpu = is_cpu(e);
    if (!isfinite(launch))
        miss(p, "launch.roundtrip");
    if (!isfinite(mem))
        miss(p, "memory.latency");
    double used = cpu && isfinite(outside) && outside > launch ? outside : launch;
    p->seconds = used * 1e-6 + loads * mem * 1e-9;
    if (cpu) {
        snprintf(p->model, sizeof p->model,
                 "chase launch (CPU: the larger of launch.roundtrip and memory.latency's wall - event per launch) + loads x memory latency");
        if (!isfinite(outside))
            snprintf(p->assumption, sizeof p->assumption,
                     "memory.latency has no wall and event times per launch: the empty kernel's launch.roundtrip stands in for the chase's launch");
    } else {
        snprintf(p->model, sizeof p->model, "launch round trip + loads x memory latency");
    }
    snprintf(p->deciding, sizeof p->deciding, "launch.roundtrip %.4g us, memory.latency %.4g ns", launch, mem);
    size_t k = strlen(p->deciding);
    if (isfinite(ws))
        snprintf(p->deciding + k, sizeof p->deciding - k, " at %.0f B", ws);
    k = strlen(p->deciding);
    if (cpu && isfinite(outside))
        snprintf(p->deciding + k, sizeof p->deciding - k,
                 ", memory.latency's launches %.4g us wall - event (%.4g - %.4g us, %.0f loads each)", outside,
                 1e6 * wall, 1e6 * ev, param_of(row, "work_per_launch"));
}

void clb_predict(const cJSON *entry, clb_workload_kind w, double size, int data_on_host, clb_prediction *out)
{
    memset(out, 0, sizeof *out);
    out->seconds = NAN;
    switch (w) {
    case CLB_WORKLOAD_STREAM: predict_stream(entry, size, data_on_host, out); break;
    case CLB_WORKLOAD_GEMM: predict_gemm(entry, size, out); break;
    case CLB_WORKLOAD_STENCIL: predict_stencil(entry, size, out); break;
    case CLB_WORKLOAD_TRANSFER: predict_transfer(entry, size, out); break;
    case CLB_WORKLOAD_LATENCY: predict_latency(entry, size, out); break;
    default: snprintf(out->missing, sizeof out->missing, "a known workload class"); break;
    }
    out->ranked = !out->missing[0] && isfinite(out->seconds) && out->seconds > 0;
    if (!out->ranked)
        out->seconds = NAN;
}

/* ---- the suite's own measurement of the same workload ---- */

/* The fastest ok row whose name starts with prefix (host rows excluded), in unit. */
static const cJSON *best_row(const cJSON *e, const char *prefix, const char *unit, int higher, double *v)
{
    const cJSON *r, *best = NULL;
    *v = NAN;
    cJSON_ArrayForEach(r, rj_arr(e, "results"))
    {
        const char *n = rj_str(r, "name");
        if (!n || strncmp(n, prefix, strlen(prefix)) != 0 || strstr(n, ".seq") || strstr(n, ".pthreads") ||
            strstr(n, ".sweep_"))
            continue;
        double x = value_of(e, n, unit);
        if (isfinite(x) && (!isfinite(*v) || (higher ? x > *v : x < *v)))
            *v = x, best = r;
    }
    return best;
}

double clb_workload_measured(const cJSON *e, clb_workload_kind w, double size, char *row, size_t row_n)
{
    double v = NAN, t = NAN;
    const cJSON *r = NULL;
    if (w == CLB_WORKLOAD_STREAM && (r = best_row(e, "app.saxpy.opencl", "GB/s", 1, &v)))
        t = 12 * size / (curve_at(r, 8 * size) * 1e9); /* the curve's x: bytes of x and y */
    else if (w == CLB_WORKLOAD_GEMM && ((r = rj_ok_result(e, "app.sgemm.tuned")) || (r = best_sgemm(e, &v))))
        t = 2 * size * size * size / (value_of(e, rj_str(r, "name"), "GFLOP/s") * 1e9);
    else if (w == CLB_WORKLOAD_STENCIL && (r = best_row(e, "app.euler.string.f32.", "ns", 0, &v)))
        t = size * STENCIL_STEPS * v * 1e-9;
    else if (w == CLB_WORKLOAD_TRANSFER && (r = rj_ok_result(e, "transfer.h2d_pageable")))
        t = size / (curve_at(r, size) * 1e9);
    else if (w == CLB_WORKLOAD_LATENCY && (r = rj_ok_result(e, "memory.chase_roundtrip")) && param_of(r, "loads") == size)
        t = value_of(e, "memory.chase_roundtrip", "us") * 1e-6;
    snprintf(row, row_n, "%s", r && isfinite(t) ? rj_str(r, "name") : "");
    return r && isfinite(t) && t > 0 ? t : NAN;
}
