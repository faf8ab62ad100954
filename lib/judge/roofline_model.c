/* The empirical roofline of one device entry (docs/roofline.md): ceilings from the device's own
 * results, the database's physical limits as theoretical lines, and every app row that records
 * params.flops and params.bytes as a point, judged against the roofs that could serve it. Pure
 * cJSON in, cJSON out: the CLI runs it after a device's rows are complete, the report redraws it. */
#include "judge/judge.h"

#include "doc/doc.h"
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Timing noise a point may show above its roof before it is called impossible. */
#define ROOF_TOLERANCE 0.05

static const char *const precisions[] = {"fp32", "fp64", "fp16", "int32"};
enum { NPREC = 4 };

/* The ok result named by the glob pattern with the highest value in a unit containing unit_sub. */
/* obj[key] = v, or null when v is not finite (JSON has no NaN). */
static void num(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(obj, key, v);
    else
        cJSON_AddNullToObject(obj, key);
}

static const cJSON *best_ok(const cJSON *dev, const char *pattern, const char *unit_sub)
{
    const cJSON *r, *best = NULL;
    double bv = -INFINITY, v;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *name = rj_str(r, "name"), *st = rj_str(r, "status"), *unit = rj_str(r, "unit");
        if (!name || !st || !unit || strcmp(st, "ok") != 0 || !clb_bench_match(pattern, name) ||
            !strstr(unit, unit_sub) || !rj_num(r, "value", &v) || !(v > 0))
            continue;
        if (v > bv) {
            best = r;
            bv = v;
        }
    }
    return best;
}

static double value_of(const cJSON *r)
{
    double v = NAN;
    rj_num(r, "value", &v);
    return v;
}

/* The physical limit: derived.<key>.value, else the row's params.limit.value (the guard's). */
static double physical(const cJSON *dev, const char *key, const cJSON *row, const char **source)
{
    const cJSON *d = rj_obj(rj_obj(dev, "derived"), key), *lim = rj_obj(rj_obj(row, "params"), "limit");
    double v = NAN;
    *source = NULL;
    if (rj_num(d, "value", &v) && v > 0) {
        *source = rj_str(d, "how");
        return v;
    }
    if (rj_num(lim, "value", &v) && v > 0) {
        *source = rj_str(lim, "source");
        return v;
    }
    return NAN;
}

static cJSON *ceiling(cJSON *arr, const char *name, const char *kind, double value, const char *unit,
                      const char *row)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "name", name);
    cJSON_AddStringToObject(c, "kind", kind);
    num(c, "value", value);
    cJSON_AddStringToObject(c, "unit", unit);
    cJSON_AddStringToObject(c, "row", row);
    cJSON_AddItemToArray(arr, c);
    return c;
}

/* A ceiling from a --quick row (params.quick): a screen of few configurations, a lower bound
 * of the device's peak rather than the peak, so a point above it is not judged invalid. */
static void mark_quick(cJSON *c, const cJSON *row)
{
    double q = 0;
    if (rj_num(rj_obj(row, "params"), "quick", &q) && q > 0)
        cJSON_AddBoolToObject(c, "quick", 1);
}

/* Adds physical_limit and pct_of_physical to c, and the dashed theoretical line to theory. */
static void with_limit(cJSON *c, cJSON *theory, const cJSON *dev, const char *key, const cJSON *row,
                       const char *label)
{
    const char *source;
    double lim = physical(dev, key, row, &source);
    if (!isfinite(lim))
        return;
    num(c, "physical_limit", lim);
    double v = NAN;
    rj_num(c, "value", &v);
    num(c, "pct_of_physical", 100 * v / lim);
    cJSON *t = ceiling(theory, label, rj_str(c, "kind"), lim, rj_str(c, "unit"), key);
    cJSON_AddStringToObject(t, "source", source ? source : "device database");
    if (rj_str(c, "precision"))
        cJSON_AddStringToObject(t, "precision", rj_str(c, "precision"));
}

static void compute_ceilings(const cJSON *dev, cJSON *ceil, cJSON *theory)
{
    for (size_t i = 0; i < NPREC; i++) {
        char pat[32], name[48];
        int is_int = precisions[i][0] == 'i';
        snprintf(pat, sizeof pat, "compute.%s.*", precisions[i]);
        const cJSON *r = best_ok(dev, pat, is_int ? "IOP/s" : "FLOP/s");
        if (!r)
            continue;
        snprintf(name, sizeof name, "%s peak", precisions[i]);
        cJSON *c = ceiling(ceil, name, "compute", value_of(r), is_int ? "GIOP/s" : "GFLOP/s",
                           rj_str(r, "name"));
        cJSON_AddStringToObject(c, "precision", precisions[i]);
        mark_quick(c, r);
        if (i < 2) {
            snprintf(name, sizeof name, "%s datasheet", precisions[i]);
            with_limit(c, theory, dev, i == 0 ? "limit_fp32" : "limit_fp64", r, name);
        }
    }
}

static const char *const dram_rows[] = {"memory.triad", "memory.copy", "memory.read_linear"};

double clb_write_allocate_factor(const cJSON *entry, const char *row)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "device"), "CL_DEVICE_TYPE");
    if (!cJSON_IsString(t) || !strstr(t->valuestring, "CPU"))
        return 1;
    return strcmp(row, "memory.triad") == 0 ? 4.0 / 3 : strcmp(row, "memory.copy") == 0 ? 1.5 : 1;
}

/* The best of the DRAM rows in bytes the memory moved: on a CPU a STREAM row's stores fetch
 * their lines first, which its counted bytes leave out (SAXPY's y is read anyway). */
static void dram_ceiling(const cJSON *dev, cJSON *ceil, cJSON *theory)
{
    const cJSON *best = NULL;
    double best_v = 0;
    for (size_t i = 0; i < sizeof dram_rows / sizeof dram_rows[0]; i++) {
        const cJSON *r = best_ok(dev, dram_rows[i], "B/s");
        double v = r ? value_of(r) * clb_write_allocate_factor(dev, dram_rows[i]) : 0;
        if (r && v > best_v)
            best = r, best_v = v;
    }
    if (!best)
        return;
    cJSON *c = ceiling(ceil, "DRAM", "bandwidth", best_v, "GB/s", rj_str(best, "name"));
    cJSON_AddBoolToObject(c, "used_in_check", 1);
    double f = clb_write_allocate_factor(dev, rj_str(best, "name"));
    if (f != 1) {
        num(c, "counted_value", value_of(best));
        num(c, "write_allocate_factor", f);
    }
    mark_quick(c, best);
    with_limit(c, theory, dev, "limit_dram", best, "DRAM datasheet");
}

static void size_name(char *buf, size_t n, const char *what, double bytes)
{
    if (bytes >= 1048576)
        snprintf(buf, n, "%s %.0f MiB", what, bytes / 1048576);
    else
        snprintf(buf, n, "%s %.0f KiB", what, bytes / 1024);
}

/* Cache ceilings: the detected levels with a bandwidth (memory.caches), and the cache-resident
 * read (memory.read_reuse), each usable by points whose working set fits its capacity. */
static void cache_ceilings(const cJSON *dev, cJSON *ceil)
{
    const cJSON *caches = best_ok(dev, "memory.caches", ""), *lv;
    int k = 0;
    cJSON_ArrayForEach(lv, rj_arr(rj_obj(caches, "params"), "levels")) {
        double size, bw;
        char name[64], what[32];
        k++;
        if (!rj_num(lv, "size_bytes", &size) || !rj_num(lv, "bandwidth_gbs", &bw) || !(bw > 0))
            continue;
        snprintf(what, sizeof what, "cache L%d", k);
        size_name(name, sizeof name, what, size);
        cJSON *c = ceiling(ceil, name, "bandwidth", bw, "GB/s", "memory.caches");
        num(c, "capacity_bytes", size);
        cJSON_AddBoolToObject(c, "used_in_check", 1);
        mark_quick(c, caches);
    }
    const cJSON *reuse = best_ok(dev, "memory.read_reuse", "B/s");
    double size;
    if (reuse && rj_num(rj_obj(reuse, "params"), "array_bytes", &size) && size > 0) {
        char name[64];
        size_name(name, sizeof name, "cache reuse", size);
        cJSON *c = ceiling(ceil, name, "bandwidth", value_of(reuse), "GB/s", "memory.read_reuse");
        num(c, "capacity_bytes", size);
        cJSON_AddBoolToObject(c, "used_in_check", 1);
        mark_quick(c, reuse);
    }
    const cJSON *local = best_ok(dev, "memory.local_read", "B/s");
    if (local) /* per work-group scratch: compulsory bytes never come from it */
        cJSON_AddBoolToObject(ceiling(ceil, "local memory", "bandwidth", value_of(local), "GB/s",
                                      "memory.local_read"), "used_in_check", 0);
}

/* The largest cache the device is known to have (detected, or as the driver or sysfs say). */
static double largest_cache(const cJSON *dev)
{
    double best = 0, v;
    const cJSON *p = rj_obj(best_ok(dev, "memory.caches", ""), "params"), *lv;
    cJSON_ArrayForEach(lv, rj_arr(p, "levels"))
        if (rj_num(lv, "size_bytes", &v))
            best = fmax(best, v);
    if (rj_num(rj_obj(p, "api"), "host_largest_cache_sysfs", &v))
        best = fmax(best, v);
    if (rj_num(rj_obj(rj_obj(rj_obj(dev, "derived"), "global_cache"), "value"), "size_bytes", &v))
        best = fmax(best, v);
    return best;
}

/* ---- points ---- */

/* The precision whose compute roof applies: params.roof_precision, params.precision (f32/f64),
 * the GEMM app name, a GIOP/s unit; fp32 otherwise. */
static const char *point_precision(const cJSON *r)
{
    const cJSON *p = rj_obj(r, "params");
    const char *rp = rj_str(p, "roof_precision"), *prec = rj_str(p, "precision");
    const char *app = rj_str(p, "app"), *unit = rj_str(r, "unit");
    for (size_t i = 0; rp && i < NPREC; i++)
        if (strcmp(rp, precisions[i]) == 0)
            return precisions[i];
    if ((prec && strcmp(prec, "f64") == 0) || (app && strcmp(app, "dgemm") == 0))
        return "fp64";
    if (unit && strstr(unit, "IOP/s"))
        return "int32";
    return "fp32";
}

/* Achieved G(FL)OP/s: the value when it is a rate of operations, params.gflops / params.giops,
 * or a GB/s value times the intensity. NaN when none applies. */
static double achieved(const cJSON *r, double flops, double bytes)
{
    const cJSON *p = rj_obj(r, "params");
    const char *unit = rj_str(r, "unit");
    double v = value_of(r), g;
    if (unit && (strcmp(unit, "GFLOP/s") == 0 || strcmp(unit, "GIOP/s") == 0))
        return v;
    if (rj_num(p, "gflops", &g) || rj_num(p, "giops", &g))
        return g;
    if (unit && strcmp(unit, "GB/s") == 0 && bytes > 0)
        return v * flops / bytes;
    return NAN;
}

typedef struct roofs {
    double peak;         /* compute roof of the point's precision (NaN: not measured) */
    const char *peak_row;
    int peak_quick, bw_quick; /* the roof came from a --quick row: a lower bound, not judged */
    double bw;           /* best bandwidth roof that can serve the working set (NaN: none) */
    const char *bw_name;
    int cache_unknown;   /* the working set fits a cache whose bandwidth was not measured */
} roofs;

static void find_roofs(const cJSON *rl, const char *prec, double ws, double cache_max, roofs *o)
{
    const cJSON *c;
    *o = (roofs){NAN, NULL, 0, 0, NAN, NULL, 0};
    int cache_fit = 0;
    cJSON_ArrayForEach(c, rj_arr(rl, "ceilings")) {
        const char *kind = rj_str(c, "kind"), *cp = rj_str(c, "precision");
        double v = NAN, cap = INFINITY;
        rj_num(c, "value", &v);
        if (kind && strcmp(kind, "compute") == 0 && cp && strcmp(cp, prec) == 0) {
            o->peak = v;
            o->peak_row = rj_str(c, "row");
            o->peak_quick = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "quick"));
        } else if (kind && strcmp(kind, "bandwidth") == 0 &&
                   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "used_in_check"))) {
            rj_num(c, "capacity_bytes", &cap);
            if (ws <= cap && (!isfinite(o->bw) || v > o->bw)) {
                o->bw = v;
                o->bw_name = rj_str(c, "name");
                o->bw_quick = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "quick"));
            }
            cache_fit |= isfinite(cap) && ws <= cap;
        }
    }
    o->cache_unknown = !cache_fit && ws <= cache_max;
}

static void verdict(cJSON *pt, const char *v, const char *reason)
{
    cJSON_AddStringToObject(pt, "verdict", v);
    cJSON_AddStringToObject(pt, "reason", reason);
}

/* Judges the point against the roofs present; says which ones were missing. */
static void judge(cJSON *pt, const roofs *ro, double ai, double perf, const char *unit)
{
    char why[400], missing[200] = "";
    /* A working set in a cache of unknown bandwidth is not bounded by the DRAM roof. */
    double mem = ro->cache_unknown ? NAN : ro->bw * ai, roof = fmin(isfinite(ro->peak) ? ro->peak : INFINITY,
                                          isfinite(mem) ? mem : INFINITY);
    if (isfinite(roof)) {
        num(pt, "roof", roof);
        num(pt, "pct_of_roof", 100 * perf / roof);
    }
    if ((isfinite(ro->peak) && ro->peak_quick && perf > ro->peak * (1 + ROOF_TOLERANCE)) ||
        (isfinite(mem) && ro->bw_quick && perf > mem * (1 + ROOF_TOLERANCE))) {
        snprintf(why, sizeof why, "%.4g %s is above a roof from a --quick row (%s); --quick screens "
                 "few configurations, so its figure is a lower bound of the peak: not judged",
                 perf, unit, ro->peak_quick && perf > ro->peak ? ro->peak_row : ro->bw_name);
        verdict(pt, "unchecked", why);
        return;
    }
    if (isfinite(ro->peak) && perf > ro->peak * (1 + ROOF_TOLERANCE)) {
        snprintf(why, sizeof why, "%.4g %s is %.1f%% above the compute roof %.4g %s (%s; more than "
                 "%.0f%% above a roof is a measurement or flop-count error)", perf, unit,
                 100 * (perf / ro->peak - 1), ro->peak, unit, ro->peak_row, 100 * ROOF_TOLERANCE);
        verdict(pt, "invalid", why);
        return;
    }
    if (isfinite(mem) && perf > mem * (1 + ROOF_TOLERANCE)) {
        snprintf(why, sizeof why, "%.4g %s at %.3g flop/byte is %.1f%% above the %s bandwidth roof "
                 "%.4g GB/s x %.3g = %.4g %s (more than %.0f%% above a roof is a measurement or "
                 "byte-count error)", perf, unit, ai, 100 * (perf / mem - 1), ro->bw_name, ro->bw,
                 ai, mem, unit, 100 * ROOF_TOLERANCE);
        verdict(pt, "invalid", why);
        return;
    }
    if (!isfinite(ro->peak))
        snprintf(missing, sizeof missing, "the compute roof of its precision (compute.*)");
    if (isfinite(ai) && (ro->cache_unknown || !isfinite(ro->bw)))
        snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s", *missing ? "; " : "",
                 ro->cache_unknown ? "the bandwidth of the cache its working set fits (memory.caches)"
                                   : "a DRAM bandwidth roof (memory.triad, copy or read_linear)");
    if (*missing) {
        snprintf(why, sizeof why, "below the roofs present; not checked against %s, not measured in this run", missing);
        verdict(pt, "unchecked", why);
        return;
    }
    verdict(pt, "ok", "below its roof");
}

static cJSON *point_of(const cJSON *r, const cJSON *rl, double cache_max)
{
    const cJSON *p = rj_obj(r, "params");
    double flops, bytes, ws;
    if (!rj_num(p, "flops", &flops) || !rj_num(p, "bytes", &bytes) || !(flops > 0) || bytes < 0)
        return NULL;
    const char *prec = point_precision(r), *unit = prec[0] == 'i' ? "GIOP/s" : "GFLOP/s";
    double perf = achieved(r, flops, bytes), ai = bytes > 0 ? flops / bytes : INFINITY;
    if (!rj_num(p, "working_set_bytes", &ws))
        ws = bytes;
    cJSON *pt = cJSON_CreateObject();
    cJSON_AddStringToObject(pt, "row", rj_str(r, "name"));
    cJSON_AddStringToObject(pt, "precision", prec);
    num(pt, "flops", flops);
    num(pt, "bytes", bytes);
    num(pt, "intensity", ai); /* null for compute-only rows */
    cJSON_AddBoolToObject(pt, "compute_only", bytes == 0);
    num(pt, "working_set_bytes", ws);
    num(pt, "performance", perf);
    cJSON_AddStringToObject(pt, "unit", unit);
    if (!isfinite(perf)) {
        verdict(pt, "unchecked", "no achieved rate: the value is no G(FL/I)OP/s or GB/s figure and "
                                 "params.gflops / params.giops are absent");
    } else if (rj_str(p, "runs_on")) {
        verdict(pt, "host", "runs on the host CPU, not on this device: drawn, not judged");
    } else {
        roofs ro;
        find_roofs(rl, prec, ws, cache_max, &ro);
        judge(pt, &ro, ai, perf, unit);
    }
    return pt;
}

cJSON *clb_roofline_model(const cJSON *dev)
{
    cJSON *rl = cJSON_CreateObject(), *r;
    cJSON *ceil = cJSON_AddArrayToObject(rl, "ceilings"), *theory = cJSON_AddArrayToObject(rl, "theoretical");
    num(rl, "tolerance", ROOF_TOLERANCE);
    compute_ceilings(dev, ceil, theory);
    dram_ceiling(dev, ceil, theory);
    cache_ceilings(dev, ceil);
    double cache_max = largest_cache(dev);
    cJSON *pts = cJSON_AddArrayToObject(rl, "points");
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *st = rj_str(r, "status"), *name = rj_str(r, "name");
        cJSON *pt = st && name && strcmp(st, "ok") == 0 ? point_of(r, rl, cache_max) : NULL;
        if (pt)
            cJSON_AddItemToArray(pts, pt);
    }
    return rl;
}

/* obj[key] = item, replacing a member of that name or adding one. */
static void set(cJSON *obj, const char *key, cJSON *item)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item); /* keeps the member's place */
    else
        cJSON_AddItemToObject(obj, key, item);
}

/* Marks the result row invalid as the runner would: no value, stats or samples; the number kept
 * as params.measured_value. */
static void invalidate(cJSON *r, const char *reason)
{
    cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
    double v = value_of(r);
    if (cJSON_IsObject(p)) {
        cJSON_DeleteItemFromObjectCaseSensitive(p, "measured_value");
        num(p, "measured_value", v);
    }
    set(r, "status", cJSON_CreateString("invalid"));
    set(r, "reason", cJSON_CreateString(reason));
    set(r, "value", cJSON_CreateNull());
    set(r, "stats", cJSON_CreateNull());
    set(r, "samples", cJSON_CreateArray());
    cJSON_DeleteItemFromObjectCaseSensitive(r, "better");
    cJSON_DeleteItemFromObjectCaseSensitive(r, "timer");
}

int clb_roofline_annotate(cJSON *dev)
{
    cJSON *rl = cJSON_IsObject(dev) ? clb_roofline_model(dev) : NULL, *pt;
    int marked = 0;
    if (!rl)
        return 0;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(rl, "points")) {
        const char *v = rj_str(pt, "verdict"), *row = rj_str(pt, "row");
        cJSON *r = row ? (cJSON *)rj_find_result(dev, row) : NULL;
        if (r && v && strcmp(v, "invalid") == 0) {
            invalidate(r, rj_str(pt, "reason"));
            marked++;
        }
    }
    cJSON_DeleteItemFromObjectCaseSensitive(dev, "roofline");
    cJSON_AddItemToObject(dev, "roofline", rl);
    return marked;
}
