/* Inside the site writer (lib/report/site*.c): what the pages share. */
#ifndef CLB_REPORT_SITE_INT_H
#define CLB_REPORT_SITE_INT_H

#include "report/report_cols.h"
#include "report/site.h"

enum {
    SITE_NAME_MAX = 96,     /* a page's file name stem, with a "-N" disambiguation */
    SITE_INDEX_CEILINGS = 8 /* headline columns on the index */
};

/* The devices of one model, as a run of site_ctx.order. */
typedef struct site_group {
    const char *model;
    char slug[SITE_NAME_MAX];
    size_t first, count;
} site_group;

typedef struct site_ctx {
    const clb_site_model *m;
    const char *dir;
    char (*dev_slug)[SITE_NAME_MAX]; /* per device */
    size_t *dev_group;               /* per device: its group */
    size_t *order;                   /* devices by model, host, key */
    site_group *groups;              /* models by name */
    size_t ngroups;
    size_t *by_key;                  /* devices by key, for the scores' links */
    const char *ceil[SITE_INDEX_CEILINGS];
    const char *ceil_unit[SITE_INDEX_CEILINGS];
    size_t nceil;
} site_ctx;

/* lib/report/site_util.c */
const char *site_s(const char *s);    /* s, or "" for NULL */
int site_ok(const char *status);      /* NULL or "ok" */
/* What a run without a measured number shows: its status, "no value" for an "ok" without one. */
const char *site_unmeasured(const clb_site_point *p);
void site_num(char *buf, size_t n, double v);
void site_time(char *buf, size_t n, int64_t t);
double site_median(double *x, size_t n); /* sorts x; NaN when n == 0 */
clb_error site_name_slugs(char (*slug)[SITE_NAME_MAX], const char *const *keys, size_t n);
clb_error site_open(const site_ctx *c, const char *rel, clb_output **o, FILE **f, clb_diag *d);
clb_error site_close(clb_output *o, FILE *f, clb_diag *d);
void site_head(FILE *f, const char *title, const char *up);
void site_foot(FILE *f, const site_ctx *c);
void site_td(FILE *f, const char *s);
void site_td_num(FILE *f, double v, const char *unit);
void site_link(FILE *f, const char *up, const char *folder, const char *slug, const char *text);
/* The device of key (by_key), or (size_t)-1. */
size_t site_find_device(const site_ctx *c, const char *key);

/* lib/report/site_plot.c: a row's history as a small inline SVG, and its one-line summary. */
void site_history(FILE *f, const clb_site_row *r);

/* lib/report/site_pages.c */
clb_error site_device_page(const site_ctx *c, size_t dev, clb_diag *d);
clb_error site_scores_page(const site_ctx *c, clb_diag *d);
clb_error site_index_page(const site_ctx *c, clb_diag *d);

/* lib/report/site_model.c */
clb_error site_model_page(const site_ctx *c, size_t group, clb_diag *d);

#endif
