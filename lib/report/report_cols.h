/* The columns of a report: every device of every input document, in order. */
#ifndef CLB_REPORT_COLS_H
#define CLB_REPORT_COLS_H

#include "report/report.h"

typedef struct rep_col {
    size_t src;        /* index of the input document */
    const cJSON *dev;  /* its device entry */
    const char *name;  /* device name (borrowed) */
    rj_index ix;       /* its results by name */
} rep_col;

typedef struct rep_cols {
    rep_col *col;
    size_t n;
    const char **names; /* distinct result names over all columns, first-seen order */
    size_t nnames;
} rep_cols;

clb_error rep_cols_build(rep_cols *c, const clb_report_src *src, size_t n);
void rep_cols_free(rep_cols *c);
/* The result named name in a column (rj_find_result through the column's index). */
const cJSON *rep_find(const rep_col *col, const char *name);

/* HTML sections (lib/report/html.c, lib/report/summary.c). */
void rep_html_status(FILE *f, const char *st, const char *reason);
void rep_html_summary(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc);
void rep_html_plots(FILE *f, const rep_cols *c, size_t nsrc);
/* Reduces every absolute path in s to its last component, in place ("/home/u/r.json" ->
 * "r.json"; "--json=/tmp/a.json" -> "--json=a.json"). lib/report/paths.c */
void rep_strip_paths(char *s);
/* The reference lines of the curve plot of result name in unit (lib/report/plot_refs.c): per
 * device the physical limit (dashed) and the same-run peer (dotted). */
enum { REP_MAX_REFS = 16 };
typedef struct rep_refs {
    clb_plot_ref r[REP_MAX_REFS];
    char text[REP_MAX_REFS][200];
    size_t n;
} rep_refs;
void rep_plot_refs(const rep_cols *c, const char *name, const char *unit, rep_refs *o);
/* The roofline section (lib/report/roofline.c). */
void rep_html_roofline(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc);
/* params.efficiency (percent) and params.limit {value, unit} of result r, as the runner's
 * physical-limit guard wrote them; 0 when r has none. */
int rep_limit_efficiency(const cJSON *r, double *pct, double *limit, const char **unit);

#endif
