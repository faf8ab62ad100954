/* Inline SVG line plots for the HTML report: axes, ticks, labels, legend. No scripts, no
 * external resources: the page must render offline. */
#include "report/report.h"

#include <math.h>
#include <string.h>

enum { PW = 640, PH = 340, ML = 72, MR = 20, MT = 34, MB = 52, LEGEND_ROW = 18 };

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#17becf"};

typedef struct plot_frame {
    double x0, x1, y0, y1; /* data range (x as log_base(x) on a log axis) */
    double base;           /* 0: linear x; 10, or 2 for sizes in bytes (ticks at 1Ki, 1Mi) */
} plot_frame;

/* Point p ([x, y, ...]) of a curve when both coordinates are finite (and x > 0 on a log axis).
 * Curves are walked once through their children: indexing a cJSON array is linear. */
static int point_at(const cJSON *p, double base, double *x, double *y)
{
    const cJSON *a = cJSON_IsArray(p) ? p->child : NULL, *b = a ? a->next : NULL;
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b))
        return 0;
    *x = a->valuedouble;
    *y = b->valuedouble;
    if (!isfinite(*x) || !isfinite(*y) || (base > 0 && *x <= 0))
        return 0;
    if (base > 0)
        *x = log(*x) / log(base);
    return 1;
}

/* The data range over every series; 0 when no point is plottable. */
static int frame_of(const clb_plot_series *s, size_t n, double base, plot_frame *fr)
{
    int any = 0;
    fr->base = base;
    fr->x0 = fr->y0 = INFINITY;
    fr->x1 = fr->y1 = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        const cJSON *p;
        cJSON_ArrayForEach(p, rj_arr(s[k].curve, "points")) {
            double x, y;
            if (!point_at(p, base, &x, &y))
                continue;
            any = 1;
            fr->x0 = fmin(fr->x0, x);
            fr->x1 = fmax(fr->x1, x);
            fr->y0 = fmin(fr->y0, y);
            fr->y1 = fmax(fr->y1, y);
        }
    }
    if (!any)
        return 0;
    /* Rates and times start at zero so that ratios can be read off the plot. */
    fr->y0 = fmin(fr->y0, 0.0);
    if (fr->y1 <= fr->y0)
        fr->y1 = fr->y0 + 1;
    fr->y1 += 0.05 * (fr->y1 - fr->y0);
    if (base > 0) {
        fr->x0 = floor(fr->x0);
        fr->x1 = fmax(ceil(fr->x1), fr->x0 + 1);
    } else if (fr->x1 <= fr->x0) {
        fr->x0 -= 0.5;
        fr->x1 += 0.5;
    }
    return isfinite(fr->x1 - fr->x0) && isfinite(fr->y1 - fr->y0);
}

static double px(const plot_frame *fr, double x)
{
    return ML + (x - fr->x0) / (fr->x1 - fr->x0) * (PW - ML - MR);
}

static double py(const plot_frame *fr, double y)
{
    return PH - MB - (y - fr->y0) / (fr->y1 - fr->y0) * (PH - MT - MB);
}

/* 1, 2 or 5 times a power of ten, about range/5. */
static double nice_step(double range)
{
    double raw = range / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

/* Tick label of a power of two with a binary prefix: 512, 4Ki, 16Mi. */
static void fmt_bin(char *buf, size_t n, double v)
{
    static const char *const prefix[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    size_t k = 0;
    while (k + 1 < sizeof prefix / sizeof prefix[0] && fabs(v) >= 1024) {
        v /= 1024;
        k++;
    }
    snprintf(buf, n, "%g%s", v, prefix[k]);
}

/* Exponent step on a log axis: every decade (every other one beyond 8); for powers of two
 * the smallest of 1, 2, 5, 10 that gives at most 10 ticks. */
static double log_step(const plot_frame *fr)
{
    double span = fr->x1 - fr->x0;
    if (fr->base != 2)
        return span > 8 ? 2 : 1;
    return span <= 10 ? 1 : span <= 20 ? 2 : span <= 50 ? 5 : 10;
}

/* 0 (linear), 10, or 2 when the x unit is bytes. */
static double axis_base(const cJSON *curve)
{
    if (!cJSON_IsTrue(cJSON_IsObject(curve) ? cJSON_GetObjectItemCaseSensitive(curve, "x_log") : NULL))
        return 0;
    const char *u = rj_str(curve, "x_unit");
    return u && (strcmp(u, "B") == 0 || strcmp(u, "bytes") == 0 || strcmp(u, "byte") == 0) ? 2 : 10;
}

/* Tick label with an SI prefix: 1.5k, 20M, 0.25. */
static void fmt_si(char *buf, size_t n, double v)
{
    static const struct { double f; const char *p; } si[] = {
        {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (size_t i = 0; i < sizeof si / sizeof si[0]; i++)
        if (fabs(v) >= si[i].f) {
            snprintf(buf, n, "%g%s", v / si[i].f, si[i].p);
            return;
        }
    snprintf(buf, n, "%g", fabs(v) < 1e-12 ? 0.0 : v);
}

static void tick(FILE *f, double x1, double y1, double x2, double y2, double tx, double ty,
                 const char *anchor, double v, int binary)
{
    char label[32];
    if (binary)
        fmt_bin(label, sizeof label, v);
    else
        fmt_si(label, sizeof label, v);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>", x1, y1,
            x2, y2);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", tx, ty, anchor, label);
}

/* Ticks from lo to hi every step; at most 40, and none when the step is degenerate (damaged
 * input must not loop forever). */
static int tick_count(double lo, double hi, double step, double *first)
{
    if (!(step > 0) || !isfinite(step) || !isfinite(lo) || !isfinite(hi))
        return 0;
    *first = ceil(lo / step) * step;
    double k = floor((hi - *first) / step + 1e-9) + 1;
    return isfinite(k) && k > 0 && k <= 40 && *first + step > *first ? (int)k : 0;
}

static void axes(FILE *f, const plot_frame *fr)
{
    double first, step = fr->base > 0 ? log_step(fr) : nice_step(fr->x1 - fr->x0);
    int k = tick_count(fr->x0, fr->x1, step, &first);
    for (int i = 0; i < k; i++) {
        double x = first + i * step;
        tick(f, px(fr, x), MT, px(fr, x), PH - MB, px(fr, x), PH - MB + 16, "middle",
             fr->base > 0 ? pow(fr->base, x) : x, fr->base == 2);
    }
    step = nice_step(fr->y1 - fr->y0);
    k = tick_count(fr->y0, fr->y1, step, &first);
    for (int i = 0; i < k; i++) {
        double y = first + i * step;
        tick(f, ML, py(fr, y), PW - MR, py(fr, y), ML - 6, py(fr, y) + 4, "end", y, 0);
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", ML, MT,
            PW - ML - MR, PH - MT - MB);
}

/* "name (unit)" of an axis, escaped. */
static void axis_label(FILE *f, const cJSON *curve, const char *name_key, const char *unit_key)
{
    const char *name = rj_str(curve, name_key), *unit = rj_str(curve, unit_key);
    html_puts(f, name ? name : (name_key[0] == 'x' ? "x" : "y"));
    if (unit && *unit) {
        fputs(" (", f);
        html_puts(f, unit);
        fputs(")", f);
    }
}

static void series(FILE *f, const plot_frame *fr, const cJSON *curve, const char *color)
{
    const cJSON *pts = rj_arr(curve, "points"), *p;
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
    cJSON_ArrayForEach(p, pts) {
        double x, y;
        if (point_at(p, fr->base, &x, &y))
            fprintf(f, "%.1f,%.1f ", px(fr, x), py(fr, y));
    }
    fputs("\"/>\n", f);
    cJSON_ArrayForEach(p, pts) {
        double x, y;
        if (point_at(p, fr->base, &x, &y)) /* the title is the hover text */
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>%.6g, %.6g"
                       "</title></circle>", px(fr, x), py(fr, y), color,
                    fr->base > 0 ? pow(fr->base, x) : x, y);
    }
    fputc('\n', f);
}

static void legend(FILE *f, const clb_plot_series *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        double y = PH + (double)k * LEGEND_ROW;
        const char *label = s[k].label ? s[k].label : rj_str(s[k].curve, "label");
        label = label && *label ? label : rj_str(s[k].curve, "y_name"); /* never an empty entry */
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>",
                ML, y - 4, ML + 24, y - 4, palette[k % (sizeof palette / sizeof palette[0])]);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"legend\">", ML + 30, y);
        html_puts(f, label && *label ? label : "series");
        fputs("</text>\n", f);
    }
}

/* The reference lines inside the frame, each labelled at the right end above its line. */
static void ref_lines(FILE *f, const plot_frame *fr, const clb_plot_ref *refs, size_t nrefs)
{
    double last_y = -1e9;
    for (size_t i = 0; i < nrefs; i++) {
        double v = refs[i].value, y = py(fr, v);
        if (!isfinite(v) || v < fr->y0 || v > fr->y1)
            continue;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
                   "stroke-dasharray=\"%s\" class=\"ref\"/>", ML, y, PW - MR, y,
                refs[i].dashed ? "#555" : "#8a5a00", refs[i].dashed ? "7 4" : "2 3");
        double ty = fabs(y - 3 - last_y) < 11 ? last_y + 11 : y - 3; /* close lines: stagger */
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"reflabel\">", PW - MR - 4, ty);
        html_puts(f, refs[i].label);
        fputs("</text>\n", f);
        last_y = ty;
    }
}

void clb_svg_open(FILE *f, const char *cls, int w, int h, int title_x, const char *title)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" role=\"img\">\n<title>", cls, w, h, w, h);
    html_puts(f, title);
    fprintf(f, "</title>\n<text x=\"%d\" y=\"20\" class=\"ptitle\">", title_x);
    html_puts(f, title);
    fputs("</text>\n", f);
}

void clb_svg_plot(FILE *f, const clb_plot_series *s, size_t n, const char *title)
{
    clb_svg_plot_refs(f, s, n, title, NULL, 0);
}

void clb_svg_plot_refs(FILE *f, const clb_plot_series *s, size_t n, const char *title,
                       const clb_plot_ref *refs, size_t nrefs)
{
    const cJSON *first = n ? s[0].curve : NULL;
    double base = axis_base(first);
    plot_frame fr;
    int height = PH + (int)n * LEGEND_ROW;
    clb_svg_open(f, "plot", PW, height, ML, title);
    if (!frame_of(s, n, base, &fr)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\">no plottable points</text>\n</svg>\n", ML, PH / 2);
        return;
    }
    for (size_t i = 0; i < nrefs; i++) /* the range shows every reference line */
        if (isfinite(refs[i].value) && refs[i].value > fr.y1 - 0.05 * (fr.y1 - fr.y0) &&
            refs[i].value < 20 * fr.y1) /* far above: the curves would flatten; not drawn */
            fr.y1 = refs[i].value + 0.08 * (refs[i].value - fr.y0);
    axes(f, &fr);
    ref_lines(f, &fr, refs, nrefs);
    for (size_t k = 0; k < n; k++)
        series(f, &fr, s[k].curve, palette[k % (sizeof palette / sizeof palette[0])]);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">", (ML + PW - MR) / 2,
            PH - MB + 36);
    axis_label(f, first, "x_name", "x_unit");
    fprintf(f, "%s</text>\n<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\" "
               "class=\"axis\">", fr.base > 0 ? " [log scale]" : "", (MT + PH - MB) / 2);
    axis_label(f, first, "y_name", "y_unit");
    fputs("</text>\n", f);
    legend(f, s, n);
    fputs("</svg>\n", f);
}
