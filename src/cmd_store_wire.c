/* The store wired to the judges: store drift (the change-point test of docs/drift.md over every
 * (device, row) history), fleet-check --store (siblings' latest runs through the fleet
 * comparison, printed by the file-based fleet-check's writers) and store history --html (the
 * table and its plot on one page). */
#include "cli.h"
#include "doc/doc.h"
#include "judge/drift.h"
#include "report/report.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- store drift ---- */

typedef struct drift_ctx {
    clb_drift_opts opts;
    clb_drift_work *work;
    size_t cap;                     /* the work's max_runs */
    const clb_store_device *dev;    /* sorted by id */
    size_t ndev;
    size_t tested, moved, steady, too_few;
    int nomem;
    cJSON *json;                    /* --json: the moved rows' objects (NULL without) */
    int text;                       /* the MOVED lines on stdout (not with --json -) */
} drift_ctx;

static const char *key_of(const drift_ctx *c, int64_t id)
{
    size_t k = clb_store_device_index(c->dev, c->ndev, id);
    return k < c->ndev ? c->dev[k].key : "?";
}

static int drift_one(const clb_store_series *sr, void *arg)
{
    drift_ctx *c = arg;
    if (sr->n > c->cap) {
        clb_drift_work_free(c->work);
        c->cap = 2 * sr->n;
        if (!(c->work = clb_drift_work_new(c->cap)))
            return c->nomem = 1;
    }
    clb_drift_series ds = {sr->value, sr->spread, sr->nsamp, sr->time, sr->n};
    clb_drift_result r;
    if (clb_drift_test(&ds, &c->opts, c->work, &r) < 0)
        return c->nomem = 1;
    c->tested++;
    if (r.verdict == CLB_DRIFT_TOO_FEW) {
        c->too_few++;
        return 0;
    }
    if (r.verdict == CLB_DRIFT_STEADY) {
        c->steady++;
        return 0;
    }
    c->moved++;
    char line[512], t0[32], t1[32];
    clb_drift_describe(line, sizeof line, &r, &c->opts);
    size_t b = r.split; /* the last run with a value before the change (a move has runs before it) */
    while (b > 1 && !isfinite(sr->value[b - 1]))
        b--;
    b = b > 0 ? b - 1 : 0;
    cli_format_time(sr->time[b], t0, sizeof t0);
    cli_format_time(sr->time[r.split], t1, sizeof t1);
    if (c->text)
        printf("MOVED  %s  %s: between run %lld (%s) and run %lld (%s): %s\n", rep_term(key_of(c, sr->device)),
               rep_term(sr->row_name), (long long)sr->run[b], t0, (long long)sr->run[r.split], t1, line);
    cJSON *m = c->json ? cJSON_CreateObject() : NULL;
    if (m) {
        cJSON_AddStringToObject(m, "device", key_of(c, sr->device));
        cJSON_AddStringToObject(m, "row", sr->row_name);
        cJSON_AddStringToObject(m, "unit", sr->unit);
        cJSON_AddNumberToObject(m, "run_before", (double)sr->run[b]);
        cJSON_AddStringToObject(m, "time_before", t0);
        cJSON_AddNumberToObject(m, "run_after", (double)sr->run[r.split]);
        cJSON_AddStringToObject(m, "time_after", t1);
        cJSON_AddBoolToObject(m, "trend", r.trend);
        cJSON_AddNumberToObject(m, "before", r.before);
        cJSON_AddNumberToObject(m, "after", r.after);
        cJSON_AddNumberToObject(m, "ratio", r.ratio);
        cJSON_AddNumberToObject(m, "t", r.t);
        cJSON_AddNumberToObject(m, "p", r.p);
        cJSON_AddNumberToObject(m, "floor", r.floor);
        cJSON_AddStringToObject(m, "text", line);
        cJSON_AddItemToArray(c->json, m);
    }
    return 0;
}

/* --json: the summary and the moved rows, to FILE (whole or not at all) or stdout. */
static int drift_json(const cli_opts *o, const drift_ctx *c)
{
    cJSON *root = cJSON_CreateObject(), *sum = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(sum, "tested", (double)c->tested);
    cJSON_AddNumberToObject(sum, "moved", (double)c->moved);
    cJSON_AddNumberToObject(sum, "steady", (double)c->steady);
    cJSON_AddNumberToObject(sum, "too_few", (double)c->too_few);
    cJSON_AddNumberToObject(sum, "alpha", c->opts.alpha);
    cJSON_AddNumberToObject(sum, "min_rel", c->opts.min_rel);
    cJSON_AddNumberToObject(sum, "min_side", (double)c->opts.min_side);
    cJSON_AddItemReferenceToObject(root, "moved", c->json);
    char *text = cJSON_Print(root);
    clb_diag d = {.err = CLB_OK};
    int ok = text != NULL;
    if (ok && strcmp(o->json, "-") == 0) {
        ok = printf("%s\n", text) >= 0;
    } else if (ok) {
        clb_output *out = NULL;
        FILE *f = NULL;
        if (clb_output_open(o->json, &out, &f, &d) == CLB_OK)
            clb_output_close(out, fprintf(f, "%s\n", text) >= 0 && !ferror(f), &d);
    }
    free(text);
    cJSON_Delete(root);
    if (d.err != CLB_OK)
        return cli_fail_diag(&d);
    return ok ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}

/* store drift [DEVICE|--all]: exit 1 when a row moved, 0 when none, 2 usage or an unusable store. */
int cli_store_drift(const cli_opts *o, clb_store *s)
{
    clb_diag d;
    int64_t id = 0;
    drift_ctx c = {.cap = 0};
    clb_store_device *dev = NULL;
    clb_drift_opts_default(&c.opts);
    if (o->threshold_set)
        c.opts.min_rel = o->threshold;
    c.text = !o->json || strcmp(o->json, "-") != 0;
    c.json = o->json ? cJSON_CreateArray() : NULL;
    int rc = CLI_EXIT_OK;
    if (rc == CLI_EXIT_OK && o->npatterns > 1 && clb_store_find_device(s, o->patterns[1], &id, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    if (rc == CLI_EXIT_OK && clb_store_devices(s, &dev, &c.ndev, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    c.dev = dev;
    if (rc == CLI_EXIT_OK && clb_store_each_series(s, id, drift_one, &c, NULL, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    if (rc == CLI_EXIT_OK && c.nomem) {
        fprintf(stderr, "clbench: store drift: out of memory\n");
        rc = CLI_EXIT_RUNTIME;
    }
    if (rc == CLI_EXIT_OK && c.text)
        printf("%zu series tested: %zu moved, %zu steady, %zu with too few runs (fewer than %zu with a value); "
               "alpha %g, floor %.1f %%\n",
               c.tested, c.moved, c.steady, c.too_few, 2 * c.opts.min_side, c.opts.alpha, 100 * c.opts.min_rel);
    if (rc == CLI_EXIT_OK && c.json)
        rc = drift_json(o, &c);
    if (rc == CLI_EXIT_OK)
        rc = c.moved ? CLI_EXIT_FAILED : CLI_EXIT_OK;
    cJSON_Delete(c.json);
    clb_drift_work_free(c.work);
    clb_store_devices_free(dev, c.ndev);
    return rc;
}

/* ---- fleet-check --store ---- */

/* Device indexes ordered by (model, driver), then id: siblings are neighbours. */
static const clb_store_latest *sort_l;
static int cmp_kind(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(sort_l->model[i], sort_l->model[j]);
    if (!c)
        c = strcmp(sort_l->driver[i], sort_l->driver[j]);
    return c ? c : (i > j) - (i < j);
}

/* The value of row in device i's results (ascending row ids): its index or SIZE_MAX. */
static size_t find_row(const clb_store_latest *l, size_t i, int64_t row)
{
    size_t lo = l->first[i], hi = l->first[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->row[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->first[i + 1] && l->row[lo] == row ? lo : SIZE_MAX;
}

typedef struct fleet_buf {
    double *v;            /* 4 x n: value, cv, reps, scratch */
    clb_fleet_dev *out;
    const char **label;
} fleet_buf;

/* Judges every row of the kind idx[0..k) (the rows of its first device); returns its flags. */
static size_t judge_kind(const clb_store_latest *l, const size_t *idx, size_t k, const clb_fleet_opts *fo,
                         fleet_buf *b, size_t *not_judged)
{
    size_t flags = 0, d0 = idx[0];
    for (size_t j = 0; j < k; j++)
        b->label[j] = l->key[idx[j]];
    for (size_t r = l->first[d0]; r < l->first[d0 + 1]; r++) {
        int64_t row = l->row[r];
        clb_fleet_values in = {b->v, b->v + k, b->v + 2 * k, k, 1};
        if (row >= 0 && (size_t)row < l->nrow_ids)
            in.higher_better = l->row_better[row] >= 0;
        for (size_t j = 0; j < k; j++) {
            size_t x = find_row(l, idx[j], row);
            int ok = x != SIZE_MAX && l->ok[x] && isfinite(l->value[x]);
            b->v[j] = ok ? l->value[x] : NAN;
            b->v[k + j] = ok ? l->spread[x] : NAN;
            b->v[2 * k + j] = ok && l->nsamp[x] > 0 ? (double)l->nsamp[x] : NAN;
        }
        clb_fleet_row fr;
        clb_fleet_compare(&in, fo, b->v + 3 * k, &fr, b->out);
        *not_judged += fr.outcome == CLB_FLEET_TOO_NOISY;
        const char *name = row >= 0 && (size_t)row < l->nrow_ids && l->row_name[row] ? l->row_name[row] : "?";
        clb_fleet_print_row(stdout, name, b->label, &in, &fr, b->out, fo);
        flags += fr.flags;
    }
    return flags;
}

static long fleet_store(const clb_store_latest *l, const clb_fleet_opts *fo)
{
    size_t n = l->ndev, flags = 0, kinds = 0, not_judged = 0;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    fleet_buf b = {malloc((4 * n + 1) * sizeof *b.v), malloc((n + 1) * sizeof *b.out),
                   malloc((n + 1) * sizeof *b.label)};
    long rc = -1;
    if (idx && b.v && b.out && b.label) {
        for (size_t i = 0; i < n; i++)
            idx[i] = i;
        sort_l = l;
        qsort(idx, n, sizeof *idx, cmp_kind);
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && strcmp(l->model[idx[i]], l->model[idx[j]]) == 0 &&
                            strcmp(l->driver[idx[i]], l->driver[idx[j]]) == 0;)
                j++;
            kinds++;
            clb_fleet_print_kind(stdout, j - i, l->model[idx[i]], l->driver[idx[i]]);
            if (j - i >= 2)
                flags += judge_kind(l, idx + i, j - i, fo, &b, &not_judged);
        }
        clb_fleet_print_summary(stdout, n, kinds, flags, not_judged);
        rc = (long)flags;
    }
    free(idx), free(b.v), free(b.out), free(b.label);
    return rc;
}

int cli_fleet_check_store(clb_store *s, const clb_fleet_opts *fo)
{
    clb_store_latest l;
    clb_diag d;
    int rc = CLI_EXIT_OK;
    if (clb_store_latest_runs(s, &l, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    else {
        long flags = fleet_store(&l, fo);
        if (flags < 0)
            fprintf(stderr, "clbench: fleet-check: out of memory\n");
        rc = flags < 0 ? CLI_EXIT_RUNTIME : flags > 0 ? CLI_EXIT_FAILED : CLI_EXIT_OK;
        clb_store_latest_free(&l);
    }
    return rc;
}

/* ---- store history --html ---- */

static void page(FILE *f, const char *key, const clb_store_series *sr, clb_store *s)
{
    cJSON *curve = cJSON_CreateObject(), *pts = cJSON_CreateArray();
    cJSON_AddStringToObject(curve, "x_name", "run");
    cJSON_AddStringToObject(curve, "x_unit", "");
    cJSON_AddStringToObject(curve, "y_name", sr->row_name);
    cJSON_AddStringToObject(curve, "y_unit", sr->unit);
    cJSON_AddBoolToObject(curve, "x_log", 0);
    for (size_t i = 0; i < sr->n; i++)
        if (isfinite(sr->value[i])) {
            cJSON *p = cJSON_CreateArray();
            cJSON_AddItemToArray(p, cJSON_CreateNumber((double)(i + 1)));
            cJSON_AddItemToArray(p, cJSON_CreateNumber(sr->value[i]));
            cJSON_AddItemToArray(pts, p);
        }
    cJSON_AddItemToObject(curve, "points", pts);
    cJSON_AddStringToObject(curve, "label", sr->row_name);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    html_puts(f, key), fputs(": ", f), html_puts(f, sr->row_name);
    fputs("</title>\n<style>body{font-family:sans-serif}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style></head>\n<body>\n<h1>", f);
    html_puts(f, key), fputs(": ", f), html_puts(f, sr->row_name);
    fputs("</h1>\n<p>Each point is one run's value (x: the run's place in the history, oldest first).</p>\n", f);
    clb_plot_series ps = {curve, sr->row_name};
    clb_svg_plot(f, &ps, 1, sr->row_name);
    fputs("\n<table>\n<tr><th>#</th><th>time</th><th>value</th><th>unit</th><th>cv %</th><th>n</th><th>status</th>"
          "<th>run</th></tr>\n", f);
    for (size_t i = 0; i < sr->n; i++) {
        char t[32], v[32], cv[32];
        cli_format_time(sr->time[i], t, sizeof t);
        rj_fmt(v, sizeof v, sr->value[i]);
        rj_fmt(cv, sizeof cv, 100 * sr->spread[i]);
        fprintf(f, "<tr><td>%zu</td><td>%s</td><td>%s</td><td>", i + 1, t, v);
        html_puts(f, sr->unit);
        fprintf(f, "</td><td>%s</td><td>%d</td><td>", cv, sr->nsamp[i]);
        html_puts(f, clb_store_status_name(s, sr->status[i]));
        fprintf(f, "</td><td>%lld</td></tr>\n", (long long)sr->run[i]);
    }
    fputs("</table>\n</body></html>\n", f);
    cJSON_Delete(curve);
}

int cli_store_history_html(const cli_opts *o, clb_store *s, const clb_store_series *sr)
{
    char *key = NULL;
    clb_diag d;
    /* The device's key by its id: one lookup (listing every device took 0.2 s at 10,000). */
    if (clb_store_device_key(s, sr->device, &key, &d) != CLB_OK)
        return cli_fail_diag(&d);
    int rc = CLI_EXIT_OK;
    if (strcmp(o->html, "-") == 0) {
        page(stdout, key, sr, s);
    } else {
        clb_output *out = NULL;
        FILE *f = NULL;
        if (clb_output_open(o->html, &out, &f, &d) == CLB_OK) {
            page(f, key, sr, s);
            clb_output_close(out, !ferror(f), &d);
        }
        rc = d.err == CLB_OK ? CLI_EXIT_OK : cli_fail_diag(&d);
    }
    free(key);
    return rc;
}
