/* The ladder tables: per device and app, the app's rows in rung order with what
 * clb_apps_annotate added (speedup over sequential and over the previous rung, % of the peak
 * row), after the results of `clbench run` and in `clbench report --markdown`. Reads only what
 * the results say; a value the annotation did not add is shown as "-". */
#include "report/report.h"

#include <string.h>

enum { MAX_ROWS = 128, APP_LEN = 48 };

/* "app.<app>.<rung>": copies <app> into app and points *rung at the rest; 0 for other names. */
static int split(const char *name, char *app, const char **rung)
{
    const char *dot = strncmp(name, "app.", 4) == 0 ? strchr(name + 4, '.') : NULL;
    size_t n = dot ? (size_t)(dot - name - 4) : 0;
    if (n == 0 || n >= APP_LEN || !dot[1])
        return 0;
    memcpy(app, name + 4, n);
    app[n] = '\0';
    *rung = dot + 1;
    return 1;
}

/* Rows with a rung index in its order; the others (references, twins) after them as they came. */
static double order(const cJSON *r, size_t pos)
{
    double i;
    return rj_num(rj_obj(r, "params"), "rung_index", &i) ? i : 1e6 + (double)pos;
}

/* Names and statuses come from documents: escaped for Markdown, controls shown on a terminal. */
static void cell(FILE *f, int md, int width, const char *s)
{
    if (md) {
        fputs("| ", f);
        rep_md_cell(f, s);
        fputs(" ", f);
    } else {
        fprintf(f, "%*s", width, rep_term(s));
    }
}

static void num_cell(FILE *f, int md, int width, const cJSON *params, const char *key, const char *fmt)
{
    double v;
    char buf[40] = "-";
    if (rj_num(params, key, &v))
        snprintf(buf, sizeof buf, fmt, v);
    cell(f, md, width, buf);
}

static void line(FILE *f, int md, const cJSON *r)
{
    rj_result x;
    char app[APP_LEN], val[40] = "-";
    const char *rung = "";
    const cJSON *p = rj_obj(r, "params");
    rj_result_read(r, &x);
    split(x.name, app, &rung);
    int ok = strcmp(x.status, "ok") == 0;
    if (ok && x.has_value)
        rj_fmt(val, sizeof val, x.value);
    if (md)
        cell(f, md, 0, rung);
    else
        fprintf(f, "  %-22s", rep_term(rung));
    cell(f, md, 15, x.status);
    cell(f, md, 12, val);
    num_cell(f, md, 14, ok ? p : NULL, "speedup_vs_sequential", "%.2f");
    num_cell(f, md, 12, ok ? p : NULL, "speedup_vs_previous_rung", "%.2f");
    num_cell(f, md, 11, ok ? p : NULL, rj_num(p, "pct_of_triad", &(double){0}) ? "pct_of_triad" : "pct_of_compute_peak", "%.1f");
    /* the seed's total time (setup, build, transfers, kernel) beside one run's kernel time */
    num_cell(f, md, 11, ok ? p : NULL, "kernel_s", "%.4g");
    num_cell(f, md, 11, ok ? p : NULL, "total_s", "%.4g");
    fputs(md ? "|\n" : "\n", f);
}

/* "Ladder: APP on DEVICE (UNIT; % of PEER)", each name escaped for its output. */
static void title(FILE *f, int md, const char *app, const char *device, const char *unit, const char *peer)
{
    const char *text[] = {md ? "\n### Ladder: " : "\n-- ladder: ", " on ", " (", "; % of ", md ? ")\n\n" : ")\n"};
    const char *name[] = {app, device, unit, peer};
    for (size_t i = 0; i < 4; i++) {
        fputs(text[i], f);
        if (md)
            rep_md_cell(f, name[i]);
        else
            fputs(rep_term(name[i]), f);
    }
    fputs(text[4], f);
}

/* The title names the unit and the peak row the percentages refer to (the rows' peer_row). */
static void header(FILE *f, int md, const char *app, const char *device, const cJSON *const *rows, size_t n)
{
    const char *unit = "", *peer = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *u = rj_str(rows[i], "unit"), *pr = rj_str(rj_obj(rows[i], "params"), "peer_row");
        unit = *unit ? unit : u ? u : "";
        peer = peer ? peer : pr;
    }
    title(f, md, app, device, unit, peer ? peer : "peak");
    if (md) {
        fputs("| rung | status | value | x sequential | x previous rung | % of peak | kernel s | total s |\n"
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n", f);
        return;
    }
    fprintf(f, "  %-22s%15s%12s%14s%12s%11s%11s%11s\n", "rung", "status", "value", "x sequential", "x previous",
            "% of peak", "kernel s", "total s");
}

static void table(FILE *f, int md, const cJSON *results, const char *app, const char *device)
{
    const cJSON *rows[MAX_ROWS], *r;
    double key[MAX_ROWS];
    size_t n = 0, pos = 0;
    cJSON_ArrayForEach(r, results) {
        char a[APP_LEN];
        const char *rung, *name = rj_str(r, "name");
        if (n < MAX_ROWS && name && split(name, a, &rung) && strcmp(a, app) == 0) {
            size_t j = n++;
            double k = order(r, pos);
            for (; j > 0 && key[j - 1] > k; j--) /* insertion sort: stable, tiny n */
                rows[j] = rows[j - 1], key[j] = key[j - 1];
            rows[j] = r, key[j] = k;
        }
        pos++;
    }
    header(f, md, app, device, rows, n);
    for (size_t i = 0; i < n; i++)
        line(f, md, rows[i]);
}

/* 1 when an earlier result than stop already belongs to app (its table is printed). */
static int seen(const cJSON *results, const cJSON *stop, const char *app)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        char a[APP_LEN];
        const char *rung, *name = rj_str(r, "name");
        if (r == stop)
            return 0;
        if (name && split(name, a, &rung) && strcmp(a, app) == 0)
            return 1;
    }
    return 0;
}

void clb_report_ladder(FILE *f, const cJSON *results, const char *device, int markdown)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        char app[APP_LEN];
        const char *rung, *name = rj_str(r, "name");
        if (name && split(name, app, &rung) && !seen(results, r, app))
            table(f, markdown, results, app, device ? device : "unknown device");
    }
}
