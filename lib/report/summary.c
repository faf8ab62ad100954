/* Summary cards (headline numbers per device) and plots of every curve. */
#include "report/report_cols.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A headline figure: the best ok result of a group whose unit contains unit_sub and whose
 * name contains one of the keywords (NULL: any name). */
typedef struct metric {
    const char *label;
    const char *group;
    const char *unit_sub;
    const char *const *keywords;
    int higher; /* best = max (rates) or min (times) */
    int theory; /* a theoretical figure exists in principle: say so when it is unknown */
    const char *const *prefer; /* exact result names that define the figure, when present */
} metric;

static const char *const kw_fp32[] = {"fp32", "float", "single", NULL};
static const char *const kw_fp64[] = {"fp64", "double", NULL};
static const char *const kw_dram[] = {"dram", "stream", "global", "triad", "copy", "bandwidth", NULL};
static const char *const kw_cache[] = {"cache", "latency", "chase", NULL};
static const char *const kw_launch[] = {"roundtrip", NULL};
/* Results that define a card where they exist: DRAM is a linear read or triad (cache-reuse and
 * local-memory rows would overstate it), the cache card is the detected levels, and a transfer
 * is the link's pinned host<->device path (device-to-device copies never cross the link). */
static const char *const pref_dram[] = {"memory.read_linear", "memory.triad", NULL};
static const char *const pref_cache[] = {"memory.caches", NULL};
static const char *const pref_transfer[] = {"transfer.h2d_pinned", "transfer.d2h_pinned", NULL};

static const metric metrics[] = {
    {"Peak FP32", "compute", "FLOP", kw_fp32, 1, 1, NULL},
    {"Peak FP64", "compute", "FLOP", kw_fp64, 1, 1, NULL},
    {"DRAM bandwidth", "memory", "B/s", kw_dram, 1, 1, pref_dram},
    {"Cache levels", "memory", "", kw_cache, 0, 0, pref_cache},
    {"Launch overhead", "launch", "s", kw_launch, 0, 0, NULL},
    {"Transfer bandwidth", "transfer", "B/s", NULL, 1, 1, pref_transfer},
};

static int name_in(const char *name, const char *const *names)
{
    for (; names && *names; names++)
        if (strcmp(name, *names) == 0)
            return 1;
    return 0;
}

static int name_has(const char *name, const char *const *kw)
{
    for (; kw && *kw; kw++)
        if (strstr(name, *kw))
            return 1;
    return !kw;
}

static int in_group(const rj_result *x, const char *group)
{
    size_t g = strlen(group);
    return strcmp(x->group, group) == 0 || (strncmp(x->name, group, g) == 0 && x->name[g] == '.');
}

/* The best ok result among names (NULL: by group and keywords); without one, the first
 * matching failed result. */
static const cJSON *pick_among(const cJSON *dev, const metric *m, const char *const *names)
{
    const cJSON *r, *best = NULL, *failed = NULL;
    double bv = 0;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        rj_result x;
        rj_result_read(r, &x);
        if (names ? !name_in(x.name, names) : !in_group(&x, m->group) || !name_has(x.name, m->keywords))
            continue;
        if (strcmp(x.status, "ok") != 0 || !x.has_value) {
            failed = failed ? failed : r;
            continue;
        }
        if (!strstr(x.unit, m->unit_sub))
            continue;
        if (!best || (m->higher ? x.value > bv : x.value < bv)) {
            best = r;
            bv = x.value;
        }
    }
    return best ? best : failed;
}

static const cJSON *pick(const cJSON *dev, const metric *m)
{
    const cJSON *r = m->prefer ? pick_among(dev, m, m->prefer) : NULL;
    return r ? r : pick_among(dev, m, NULL);
}

int rep_limit_efficiency(const cJSON *r, double *pct, double *limit, const char **unit)
{
    const cJSON *p = rj_obj(r, "params"), *lim = rj_obj(p, "limit");
    *pct = *limit = NAN;
    *unit = rj_str(lim, "unit");
    if (!lim || !rj_num(lim, "value", limit) || !rj_num(p, "efficiency", pct) || !*unit)
        return 0;
    return isfinite(*pct) && isfinite(*limit);
}

/* "72% of the 1.2e+03 GFLOP/s limit": the runner's physical-limit guard (params.limit and
 * params.efficiency in percent); older files: params.efficiency (a fraction) or
 * params.theoretical / theoretical_peak (in the result's unit). */
static void efficiency(FILE *f, const cJSON *r, const rj_result *x, int theory)
{
    const cJSON *p = rj_obj(r, "params");
    double eff = NAN, peak = NAN;
    const char *lunit = NULL;
    char buf[32];
    if (rep_limit_efficiency(r, &eff, &peak, &lunit)) {
        rj_fmt(buf, sizeof buf, peak);
        fprintf(f, "<br><span class=\"small\">%.1f%% of the physical limit (%s ", eff, buf);
        html_puts(f, lunit);
        fputs(")</span>", f);
        return;
    }
    if (!rj_num(p, "theoretical", &peak))
        rj_num(p, "theoretical_peak", &peak);
    /* transfer.*: the PCIe link's theoretical bandwidth and efficiency in percent. */
    if (!isfinite(peak) && rj_num(p, "link_efficiency_pct", &eff))
        rj_num(rj_obj(p, "link"), "theoretical_gbps", &peak), eff /= 100;
    if (!isfinite(eff) && !rj_num(p, "efficiency", &eff) && isfinite(peak) && peak > 0)
        eff = x->value / peak;
    if (!isfinite(eff)) {
        if (theory)
            fputs("<br><span class=\"small\">theoretical figure unknown</span>", f);
        return;
    }
    fprintf(f, "<br><span class=\"small\">%.1f%% of theoretical", 100 * eff);
    if (isfinite(peak)) {
        rj_fmt(buf, sizeof buf, peak);
        fprintf(f, " (%s ", buf);
        html_puts(f, x->unit);
        fputs(")", f);
    }
    fputs("</span>", f);
}

/* params.levels / params.cache_levels: "size: latency" per level, e.g. "192 KiB: 19.9 ns". */
static void cache_levels(FILE *f, const cJSON *r)
{
    const cJSON *p = rj_obj(r, "params"), *lv, *e;
    lv = rj_arr(p, "levels") ? rj_arr(p, "levels") : rj_arr(p, "cache_levels");
    if (!lv)
        return;
    fprintf(f, "<br><span class=\"small\">%d level(s)", cJSON_GetArraySize(lv));
    cJSON_ArrayForEach(e, lv) {
        double size = NAN, ns = NAN;
        rj_num(e, "size_bytes", &size);
        rj_num(e, "latency_ns", &ns);
        if (size >= 1048576)
            fprintf(f, "; %.0f MiB: %.1f ns", size / 1048576, ns);
        else
            fprintf(f, "; %.0f KiB: %.1f ns", size / 1024, ns);
    }
    fputs("</span>", f);
}

static void metric_cell(FILE *f, const cJSON *dev, const metric *m)
{
    const cJSON *r = pick(dev, m);
    rj_result x;
    char v[32];
    fputs("<td>", f);
    if (!r) {
        fputs("<span class=\"na\">not measured</span></td>", f);
        return;
    }
    rj_result_read(r, &x);
    if (strcmp(x.status, "ok") == 0 && x.has_value) {
        rj_fmt(v, sizeof v, x.value);
        fprintf(f, "<b>%s</b> ", v);
        html_puts(f, x.unit);
        fputs(" <span class=\"small\">(", f);
        html_puts(f, x.name);
        fputs(")</span>", f);
        efficiency(f, r, &x, m->theory);
        cache_levels(f, r);
    } else {
        html_puts(f, x.name);
        fputs(": ", f);
        rep_html_status(f, x.status, x.reason);
    }
    fputs("</td>", f);
}

/* Counts of results by status, so that failures are visible at a glance. */
static void status_counts(FILE *f, const cJSON *dev)
{
    int ok = 0, unsupported = 0, inconclusive = 0, failed = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *st = rj_str(r, "status");
        st = st ? st : "";
        int is_ok = strcmp(st, "ok") == 0, is_unsup = strcmp(st, "unsupported") == 0;
        /* inconclusive: measured and verified, but the data cannot answer; not a failure */
        int is_inc = strcmp(st, "inconclusive") == 0;
        ok += is_ok;
        unsupported += is_unsup;
        inconclusive += is_inc;
        failed += !is_ok && !is_unsup && !is_inc;
    }
    fprintf(f, "<tr><th>Results</th><td>%d ok, %d unsupported, %d inconclusive, <span class=\"%s\">%d failed</span>"
               "</td></tr>\n", ok, unsupported, inconclusive, failed ? "st st-bad" : "", failed);
}

/* The roofline's verdicts at a glance (the section below has the plot). */
static void roofline_counts(FILE *f, const cJSON *dev)
{
    const cJSON *p;
    int n = 0, invalid = 0, unchecked = 0;
    cJSON_ArrayForEach(p, rj_arr(rj_obj(dev, "roofline"), "points")) {
        const char *v = rj_str(p, "verdict");
        n++;
        invalid += v && strcmp(v, "invalid") == 0;
        unchecked += v && strcmp(v, "unchecked") == 0;
    }
    if (n == 0)
        return;
    fprintf(f, "<tr><th>Roofline</th><td>%d point(s): <span class=\"%s\">%d above "
               "their roof</span>, %d with a roof not measured</td></tr>\n", n, invalid ? "st st-bad" : "",
            invalid, unchecked);
}

void rep_html_summary(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc)
{
    fputs("<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">\n", f);
    for (size_t i = 0; i < c->n; i++) {
        fputs("<div class=\"card\"><h3>", f);
        html_puts(f, c->col[i].name);
        if (nsrc > 1) {
            fputs(" <span class=\"small\">", f);
            html_puts(f, src[c->col[i].src].name);
            fputs("</span>", f);
        }
        fputs("</h3><table>\n", f);
        for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++) {
            fputs("<tr>", f);
            fprintf(f, "<th>%s</th>", metrics[k].label);
            metric_cell(f, c->col[i].dev, &metrics[k]);
            fputs("</tr>\n", f);
        }
        status_counts(f, c->col[i].dev);
        roofline_counts(f, c->col[i].dev);
        fputs("</table></div>\n", f);
    }
    if (c->n == 0)
        fputs("<p class=\"na\">no devices in the input</p>\n", f);
    fputs("</div></section>\n", f);
}

enum { MAX_SERIES = 64 };

typedef struct plot_set {
    clb_plot_series s[MAX_SERIES];
    char *labels[MAX_SERIES];
    size_t n;
} plot_set;

/* Adds one curve, labelled "device: label" when several devices share the plot. */
static void add_series(plot_set *ps, const cJSON *curve, const char *dev, int many)
{
    if (!cJSON_IsObject(curve) || ps->n >= MAX_SERIES)
        return;
    const char *label = rj_str(curve, "label");
    char *text = NULL;
    if (many) {
        size_t len = strlen(dev) + (label ? strlen(label) : 0) + 3;
        text = malloc(len);
        if (text)
            snprintf(text, len, "%s%s%s", dev, label ? ": " : "", label ? label : "");
    }
    ps->labels[ps->n] = text;
    ps->s[ps->n].curve = curve;
    ps->s[ps->n].label = text ? text : label;
    ps->n++;
}

static int same_unit(const cJSON *curve, const char *unit)
{
    const char *u = rj_str(curve, "y_unit");
    return strcmp(u ? u : "", unit) == 0;
}

/* The ok result's curves whose y unit is unit ("" for none): one axis per plot. */
static void collect(plot_set *ps, const rep_cols *c, const char *name, const char *unit)
{
    for (size_t i = 0; i < c->n; i++) {
        const cJSON *r = rep_find(&c->col[i], name), *p = rj_obj(r, "params"), *curve;
        const char *st = rj_str(r, "status");
        if (!p || !st || strcmp(st, "ok") != 0) /* only validated numbers are plotted */
            continue;
        if (same_unit(rj_obj(p, "curve"), unit))
            add_series(ps, rj_obj(p, "curve"), c->col[i].name, c->n > 1);
        cJSON_ArrayForEach(curve, rj_arr(p, "curves"))
            if (same_unit(curve, unit))
                add_series(ps, curve, c->col[i].name, c->n > 1);
    }
}

enum { MAX_UNITS = 8 };

static void add_unit(const cJSON *curve, const char **units, size_t *n)
{
    if (!cJSON_IsObject(curve))
        return;
    const char *u = rj_str(curve, "y_unit");
    u = u ? u : "";
    size_t j = 0;
    while (j < *n && strcmp(units[j], u) != 0)
        j++;
    if (j == *n && *n < MAX_UNITS)
        units[(*n)++] = u;
}

/* The distinct y units of a result's curves over every device, in first-seen order. */
static size_t curve_units(const rep_cols *c, const char *name, const char **units)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const cJSON *p = rj_obj(rep_find(&c->col[i], name), "params"), *curve;
        add_unit(rj_obj(p, "curve"), units, &n);
        cJSON_ArrayForEach(curve, rj_arr(p, "curves"))
            add_unit(curve, units, &n);
    }
    return n;
}

/* One plot: the curves of result name in unit, with the reference lines of every device. */
static int unit_plot(FILE *f, const rep_cols *c, const char *name, const char *unit, int several)
{
    plot_set ps;
    rep_refs refs;
    char title[200];
    memset(&ps, 0, sizeof ps);
    collect(&ps, c, name, unit);
    if (ps.n > 0) {
        rep_plot_refs(c, name, unit, &refs);
        snprintf(title, sizeof title, several ? "%s (%s)" : "%s", name, unit);
        fputs("<figure>", f);
        clb_svg_plot_refs(f, ps.s, ps.n, title, refs.r, refs.n);
        fputs("</figure>\n", f);
    }
    for (size_t i = 0; i < ps.n; i++)
        free(ps.labels[i]);
    return ps.n > 0;
}

void rep_html_plots(FILE *f, const rep_cols *c, size_t nsrc)
{
    (void)nsrc;
    int any = 0;
    fputs("<section id=\"plots\"><h2>Plots</h2><div class=\"plots\">\n", f);
    for (size_t k = 0; k < c->nnames; k++) {
        const char *units[MAX_UNITS];
        size_t nu = curve_units(c, c->names[k], units);
        for (size_t u = 0; u < nu; u++)
            any |= unit_plot(f, c, c->names[k], units[u], nu > 1);
    }
    if (!any)
        fputs("<p class=\"na\">no result in the input carries a curve</p>\n", f);
    fputs("</div></section>\n", f);
}
