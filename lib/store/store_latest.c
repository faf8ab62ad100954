/* The latest run of every device with its results, in one pass over the devices (fleet-check
 * --store): a run per device through the runs_device index, its results through the results
 * table's primary key, so 10,000 devices read 2 million results without walking every series. */
#include "store/store_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return strdup(t ? (const char *)t : "");
}

void clb_store_latest_free(clb_store_latest *l)
{
    for (size_t i = 0; i < l->ndev; i++)
        free(l->key[i]), free(l->model[i]), free(l->driver[i]);
    for (size_t i = 0; i < l->nrow_ids; i++)
        free(l->row_name[i]);
    free(l->device), free(l->run), free(l->time), free(l->key), free(l->model), free(l->driver);
    free(l->first), free(l->row), free(l->value), free(l->spread), free(l->nsamp), free(l->ok);
    free(l->row_name), free(l->row_better);
    memset(l, 0, sizeof *l);
}

static int devs_room(clb_store_latest *l, size_t *cap, size_t *fcap)
{
    void *const arr[] = {&l->device, &l->run, &l->time, &l->key, &l->model, &l->driver};
    const size_t sz[] = {sizeof *l->device, sizeof *l->run, sizeof *l->time, sizeof *l->key, sizeof *l->model,
                         sizeof *l->driver};
    return clb_grow_all(arr, sz, 6, l->ndev, cap) && clb_grow(&l->first, sizeof *l->first, l->ndev + 1, fcap);
}

static int res_room(clb_store_latest *l, size_t *cap)
{
    void *const arr[] = {&l->row, &l->value, &l->spread, &l->nsamp, &l->ok};
    const size_t sz[] = {sizeof *l->row, sizeof *l->value, sizeof *l->spread, sizeof *l->nsamp, sizeof *l->ok};
    return clb_grow_all(arr, sz, 5, l->nres, cap);
}

/* The rows' names and directions, indexed by row id. */
static clb_error load_rows(clb_store *s, clb_store_latest *l, clb_diag *d)
{
    sqlite3_stmt *st = clb_store_prep(s, "SELECT coalesce(max(id), -1) + 1 FROM rows", d);
    if (st && sqlite3_step(st) == SQLITE_ROW)
        l->nrow_ids = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (d->err != CLB_OK)
        return d->err;
    l->row_name = calloc(l->nrow_ids + 1, sizeof *l->row_name);
    l->row_better = calloc(l->nrow_ids + 1, sizeof *l->row_better);
    if (!l->row_name || !l->row_better)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    st = clb_store_prep(s, "SELECT id, name, better FROM rows", d);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        if (id >= 0 && (size_t)id < l->nrow_ids && !l->row_name[id]) {
            l->row_name[id] = dup_text(st, 1);
            l->row_better[id] = sqlite3_column_int(st, 2);
        }
    }
    sqlite3_finalize(st);
    return d->err;
}

static int cmp_rec_row(const void *a, const void *b)
{
    const clb_store_rec *x = a, *y = b;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The results of the run in st's row (its records, column 6) into l, in row id order. */
static int load_results(sqlite3_stmt *st, int ok_code, clb_store_latest *l, size_t *cap)
{
    clb_store_rec *r = NULL;
    size_t n = 0;
    if (!clb_store_points_decode(sqlite3_column_blob(st, 6), (size_t)sqlite3_column_bytes(st, 6), &r, &n))
        return 0;
    if (n > 1)
        qsort(r, n, sizeof *r, cmp_rec_row);
    for (size_t k = 0; k < n; k++) {
        if (!res_room(l, cap)) {
            free(r);
            return 0;
        }
        size_t i = l->nres++;
        l->row[i] = r[k].row;
        l->ok[i] = r[k].status == ok_code;
        l->value[i] = r[k].value;
        l->spread[i] = r[k].spread;
        l->nsamp[i] = r[k].n < 0 ? 0 : r[k].n;
    }
    free(r);
    return 1;
}

clb_error clb_store_latest_runs(clb_store *s, clb_store_latest *out, clb_diag *d)
{
    static const char dq[] =
        "SELECT d.id, d.key, d.model, r.id, r.time, r.driver, r.points FROM devices d JOIN runs r ON r.id ="
        " (SELECT id FROM runs WHERE device = d.id ORDER BY time DESC, id DESC LIMIT 1) ORDER BY d.id";
    clb_diag_clear(d);
    memset(out, 0, sizeof *out);
    int ok_code = -1;
    sqlite3_stmt *st = clb_store_prep(s, "SELECT code FROM statuses WHERE name = 'ok'", d);
    if (st && sqlite3_step(st) == SQLITE_ROW)
        ok_code = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (d->err != CLB_OK || load_rows(s, out, d) != CLB_OK)
        goto done;
    st = clb_store_prep(s, dq, d);
    size_t dcap = 0, fcap = 0, rcap = 0;
    int rc = SQLITE_ROW;
    while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!devs_room(out, &dcap, &fcap)) {
            clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
            break;
        }
        size_t i = out->ndev;
        out->device[i] = sqlite3_column_int64(st, 0);
        out->key[i] = dup_text(st, 1), out->model[i] = dup_text(st, 2);
        out->run[i] = sqlite3_column_int64(st, 3), out->time[i] = sqlite3_column_int64(st, 4);
        out->driver[i] = dup_text(st, 5);
        out->first[i] = out->nres;
        out->ndev++;
        if (!out->key[i] || !out->model[i] || !out->driver[i] || !load_results(st, ok_code, out, &rcap)) {
            clb_store_fail(s, "reading the latest runs", d);
            break;
        }
    }
    if (d->err == CLB_OK && st && rc != SQLITE_DONE)
        clb_store_fail(s, "reading the latest runs", d);
    if (out->first)
        out->first[out->ndev] = out->nres;
    sqlite3_finalize(st);
done:
    if (d->err != CLB_OK)
        clb_store_latest_free(out);
    return d->err;
}
