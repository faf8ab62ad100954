/* A model's page: its devices, and per row (name and unit) each device's latest value, the
 * median of the model's devices and each one's deviation from it; farthest on the worse side
 * first, so that the slow card of a fleet tops its row. Read back from the spill file (each
 * device's latest run per row, in row order) by merging the model's devices row by row, so a
 * page needs one row of its devices in memory, not their histories. */
#include "report/site_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Devices listed per row; beyond, the row says how many more and their deviations' range. */
enum { SHOWN_PER_ROW = 32 };

typedef struct entry {
    size_t dev;
    int has;                    /* 0: the row has no run */
    clb_site_point last;        /* its latest run */
    double dev_pct;             /* from the median; NaN when not measured */
    double order;               /* sort key: smaller is worse */
} entry;

/* The row being written. */
typedef struct row_info {
    const char *name, *unit;
    int better;
} row_info;

static int cmp_worse(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

static int measured(const entry *e)
{
    return e->has && site_ok(e->last.status) && isfinite(e->last.value);
}

/* The median of the run's latest measured values; each entry's deviation and sort key
 * (runs without a measured latest value first: a failing card is the first thing to see). */
static double judge_run(entry *e, size_t n, int better, double *scratch)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (measured(&e[i]))
            scratch[k++] = e[i].last.value;
    double med = site_median(scratch, k);
    for (size_t i = 0; i < n; i++) {
        if (!measured(&e[i])) {
            e[i].order = -INFINITY;
            continue;
        }
        e[i].dev_pct = med != 0 && isfinite(med) ? (e[i].last.value - med) / fabs(med) * 100 : NAN;
        double dv = isfinite(e[i].dev_pct) ? e[i].dev_pct : 0;
        e[i].order = better > 0 ? dv : better < 0 ? -dv : -fabs(dv);
    }
    qsort(e, n, sizeof *e, cmp_worse);
    return med;
}

static void entry_row(FILE *f, const site_ctx *c, const row_info *row, const entry *e)
{
    char t[32];
    fputs("<tr><td>", f);
    site_link(f, "../", "device", c->dev_slug[e->dev], c->m->devices[e->dev].key);
    fputs("</td>", f);
    if (measured(e)) {
        site_td_num(f, e->last.value, row->unit);
        if (isfinite(e->dev_pct))
            fprintf(f, "<td class=\"num\">%+.1f %%</td>", e->dev_pct);
        else
            fputs("<td class=\"num\">-</td>", f);
    } else {
        fputs("<td>", f);
        rep_html_status(f, e->has ? site_unmeasured(&e->last) : "no run", NULL);
        fputs("</td><td class=\"num\">-</td>", f);
    }
    site_time(t, sizeof t, e->has ? e->last.time : 0);
    fprintf(f, "<td class=\"num\">%s</td></tr>\n", t);
}

/* The rest of a long row in one line: how many, and their deviations' range. */
static void rest_line(FILE *f, const entry *e, size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (isfinite(e[i].dev_pct)) {
            lo = fmin(lo, e[i].dev_pct);
            hi = fmax(hi, e[i].dev_pct);
        }
    fprintf(f, "<p class=\"small\">%zu more devices", n);
    if (lo <= hi)
        fprintf(f, ", deviations from %+.1f %% to %+.1f %%", lo, hi);
    fputs(".</p>\n", f);
}

static void row_section(FILE *f, const site_ctx *c, const row_info *row, entry *e, size_t n, double *scratch)
{
    char m[40];
    double med = judge_run(e, n, row->better, scratch);
    site_num(m, sizeof m, med);
    fputs("<h3>", f);
    html_puts(f, *site_s(row->name) ? row->name : "(unnamed row)");
    fprintf(f, "</h3>\n<p class=\"meta\">median of the latest measured values: %s ", m);
    html_puts(f, isfinite(med) ? row->unit : "");
    fprintf(f, " over %zu device%s; %s first</p>\n<table><tr><th>device</th><th>latest</th><th>deviation</th>"
               "<th>run (UTC)</th></tr>\n", n, n == 1 ? "" : "s",
            row->better ? "worst" : "farthest from the median");
    size_t shown = n < SHOWN_PER_ROW ? n : SHOWN_PER_ROW;
    for (size_t i = 0; i < shown; i++)
        entry_row(f, c, row, &e[i]);
    fputs("</table>\n", f);
    if (shown < n)
        rest_line(f, e + shown, n - shown);
}

static void devices_table(FILE *f, const site_ctx *c, const site_group *g)
{
    char t[32];
    fputs("<h2>Devices</h2>\n<table><tr><th>device</th><th>driver</th><th>host</th><th>last run (UTC)</th></tr>\n", f);
    for (size_t i = 0; i < g->count; i++) {
        size_t dev = c->order[g->first + i];
        const clb_site_device *dv = &c->m->devices[dev];
        fputs("<tr><td>", f);
        site_link(f, "../", "device", c->dev_slug[dev], dv->key);
        fputs("</td>", f);
        site_td(f, dv->driver);
        site_td(f, dv->host);
        site_time(t, sizeof t, dv->last_run);
        fprintf(f, "<td class=\"num\">%s</td></tr>\n", t);
    }
    fputs("</table>\n", f);
}

/* A device's records, read a few at a time. */
enum { CURSOR_BUF = 8 };
typedef struct cursor {
    uint64_t at;      /* the next record to read */
    uint32_t left;    /* records not yet read */
    uint32_t pos, n;  /* in buf */
    site_rec buf[CURSOR_BUF];
} cursor;

/* The cursor's current record; NULL when the device has no more, or a read failed (*bad). */
static const site_rec *peek(const site_ctx *c, cursor *k, int *bad)
{
    if (k->pos < k->n)
        return &k->buf[k->pos];
    if (!k->left)
        return NULL;
    uint32_t want = k->left < CURSOR_BUF ? k->left : CURSOR_BUF;
    ssize_t got = pread(fileno(c->spill), k->buf, want * sizeof *k->buf, (off_t)k->at);
    if (got != (ssize_t)(want * sizeof *k->buf)) {
        *bad = 1;
        return NULL;
    }
    k->at += want * sizeof *k->buf, k->left -= want, k->pos = 0, k->n = want;
    return &k->buf[0];
}

typedef struct merge {
    cursor *cur;      /* per device of the model, in c->order */
    entry *e;
    size_t cap;
    double *scratch;
    const uint32_t *rank; /* per row: its place by name and unit */
    int bad;
} merge;

/* The entries of the model's next row (the smallest rank any device has left), taken from every
 * device that has it; 0 when every device is done. */
static size_t next_row(const site_ctx *c, const site_group *g, merge *mg, uint32_t *row)
{
    uint32_t best = UINT32_MAX;
    for (size_t i = 0; i < g->count; i++) {
        const site_rec *r = peek(c, &mg->cur[i], &mg->bad);
        if (r && mg->rank[r->row] < best)
            best = mg->rank[r->row], *row = r->row;
    }
    size_t n = 0;
    for (size_t i = 0; best != UINT32_MAX && i < g->count; i++)
        for (const site_rec *r; (r = peek(c, &mg->cur[i], &mg->bad)) && mg->rank[r->row] == best; mg->cur[i].pos++) {
            void *const arr[] = {&mg->e, &mg->scratch}; /* a device may list a row twice */
            const size_t sz[] = {sizeof *mg->e, sizeof *mg->scratch};
            if (!clb_grow_all(arr, sz, 2, n, &mg->cap))
                return mg->bad = 1, 0;
            mg->e[n++] = (entry){c->order[g->first + i], (int)r->has,
                                 (clb_site_point){r->time, r->value, NAN, NAN, site_str(c, r->status)}, NAN, 0};
        }
    return n;
}

static void rows_sections(FILE *f, const site_ctx *c, const site_group *g, merge *mg)
{
    fputs("<h2>Rows</h2>\n<p class=\"small\">Per row, each device's latest run, the median of the model's "
          "devices and the deviation from it; runs without a measured number first.</p>\n", f);
    uint32_t r = 0;
    for (size_t n; (n = next_row(c, g, mg, &r)) > 0;) {
        const uint32_t *key = (const uint32_t *)c->rows.s[r];
        row_info row = {site_str(c, key[0]), site_str(c, key[1]), c->row_better[r]};
        row_section(f, c, &row, mg->e, n, mg->scratch);
    }
}

static clb_error model_page(const site_ctx *c, size_t group, merge *mg, clb_diag *d)
{
    const site_group *g = &c->groups[group];
    char rel[SITE_NAME_MAX + 16];
    clb_output *o = NULL;
    FILE *f;
    if (!(mg->cur = calloc(g->count ? g->count : 1, sizeof *mg->cur)))
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < g->count; i++) {
        size_t dev = c->order[g->first + i];
        mg->cur[i].at = c->spill_at[dev], mg->cur[i].left = c->spill_n[dev];
    }
    snprintf(rel, sizeof rel, "model/%s.html", g->slug);
    if (site_open(c, rel, &o, &f, d) != CLB_OK)
        goto cleanup;
    site_head(f, *site_s(g->model) ? g->model : "(no model)", "../");
    fputs("<h1>", f);
    html_puts(f, *site_s(g->model) ? g->model : "(no model)");
    fputs("</h1>\n<p class=\"meta\">vendor ", f);
    html_puts(f, c->m->devices[c->order[g->first]].vendor);
    fprintf(f, " &middot; %zu device%s</p>\n", g->count, g->count == 1 ? "" : "s");
    devices_table(f, c, g);
    rows_sections(f, c, g, mg);
    site_foot(f, c);
    if (mg->bad) /* the page is dropped, not put in place */
        clb_output_close(o, 0, d), clb_diag_set(d, CLB_ERR_IO, "cannot read the site's temporary file in %s", c->dir);
    else
        site_close(o, f, d);
cleanup:
    free(mg->cur);
    mg->cur = NULL;
    return d->err;
}

static const site_ctx *rank_c;
static int cmp_row_id(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)rank_c->rows.s[*(const uint32_t *)a];
    const uint32_t *y = (const uint32_t *)rank_c->rows.s[*(const uint32_t *)b];
    int r = strcmp(site_str(rank_c, x[0]), site_str(rank_c, y[0]));
    return r ? r : strcmp(site_str(rank_c, x[1]), site_str(rank_c, y[1]));
}

clb_error site_model_pages(site_ctx *c, clb_diag *d)
{
    size_t nr = c->rows.n;
    uint32_t *by = malloc(nr ? nr * sizeof *by : 1), *rank = malloc(nr ? nr * sizeof *rank : 1);
    merge mg = {.rank = rank};
    if (!by || !rank)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < nr; i++)
        by[i] = (uint32_t)i;
    rank_c = c;
    qsort(by, nr, sizeof *by, cmp_row_id);
    for (size_t i = 0; i < nr; i++)
        rank[by[i]] = (uint32_t)i;
    for (size_t g = 0; g < c->ngroups; g++)
        if (model_page(c, g, &mg, d) != CLB_OK)
            break;
cleanup:
    free(by), free(rank), free(mg.e), free(mg.scratch);
    return d->err;
}
