/* A model's page: its devices, and per row (name and unit) each device's latest value, the
 * median of the model's devices and each one's deviation from it; farthest on the worse side
 * first, so that the slow card of a fleet tops its row. */
#include "report/site_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Devices listed per row; beyond, the row says how many more and their deviations' range. */
enum { SHOWN_PER_ROW = 32 };

typedef struct entry {
    const clb_site_row *row;
    size_t dev;
    const clb_site_point *last; /* NULL: the row has no run */
    double dev_pct;             /* from the median; NaN when not measured */
    double order;               /* sort key: smaller is worse */
} entry;

static int cmp_row(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(site_s(x->row->name), site_s(y->row->name));
    return c ? c : strcmp(site_s(x->row->unit), site_s(y->row->unit));
}

static int cmp_worse(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

static int measured(const clb_site_point *p)
{
    return p && site_ok(p->status) && isfinite(p->value);
}

/* Every (device, row) of the model, grouped by row. */
static entry *entries_of(const site_ctx *c, const site_group *g, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < g->count; i++)
        k += c->m->devices[c->order[g->first + i]].nrows;
    entry *e = malloc(k ? k * sizeof *e : 1);
    if (!e)
        return NULL;
    k = 0;
    for (size_t i = 0; i < g->count; i++) {
        size_t dev = c->order[g->first + i];
        const clb_site_device *dv = &c->m->devices[dev];
        for (size_t r = 0; r < dv->nrows; r++) {
            const clb_site_row *row = &dv->rows[r];
            e[k++] = (entry){row, dev, row->npoints ? &row->points[row->npoints - 1] : NULL, NAN, 0};
        }
    }
    qsort(e, k, sizeof *e, cmp_row);
    *n = k;
    return e;
}

/* The median of the run's latest measured values; each entry's deviation and sort key
 * (runs without a measured latest value first: a failing card is the first thing to see). */
static double judge_run(entry *e, size_t n, double *scratch)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (measured(e[i].last))
            scratch[k++] = e[i].last->value;
    double med = site_median(scratch, k);
    int better = e[0].row->better;
    for (size_t i = 0; i < n; i++) {
        if (!measured(e[i].last)) {
            e[i].order = -INFINITY;
            continue;
        }
        e[i].dev_pct = med != 0 && isfinite(med) ? (e[i].last->value - med) / fabs(med) * 100 : NAN;
        double dv = isfinite(e[i].dev_pct) ? e[i].dev_pct : 0;
        e[i].order = better > 0 ? dv : better < 0 ? -dv : -fabs(dv);
    }
    qsort(e, n, sizeof *e, cmp_worse);
    return med;
}

static void entry_row(FILE *f, const site_ctx *c, const entry *e)
{
    char t[32];
    fputs("<tr><td>", f);
    site_link(f, "../", "device", c->dev_slug[e->dev], c->m->devices[e->dev].key);
    fputs("</td>", f);
    if (measured(e->last)) {
        site_td_num(f, e->last->value, e->row->unit);
        if (isfinite(e->dev_pct))
            fprintf(f, "<td class=\"num\">%+.1f %%</td>", e->dev_pct);
        else
            fputs("<td class=\"num\">-</td>", f);
    } else {
        fputs("<td>", f);
        rep_html_status(f, e->last ? site_unmeasured(e->last) : "no run", NULL);
        fputs("</td><td class=\"num\">-</td>", f);
    }
    site_time(t, sizeof t, e->last ? e->last->time : 0);
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

static void row_section(FILE *f, const site_ctx *c, entry *e, size_t n, double *scratch)
{
    char m[40];
    double med = judge_run(e, n, scratch);
    site_num(m, sizeof m, med);
    fputs("<h3>", f);
    html_puts(f, *site_s(e[0].row->name) ? e[0].row->name : "(unnamed row)");
    fprintf(f, "</h3>\n<p class=\"meta\">median of the latest measured values: %s ", m);
    html_puts(f, isfinite(med) ? e[0].row->unit : "");
    fprintf(f, " over %zu device%s; %s first</p>\n<table><tr><th>device</th><th>latest</th><th>deviation</th>"
               "<th>run (UTC)</th></tr>\n", n, n == 1 ? "" : "s",
            e[0].row->better ? "worst" : "farthest from the median");
    size_t shown = n < SHOWN_PER_ROW ? n : SHOWN_PER_ROW;
    for (size_t i = 0; i < shown; i++)
        entry_row(f, c, &e[i]);
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

static void rows_sections(FILE *f, const site_ctx *c, entry *e, size_t n, double *scratch)
{
    fputs("<h2>Rows</h2>\n<p class=\"small\">Per row, each device's latest run, the median of the model's "
          "devices and the deviation from it; runs without a measured number first.</p>\n", f);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && cmp_row(&e[i], &e[j]) == 0; j++)
            ;
        row_section(f, c, e + i, j - i, scratch);
    }
}

clb_error site_model_page(const site_ctx *c, size_t group, clb_diag *d)
{
    const site_group *g = &c->groups[group];
    char rel[SITE_NAME_MAX + 16];
    size_t n = 0;
    clb_output *o = NULL;
    FILE *f;
    entry *e = entries_of(c, g, &n);
    double *scratch = malloc(n ? n * sizeof *scratch : 1); /* a device may list a row twice */
    if (!e || !scratch)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
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
    rows_sections(f, c, e, n, scratch);
    site_foot(f, c);
    site_close(o, f, d);
cleanup:
    free(e);
    free(scratch);
    return d->err;
}
