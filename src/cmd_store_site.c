/* clbench store site DIR (docs/store.md, "The site"): the store's devices, their rows' histories,
 * headline figures and the suite scores, read through the store's queries and given to the site
 * writer (lib/report/site.h) device by device as the histories stream in: one device's runs in
 * memory at a time, whatever the store's size. */
#include "cli.h"
#include "core/grow.h"
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

/* The device whose histories are being read. */
typedef struct dev_acc {
    clb_site_row *rows;
    size_t nrows, cap;
    double head[NHEAD];
    const char *head_unit[NHEAD];
} dev_acc;

typedef struct build {
    clb_store *s;
    clb_store_device *dv;
    size_t ndv;
    double *suite_peak;    /* per device: its newest ok peak score (NaN: none) */
    int64_t *suite_time;
    clb_site_writer *w;
    dev_acc acc;
    size_t cur;            /* the device in acc (ndv: none) */
    size_t next;           /* the devices before it are written */
    char **names, **units; /* interned row names and units, by the store's row id */
    size_t nnames;
    int failed;            /* 1: out of memory; 2: writing failed (d) */
    clb_diag d;
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
        void *const arr[] = {&b->names, &b->units};
        const size_t sz[] = {sizeof *b->names, sizeof *b->units};
        size_t n = b->nnames;
        if (!clb_grow_all(arr, sz, 2, r, &n))
            return 0;
        memset(b->names + b->nnames, 0, (n - b->nnames) * sizeof *b->names);
        memset(b->units + b->nnames, 0, (n - b->nnames) * sizeof *b->units);
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

/* Gives device k to the writer: its rows (acc when k is the device read, else none) and its
 * headline figures, every family (NaN where it measured none: the index leaves out a family no
 * device measured) and the suite peak. */
static int put_device(build *b, size_t k)
{
    static const char *const head_names[NHEAD] = {"fp32", "fp64", "memory", "h2d", "suite peak"};
    dev_acc *a = &b->acc;
    int mine = k == b->cur;
    clb_site_ceiling ceil[NHEAD];
    for (size_t f = 0; f < NHEAD; f++) {
        double v = f == NFAM ? b->suite_peak[k] : mine ? a->head[f] : NAN;
        const char *unit = f < NFAM && mine && a->head_unit[f] ? a->head_unit[f] : "";
        ceil[f] = (clb_site_ceiling){head_names[f], unit, v};
    }
    if (clb_site_put_device(b->w, k, mine ? a->rows : NULL, mine ? a->nrows : 0, ceil, NHEAD, &b->d) != CLB_OK)
        return b->failed = 2;
    return 0;
}

/* Writes the device read and every device before `until` (those without a history), then empties acc. */
static int flush(build *b, size_t until)
{
    dev_acc *a = &b->acc;
    if (b->cur < b->ndv && put_device(b, b->cur))
        return 1;
    if (b->cur < b->ndv)
        b->next = b->cur + 1;
    for (; b->next < until; b->next++)
        if (put_device(b, b->next))
            return 1;
    for (size_t r = 0; r < a->nrows; r++)
        free((void *)a->rows[r].points);
    a->nrows = 0;
    for (size_t f = 0; f < NHEAD; f++)
        a->head[f] = NAN, a->head_unit[f] = NULL;
    b->cur = b->ndv;
    return 0;
}

static int add_series(const clb_store_series *sr, void *arg)
{
    build *b = arg;
    size_t k = dev_index(b, sr->device);
    const char *name, *unit;
    if (k == b->ndv || sr->n == 0)
        return 0; /* a device added after the list was read */
    if (k != b->cur && (k < b->next || flush(b, k)))
        return b->failed ? b->failed : (b->failed = 2); /* series out of device order: not what the store gives */
    b->cur = k;
    dev_acc *a = &b->acc;
    if (!clb_grow(&a->rows, sizeof *a->rows, a->nrows, &a->cap))
        return b->failed = 1;
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
        if (k < b->ndv && isfinite(sc[i].peak) && sc[i].time >= b->suite_time[k])
            b->suite_peak[k] = sc[i].peak, b->suite_time[k] = sc[i].time;
    }
    return v;
}

/* The site's devices: their identities (the rows come device by device). */
static clb_site_device *devices_of(const build *b)
{
    clb_site_device *v = calloc(b->ndv ? b->ndv : 1, sizeof *v);
    for (size_t k = 0; v && k < b->ndv; k++)
        v[k] = (clb_site_device){b->dv[k].key, b->dv[k].model, b->dv[k].vendor, b->dv[k].driver, b->dv[k].host,
                                 b->dv[k].last_run, NULL, 0, NULL, 0};
    return v;
}

static void build_free(build *b)
{
    for (size_t r = 0; r < b->acc.nrows; r++)
        free((void *)b->acc.rows[r].points);
    free(b->acc.rows);
    for (size_t r = 0; r < b->nnames; r++)
        free(b->names[r]), free(b->units[r]);
    free(b->names), free(b->units), free(b->suite_peak), free(b->suite_time);
    clb_store_devices_free(b->dv, b->ndv);
}

/* The devices, their suite peaks and the scores; CLB_OK or d set. */
static clb_error read_front(build *b, clb_store_score **sc, size_t *nsc, clb_diag *d)
{
    clb_error e = clb_store_devices(b->s, &b->dv, &b->ndv, d);
    size_t n = b->ndv ? b->ndv : 1;
    if (e == CLB_OK && (!(b->suite_peak = malloc(n * sizeof *b->suite_peak)) ||
                        !(b->suite_time = malloc(n * sizeof *b->suite_time))))
        e = clb_diag_set(d, CLB_ERR_NOMEM, "out of memory reading the store");
    for (size_t k = 0; e == CLB_OK && k < b->ndv; k++)
        b->suite_peak[k] = NAN, b->suite_time[k] = INT64_MIN;
    for (size_t f = 0; f < NHEAD; f++)
        b->acc.head[f] = NAN;
    b->cur = b->ndv;
    return e == CLB_OK ? clb_store_suite_scores(b->s, sc, nsc, d) : e;
}

/* Streams every series into the writer; CLB_OK or d set. */
static clb_error stream(build *b, clb_diag *d)
{
    clb_error e = clb_store_each_series(b->s, 0, add_series, b, NULL, d);
    if (e == CLB_OK && !b->failed)
        flush(b, b->ndv);
    if (e == CLB_OK && b->failed == 1)
        e = clb_diag_set(d, CLB_ERR_NOMEM, "out of memory reading the store's histories");
    if (e == CLB_OK && b->failed == 2)
        e = clb_diag_set(d, b->d.err ? b->d.err : CLB_ERR_IO, "%s", b->d.msg[0] ? b->d.msg : "the store's histories "
                         "came out of device order");
    return e;
}

/* Reads the store and writes the site; the exit code. */
static int write_site(build *b, const char *dir, const char *title)
{
    clb_diag d;
    clb_store_score *sc = NULL;
    size_t nsc = 0;
    clb_error e = read_front(b, &sc, &nsc, &d);
    clb_site_score *scores = e == CLB_OK ? scores_of(b, sc, nsc) : NULL;
    clb_site_device *devs = scores ? devices_of(b) : NULL;
    if (e == CLB_OK && !devs)
        e = clb_diag_set(&d, CLB_ERR_NOMEM, "out of memory building the site");
    clb_site_model m = {title, (int64_t)time(NULL), devs, b->ndv, scores, nsc};
    if (e == CLB_OK)
        e = clb_site_begin(dir, &m, &b->w, &d);
    if (e == CLB_OK && (e = stream(b, &d)) != CLB_OK)
        clb_site_abort(b->w);
    if (e == CLB_OK)
        e = clb_site_finish(b->w, &d);
    if (e == CLB_OK)
        printf("site %s: %zu devices, %zu suite scores (open %s/index.html)\n", dir, b->ndv, nsc, dir);
    else
        fprintf(stderr, "clbench: store site: %s\n", d.msg);
    free(devs), free(scores);
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
