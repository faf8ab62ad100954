/* The tuned rung's search: candidate tile sizes, work-group shapes and vector widths of both
 * kernel families, filtered by the device's limits, each built, screened at a moderate size
 * and checked; the fastest valid one is cached per device, driver and precision in
 * $XDG_CACHE_HOME/clbench/gemm_tuned.json (~/.cache when unset); --retune searches again. */
#include "gemm_cl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BLK(m, n, k, wm, wn, v, db) {m, n, k, wm, wn, v, db, 0, 0, 0, 0}
#define VEC(rm, w, vn) {0, 0, 0, 0, 0, 0, 0, 1, rm, w, vn}
static const gemm_blk candidates[] = {
    BLK(32, 32, 16, 2, 2, 1, 0),   BLK(64, 64, 16, 4, 4, 4, 0),   BLK(64, 64, 16, 4, 4, 4, 1),
    BLK(64, 64, 32, 4, 4, 4, 1),   BLK(128, 64, 16, 8, 4, 4, 1),  BLK(64, 128, 16, 4, 8, 4, 1),
    BLK(128, 128, 8, 8, 8, 4, 1),  BLK(128, 128, 16, 8, 8, 4, 1), BLK(128, 128, 16, 8, 8, 2, 0),
    BLK(128, 128, 32, 8, 8, 4, 0), VEC(8, 8, 2),                  VEC(4, 16, 2),
    VEC(8, 16, 1),                 VEC(6, 16, 2),                 VEC(4, 8, 4),
    VEC(16, 8, 1),                 VEC(4, 4, 2),                  VEC(8, 4, 1),
    VEC(8, 16, 2),                 VEC(12, 16, 2),                VEC(14, 16, 2),
    VEC(16, 16, 1),
};
enum { NCAND = sizeof candidates / sizeof candidates[0] };

/* ---- the cache ---- */

static int cache_path(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int o = xdg && *xdg ? snprintf(buf, len, "%s/clbench", xdg)
            : home && *home ? snprintf(buf, len, "%s/.cache/clbench", home) : -1;
    if (o < 0 || (size_t)o + 32 > len)
        return 0;
    /* The parent of clbench/ may not exist yet (a fresh ~/.cache). */
    char *slash = strrchr(buf, '/');
    *slash = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return 0;
    *slash = '/';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return 0;
    snprintf(buf + o, len - (size_t)o, "/gemm_tuned.json");
    return 1;
}

/* The cache from text[0..len): an object, or an empty one when the text is not (a damaged
 * cache is searched again and rewritten, never trusted). */
static cJSON *cache_parse(const char *text, size_t len)
{
    cJSON *j = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        j = cJSON_CreateObject();
    }
    return j;
}

static cJSON *cache_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    cJSON *j = NULL;
    long n;
    if (!f)
        return cJSON_CreateObject();
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && n < (1L << 24) &&
        fseek(f, 0, SEEK_SET) == 0 && (text = calloc((size_t)n + 1, 1)) &&
        fread(text, 1, (size_t)n, f) == (size_t)n)
        j = cache_parse(text, (size_t)n);
    fclose(f);
    free(text);
    return j ? j : cJSON_CreateObject();
}

/* Written to a temporary file and renamed, so a concurrent reader never sees half a file. */
static void cache_store(const char *path, const cJSON *j)
{
    char tmp[4200];
    char *text = cJSON_Print(j);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = text ? fopen(tmp, "wb") : NULL;
    if (f) {
        int ok = fputs(text, f) >= 0;
        ok &= fclose(f) == 0;
        if (!ok || rename(tmp, path) != 0)
            remove(tmp);
    }
    free(text);
}

static clb_error key_of(clb_ctx *c, size_t prec, char *key, size_t len)
{
    const clb_device_ref *ref = clb_device_reference(c->dev);
    clb_diag *d = &c->diag;
    char driver[128] = "";
    CLB_CL(d, clGetDeviceInfo(ref->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL));
    snprintf(key, len, "%s | %s | %s", ref->device_name, driver, prec == 4 ? "sgemm" : "dgemm");
cleanup:
    return d->err;
}

static const char *const fields[] = {"family", "tsm", "tsn", "tsk", "wptm", "wptn",
                                     "vw", "dbuf", "rm", "w", "vn"};

static unsigned *field(gemm_blk *b, size_t i)
{
    unsigned *p[] = {&b->family, &b->tsm, &b->tsn, &b->tsk, &b->wptm, &b->wptn,
                     &b->vw, &b->dbuf, &b->rm, &b->w, &b->vn};
    return p[i];
}

/* An entry is used only when it is one of the candidates the search may pick: an entry edited
 * by hand or written by another version never reaches the kernel builder. */
static int from_json(const cJSON *o, gemm_blk *b)
{
    gemm_blk t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, fields[i]);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 4096) ||
            v->valuedouble != (double)(unsigned)v->valuedouble)
            return 0;
        *field(&t, i) = (unsigned)v->valuedouble;
    }
    for (size_t k = 0; k < NCAND; k++) {
        gemm_blk cand = candidates[k];
        size_t i = 0;
        while (i < sizeof fields / sizeof fields[0] && *field(&cand, i) == *field(&t, i))
            i++;
        if (i == sizeof fields / sizeof fields[0]) {
            *b = t;
            return 1;
        }
    }
    return 0;
}

int gemm_tune_cache_parse(const char *text, size_t len, const char *key, gemm_blk *out)
{
    cJSON *cache = cache_parse(text, len);
    int ok = cache && from_json(cJSON_GetObjectItemCaseSensitive(cache, key), out);
    cJSON_Delete(cache);
    return ok;
}

static cJSON *to_json(gemm_blk b, double gflops, size_t n)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        cJSON_AddNumberToObject(o, fields[i], *field(&b, i));
    clb_json_number(o, "screen_gflops", gflops);
    cJSON_AddNumberToObject(o, "screen_n", (double)n);
    return o;
}

/* ---- the search ---- */

/* GFLOP/s of candidate b at size m (best of two launches after a warm-up), or 0 when the
 * device cannot run it or its output fails the check. */
static double screen(clb_ctx *c, const gemm_rung *r, const gemm_blk *b, const gemm_mats *m)
{
    gemm_dev g;
    double best = 0, s = 0;
    if (gemm_dev_setup(c, r, b, m, &g) == CLB_OK && gemm_dev_once(&g, &s, &c->diag) == CLB_OK) {
        for (int i = 0; i < 2 && gemm_dev_once(&g, &s, &c->diag) == CLB_OK; i++)
            best = best > 0 && best < s ? best : s;
        if (best > 0 && gemm_dev_check(&g, &c->diag) != CLB_OK)
            best = 0;
    }
    gemm_dev_release(&g);
    clb_diag_clear(&c->diag);
    cJSON_DeleteItemFromObjectCaseSensitive(c->res->params, "build_log");
    return best > 0 ? 2.0 * (double)m->n * (double)m->n * (double)m->n / best * 1e-9 : 0;
}

/* Vector widths above 4 x the device's preferred width are left out (GPUs prefer 1). */
static int plausible(cl_uint pref, const gemm_blk *b)
{
    unsigned w = b->family ? b->w : b->vw;
    return w <= 4 * (pref ? pref : 1);
}

static clb_error search(clb_ctx *c, const gemm_rung *r, size_t prec, size_t row_n,
                        gemm_blk *best, double *best_gflops, size_t *n)
{
    int cpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    gemm_mats m = {0};
    unsigned tried = 0, valid = 0;
    cl_uint pref = 1;
    *n = c->opts->quick ? 128 : cpu ? 1024 : 2048;
    *n = *n < row_n ? *n : row_n; /* never above the row's own size */
    *best_gflops = 0;
    CLB_CL(&c->diag, clGetDeviceInfo(clb_device_reference(c->dev)->device,
                                     prec == 4 ? CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
                                               : CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                                     sizeof pref, &pref, NULL));
    if (gemm_mats_init(&m, *n, prec, (uint64_t)(clb_now() * 1e9) | 1, &c->diag) != CLB_OK)
        goto cleanup;
    for (size_t i = 0; i < NCAND && !(c->opts->quick && tried >= 3); i++) {
        if (!plausible(pref, &candidates[i]))
            continue;
        double g = screen(c, r, &candidates[i], &m);
        tried++;
        valid += g > 0;
        if (g > *best_gflops) {
            *best_gflops = g;
            *best = candidates[i];
        }
    }
    clb_param_num(c->res, "tune_candidates", tried);
    clb_param_num(c->res, "tune_valid", valid);
    if (valid == 0)
        clb_diag_set(&c->diag, CLB_ERR_UNSUPPORTED, "none of %u tile configurations ran and passed the check", tried);
cleanup:
    gemm_mats_free(&m);
    return c->diag.err;
}

clb_error gemm_tune(clb_ctx *c, const gemm_rung *r, size_t prec, size_t row_n, gemm_blk *best)
{
    char path[4096], key[512];
    int have_path = cache_path(path, sizeof path);
    cJSON *cache = have_path ? cache_load(path) : cJSON_CreateObject();
    double gflops = 0;
    size_t n = 0;
    if (key_of(c, prec, key, sizeof key) != CLB_OK) {
        cJSON_Delete(cache);
        return c->diag.err;
    }
    clb_param_str(c->res, "tune_cache", have_path ? path : "none (no HOME or XDG_CACHE_HOME)");
    clb_param_str(c->res, "tune_key", key);
    const cJSON *hit = cJSON_GetObjectItemCaseSensitive(cache, key);
    if (!c->opts->retune && !c->opts->quick && hit && from_json(hit, best)) {
        clb_param_str(c->res, "tune_source", "cache");
    } else if (search(c, r, prec, row_n, best, &gflops, &n) == CLB_OK) {
        clb_param_str(c->res, "tune_source", "search");
        clb_param_num(c->res, "tune_screen_n", (double)n);
        clb_param_num(c->res, "tune_screen_gflops", gflops);
        if (have_path && !c->opts->quick) {
            cJSON_DeleteItemFromObjectCaseSensitive(cache, key);
            cJSON_AddItemToObject(cache, key, to_json(*best, gflops, n));
            cache_store(path, cache);
        }
    }
    cJSON_Delete(cache);
    return c->diag.err;
}
