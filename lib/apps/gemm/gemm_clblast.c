/* app.sgemm.clblast / app.dgemm.clblast: CLBlast's GEMM on the same matrices, the external
 * reference of the ladder. libclblast.so.1 is loaded at run time (dlopen), so clbench neither
 * links nor needs it; without it the row is unsupported with the reason.
 * app.*gemm.clblast_tuned: the same call after CLBlastOverrideParameters with the parameters
 * CLBlast's own tuner (clblast_tuner_xgemm) found for this device (docs/apps/gemm.md). */
#include "apps/gemm/gemm_cl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CLBlast's C API (clblast_c.h): layout 101 = row-major, transpose 111 = none, 0 = success. */
typedef int (*sgemm_fn)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t, size_t,
                        cl_mem, size_t, size_t, float, cl_mem, size_t, size_t, cl_command_queue *,
                        cl_event *);
typedef int (*dgemm_fn)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t, size_t,
                        cl_mem, size_t, size_t, double, cl_mem, size_t, size_t, cl_command_queue *,
                        cl_event *);

typedef struct blast_state {
    gemm_mats m;
    cl_command_queue q;
    cl_mem a, b, c;
    void *fn;
    uint64_t seed;
} blast_state;

/* One GEMM through CLBlast, timed on the wall clock from the call to clFinish: CLBlast may
 * launch several kernels (padding, transposition), and only the last one's event comes back. */
static clb_error blast_once(void *state, double *seconds, clb_diag *d)
{
    blast_state *s = state;
    size_t n = s->m.n;
    int st;
    clb_diag_clear(d);
    CLB_CL(d, clFinish(s->q));
    double t0 = clb_now();
    if (s->m.prec == 4) {
        sgemm_fn f;
        memcpy(&f, &s->fn, sizeof f);
        st = f(101, 111, 111, n, n, n, 1.0f, s->a, 0, n, s->b, 0, n, 0.0f, s->c, 0, n, &s->q, NULL);
    } else {
        dgemm_fn f;
        memcpy(&f, &s->fn, sizeof f);
        st = f(101, 111, 111, n, n, n, 1.0, s->a, 0, n, s->b, 0, n, 0.0, s->c, 0, n, &s->q, NULL);
    }
    if (st != 0)
        CLB_FAIL(d, CLB_ERR_CL, "CLBlast GEMM returned status %d (clblast_c.h)", st);
    CLB_CL(d, clFinish(s->q));
    *seconds = clb_now() - t0;
cleanup:
    return d->err;
}

clb_error gemm_clblast_validate(clb_ctx *c, void *state, clb_diag *d)
{
    blast_state *s = state;
    size_t bytes = s->m.n * s->m.n * s->m.prec;
    void *host = malloc(bytes);
    (void)c;
    clb_diag_clear(d);
    if (!host)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->c, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    gemm_check(&s->m, host, s->m.n, s->seed ^ 0x5bd1e995u, d);
cleanup:
    free(host);
    return d->err;
}

static clb_error buffers(clb_ctx *c, blast_state *s, clb_diag *d)
{
    cl_context ctx = clb_device_context(c->dev);
    size_t bytes = s->m.n * s->m.n * s->m.prec;
    const cl_uchar junk = 0x5A;
    CLB_CL(d, s->a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->m.a, CLB_ERRP));
    CLB_CL(d, s->b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, s->m.b, CLB_ERRP));
    CLB_CL(d, s->c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, CLB_ERRP));
    CLB_CL(d, clEnqueueFillBuffer(s->q, s->c, &junk, 1, 0, bytes, 0, NULL, NULL));
    CLB_CL(d, clFinish(s->q));
cleanup:
    return d->err;
}

/* ---- the tuner's JSON (clblast_tuner_xgemm writes clblast_xgemm_<V>_<precision>.json) ---- */

enum { TUNE_MAX_PARAMS = 32, TUNE_MAX_BYTES = 64 << 20 };

typedef struct blast_tuning {
    char file[512], text[1024]; /* the winning file, its best_parameters as written */
    char names[TUNE_MAX_PARAMS][32];
    const char *namep[TUNE_MAX_PARAMS];
    size_t values[TUNE_MAX_PARAMS], count;
    double best_ms;
} blast_tuning;

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(TUNE_MAX_BYTES + 1) : NULL;
    *len = buf ? fread(buf, 1, TUNE_MAX_BYTES + 1, f) : 0;
    if (f)
        fclose(f);
    if (buf && (*len == 0 || *len > TUNE_MAX_BYTES)) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[*len] = '\0';
    return buf;
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* best_parameters "GEMMK=0 KREG=1 ... PRECISION=32": every NAME=VALUE but PRECISION. */
static int parse_params(const char *text, blast_tuning *t)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text);
    t->count = 0;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '='), *end = NULL;
        if (!eq || eq == tok || (size_t)(eq - tok) >= sizeof t->names[0] || t->count == TUNE_MAX_PARAMS)
            return -1;
        *eq = '\0';
        unsigned long long v = strtoull(eq + 1, &end, 10);
        if (end == eq + 1 || *end || v > 1u << 20 || strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") != strlen(tok))
            return -1;
        if (strcmp(tok, "PRECISION") == 0)
            continue;
        snprintf(t->names[t->count], sizeof t->names[0], "%s", tok);
        t->values[t->count++] = (size_t)v;
    }
    return t->count ? 0 : -1;
}

/* One file: usable when it is the tuner's output for this precision and device; otherwise why
 * is appended to notes. Keeps it in *best when its best_time is lower. */
static void consider(const char *path, size_t prec, const char *device, blast_tuning *best,
                     char *notes, size_t nlen)
{
    size_t len = 0, used = strlen(notes);
    char *text = read_text(path, &len), want[8];
    cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
    const char *fam = jstr(doc, "kernel_family"), *p = jstr(doc, "precision"), *kern = jstr(doc, "best_kernel");
    const char *dev = jstr(doc, "clblast_device_name") ? jstr(doc, "clblast_device_name") : jstr(doc, "device");
    const char *par = jstr(doc, "best_parameters"), *bt = jstr(doc, "best_time"), *why = NULL;
    blast_tuning t = {.count = 0};
    char *end = NULL;
    snprintf(want, sizeof want, "%zu", prec * 8);
    t.best_ms = bt ? strtod(bt, &end) : 0;
    if (!text)
        why = "cannot be read (missing, empty or over 64 MiB)";
    else if (!doc)
        why = "is not JSON";
    else if (!fam || strncmp(fam, "xgemm_", 6) != 0 || !kern || strcmp(kern, "Xgemm") != 0)
        why = "is not clblast_tuner_xgemm's output (kernel_family xgemm_*, best_kernel Xgemm)";
    else if (!p || strcmp(p, want) != 0)
        why = "is for another precision";
    else if (!dev || strcmp(dev, device) != 0)
        why = "is for another device";
    else if (!par || strlen(par) >= sizeof t.text || parse_params(par, &t) != 0)
        why = "has no readable best_parameters (NAME=VALUE ...)";
    else if (!bt || end == bt || !(t.best_ms > 0))
        why = "has no best_time";
    if (why && used + 2 < nlen)
        snprintf(notes + used, nlen - used, "%s%s %s", used ? "; " : "", path, why);
    if (!why && (best->count == 0 || t.best_ms < best->best_ms)) {
        snprintf(t.file, sizeof t.file, "%s", path);
        snprintf(t.text, sizeof t.text, "%s", par);
        *best = t;
    }
    cJSON_Delete(doc);
    free(text);
}

/* The tuning for this device and precision: the files clb_settings.clblast_tuning names
 * (separated by ':'), else the tuner's output files in the current directory. Unsupported with the reason
 * when none fits. */
static clb_error find_tuning(clb_ctx *c, size_t prec, blast_tuning *t, clb_diag *d)
{
    const char *env = clb_settings_get()->clblast_tuning, *device = clb_device_reference(c->dev)->device_name;
    char list[4096], notes[2048] = "", *save = NULL;
    static const char *const fams[] = {"1", "2", "11", "12"};
    t->count = 0;
    if (env && *env) {
        snprintf(list, sizeof list, "%s", env);
        for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
            consider(f, prec, device, t, notes, sizeof notes);
    } else {
        for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
            char path[64];
            snprintf(path, sizeof path, "clblast_xgemm_%s_%zu.json", fams[i], prec * 8);
            FILE *f = fopen(path, "rb");
            if (f) {
                fclose(f);
                consider(path, prec, device, t, notes, sizeof notes);
            }
        }
    }
    if (t->count == 0)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED,
                            "no CLBlast tuning for %s in %s precision (%s%s); run clblast_tuner_xgemm -precision %zu "
                            "on this device and name its JSON in CLBENCH_CLBLAST_TUNING",
                            device, prec == 4 ? "single" : "double",
                            env && *env ? "CLBENCH_CLBLAST_TUNING: " : "no clblast_xgemm_*.json in the current directory",
                            notes, prec * 8);
    for (size_t i = 0; i < t->count; i++)
        t->namep[i] = t->names[i];
    return CLB_OK;
}

/* CLBlastOverrideParameters(device, "Xgemm", precision, n, names, values): CLBlast compiles
 * its GEMM kernel with these parameters from the next call on (this worker process only). */
typedef int (*override_fn)(cl_device_id, const char *, int, size_t, const char **, const size_t *);

static clb_error apply_tuning(clb_ctx *c, void *lib, size_t prec, clb_diag *d)
{
    blast_tuning t;
    override_fn f = NULL;
    void *sym = dlsym(lib, "CLBlastOverrideParameters");
    if (!sym)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "libclblast.so.1 has no CLBlastOverrideParameters");
    memcpy(&f, &sym, sizeof f);
    if (find_tuning(c, prec, &t, d) != CLB_OK)
        return d->err;
    int st = f(clb_device_reference(c->dev)->device, "Xgemm", (int)prec * 8, t.count, t.namep, t.values);
    if (st != 0)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "CLBlastOverrideParameters refused %s from %s (status %d, clblast_c.h)",
                            t.text, t.file, st);
    clb_param_str(c->res, "tuning_file", t.file);
    clb_param_str(c->res, "tuned_parameters", t.text);
    clb_param_num(c->res, "tuner_best_ms", t.best_ms);
    return CLB_OK;
}

static clb_error blast_run(clb_ctx *c, clb_result *res, int tuned)
{
    const gemm_arg *a = c->bench->arg;
    blast_state s = {.q = clb_device_queue(c->dev), .seed = (uint64_t)(clb_now() * 1e9) | 1};
    size_t n = app_size(c, clb_settings_get()->gemm_n, 100, 2000, a->prec == 4 ? 8192 : 4096);
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    void *lib = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "CLBlast is not installed (dlopen libclblast.so.1: %s)", dlerror());
    s.fn = dlsym(lib, a->prec == 4 ? "CLBlastSgemm" : "CLBlastDgemm");
    if (!s.fn)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "libclblast.so.1 has no %s", a->prec == 4 ? "CLBlastSgemm" : "CLBlastDgemm");
    if (tuned && apply_tuning(c, lib, a->prec, d) != CLB_OK)
        goto cleanup;
    if (gemm_mats_init(&s.m, n, a->prec, s.seed, d) != CLB_OK || buffers(c, &s, d) != CLB_OK)
        goto cleanup;
    clb_param_str(res, "app", a->prec == 4 ? "sgemm" : "dgemm");
    clb_param_str(res, "variant", tuned ? "clblast_tuned" : "clblast");
    clb_param_num(res, "n", (double)n);
    gemm_roof_params(res, n, a->prec);
    clb_param_str(res, "library", "libclblast.so.1 (CLBlastSgemm/CLBlastDgemm, row-major)");
    clb_param_str(res, "peer_row", a->prec == 4 ? "compute.fp32.fma" : "compute.fp64.fma");
    app_timing t = {&s, blast_once, 2.0 * (double)n * (double)n * (double)n, 1e-9, "GFLOP/s",
                    "wall_clock_monotonic CLBlast call -> clFinish", s.c, n * n * a->prec};
    app_measure(c, &t);
cleanup:
    clb_release_mem(s.a);
    clb_release_mem(s.b);
    clb_release_mem(s.c);
    gemm_mats_free(&s.m);
    if (lib)
        dlclose(lib);
    return d->err;
}

clb_error gemm_clblast_run(clb_ctx *c, clb_result *res)
{
    return blast_run(c, res, 0);
}

clb_error gemm_clblast_tuned_run(clb_ctx *c, clb_result *res)
{
    return blast_run(c, res, 1);
}
