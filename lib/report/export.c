/* CSV and Markdown exports: one row per (file, device, result). */
#include "report/report.h"

#include <math.h>
#include <string.h>

enum { FMT_CSV, FMT_MD };

static const char *const columns[] = {"file", "device", "name", "status", "value", "unit",
                                      "median", "ci95_lo", "ci95_hi", "cv", "n", "reason"};
enum { NCOL = sizeof columns / sizeof columns[0] };

static void sep(FILE *f, int fmt, int i)
{
    fputs(fmt == FMT_CSV ? (i ? "," : "") : (i ? " | " : "| "), f);
}

/* A text cell from a document: through the writers of lib/report/html_text.c. */
static void field(FILE *f, int fmt, int i, const char *s)
{
    sep(f, fmt, i);
    (fmt == FMT_CSV ? rep_csv_cell : rep_md_cell)(f, s);
}

/* A number cell: printed here, never neutralized (-3.5 stays a number). */
static void num_field(FILE *f, int fmt, int i, int has, double v)
{
    sep(f, fmt, i);
    if (has && isfinite(v))
        fprintf(f, "%.6g", v);
}

static void row(FILE *f, int fmt, const char *file, const char *dev, const cJSON *r)
{
    rj_result x;
    rj_result_read(r, &x);
    int ok = strcmp(x.status, "ok") == 0;
    field(f, fmt, 0, rj_basename(file));
    field(f, fmt, 1, dev);
    field(f, fmt, 2, x.name);
    field(f, fmt, 3, x.status);
    num_field(f, fmt, 4, ok && x.has_value, x.value);
    field(f, fmt, 5, x.unit);
    num_field(f, fmt, 6, ok && x.has_stats, x.median);
    num_field(f, fmt, 7, ok && x.has_ci, x.ci_lo);
    num_field(f, fmt, 8, ok && x.has_ci, x.ci_hi);
    num_field(f, fmt, 9, ok && x.has_stats, x.cv);
    num_field(f, fmt, 10, ok && x.has_stats, x.n);
    field(f, fmt, 11, ok ? "" : x.reason);
    fputs(fmt == FMT_CSV ? "\n" : " |\n", f);
}

static clb_error export_rows(FILE *f, int fmt, const clb_report_src *src, size_t n)
{
    for (int i = 0; i < NCOL; i++)
        field(f, fmt, i, columns[i]);
    fputs(fmt == FMT_CSV ? "\n" : " |\n", f);
    if (fmt == FMT_MD) {
        for (int i = 0; i < NCOL; i++)
            fputs(i == 4 || (i >= 6 && i <= 10) ? "| ---: " : "| --- ", f);
        fputs("|\n", f);
    }
    for (size_t i = 0; i < n; i++) {
        const cJSON *dev, *r;
        cJSON_ArrayForEach(dev, rj_devices(src[i].doc)) {
            cJSON_ArrayForEach(r, rj_arr(dev, "results"))
                row(f, fmt, src[i].name, rj_device_name(dev), r);
        }
    }
    return ferror(f) ? CLB_ERR_IO : CLB_OK;
}

clb_error clb_report_csv(FILE *f, const clb_report_src *src, size_t n)
{
    return export_rows(f, FMT_CSV, src, n);
}

clb_error clb_report_markdown(FILE *f, const clb_report_src *src, size_t n)
{
    clb_error e = export_rows(f, FMT_MD, src, n);
    for (size_t i = 0; e == CLB_OK && i < n; i++) { /* then the app ladders of each device */
        const cJSON *dev;
        cJSON_ArrayForEach(dev, rj_devices(src[i].doc))
            clb_report_ladder(f, rj_arr(dev, "results"), rj_device_name(dev), 1);
    }
    return e == CLB_OK && ferror(f) ? CLB_ERR_IO : e;
}
