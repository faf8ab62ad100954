/* `clbench suite`: the one table of apps (rows, sizes per mode) and the summary of a suite
 * document — per column (device, variant) the seed 004 table, speedups, score and what was
 * omitted (docs/suite.md). Reads documents and the static registry only; the scores' arithmetic
 * is lib/report/suite_score.c, the printing lib/report/suite_print.c. */
#include "apps/suite.h"
#include "doc/doc.h"
#include "apps/strmatch/strmatch.h" /* STRMATCH_NPAT: the work model */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* JSON has no NaN/Inf: a number that is not finite becomes null. */
static void put_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* The value of size variable k in the mode (full or quick), as the table writes it. */
static const char *env_text(const clb_suite_app *a, int full, int k)
{
    return full ? a->full[k] : a->quick[k];
}

static double env_num(const clb_suite_app *a, int full, int k)
{
    return atof(env_text(a, full, k));
}
/* GFLOP/s: 2 n^3 flop per problem. */
static double gemm_k(const clb_suite_app *a, int full) { double n = env_num(a, full, 0); return 2 * n * n * n * 1e-9; }
/* GB/s: 12 bytes per element (x, y read; y written). */
static double saxpy_k(const clb_suite_app *a, int full) { return 12 * env_num(a, full, 0) * 1e-9; }
/* ns per component and step: n components x steps. */
static double euler_k(const clb_suite_app *a, int full) { return env_num(a, full, 0) * env_num(a, full, 1) * 1e-9; }
/* Gsamples/s: n samples per problem. */
static double mcpi_k(const clb_suite_app *a, int full) { return env_num(a, full, 0) * 1e-9; }
/* GB/s of text x patterns (lib/apps/strmatch: STRMATCH_NPAT patterns per problem). */
static double strmatch_k(const clb_suite_app *a, int full) { return env_num(a, full, 0) * STRMATCH_NPAT * 1e-9; }

/* The suite. Sizes are the same on every device; each app's work model turns its rate back
 * into seconds per problem, and its words say so in docs/suite.md (`clbench suite --list`). */
typedef struct suite_app {
    clb_suite_app a; /* what the summary and `clbench suite` read (clb_suite_app_at) */
    clb_suite_words w;
} suite_app;
static const suite_app suite_apps[] = {
    {{"sgemm", "GEMM", "app.sgemm.sequential", "app.sgemm.pthreads", "app.sgemm.cublas app.sgemm.cuda",
      "app.sgemm.tiled app.sgemm.regblock app.sgemm.double_buffered app.sgemm.register_vectors",
      {"CLBENCH_GEMM_N", "CLBENCH_GEMM_LADDER_N"}, {"1024", "1024"}, {"2048", "2048"}, gemm_k},
     {{"(matrix order n)", "(the ladder rungs' order)"}, "2 n^3 flop (GFLOP/s)"}},
    {{"saxpy", "SAXPY", "app.saxpy.sequential", "app.saxpy.pthreads", "app.saxpy.cuda",
      "app.saxpy.opencl app.saxpy.opencl_float4", {"CLBENCH_SAXPY_N"}, {"8388608"}, {"33554432"}, saxpy_k},
     {{"elements"}, "12 n bytes, x and y read, y written (GB/s)"}},
    {{"euler", "Euler", "app.euler.string.f32.seq", "app.euler.string.f32.pthreads", "app.euler.cuda",
      "app.euler.string.f32.coalesced app.euler.string.f32.vectorized "
      "app.euler.string.f32.diamond_row_korr app.euler.string.f32.honeycomb",
      {"CLBENCH_EULER_N", "CLBENCH_EULER_STEPS"}, {"524288", "64"}, {"1048576", "64"}, euler_k},
     {{"components", "steps"}, "n x steps component-steps (ns per component and step)"}},
    {{"mcpi", "MonteCarloPi", "app.mcpi.sequential", "app.mcpi.pthreads", "app.mcpi.cuda",
      "app.mcpi.cl_*", {"CLBENCH_MCPI_N"}, {"16777216"}, {"268435456"}, mcpi_k},
     {{"samples"}, "n samples (Gsamples/s)"}},
    {{"strmatch", "StringMatch", "app.strmatch.sequential", "app.strmatch.pthreads",
      "app.strmatch.cuda", "app.strmatch.cl_*", {"CLBENCH_STRMATCH_BYTES"}, {"10000000"},
      {"10000000"}, strmatch_k},
     {{"text bytes"}, "n bytes x 5 patterns, `STRMATCH_NPAT` (GB/s of text x patterns)"}},
};
enum { NAPPS = sizeof suite_apps / sizeof suite_apps[0] };

size_t clb_suite_app_count(void) { return NAPPS; }
const clb_suite_app *clb_suite_app_at(size_t i) { return i < NAPPS ? &suite_apps[i].a : NULL; }
const clb_suite_words *clb_suite_words_at(size_t i) { return i < NAPPS ? &suite_apps[i].w : NULL; }

/* ---- one row's per-run times ---- */

static int has_value(const cJSON *r)
{
    const char *st = rj_str(r, "status");
    return st && (strcmp(st, "ok") == 0 || strcmp(st, "throttled") == 0);
}

/* Per-run seconds of an ok result into t (cap entries); 0 with why when they cannot be had. */
static size_t row_times(const clb_suite_app *a, int full, const cJSON *r, double *t, size_t cap,
                        const char **why)
{
    const cJSON *s = rj_arr(r, "samples"), *x;
    const char *better = rj_str(r, "better");
    double n = 0, k = 0, sum = 0, mean_run = 0;
    size_t m = 0;
    cJSON_ArrayForEach(x, s) {
        if (!cJSON_IsNumber(x) || !(x->valuedouble > 0) || m == cap) {
            *why = "its samples are not positive numbers";
            return 0;
        }
        t[m] = better && strcmp(better, "higher") == 0 ? 1.0 / x->valuedouble : x->valuedouble;
        sum += t[m++];
    }
    if (m == 0) {
        *why = "it has no samples";
        return 0;
    }
    if (a->seconds_per_tau && rj_num(rj_obj(r, "params"), "n", &n) && n != env_num(a, full, 0)) {
        *why = "it ran at another size than the suite's (set by the suite's environment variables)";
        return 0;
    }
    if (a->seconds_per_tau)
        k = a->seconds_per_tau(a, full);
    else if (rj_num(rj_obj(r, "params"), "mean_run_s", &mean_run))
        k = mean_run / (sum / (double)m);
    if (!(k > 0) || !isfinite(k)) {
        *why = "no time per run can be derived (no work model, no params.mean_run_s)";
        return 0;
    }
    for (size_t i = 0; i < m; i++)
        t[i] *= k;
    return m;
}

/* The result named name in column col, else in any column of the document (host rows run
 * once per suite, in the first column). */
static const cJSON *find_row(const cJSON *doc, const cJSON *col, const char *name, int any)
{
    const cJSON *r = rj_find_result(col, name), *d;
    cJSON_ArrayForEach(d, rj_devices(doc)) {
        if (r || !any)
            break;
        r = rj_find_result(d, name);
    }
    return r;
}

/* A row object {row, role, status, reason | peak_s, avg_s, std_s, n, times_s, ratios}. */
static cJSON *row_json(const clb_suite_app *a, int full, const char *name, const char *role,
                       const cJSON *r, const cJSON *ref)
{
    cJSON *o = cJSON_CreateObject();
    double t[1024], pk, av, sd, rp, ra;
    const char *why = NULL;
    cJSON_AddStringToObject(o, "row", name);
    cJSON_AddStringToObject(o, "role", role);
    if (!r) {
        cJSON_AddStringToObject(o, "status", clb_bench_find(name) ? "not_run" : "not_in_build");
        cJSON_AddStringToObject(o, "reason", clb_bench_find(name) ? "no result in this column"
                                                                  : "not in this build");
        return o;
    }
    size_t m = has_value(r) ? row_times(a, full, r, t, 1024, &why) : 0;
    if (m == 0 || clb_suite_times(t, m, &pk, &av, &sd) != CLB_OK) {
        const char *st = rj_str(r, "status");
        cJSON_AddStringToObject(o, "status", has_value(r) ? "unusable" : st ? st : "error");
        cJSON_AddStringToObject(o, "reason", why ? why : rj_str(r, "reason") ? rj_str(r, "reason") : "");
        return o;
    }
    cJSON_AddStringToObject(o, "status", "ok");
    put_num(o, "peak_s", pk);
    put_num(o, "avg_s", av);
    put_num(o, "std_s", sd);
    cJSON_AddNumberToObject(o, "n", (double)m);
    if (rj_num(ref, "peak_s", &rp) && rj_num(ref, "avg_s", &ra)) {
        put_num(o, "peak_ratio", rp / pk);
        put_num(o, "avg_ratio", ra / av);
    }
    cJSON *ts = cJSON_AddArrayToObject(o, "times_s");
    for (size_t i = 0; i < m; i++)
        cJSON_AddItemToArray(ts, cJSON_CreateNumber(t[i]));
    double kt, tt; /* the row's one-run kernel time and the seed's total time, as measured */
    if (rj_num(rj_obj(r, "params"), "kernel_s", &kt) && rj_num(rj_obj(r, "params"), "total_s", &tt)) {
        put_num(o, "kernel_s", kt);
        put_num(o, "total_s", tt);
    }
    return o;
}

static int row_ok(const cJSON *row) { return rj_str(row, "status") && strcmp(rj_str(row, "status"), "ok") == 0; }

/* {peak, average} of other/best, or {status, reason} when other has no times. */
static void speedup(cJSON *sp, const char *key, const cJSON *best, const cJSON *other)
{
    cJSON *o = cJSON_AddObjectToObject(sp, key);
    double bp, ba, op, oa;
    if (!best || !other || !row_ok(other) || !rj_num(best, "peak_s", &bp) || !rj_num(best, "avg_s", &ba) ||
        !rj_num(other, "peak_s", &op) || !rj_num(other, "avg_s", &oa)) {
        cJSON_AddStringToObject(o, "status", best ? (other ? rj_str(other, "status") : "absent") : "no_opencl");
        cJSON_AddStringToObject(o, "reason", !best ? "no OpenCL row has times"
                                             : other && rj_str(other, "reason") ? rj_str(other, "reason")
                                                                                : "no such row in this suite");
        return;
    }
    put_num(o, "peak", op / bp);
    put_num(o, "average", oa / ba);
}

/* The OpenCL rows of the app: each registry row its globs match, in registry order. Returns
 * the verdict; *best the ok row with the lowest average time. */
static clb_suite_verdict opencl_rows(const clb_suite_app *a, int full, const cJSON *doc, const cJSON *col,
                                     const cJSON *ref, cJSON *rows, const cJSON **best, char *why, size_t nwhy)
{
    char globs[256];
    size_t matched = 0;
    double best_avg = INFINITY, v;
    clb_suite_verdict verdict = CLB_SUITE_SCORED;
    *best = NULL;
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const char *name = clb_bench_at(i)->name;
        snprintf(globs, sizeof globs, "%s", a->opencl);
        int hit = 0;
        for (char *save = NULL, *g = strtok_r(globs, " ", &save); g && !hit; g = strtok_r(NULL, " ", &save))
            hit = clb_bench_match(g, name);
        if (!hit)
            continue;
        matched++;
        cJSON *row = row_json(a, full, name, "opencl", find_row(doc, col, name, 0), ref);
        cJSON_AddItemToArray(rows, row);
        if (!row_ok(row) && verdict == CLB_SUITE_SCORED) {
            verdict = CLB_SUITE_FAILED;
            snprintf(why, nwhy, "%s: %s%s%s", name, rj_str(row, "status"), *rj_str(row, "reason") ? ": " : "",
                     rj_str(row, "reason"));
        } else if (row_ok(row) && rj_num(row, "avg_s", &v) && v < best_avg) {
            best_avg = v;
            *best = row;
        }
    }
    if (matched == 0) {
        snprintf(why, nwhy, "not in this build (no row matches %s)", a->opencl);
        return CLB_SUITE_OMITTED;
    }
    return verdict;
}

/* The app's CUDA rows (a->cuda: space-separated names, twin and vendor library), each added to
 * rows; returns the ok one with the lowest average time (what "vs CUDA" compares with), else
 * the first (its status says why), NULL when the app has none. */
static cJSON *cuda_rows(const clb_suite_app *a, int full, const cJSON *doc, const cJSON *col,
                        const cJSON *ref, cJSON *rows)
{
    char names[256];
    cJSON *first = NULL, *best = NULL;
    double best_avg = INFINITY, v;
    if (!a->cuda)
        return NULL;
    snprintf(names, sizeof names, "%s", a->cuda);
    for (char *save = NULL, *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
        cJSON *r = row_json(a, full, n, "cuda", find_row(doc, col, n, 0), ref);
        cJSON_AddItemToArray(rows, r);
        first = first ? first : r;
        if (row_ok(r) && rj_num(r, "avg_s", &v) && v < best_avg) {
            best_avg = v;
            best = r;
        }
    }
    return best ? best : first;
}

/* One app of one column: rows, verdict, speedups; fills the score entry e. */
static cJSON *app_json(const clb_suite_app *a, int full, const cJSON *doc, const cJSON *col,
                       const cJSON *refset, clb_suite_entry *e, char *why, size_t nwhy)
{
    cJSON *o = cJSON_CreateObject(), *rows;
    const cJSON *ref = rj_obj(refset, a->app), *best = NULL;
    cJSON_AddStringToObject(o, "app", a->app);
    cJSON_AddStringToObject(o, "title", a->title);
    rows = cJSON_AddArrayToObject(o, "rows");
    cJSON *seq = row_json(a, full, a->sequential, "sequential", find_row(doc, col, a->sequential, 1), ref);
    cJSON *pth = row_json(a, full, a->pthreads, "pthreads", find_row(doc, col, a->pthreads, 1), ref);
    cJSON_AddItemToArray(rows, seq);
    cJSON_AddItemToArray(rows, pth);
    clb_suite_verdict v = opencl_rows(a, full, doc, col, ref, rows, &best, why, nwhy);
    cJSON *cu = cuda_rows(a, full, doc, col, ref, rows);
    double rp = NAN, ra = NAN;
    if (v == CLB_SUITE_SCORED && !(best && rj_num(best, "peak_ratio", &rp) && rj_num(best, "avg_ratio", &ra))) {
        v = CLB_SUITE_OMITTED;
        snprintf(why, nwhy, "no reference time for %s at this size set", a->app);
    }
    *e = (clb_suite_entry){a->title, v, v == CLB_SUITE_SCORED ? rp : NAN, v == CLB_SUITE_SCORED ? ra : NAN,
                           v == CLB_SUITE_SCORED ? NULL : why};
    cJSON_AddStringToObject(o, "verdict", v == CLB_SUITE_SCORED ? "scored" : v == CLB_SUITE_FAILED ? "failed" : "omitted");
    if (v != CLB_SUITE_SCORED)
        cJSON_AddStringToObject(o, "why", why);
    if (best)
        cJSON_AddStringToObject(o, "best_opencl", rj_str(best, "row"));
    if (cu && row_ok(cu))
        cJSON_AddStringToObject(o, "best_cuda", rj_str(cu, "row"));
    cJSON *sp = cJSON_AddObjectToObject(o, "speedups");
    speedup(sp, "vs_sequential", best, seq);
    speedup(sp, "vs_pthreads", best, pth);
    speedup(sp, "vs_cuda", best, cu);
    return o;
}

static cJSON *score_json(const clb_suite_score *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", s->is_void ? "void" : "ok");
    if (s->is_void) {
        if (s->void_app)
            cJSON_AddStringToObject(o, "void_app", s->void_app);
        cJSON_AddStringToObject(o, "reason", s->void_reason ? s->void_reason : "");
    } else {
        put_num(o, "peak", s->peak);
        put_num(o, "average", s->average);
        put_num(o, "peak_geomean", s->peak_geomean);
        put_num(o, "average_geomean", s->average_geomean);
    }
    cJSON_AddNumberToObject(o, "apps_scored", (double)s->scored);
    cJSON_AddNumberToObject(o, "apps_omitted", (double)s->omitted);
    return o;
}

static void copy_str(cJSON *to, const char *key, const cJSON *from, const char *fkey)
{
    const char *s = rj_str(from, fkey);
    cJSON_AddStringToObject(to, key, s ? s : "");
}

/* The row of an app's rows by role (the best OpenCL and CUDA rows by name). */
static const cJSON *role_row(const cJSON *app, const char *role)
{
    const char *name = strcmp(role, "opencl") == 0 ? rj_str(app, "best_opencl")
                       : strcmp(role, "cuda") == 0 ? rj_str(app, "best_cuda") : NULL;
    const cJSON *r;
    cJSON_ArrayForEach(r, rj_arr(app, "rows")) {
        const char *rr = rj_str(r, "role"), *rn = rj_str(r, "row");
        if (rr && strcmp(rr, role) == 0 && (!name || (rn && strcmp(rn, name) == 0)))
            return r;
    }
    return NULL;
}

/* Seed 004's own aggregate (its result pages recompute so): the Peak (Average) Score of the best
 * OpenCL rows over that of the other rows, both harmonic means of the reference ratios over the
 * apps where both have ratios: sum(1 / other ratio) / sum(1 / OpenCL ratio). */
static void score_ratio(cJSON *g, const cJSON *apps, const char *role)
{
    double so[2] = {0, 0}, sv[2] = {0, 0}, ro, rv;
    int n = 0;
    const cJSON *app;
    static const char *const keys[] = {"peak_ratio", "avg_ratio"};
    cJSON_ArrayForEach(app, apps) {
        const cJSON *v = role_row(app, "opencl"), *o = role_row(app, role);
        int both = v && o;
        for (int k = 0; both && k < 2; k++)
            both = rj_num(v, keys[k], &rv) && rj_num(o, keys[k], &ro) && rv > 0 && ro > 0;
        for (int k = 0; both && k < 2; k++) {
            rj_num(v, keys[k], &rv);
            rj_num(o, keys[k], &ro);
            so[k] += 1 / ro;
            sv[k] += 1 / rv;
        }
        n += both;
    }
    if (n == 0)
        return;
    cJSON *o = cJSON_AddObjectToObject(g, "score_ratio");
    put_num(o, "peak", so[0] / sv[0]);
    put_num(o, "average", so[1] / sv[1]);
    cJSON_AddNumberToObject(o, "apps", n);
}

/* The aggregate speedups: per kind (vs_sequential, vs_pthreads, vs_cuda) the geometric mean over
 * the apps that have the speedup, with how many those are; and seed 004's score ratio. */
static cJSON *aggregate_speedups(const cJSON *apps)
{
    static const char *const kinds[] = {"vs_sequential", "vs_pthreads", "vs_cuda"};
    static const char *const roles[] = {"sequential", "pthreads", "cuda"};
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        double lp = 0, la = 0, p, a;
        int n = 0, total = 0;
        const cJSON *app;
        cJSON_ArrayForEach(app, apps) {
            const cJSON *sp = rj_obj(rj_obj(app, "speedups"), kinds[k]);
            total++;
            if (rj_num(sp, "peak", &p) && rj_num(sp, "average", &a) && p > 0 && a > 0) {
                lp += log(p);
                la += log(a);
                n++;
            }
        }
        cJSON *g = cJSON_AddObjectToObject(o, kinds[k]);
        cJSON_AddNumberToObject(g, "apps", n);
        cJSON_AddNumberToObject(g, "of", total);
        score_ratio(g, apps, roles[k]);
        if (n == 0) {
            cJSON_AddStringToObject(g, "status", "none");
            cJSON_AddStringToObject(g, "reason", "no app has this speedup");
            continue;
        }
        put_num(g, "peak", exp(lp / n));
        put_num(g, "average", exp(la / n));
    }
    return o;
}

/* One column: its device, variant, apps, score and omissions. */
static cJSON *column_json(const cJSON *doc, const cJSON *col, const cJSON *refset, int full)
{
    clb_suite_entry e[NAPPS];
    char why[NAPPS][512];
    cJSON *o = cJSON_CreateObject();
    const cJSON *sc = rj_obj(col, "suite_column");
    cJSON_AddStringToObject(o, "device", rj_device_name(col));
    copy_str(o, "platform", rj_obj(col, "platform"), "CL_PLATFORM_NAME");
    copy_str(o, "platform_version", rj_obj(col, "platform"), "CL_PLATFORM_VERSION");
    copy_str(o, "driver", rj_obj(col, "device"), "CL_DRIVER_VERSION");
    copy_str(o, "device_version", rj_obj(col, "device"), "CL_DEVICE_VERSION");
    copy_str(o, "variant", sc, "variant");
    copy_str(o, "build_options", sc, "build_options");
    cJSON *apps = cJSON_AddArrayToObject(o, "apps"), *om = cJSON_CreateArray();
    for (size_t i = 0; i < NAPPS; i++) {
        cJSON_AddItemToArray(apps, app_json(&suite_apps[i].a, full, doc, col, refset, &e[i], why[i], sizeof why[i]));
        if (e[i].verdict == CLB_SUITE_OMITTED) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "app", suite_apps[i].a.title);
            cJSON_AddStringToObject(x, "why", why[i]);
            cJSON_AddItemToArray(om, x);
        }
    }
    clb_suite_score s;
    clb_suite_score_compute(e, NAPPS, &s);
    cJSON_AddItemToObject(o, "score", score_json(&s));
    cJSON_AddItemToObject(o, "speedup_geomean", aggregate_speedups(apps));
    cJSON_AddItemToObject(o, "omitted", om);
    return o;
}

/* The first size variable the reference was measured at another value of, else NULL: times
 * at other sizes are not comparable. A reference without sizes.MODE is taken at its word. */
static const char *size_mismatch(const cJSON *reference, int full)
{
    const cJSON *sizes = rj_obj(rj_obj(reference, "sizes"), full ? "full" : "quick");
    for (size_t i = 0; sizes && i < NAPPS; i++)
        for (int k = 0; k < CLB_SUITE_MAX_ENV && suite_apps[i].a.env[k]; k++) {
            const char *v = rj_str(sizes, suite_apps[i].a.env[k]);
            if (!v || strcmp(v, env_text(&suite_apps[i].a, full, k)) != 0)
                return suite_apps[i].a.env[k];
        }
    return NULL;
}

/* The reference set for the mode, or NULL with why in ref_info. */
static const cJSON *reference_set(const cJSON *reference, int full, cJSON *info)
{
    const char *v = rj_str(reference, "suite_version"), *var;
    char why[128];
    if (!reference) {
        cJSON_AddStringToObject(info, "status", "absent");
        cJSON_AddStringToObject(info, "reason", "no reference file was found (docs/suite.md)");
        return NULL;
    }
    if (!v || strcmp(v, CLB_SUITE_VERSION) != 0) {
        cJSON_AddStringToObject(info, "status", "mismatch");
        cJSON_AddStringToObject(info, "reason", "the reference is for another suite version");
        return NULL;
    }
    if ((var = size_mismatch(reference, full)) != NULL) {
        snprintf(why, sizeof why, "the reference was measured at other sizes (%s)", var);
        cJSON_AddStringToObject(info, "status", "mismatch");
        cJSON_AddStringToObject(info, "reason", why);
        return NULL;
    }
    cJSON_AddStringToObject(info, "status", "ok");
    copy_str(info, "version", reference, "version");
    cJSON_AddItemToObject(info, "provenance", cJSON_Duplicate(rj_obj(reference, "provenance"), 1));
    return rj_obj(rj_obj(reference, "sets"), full ? "full" : "quick");
}

/* "32 KiB", "1 MiB", "23.5 GiB". */
static void bytes_text(char *buf, size_t n, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    for (; b >= 1024 && u + 1 < sizeof units / sizeof units[0]; u++)
        b /= 1024;
    snprintf(buf, n, "%.*f %s", b == floor(b) ? 0 : 1, b, units[u]);
}

/* Seed 004's Fig. 6 fields from provenance.host, as text: user, clock, caches, memory, flags. */
static void system_fig6(cJSON *o, const cJSON *h)
{
    char text[256] = "", part[64];
    double v;
    const cJSON *c;
    copy_str(o, "user", h, "user");
    if (rj_num(h, "cpu_mhz", &v)) {
        double mx = 0;
        snprintf(text, sizeof text, "%.0f MHz", v);
        if (rj_num(h, "cpu_max_mhz", &mx))
            snprintf(text + strlen(text), sizeof text - strlen(text), " (max %.0f MHz)", mx);
    }
    cJSON_AddStringToObject(o, "cpu_clock", text);
    text[0] = '\0';
    cJSON_ArrayForEach(c, rj_obj(h, "caches")) {
        if (!cJSON_IsNumber(c) || !c->string)
            continue;
        bytes_text(part, sizeof part, c->valuedouble);
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s %s", text[0] ? ", " : "", c->string, part);
    }
    cJSON_AddStringToObject(o, "caches", text);
    part[0] = '\0';
    if (rj_num(h, "memory_bytes", &v))
        bytes_text(part, sizeof part, v);
    cJSON_AddStringToObject(o, "memory", part);
    copy_str(o, "compiler_flags", h, "compiler_flags");
    copy_str(o, "host_rows_flags", h, "host_rows_flags");
}

static cJSON *system_json(const cJSON *doc)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *h = rj_obj(rj_obj(doc, "provenance"), "host");
    double cpus = 0;
    copy_str(o, "cpu", h, "cpu");
    if (rj_num(h, "online_cpus", &cpus))
        cJSON_AddNumberToObject(o, "online_cpus", cpus);
    copy_str(o, "os", h, "os");
    copy_str(o, "kernel", h, "kernel");
    copy_str(o, "hostname", h, "hostname");
    system_fig6(o, h);
#ifdef __VERSION__
    cJSON_AddStringToObject(o, "compiler", __VERSION__);
#endif
    copy_str(o, "clbench_git_sha", rj_obj(doc, "provenance"), "git_sha");
    return o;
}

cJSON *clb_suite_summary(const cJSON *doc, const cJSON *reference, int full, clb_diag *d)
{
    const cJSON *col;
    clb_diag_clear(d);
    if (!rj_devices(doc)) {
        clb_diag_set(d, CLB_ERR_USAGE, "the document has no devices");
        return NULL;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "suite_version", CLB_SUITE_VERSION);
    cJSON_AddStringToObject(s, "mode", full ? "full" : "quick");
    cJSON *sizes = cJSON_AddObjectToObject(s, "sizes");
    for (size_t i = 0; i < clb_suite_app_count(); i++)
        for (int k = 0; k < CLB_SUITE_MAX_ENV && suite_apps[i].a.env[k]; k++)
            cJSON_AddStringToObject(sizes, suite_apps[i].a.env[k], env_text(&suite_apps[i].a, full, k));
    cJSON_AddItemToObject(s, "system", system_json(doc));
    cJSON *ref = cJSON_AddObjectToObject(s, "reference");
    const cJSON *set = reference_set(reference, full, ref);
    cJSON *cols = cJSON_AddArrayToObject(s, "columns");
    cJSON_ArrayForEach(col, rj_devices(doc)) {
        if (rj_obj(col, "suite_column"))
            cJSON_AddItemToArray(cols, column_json(doc, col, set, full));
    }
    return s;
}
