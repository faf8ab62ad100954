/* The roofline section of the HTML report: per device a log-log SVG of the measured ceilings,
 * the physical limits (dashed) and every app point, and a table of the points' verdicts
 * (docs/roofline.md). Reads the device entry's "roofline" object; files written before the
 * post-pass existed get the model computed here, for display only. */
#include "report/report_cols.h"
#include "judge/judge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { RW = 820, RH = 480, RL = 80, RR = 210, RT = 36, RB = 58, MAX_LABELS = 2048 };

typedef struct roof_frame {
    double x0, x1, y0, y1; /* decades: log10 of the data range */
} roof_frame;

/* A placed label's box, for the overlap test. */
typedef struct box {
    double x, y, w, h;
} box;

typedef struct label_set {
    box b[MAX_LABELS];
    size_t n;
} label_set;

static double num_or_nan(const cJSON *o, const char *key)
{
    double v = NAN;
    rj_num(o, key, &v);
    return v;
}

static int is_kind(const cJSON *c, const char *kind)
{
    const char *k = rj_str(c, "kind");
    return k && strcmp(k, kind) == 0;
}

static double rx(const roof_frame *fr, double ai)
{
    return RL + (log10(ai) - fr->x0) / (fr->x1 - fr->x0) * (RW - RL - RR);
}

static double ry(const roof_frame *fr, double perf)
{
    return RH - RB - (log10(perf) - fr->y0) / (fr->y1 - fr->y0) * (RH - RT - RB);
}

/* Extremes of the compute and bandwidth ceilings over both lists (measured and theoretical). */
static void extremes(const cJSON *rl, double *cmax, double *bmin, double *bmax)
{
    static const char *const lists[] = {"ceilings", "theoretical"};
    *cmax = *bmax = -INFINITY;
    *bmin = INFINITY;
    for (size_t i = 0; i < 2; i++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, rj_arr(rl, lists[i])) {
            double v = num_or_nan(c, "value");
            if (!(v > 0))
                continue;
            if (is_kind(c, "compute"))
                *cmax = fmax(*cmax, v);
            else if (is_kind(c, "bandwidth")) {
                *bmin = fmin(*bmin, v);
                *bmax = fmax(*bmax, v);
            }
        }
    }
}

/* The decades shown: every point and every ridge, at least two decades wide. */
static int frame_of(const cJSON *rl, roof_frame *fr)
{
    double cmax, bmin, bmax, xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    const cJSON *p;
    extremes(rl, &cmax, &bmin, &bmax);
    cJSON_ArrayForEach(p, rj_arr(rl, "points")) {
        double ai = num_or_nan(p, "intensity"), perf = num_or_nan(p, "performance");
        if (ai > 0 && isfinite(ai))
            xlo = fmin(xlo, ai), xhi = fmax(xhi, ai);
        if (perf > 0 && isfinite(perf))
            ylo = fmin(ylo, perf), yhi = fmax(yhi, perf);
    }
    if (isfinite(cmax) && isfinite(bmax))
        xlo = fmin(xlo, cmax / bmax), xhi = fmax(xhi, cmax / bmin);
    if (isfinite(cmax))
        yhi = fmax(yhi, cmax), ylo = fmin(ylo, cmax / 100);
    if (!isfinite(xlo) || !isfinite(yhi) || !isfinite(ylo))
        return 0;
    fr->x0 = floor(log10(xlo / 2));
    fr->x1 = fmax(ceil(log10(xhi * 2)), fr->x0 + 2);
    fr->y1 = ceil(log10(yhi * 1.2));
    fr->y0 = fmax(floor(log10(ylo / 2)), fr->y1 - 7); /* seven decades at most */
    fr->y0 = fmin(fr->y0, fr->y1 - 2);
    /* Damaged input must not make the tick loops run away. */
    return isfinite(fr->x0) && isfinite(fr->x1) && isfinite(fr->y0) && isfinite(fr->y1) &&
           fr->x1 - fr->x0 < 40;
}

static void fmt_decade(char *buf, size_t n, int e)
{
    static const char *const si[] = {"1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M",
                                     "1G", "10G", "100G", "1T"};
    if (e >= 0 && e < 13)
        snprintf(buf, n, "%s", si[e]);
    else
        snprintf(buf, n, "%g", pow(10, e));
}

static void axes(FILE *f, const roof_frame *fr, const char *yunit)
{
    char t[32];
    for (int e = (int)fr->x0; e <= (int)fr->x1; e++) {
        double x = rx(fr, pow(10, e));
        fmt_decade(t, sizeof t, e);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/><text x=\"%.1f\" "
                   "y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, RT, x, RH - RB, x, RH - RB + 16, t);
    }
    for (int e = (int)fr->y0; e <= (int)fr->y1; e++) {
        double y = ry(fr, pow(10, e));
        fmt_decade(t, sizeof t, e);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" "
                   "y=\"%.1f\" text-anchor=\"end\">%s</text>\n", RL, y, RW - RR, y, RL - 6, y + 4, t);
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", RL, RT,
            RW - RR - RL, RH - RT - RB);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">arithmetic intensity "
               "(flop/byte) [log scale]</text>\n", (RL + RW - RR) / 2, RH - RB + 36);
    fprintf(f, "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\" class=\"axis\">"
               "performance (%s) [log scale]</text>\n", (RT + RH - RB) / 2, yunit);
}

static int overlaps(const label_set *ls, const box *b)
{
    for (size_t i = 0; i < ls->n; i++) {
        const box *o = &ls->b[i];
        if (b->x < o->x + o->w && o->x < b->x + b->w && b->y < o->y + o->h && o->y < b->y + b->h)
            return 1;
    }
    return 0;
}

static void remember(label_set *ls, box b)
{
    if (ls->n < MAX_LABELS)
        ls->b[ls->n++] = b;
}

enum { PLACES = 40 };

/* A label beside (x, y): the first of PLACES places (right or left, stepping away vertically
 * one text row at a time) that overlaps no earlier label and stays inside the plot, else beside
 * the point. Returns the anchor in *ax, *ay, *end; 1 when the label moved off the point's row
 * (the caller draws a leader line). */
static int place(label_set *ls, double x, double y, size_t len, double *ax, double *ay, int *end)
{
    double w = 5.6 * (double)len + 2, h = 11;
    for (int k = 0; k <= PLACES; k++) {
        int left = k % 2, j = k / 2;
        double dy = (j % 2 ? -1 : 1) * 11.0 * (double)((j + 1) / 2);
        box b = {left ? x - 7 - w : x + 7, y + dy - 8, w, h};
        int last = k == PLACES;
        if (last || (!overlaps(ls, &b) && b.x > RL && b.x + b.w < RW - 4 && b.y > RT && b.y + h < RH - RB)) {
            if (last)
                b = (box){x + 7, y - 8, w, h}, left = 0, dy = 0;
            *end = left;
            *ax = left ? x - 7 : x + 7;
            *ay = b.y + 8;
            remember(ls, b);
            return fabs(dy) > 6;
        }
    }
    return 0;
}

static void text_at(FILE *f, double x, double y, int end, const char *cls, const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y, end ? "end" : "start", cls);
    html_puts(f, s);
    fputs("</text>\n", f);
}

/* "fp32 peak 113.1 GFLOP/s, 48% of limit". */
static void ceiling_text(char *buf, size_t n, const cJSON *c)
{
    char v[32];
    double pct = num_or_nan(c, "pct_of_physical");
    rj_fmt(v, sizeof v, num_or_nan(c, "value"));
    const char *name = rj_str(c, "name"), *unit = rj_str(c, "unit");
    if (isfinite(pct))
        snprintf(buf, n, "%s %s %s, %.0f%% of limit", name ? name : "?", v, unit ? unit : "", pct);
    else
        snprintf(buf, n, "%s %s %s", name ? name : "?", v, unit ? unit : "");
}

static const char *const roof_colors[] = {"#2b5d8a", "#7a3e9d", "#2e7d32", "#8d6e00", "#b23c17",
                                          "#00796b", "#5d4037", "#455a64"};

/* A horizontal compute roof from where the steepest bandwidth roof meets it; its label at the
 * right edge, pushed down when it would overlap another. */
static void compute_line(FILE *f, const roof_frame *fr, const cJSON *c, double bmax, const char *color,
                         int dashed, label_set *ls)
{
    double v = num_or_nan(c, "value"), xs = isfinite(bmax) && !dashed ? fmax(log10(v / bmax), fr->x0) : fr->x0;
    char text[160];
    if (!(v > 0) || log10(v) > fr->y1 || log10(v) < fr->y0)
        return;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s "
               "class=\"roof\"/>\n", rx(fr, pow(10, xs)), ry(fr, v), RW - RR, ry(fr, v), color,
            dashed ? "1.2" : "2.2", dashed ? " stroke-dasharray=\"6 4\"" : "");
    ceiling_text(text, sizeof text, c);
    box b = {RW - RR + 4, ry(fr, v) - 8, 5.6 * (double)strlen(text), 11};
    while (overlaps(ls, &b) && b.y < RH)
        b.y += 11;
    remember(ls, b);
    text_at(f, b.x, b.y + 8, 0, "rlabel", text);
}

/* The start of a label of width w along the segment (X0,Y0)-(X1,Y1): the first of 12 places
 * whose bounding box (of the rotated text) overlaps no earlier label; 0 when none is free. */
static int label_along(label_set *ls, double X0, double Y0, double X1, double Y1, double w,
                       double *lx, double *ly)
{
    double len = hypot(X1 - X0, Y1 - Y0), dx = (X1 - X0) / len, dy = (Y1 - Y0) / len;
    for (int k = 0; k < 12; k++) {
        double t = 0.02 + 0.07 * k, x = X0 + t * (X1 - X0), y = Y0 + t * (Y1 - Y0);
        int free = t * len + w <= len + 40; /* the text must not run past the line's end */
        /* the rotated text as small boxes along its baseline, 4 px above the line */
        for (double s = 0; free && s < w; s += 10)
            free = !overlaps(ls, &(box){x + s * dx - 2, y + s * dy - 14, 12, 14});
        if (!free)
            continue;
        for (double s = 0; s < w; s += 10)
            remember(ls, (box){x + s * dx - 2, y + s * dy - 14, 12, 14});
        *lx = x;
        *ly = y;
        return 1;
    }
    return 0;
}

/* A label that found no room on its line: a colour swatch and the text in the right-hand
 * column, at the first free row from the top. */
static void label_in_key(FILE *f, label_set *ls, const char *text, const char *color, int dashed)
{
    box b = {RW - RR + 4, RT, 5.6 * (double)strlen(text) + 22, 11};
    while (overlaps(ls, &b) && b.y < RH)
        b.y += 11;
    remember(ls, b);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>",
            b.x, b.y + 5, b.x + 16, b.y + 5, color, dashed ? " stroke-dasharray=\"4 2\"" : "");
    text_at(f, b.x + 20, b.y + 9, 0, "rlabel", text);
}

/* A bandwidth roof y = bw x up to the highest compute roof, clipped to the frame; its label
 * along the line where it overlaps no other, else in the key column at the right. */
static void bandwidth_line(FILE *f, const roof_frame *fr, const cJSON *c, double cmax, const char *color,
                           int dashed, label_set *ls)
{
    double bw = num_or_nan(c, "value");
    if (!(bw > 0))
        return;
    double xa = fmax(fr->x0, fr->y0 - log10(bw)), xb = fmin(fr->x1, (isfinite(cmax) ? log10(cmax) : fr->y1) - log10(bw));
    if (xb <= xa)
        return;
    double X0 = rx(fr, pow(10, xa)), Y0 = ry(fr, bw * pow(10, xa)), X1 = rx(fr, pow(10, xb)), Y1 = ry(fr, bw * pow(10, xb));
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s "
               "class=\"roof\"/>\n", X0, Y0, X1, Y1, color, dashed ? "1.2" : "2.2",
            dashed ? " stroke-dasharray=\"6 4\"" : "");
    char text[160];
    ceiling_text(text, sizeof text, c);
    double angle = atan2(Y1 - Y0, X1 - X0), lx = X0, ly = Y0;
    if (!label_along(ls, X0, Y0, X1, Y1, 5.6 * (double)strlen(text), &lx, &ly)) {
        label_in_key(f, ls, text, color, dashed);
        return;
    }
    fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(%.1f)\" y=\"-4\" class=\"rlabel\" "
               "fill=\"%s\">", lx, ly, angle * 57.29577951308232, color);
    html_puts(f, text);
    fputs("</text>\n", f);
}

static void roofs(FILE *f, const roof_frame *fr, const cJSON *rl, label_set *ls)
{
    double cmax, bmin, bmax;
    extremes(rl, &cmax, &bmin, &bmax);
    static const char *const lists[] = {"ceilings", "theoretical"};
    int k = 0;
    for (int dashed = 0; dashed < 2; dashed++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, rj_arr(rl, lists[dashed])) {
            const char *color = dashed ? "#888" : roof_colors[k++ % 8];
            if (is_kind(c, "compute"))
                compute_line(f, fr, c, bmax, color, dashed, ls);
            else if (is_kind(c, "bandwidth"))
                bandwidth_line(f, fr, c, cmax, color, dashed, ls);
        }
    }
}

static const char *verdict_color(const char *v)
{
    if (!v)
        return "#555";
    return strcmp(v, "ok") == 0 ? "#1f77b4" : strcmp(v, "invalid") == 0 ? "#d62728"
         : strcmp(v, "unchecked") == 0 ? "#ff7f0e" : "#555";
}

/* The short label: the row name without "app.", and "(compute-only)" for rows without bytes. */
static void point_label(char *buf, size_t n, const cJSON *p)
{
    const char *row = rj_str(p, "row");
    row = row ? row : "?";
    if (strncmp(row, "app.", 4) == 0)
        row += 4;
    snprintf(buf, n, "%s%s", row, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "compute_only")) ? " (compute-only)" : "");
}

static void points(FILE *f, const roof_frame *fr, const cJSON *rl, label_set *ls)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, rj_arr(rl, "points")) {
        double ai = num_or_nan(p, "intensity"), perf = num_or_nan(p, "performance"), ax, ay;
        const char *v = rj_str(p, "verdict");
        int host = v && strcmp(v, "host") == 0, end;
        char label[128];
        if (!(perf > 0) || log10(perf) < fr->y0 || log10(perf) > fr->y1)
            continue;
        double x = isfinite(ai) && ai > 0 ? rx(fr, fmin(ai, pow(10, fr->x1))) : RW - RR; /* compute-only: right edge */
        fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
                   "stroke-width=\"1.5\"><title>", x, ry(fr, perf), host ? "#fff" : verdict_color(v),
                verdict_color(v));
        point_label(label, sizeof label, p);
        html_puts(f, label);
        fprintf(f, ": %.4g ", perf);
        html_puts(f, rj_str(p, "unit"));
        fprintf(f, " at %.4g flop/byte; ", ai);
        html_puts(f, v ? v : "?");
        fputs(": ", f);
        html_puts(f, rj_str(p, "reason"));
        fputs("</title></circle>\n", f);
        if (place(ls, x, ry(fr, perf), strlen(label), &ax, &ay, &end))
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"leader\"/>", x,
                    ry(fr, perf), ax, ay - 3);
        text_at(f, ax, ay, end, "plabel", label);
    }
}

/* The verdict colours present, one entry each (no empty entries). */
static void key(FILE *f, const cJSON *rl)
{
    static const char *const verdicts[] = {"ok", "invalid", "unchecked", "host"};
    static const char *const text[] = {"at or below its roof", "above its roof: invalid",
                                       "a roof was not measured", "host CPU row (not judged)"};
    double x = RL;
    for (size_t i = 0; i < 4; i++) {
        const cJSON *p;
        int seen = 0;
        cJSON_ArrayForEach(p, rj_arr(rl, "points")) {
            const char *v = rj_str(p, "verdict");
            seen |= v && strcmp(v, verdicts[i]) == 0;
        }
        if (!seen)
            continue;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\" stroke=\"%s\"/>", x + 4, RH - 8,
                i == 3 ? "#fff" : verdict_color(verdicts[i]), verdict_color(verdicts[i]));
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"legend\">%s</text>\n", x + 12, RH - 4, text[i]);
        x += 24 + 5.6 * (double)strlen(text[i]);
    }
}

static const char *y_unit(const cJSON *rl)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, rj_arr(rl, "points")) {
        const char *u = rj_str(p, "unit");
        if (u && strcmp(u, "GIOP/s") == 0)
            return "GFLOP/s; GIOP/s for integer rows";
    }
    return "GFLOP/s";
}

static void svg(FILE *f, const cJSON *rl, const char *title)
{
    roof_frame fr;
    label_set *ls = calloc(1, sizeof *ls);
    clb_svg_open(f, "plot roofline", RW, RH, RL, title);
    if (!ls || !frame_of(rl, &fr)) {
        fprintf(f, "<text x=\"%d\" y=\"%d\">no plottable ceiling or point</text>\n</svg>\n", RL, RH / 2);
        free(ls);
        return;
    }
    axes(f, &fr, y_unit(rl));
    roofs(f, &fr, rl, ls);
    points(f, &fr, rl, ls);
    key(f, rl);
    fputs("</svg>\n", f);
    free(ls);
}

/* ok green, invalid red, unchecked and host grey: neither is a failure of the row. */
static void verdict_badge(FILE *f, const char *v, const char *reason)
{
    const char *cls = !v ? "st-bad" : strcmp(v, "ok") == 0 ? "st-ok" : strcmp(v, "invalid") == 0 ? "st-bad"
                                                                                                 : "st-unsupported";
    fprintf(f, "<span class=\"st %s\">", cls);
    html_puts(f, v ? v : "(no verdict)");
    fputs("</span> ", f);
    html_puts(f, reason);
}

static void point_rows(FILE *f, const cJSON *rl)
{
    const cJSON *p;
    fputs("<table class=\"points\"><tr><th>row</th><th>flop/byte</th><th>performance</th>"
          "<th>% of roof</th><th>verdict</th></tr>\n", f);
    cJSON_ArrayForEach(p, rj_arr(rl, "points")) {
        char ai[32], perf[32], label[128];
        double pct = num_or_nan(p, "pct_of_roof");
        rj_fmt(ai, sizeof ai, num_or_nan(p, "intensity"));
        rj_fmt(perf, sizeof perf, num_or_nan(p, "performance"));
        point_label(label, sizeof label, p);
        fputs("<tr><td><code>", f);
        html_puts(f, label);
        fprintf(f, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s ", ai, perf);
        html_puts(f, rj_str(p, "unit"));
        if (isfinite(pct))
            fprintf(f, "</td><td class=\"num\">%.0f%%</td><td>", pct);
        else
            fputs("</td><td class=\"num\"><span class=\"na\">-</span></td><td>", f);
        verdict_badge(f, rj_str(p, "verdict"), rj_str(p, "reason"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void one_device(FILE *f, const rep_col *col, const clb_report_src *src, size_t nsrc)
{
    const cJSON *rl = rj_obj(col->dev, "roofline");
    cJSON *made = rl ? NULL : clb_roofline_model(col->dev);
    char title[300];
    rl = rl ? rl : made;
    snprintf(title, sizeof title, "Roofline: %s%s%s", col->name, nsrc > 1 ? " - " : "",
             nsrc > 1 ? src[col->src].name : "");
    int empty = cJSON_GetArraySize(rj_arr(rl, "ceilings")) == 0 && cJSON_GetArraySize(rj_arr(rl, "points")) == 0;
    if (empty) {
        fputs("<p class=\"na\">", f);
        html_puts(f, col->name);
        fputs(": no roofline (no compute.*, memory.* or app rows with flops and bytes)</p>\n", f);
    } else {
        fputs("<figure>", f);
        svg(f, rl, title);
        if (made)
            fputs("<figcaption class=\"small\">computed by the report: the file has no roofline object</figcaption>", f);
        fputs("</figure>\n", f);
        if (cJSON_GetArraySize(rj_arr(rl, "points")) > 0)
            point_rows(f, rl);
    }
    cJSON_Delete(made);
}

void rep_html_roofline(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc)
{
    fputs("<section id=\"roofline\"><h2>Roofline</h2>\n<p class=\"small\">Measured ceilings (solid), "
          "physical limits from the device database (dashed), every app row with its flop and byte "
          "counts at its arithmetic intensity (docs/roofline.md).</p>\n", f);
    for (size_t i = 0; i < c->n; i++)
        one_device(f, &c->col[i], src, nsrc);
    if (c->n == 0)
        fputs("<p class=\"na\">no devices in the input</p>\n", f);
    fputs("</section>\n", f);
}
