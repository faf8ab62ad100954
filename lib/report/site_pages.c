/* The site's device pages, its suite scores page and its index (docs/store.md, "The site"). */
#include "report/site_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void meta_item(FILE *f, const char *label, const char *value)
{
    fprintf(f, " &middot; %s ", label);
    html_puts(f, *site_s(value) ? value : "-");
}

/* The device's headline figures that it measured. */
static void ceilings_table(FILE *f, const clb_site_ceiling *v, size_t n)
{
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i].value))
            continue;
        if (!shown++)
            fputs("<table><tr><th>headline</th><th>value</th></tr>\n", f);
        fputs("<tr>", f);
        site_td(f, v[i].name);
        site_td_num(f, v[i].value, v[i].unit);
        fputs("</tr>\n", f);
    }
    if (shown)
        fputs("</table>\n", f);
}

clb_error site_device_page(const site_ctx *c, size_t dev, const clb_site_row *rows, size_t nrows,
                           const clb_site_ceiling *ceilings, size_t nceilings, clb_diag *d)
{
    const clb_site_device *dv = &c->m->devices[dev];
    const site_group *g = &c->groups[c->dev_group[dev]];
    char rel[SITE_NAME_MAX + 16], t[32];
    clb_output *o;
    FILE *f;
    snprintf(rel, sizeof rel, "device/%s.html", c->dev_slug[dev]);
    if (site_open(c, rel, &o, &f, d) != CLB_OK)
        return d->err;
    site_head(f, dv->key, "../");
    fputs("<h1>", f);
    html_puts(f, *site_s(dv->key) ? dv->key : "(unnamed)");
    fputs("</h1>\n<p class=\"meta\">model ", f);
    site_link(f, "../", "model", g->slug, g->model);
    meta_item(f, "vendor", dv->vendor);
    meta_item(f, "driver", dv->driver);
    meta_item(f, "host", dv->host);
    site_time(t, sizeof t, dv->last_run);
    fprintf(f, " &middot; last run %s UTC</p>\n", t);
    ceilings_table(f, ceilings, nceilings);
    fprintf(f, "<h2>History</h2>\n<p class=\"small\">%zu rows; per run a dot (hover: time, value, spread), "
               "the band its spread, red on the baseline a run without a measured number.</p>\n"
               "<div class=\"grid\">\n", nrows);
    for (size_t i = 0; i < nrows; i++)
        site_history(f, &rows[i]);
    fputs("</div>\n", f);
    site_foot(f, c);
    return site_close(o, f, d);
}

/* Scores: measured ones first, highest peak first; then the void ones by machine. */
static int cmp_score(const void *a, const void *b)
{
    const clb_site_score *x = *(const clb_site_score *const *)a, *y = *(const clb_site_score *const *)b;
    int ox = site_ok(x->status) && isfinite(x->peak), oy = site_ok(y->status) && isfinite(y->peak);
    if (ox != oy)
        return oy - ox;
    if (ox && x->peak != y->peak)
        return (x->peak < y->peak) - (x->peak > y->peak);
    return strcmp(site_s(x->machine), site_s(y->machine));
}

static void score_row(FILE *f, const site_ctx *c, const clb_site_score *s)
{
    char t[32];
    size_t dev = site_find_device(c, s->device_key);
    fputs("<tr>", f);
    site_td(f, s->machine);
    fputs("<td>", f);
    if (dev != (size_t)-1)
        site_link(f, "", "device", c->dev_slug[dev], *site_s(s->device) ? s->device : s->device_key);
    else
        html_puts(f, s->device);
    fputs("</td>", f);
    site_td(f, s->variant);
    if (site_ok(s->status)) {
        site_td_num(f, s->peak, NULL);
        site_td_num(f, s->average, NULL);
        fputs("<td>", f);
        rep_html_status(f, "ok", NULL);
    } else {
        fputs("<td class=\"num\">-</td><td class=\"num\">-</td><td>", f);
        rep_html_status(f, *s->status ? s->status : "void", s->reason);
    }
    site_time(t, sizeof t, s->time);
    fprintf(f, "</td><td class=\"num\">%s</td></tr>\n", t);
}

clb_error site_scores_page(const site_ctx *c, clb_diag *d)
{
    size_t n = c->m->nscores;
    const clb_site_score **order = malloc(n ? n * sizeof *order : 1);
    clb_output *o;
    FILE *f;
    if (!order)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        order[i] = &c->m->scores[i];
    qsort(order, n, sizeof *order, cmp_score);
    if (site_open(c, "scores.html", &o, &f, d) != CLB_OK) {
        free(order);
        return d->err;
    }
    site_head(f, "suite scores", "");
    fprintf(f, "<h1>Suite scores</h1>\n<p class=\"meta\">%zu scores across machines and variants, highest peak "
               "score first (docs/suite.md: the harmonic mean of reference ratios; a void score has "
               "no number).</p>\n<table><tr><th>machine</th><th>device</th><th>variant</th><th>peak score</th>"
               "<th>average score</th><th>status</th><th>time (UTC)</th></tr>\n", n);
    for (size_t i = 0; i < n; i++)
        score_row(f, c, order[i]);
    fputs("</table>\n", f);
    site_foot(f, c);
    free(order);
    return site_close(o, f, d);
}

/* The device's kept headline figure of the name id, or NULL. */
static const site_ceil *ceiling_of(const site_ctx *c, size_t dev, uint32_t name)
{
    for (size_t i = 0; i < c->ceil_n[dev]; i++)
        if (c->ceils[c->ceil_first[dev] + i].name == name)
            return &c->ceils[c->ceil_first[dev] + i];
    return NULL;
}

/* The index's headline columns: the distinct names, first seen first, that some device has a
 * number for. */
static void index_ceilings(site_ctx *c)
{
    enum { SEEN = 8 * SITE_INDEX_CEILINGS };
    uint32_t seen[SEEN];
    int measured[SEEN];
    size_t nseen = 0;
    for (size_t i = 0; i < c->nceils; i++) {
        size_t j = 0;
        while (j < nseen && seen[j] != c->ceils[i].name)
            j++;
        if (j == nseen && nseen < SEEN)
            seen[nseen] = c->ceils[i].name, measured[nseen++] = 0;
        if (j < nseen)
            measured[j] |= isfinite(c->ceils[i].value);
    }
    for (size_t j = 0; j < nseen && c->nceil < SITE_INDEX_CEILINGS; j++)
        if (measured[j])
            c->ceil_id[c->nceil] = seen[j], c->ceil[c->nceil++] = site_str(c, seen[j]);
}

static void index_models(FILE *f, const site_ctx *c)
{
    fputs("<h2>Models</h2>\n<table><tr><th>model</th><th>vendor</th><th>devices</th></tr>\n", f);
    for (size_t g = 0; g < c->ngroups; g++) {
        const site_group *gr = &c->groups[g];
        fputs("<tr><td>", f);
        site_link(f, "", "model", gr->slug, gr->model);
        fputs("</td>", f);
        site_td(f, c->m->devices[c->order[gr->first]].vendor);
        /* In a fleet's long table, the count jumps to the model's devices. */
        fprintf(f, "<td class=\"num\"><a href=\"#m-%s\">%zu</a></td></tr>\n", gr->slug, gr->count);
    }
    fputs("</table>\n", f);
}

static void index_device(FILE *f, const site_ctx *c, size_t dev)
{
    const clb_site_device *dv = &c->m->devices[dev];
    char t[32];
    fputs("<tr><td>", f);
    site_link(f, "", "device", c->dev_slug[dev], dv->key);
    fputs("</td>", f);
    site_td(f, dv->driver);
    site_td(f, dv->host);
    site_time(t, sizeof t, dv->last_run);
    fprintf(f, "<td class=\"num\">%s</td>", t);
    for (size_t k = 0; k < c->nceil; k++) {
        const site_ceil *x = ceiling_of(c, dev, c->ceil_id[k]);
        site_td_num(f, x ? x->value : NAN, x ? site_str(c, x->unit) : NULL);
    }
    fputs("</tr>\n", f);
}

static void index_devices(FILE *f, const site_ctx *c)
{
    fputs("<h2>Devices</h2>\n<p class=\"small\">Grouped by model; in each, by host and name.</p>\n"
          "<table><thead><tr><th>device</th><th>driver</th><th>host</th><th>last run (UTC)</th>", f);
    for (size_t k = 0; k < c->nceil; k++) {
        fputs("<th>", f);
        html_puts(f, c->ceil[k]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n", f);
    for (size_t g = 0; g < c->ngroups; g++) {
        const site_group *gr = &c->groups[g];
        fprintf(f, "<tbody id=\"m-%s\"><tr><th colspan=\"%zu\">", gr->slug, 4 + c->nceil);
        site_link(f, "", "model", gr->slug, gr->model);
        fprintf(f, " (%zu)</th></tr>\n", gr->count);
        for (size_t i = 0; i < gr->count; i++)
            index_device(f, c, c->order[gr->first + i]);
        fputs("</tbody>\n", f);
    }
    fputs("</table>\n", f);
}

clb_error site_index_page(site_ctx *c, clb_diag *d)
{
    clb_output *o;
    FILE *f;
    const char *title = *site_s(c->m->title) ? c->m->title : "clbench results";
    index_ceilings(c);
    if (site_open(c, "index.html", &o, &f, d) != CLB_OK)
        return d->err;
    site_head(f, title, "");
    fputs("<h1>", f);
    html_puts(f, title);
    fprintf(f, "</h1>\n<p class=\"meta\">%zu devices of %zu models &middot; <a href=\"scores.html\">%zu suite "
               "scores</a></p>\n", c->m->ndevices, c->ngroups, c->m->nscores);
    index_models(f, c);
    index_devices(f, c);
    site_foot(f, c);
    return site_close(o, f, d);
}
