/* The presentation layer's own helpers, beside the document accessors (doc/doc.h). */
#ifndef CLB_REPORT_H
#define CLB_REPORT_H

#include "doc/doc.h"
#include "judge/fleet_compare.h"

/* The writers of document strings (lib/report/html_text.c); each replaces invalid UTF-8 with
 * U+FFFD, NULL writes nothing (an empty cell).
 * html_puts: HTML text and attribute values (&, <, >, ", ' escaped; controls as U+FFFD).
 * rep_csv_cell: one CSV cell (RFC 4180 quoting; a text starting with =, +, -, @, tab or CR gets a
 * leading ' so that spreadsheets never read it as a formula; plain numbers stay numbers).
 * rep_md_cell: one Markdown table cell (|, <, >, & escaped, line breaks as spaces).
 * rep_term: terminal text, controls shown as \xHH; returns one of 8 static buffers in turn. */
void html_puts(FILE *f, const char *s);
void rep_csv_cell(FILE *f, const char *s);
void rep_md_cell(FILE *f, const char *s);
const char *rep_term(const char *s);
/* Length (1..4) of the well-formed UTF-8 character at s, 0 when s starts an invalid sequence. */
size_t rep_utf8_len(const char *s);

/* The ladder tables of one device's results, after clb_apps_annotate: per app with
 * app rows, its rows in rung order (rows without a rung index last): status, value, speedup over
 * sequential, over the previous rung, % of peak (or of the triad); "-" where the annotation
 * added nothing. Plain text, or Markdown tables when markdown. Nothing without app rows. */
void clb_report_ladder(FILE *f, const cJSON *results, const char *device, int markdown);

/* A series of a line plot: a curve object {"x_name","x_unit","y_name","y_unit","x_log",
 * "points": [[x,y],...], "label"} (docs/report.md) and the legend text (NULL: its label). */
typedef struct clb_plot_series {
    const cJSON *curve;
    const char *label;
} clb_plot_series;
/* Writes an inline <svg> line plot of the series with axes, ticks (logarithmic x when the
 * first curve says x_log), axis labels and a legend. */
void clb_svg_plot(FILE *f, const clb_plot_series *s, size_t n, const char *title);
/* A horizontal reference line in the y unit of the plot: a physical limit (dashed) or a peer
 * measured in the same run (dotted), labelled on the line. */
typedef struct clb_plot_ref {
    double value;
    const char *label;
    int dashed; /* 1: physical limit, 0: same-run peer */
} clb_plot_ref;
/* clb_svg_plot with reference lines; the y range grows to show them. */
void clb_svg_plot_refs(FILE *f, const clb_plot_series *s, size_t n, const char *title,
                       const clb_plot_ref *refs, size_t nrefs);
/* The opening of a plot: <svg> of class cls, w x h, its <title> and the title drawn at x. */
void clb_svg_open(FILE *f, const char *cls, int w, int h, int title_x, const char *title);

/* fleet-check's lines (docs/fleet.md), one writer for files and the store so that the same
 * numbers read the same. clb_fleet_print_kind: the "== k x NAME (driver D)" header of a kind, and
 * the line of a kind with a single device; clb_fleet_print_row: for one result judged by
 * clb_fleet_compare, with o->verbose a line when it was too noisy to judge, and one FLAG line per
 * flagged device (label[i] names device i); clb_fleet_print_summary: the last line. */
void clb_fleet_print_kind(FILE *f, size_t k, const char *name, const char *driver);
void clb_fleet_print_row(FILE *f, const char *rname, const char *const *label, const clb_fleet_values *in,
                         const clb_fleet_row *row, const clb_fleet_dev *out, const clb_fleet_opts *o);
void clb_fleet_print_summary(FILE *f, size_t devices, size_t kinds, size_t flags, size_t not_judged);

#endif
