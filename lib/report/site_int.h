/* Inside the site writer (lib/report/site*.c): what the pages share. */
#ifndef CLB_REPORT_SITE_INT_H
#define CLB_REPORT_SITE_INT_H

#include "core/grow.h"
#include "core/strtab.h"
#include "report/report_cols.h"
#include "report/site.h"

#include <stdint.h>

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

/* What a model page needs of one (device, row): the row's latest run. A device's records lie
 * together in the spill file, ordered by row name and unit. */
typedef struct site_rec {
    uint32_t row;    /* in site_ctx.rows */
    uint32_t status; /* string id of the run's status (0: NULL) */
    int64_t time;
    double value;
    uint32_t has; /* the row has a run */
    uint32_t pad;
} site_rec;

/* A device's headline figure, kept for the index. */
typedef struct site_ceil {
    uint32_t name, unit; /* string ids */
    double value;
} site_ceil;

typedef struct clb_site_writer site_ctx;
struct clb_site_writer {
    const clb_site_model *m;
    const char *dir;
    char (*dev_slug)[SITE_NAME_MAX]; /* per device */
    size_t *dev_group;               /* per device: its group */
    size_t *order;                   /* devices by model, host, key */
    site_group *groups;              /* models by name */
    size_t ngroups;
    size_t *by_key;                  /* devices by key, for the scores' links */
    const char **dev_sorted, **group_sorted; /* the slugs in strcmp order: the pages produced */
    const char *ceil[SITE_INDEX_CEILINGS];
    uint32_t ceil_id[SITE_INDEX_CEILINGS];
    size_t nceil;
    /* what streaming keeps */
    clb_strtab strs;                 /* row names, units, statuses, ceiling names */
    clb_strtab rows;                 /* (name id, unit id) pairs */
    int *row_better;                 /* per row */
    size_t row_cap;
    unsigned char *done;             /* per device: page written */
    size_t *ceil_first;              /* per device: its ceilings in ceils */
    uint32_t *ceil_n;
    site_ceil *ceils;
    size_t nceils, ceils_cap;
    FILE *spill;                     /* site_rec of every (device, row), unlinked */
    uint64_t *spill_at;              /* per device: its first record */
    uint32_t *spill_n;
    uint64_t spill_end;
};

/* lib/report/site_pool.c */
/* A string's id in c->strs: 0 for NULL, else its index + 1; UINT32_MAX out of memory. */
uint32_t site_str_id(site_ctx *c, const char *s);
const char *site_str(const site_ctx *c, uint32_t id); /* NULL for 0 */
/* The row (name, unit) in c->rows (better kept from its first sight); UINT32_MAX out of memory. */
uint32_t site_row_id(site_ctx *c, const char *name, const char *unit, int better);
/* Records device dev's rows for its model page; CLB_ERR_NOMEM or CLB_ERR_IO (d set). */
clb_error site_spill_device(site_ctx *c, size_t dev, const clb_site_row *rows, size_t nrows, clb_diag *d);
/* Keeps device dev's headline figures for the index. */
clb_error site_keep_ceilings(site_ctx *c, size_t dev, const clb_site_ceiling *v, size_t n, clb_diag *d);

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
clb_error site_device_page(const site_ctx *c, size_t dev, const clb_site_row *rows, size_t nrows,
                           const clb_site_ceiling *ceilings, size_t nceilings, clb_diag *d);
clb_error site_scores_page(const site_ctx *c, clb_diag *d);
clb_error site_index_page(site_ctx *c, clb_diag *d);

/* lib/report/site_model.c: ranks the rows (by name and unit), then writes every model page from
 * the spill file. */
clb_error site_model_pages(site_ctx *c, clb_diag *d);

/* lib/report/site_manifest.c: the files the site wrote (CLB_SITE_MANIFEST: a header line, then
 * one path per line, relative to dir). check: refuses (CLB_ERR_USAGE) a previous manifest that
 * names anything but a page of the site or a page that is not a regular file, before anything
 * is written. begin: writes the previous pages and the new ones as the manifest, so that a run
 * killed midway still knows every page it may have written. finish: removes the previous
 * pages no longer produced, then writes the new pages alone. */
clb_error site_manifest_check(const site_ctx *c, clb_diag *d);
clb_error site_manifest_begin(const site_ctx *c, clb_diag *d);
clb_error site_manifest_finish(const site_ctx *c, clb_diag *d);

/* The characters a slug keeps of a key (clb_site_slug; the rest become '-'): the one alphabet of
 * page names, which the manifest's reader also checks against. */
static inline int site_slug_keeps(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

#endif
