/* clbench store site DIR (docs/store.md, "The site"): the store's devices, their rows' histories,
 * headline figures and the suite scores, read through the store's queries into the site
 * writer's plain model (lib/report/site.h), then written as static pages into DIR. */
#include "cli.h"
#include "report/site.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The headline figures: per family, the best of the latest ok values of its rows (the index's
 * columns, in this order; a family no device measured is left out). The suite's peak score is
 * the last column. */
static const struct {
    const char *name;
    const char *rows[5];
} families[] = {
    {"fp32", {"compute.fp32.fma", "compute.fp32.mul", "compute.fp32.add"}},
    {"fp64", {"compute.fp64.fma", "compute.fp64.mul", "compute.fp64.add"}},
    {"memory", {"memory.triad", "memory.copy", "memory.scale", "memory.add"}},
    {"h2d", {"transfer.h2d_pinned", "transfer.h2d_pageable"}},
};
enum { NFAM = sizeof families / sizeof families[0], NHEAD = NFAM + 1 /* + suite peak */ };

/* What is built for one device beside the site's view of it. */
typedef struct dev_acc {
    clb_site_row *rows;
    size_t nrows, cap;
    double head[NHEAD];
    const char *head_unit[NHEAD];
    int64_t suite_time;
} dev_acc;

typedef struct build {
    clb_store *s;
    clb_store_device *dv;
    size_t ndv;
    dev_acc *acc;
    char **names, **units; /* interned row names and units, by the store's row id */
    size_t nnames;
    int failed;
} build;

static size_t dev_index(const build *b, int64_t id)
{
    return clb_store_device_index(b->dv, b->ndv, id);
}

/* The row's name and unit, one copy per row of the store. */
static int intern(build *b, const clb_store_series *sr, const char **name, const char **unit)
{
    if (sr->row < 0 || sr->row > 100000000)
        return 0;
    size_t r = (size_t)sr->row;
    if (r >= b->nnames) {
        size_t n = r + 64;
        char **nv = realloc(b->names, n * sizeof *nv), **uv = nv ? realloc(b->units, n * sizeof *uv) : NULL;
        if (nv)
            b->names = nv;
        if (!uv)
            return 0;
        b->units = uv;
        memset(b->names + b->nnames, 0, (n - b->nnames) * sizeof *nv);
        memset(b->units + b->nnames, 0, (n - b->nnames) * sizeof *uv);
        b->nnames = n;
    }
    if (!b->names[r]) {
        b->names[r] = strdup(sr->row_name ? sr->row_name : "");
        b->units[r] = strdup(sr->unit ? sr->unit : "");
    }
    *name = b->names[r], *unit = b->units[r];
    return *name && *unit;
}

/* The newest ok value of a series; NaN when no run measured one. */
static double latest_ok(const build *b, const clb_store_series *sr)
{
    for (size_t i = sr->n; i-- > 0;)
        if (strcmp(clb_store_status_name(b->s, sr->status[i]), "ok") == 0 && isfinite(sr->value[i]))
            return sr->value[i];
    return NAN;
}

/* A series that belongs to a headline family raises the family's best. */
static void headline(build *b, dev_acc *a, const clb_store_series *sr, const char *unit)
{
    for (size_t f = 0; f < NFAM; f++)
        for (size_t r = 0; r < sizeof families[f].rows / sizeof families[f].rows[0] && families[f].rows[r]; r++)
            if (strcmp(sr->row_name, families[f].rows[r]) == 0) {
                double v = latest_ok(b, sr);
                if (isfinite(v) && !(v <= a->head[f]))
                    a->head[f] = v, a->head_unit[f] = unit;
            }
}

/* The site's points of a series: the band is value x (1 -/+ cv), one relative standard deviation. */
static clb_site_point *points_of(build *b, const clb_store_series *sr)
{
    clb_site_point *p = malloc(sr->n * sizeof *p);
    for (size_t i = 0; p && i < sr->n; i++) {
        double v = sr->value[i], cv = sr->spread[i];
        int band = isfinite(v) && isfinite(cv) && cv >= 0;
        p[i] = (clb_site_point){.time = sr->time[i],
                                .value = v,
                                .lo = band ? v * (1 - cv) : NAN,
                                .hi = band ? v * (1 + cv) : NAN,
                                .status = clb_store_status_name(b->s, sr->status[i])};
    }
    return p;
}

static int add_series(const clb_store_series *sr, void *arg)
{
    build *b = arg;
    size_t k = dev_index(b, sr->device);
    const char *name, *unit;
    if (k == b->ndv || sr->n == 0)
        return 0; /* a device added after the list was read */
    dev_acc *a = &b->acc[k];
    if (a->nrows == a->cap) {
        size_t c = a->cap ? 2 * a->cap : 32;
        clb_site_row *v = realloc(a->rows, c * sizeof *v);
        if (!v)
            return b->failed = 1;
        a->rows = v, a->cap = c;
    }
    clb_site_point *p = intern(b, sr, &name, &unit) ? points_of(b, sr) : NULL;
    if (!p)
        return b->failed = 1;
    a->rows[a->nrows++] = (clb_site_row){name, unit, sr->better, p, sr->n};
    headline(b, a, sr, unit);
    return 0;
}

/* The site's scores (scores[i] from sc[i]); a device's newest ok peak score becomes its last
 * headline figure. */
static clb_site_score *scores_of(build *b, const clb_store_score *sc, size_t n)
{
    clb_site_score *v = calloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++) {
        size_t k = sc[i].device ? dev_index(b, sc[i].device) : b->ndv;
        v[i] = (clb_site_score){sc[i].host,   sc[i].model,  k < b->ndv ? b->dv[k].key : NULL,
                                sc[i].variant, sc[i].status, sc[i].reason,
                                sc[i].peak,   sc[i].average, sc[i].time};
        if (k < b->ndv && isfinite(sc[i].peak) && sc[i].time >= b->acc[k].suite_time)
            b->acc[k].head[NFAM] = sc[i].peak, b->acc[k].head_unit[NFAM] = "", b->acc[k].suite_time = sc[i].time;
    }
    return v;
}

/* The site's devices, with the headline families that any device measured. */
static clb_site_device *devices_of(build *b, clb_site_ceiling **ceil)
{
    static const char *const head_names[NHEAD] = {"fp32", "fp64", "memory", "h2d", "suite peak"};
    size_t cols[NHEAD], nc = 0;
    for (size_t f = 0; f < NHEAD; f++)
        for (size_t k = 0; k < b->ndv; k++)
            if (isfinite(b->acc[k].head[f])) {
                cols[nc++] = f;
                break;
            }
    clb_site_device *v = calloc(b->ndv ? b->ndv : 1, sizeof *v);
    *ceil = calloc(b->ndv * nc + 1, sizeof **ceil);
    for (size_t k = 0; v && *ceil && k < b->ndv; k++) {
        const dev_acc *a = &b->acc[k];
        clb_site_ceiling *c = *ceil + k * nc;
        for (size_t j = 0; j < nc; j++)
            c[j] = (clb_site_ceiling){head_names[cols[j]], a->head_unit[cols[j]] ? a->head_unit[cols[j]] : "",
                                      a->head[cols[j]]};
        v[k] = (clb_site_device){b->dv[k].key, b->dv[k].model, b->dv[k].vendor, b->dv[k].driver, b->dv[k].host,
                                 b->dv[k].last_run, c, nc, a->rows, a->nrows};
    }
    return v && *ceil ? v : NULL;
}

static void build_free(build *b)
{
    for (size_t k = 0; b->acc && k < b->ndv; k++) {
        for (size_t r = 0; r < b->acc[k].nrows; r++)
            free((void *)b->acc[k].rows[r].points);
        free(b->acc[k].rows);
    }
    for (size_t r = 0; r < b->nnames; r++)
        free(b->names[r]), free(b->units[r]);
    free(b->names), free(b->units), free(b->acc);
    clb_store_devices_free(b->dv, b->ndv);
}

/* Reads the store into b and writes the site; the exit code. */
static int write_site(build *b, const char *dir, const char *title)
{
    clb_diag d;
    clb_store_score *sc = NULL;
    size_t nsc = 0;
    clb_error e = clb_store_devices(b->s, &b->dv, &b->ndv, &d);
    if (e == CLB_OK && !(b->acc = calloc(b->ndv ? b->ndv : 1, sizeof *b->acc)))
        e = clb_diag_set(&d, CLB_ERR_NOMEM, "out of memory reading the store");
    for (size_t k = 0; e == CLB_OK && k < b->ndv; k++)
        for (size_t f = 0; f < NHEAD; f++)
            b->acc[k].head[f] = NAN;
    if (e == CLB_OK)
        e = clb_store_each_series(b->s, 0, add_series, b, NULL, &d);
    if (e == CLB_OK && b->failed)
        e = clb_diag_set(&d, CLB_ERR_NOMEM, "out of memory reading the store's histories");
    if (e == CLB_OK)
        e = clb_store_suite_scores(b->s, &sc, &nsc, &d);
    clb_site_score *scores = e == CLB_OK ? scores_of(b, sc, nsc) : NULL;
    clb_site_ceiling *ceil = NULL;
    clb_site_device *devs = scores ? devices_of(b, &ceil) : NULL;
    if (e == CLB_OK && !devs)
        e = clb_diag_set(&d, CLB_ERR_NOMEM, "out of memory building the site");
    if (e == CLB_OK) {
        clb_site_model m = {title, (int64_t)time(NULL), devs, b->ndv, scores, nsc};
        e = clb_site_write(dir, &m, &d);
    }
    if (e == CLB_OK)
        printf("site %s: %zu devices, %zu suite scores (open %s/index.html)\n", dir, b->ndv, nsc, dir);
    else
        fprintf(stderr, "clbench: store site: %s\n", d.msg);
    free(devs), free(ceil), free(scores);
    clb_store_scores_free(sc, nsc);
    return e == CLB_OK ? CLI_EXIT_OK : e == CLB_ERR_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
}

int cli_store_site(struct clb_store *s, const char *dir)
{
    build b = {.s = s};
    int rc = write_site(&b, dir, "clbench results");
    build_free(&b);
    return rc;
}
