/* A row's history on one device as a small inline SVG (one of the device page's small
 * multiples): the measured values over time as a line with a dot per run, the runs' spread as
 * a band, runs that measured nothing as red marks on the baseline (no number: their status),
 * the y range and the first and last run labelled. Hover text per run: time, value, spread.
 * Built here rather than by clb_svg_plot (svg.c) because it needs the band, the failed runs and
 * a tenth of the markup, at 10,000 pages of 200 plots. */
#include "report/site_int.h"

#include <math.h>

enum { W = 300, H = 120, L = 6, R = 6, T = 16, B = 28 };

typedef struct frame {
    int64_t t0, t1;
    double y0, y1;
    size_t n;
} frame;

/* x as a coordinate with one decimal ("123.4"), without printf's floating-point conversion: a
 * device page holds thousands of them. x is within the plot (a few hundred pixels). */
static void coord(FILE *f, double x)
{
    char buf[24], *p = buf + sizeof buf;
    long v = lround(fmin(fmax(x, -1e6), 1e6) * 10);
    int neg = v < 0;
    unsigned long u = (unsigned long)(neg ? -v : v);
    *--p = (char)('0' + u % 10);
    *--p = '.';
    u /= 10;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (neg)
        *--p = '-';
    fwrite(p, 1, (size_t)(buf + sizeof buf - p), f);
}

/* "x y" of a point, after sep. */
static void xy(FILE *f, char sep, double x, double y, char between)
{
    fputc(sep, f);
    coord(f, x);
    fputc(between, f);
    coord(f, y);
}

static double lo_of(const clb_site_point *p)
{
    return isfinite(p->lo) ? fmin(p->lo, p->value) : p->value;
}

static double hi_of(const clb_site_point *p)
{
    return isfinite(p->hi) ? fmax(p->hi, p->value) : p->value;
}

static int measured(const clb_site_point *p)
{
    return site_ok(p->status) && isfinite(p->value);
}

/* The ranges of time (every run) and of value (measured runs with their spread); 0 when no run
 * measured a number, -1 when the values span more than a double can (1e308 and -1e308). */
static int frame_of(const clb_site_row *r, frame *fr)
{
    int any = 0;
    fr->t0 = INT64_MAX;
    fr->t1 = INT64_MIN;
    fr->y0 = INFINITY;
    fr->y1 = -INFINITY;
    fr->n = r->npoints;
    for (size_t i = 0; i < r->npoints; i++) {
        const clb_site_point *p = &r->points[i];
        fr->t0 = p->time < fr->t0 ? p->time : fr->t0;
        fr->t1 = p->time > fr->t1 ? p->time : fr->t1;
        if (!measured(p))
            continue;
        any = 1;
        fr->y0 = fmin(fr->y0, lo_of(p));
        fr->y1 = fmax(fr->y1, hi_of(p));
    }
    if (!any)
        return 0;
    double pad = fr->y1 > fr->y0 ? 0.08 * (fr->y1 - fr->y0) : fmax(fabs(fr->y0) * 0.01, 1e-9);
    fr->y0 -= pad;
    fr->y1 += pad;
    return isfinite(fr->y0) && isfinite(fr->y1) && isfinite(fr->y1 - fr->y0) && fr->y1 > fr->y0 ? 1 : -1;
}

/* x of run i: by time; evenly spaced when the runs share one time. */
static double px(const frame *fr, const clb_site_row *r, size_t i)
{
    double span = (double)fr->t1 - (double)fr->t0; /* in doubles: any two int64 times */
    if (span > 0)
        return L + ((double)r->points[i].time - (double)fr->t0) / span * (W - L - R);
    return fr->n > 1 ? L + (double)i / (double)(fr->n - 1) * (W - L - R) : W / 2.0;
}

static double py(const frame *fr, double y)
{
    return H - B - (y - fr->y0) / (fr->y1 - fr->y0) * (H - T - B);
}

/* The band: along the upper edges of the measured runs, back along the lower ones. */
static void band(FILE *f, const frame *fr, const clb_site_row *r)
{
    int any = 0;
    for (size_t i = 0; i < r->npoints; i++)
        any |= measured(&r->points[i]) && (isfinite(r->points[i].lo) || isfinite(r->points[i].hi));
    if (!any)
        return;
    fputs("<path class=\"b\" d=\"", f);
    char cmd = 'M';
    for (size_t i = 0; i < r->npoints; i++)
        if (measured(&r->points[i])) {
            xy(f, cmd, px(fr, r, i), py(fr, hi_of(&r->points[i])), ' ');
            cmd = 'L';
        }
    for (size_t i = r->npoints; i-- > 0;)
        if (measured(&r->points[i]))
            xy(f, 'L', px(fr, r, i), py(fr, lo_of(&r->points[i])), ' ');
    fputs("Z\"/>", f);
}

static void run_title(FILE *f, const clb_site_row *r, size_t i)
{
    const clb_site_point *p = &r->points[i];
    char t[32], v[40], lo[40], hi[40];
    site_time(t, sizeof t, p->time);
    fprintf(f, "<title>%s: ", t);
    if (!measured(p)) {
        html_puts(f, site_unmeasured(p));
    } else {
        site_num(v, sizeof v, p->value);
        fputs(v, f);
        fputs(" ", f);
        html_puts(f, r->unit);
        if (isfinite(p->lo) || isfinite(p->hi)) {
            site_num(lo, sizeof lo, p->lo);
            site_num(hi, sizeof hi, p->hi);
            fprintf(f, " [%s, %s]", lo, hi);
        }
    }
    fputs("</title>", f);
}

static void runs(FILE *f, const frame *fr, const clb_site_row *r)
{
    char sep = '"';
    fputs("<polyline class=\"l\" points=", f);
    for (size_t i = 0; i < r->npoints; i++)
        if (measured(&r->points[i])) {
            xy(f, sep, px(fr, r, i), py(fr, r->points[i].value), ',');
            sep = ' ';
        }
    fputs(sep == '"' ? "\"\"/>\n" : "\"/>\n", f);
    for (size_t i = 0; i < r->npoints; i++) {
        int ok = measured(&r->points[i]);
        fputs(ok ? "<circle r=\"2.2\" cx=\"" : "<circle class=\"x\" r=\"3\" cx=\"", f);
        coord(f, px(fr, r, i));
        fputs("\" cy=\"", f);
        coord(f, ok ? py(fr, r->points[i].value) : (double)(H - B));
        fputs("\">", f);
        run_title(f, r, i);
        fputs("</circle>", f);
    }
}

/* The y range at the left (top and bottom of the frame), the first and last run's dates below. */
static void labels(FILE *f, const frame *fr, const clb_site_row *r)
{
    char a[40], b[40];
    site_num(a, sizeof a, fr->y1);
    site_num(b, sizeof b, fr->y0);
    fprintf(f, "\n<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\">%s</text>", L, T - 4, a, L,
            H - B + 11, b);
    site_time(a, sizeof a, r->points[0].time);
    site_time(b, sizeof b, r->points[r->npoints - 1].time);
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
            L, H - 3, a, W - R, H - 3, b);
}

/* "last 4640 GB/s (2026-11-25 18:00), 10 runs, 1 not measured". */
static void summary(FILE *f, const clb_site_row *r)
{
    size_t bad = 0;
    for (size_t i = 0; i < r->npoints; i++)
        bad += !measured(&r->points[i]);
    fputs("<p>", f);
    if (r->npoints) {
        const clb_site_point *p = &r->points[r->npoints - 1];
        char t[32], v[40];
        site_time(t, sizeof t, p->time);
        fputs("last ", f);
        if (measured(p)) {
            site_num(v, sizeof v, p->value);
            fprintf(f, "%s ", v);
            html_puts(f, r->unit);
        } else {
            rep_html_status(f, site_unmeasured(p), NULL);
        }
        fprintf(f, " (%s), ", t);
    }
    fprintf(f, "%zu run%s", r->npoints, r->npoints == 1 ? "" : "s");
    if (bad)
        fprintf(f, ", %zu not measured", bad);
    fputs("</p>", f);
}

void site_history(FILE *f, const clb_site_row *r)
{
    frame fr;
    fputs("<figure><figcaption>", f);
    html_puts(f, *site_s(r->name) ? r->name : "(unnamed row)");
    if (r->unit && *r->unit) {
        fputs(" (", f);
        html_puts(f, r->unit);
        fputs(")", f);
    }
    /* Inline SVG in HTML needs no namespace; the size is the page's CSS (svg.h). */
    fprintf(f, "</figcaption>\n<svg class=\"h\" viewBox=\"0 0 %d %d\"><title>", W, H);
    html_puts(f, r->name);
    fputs("</title>", f);
    int plotted = frame_of(r, &fr);
    if (plotted > 0) {
        band(f, &fr, r);
        runs(f, &fr, r);
        labels(f, &fr, r);
    } else {
        fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>", L + 4, H / 2,
                plotted ? "values beyond the plottable range" : "no measured run");
    }
    fputs("</svg>", f);
    summary(f, r);
    fputs("</figure>\n", f);
}
