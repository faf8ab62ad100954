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

static int devs_grow(clb_store_latest *l, size_t cap)
{
    return clb_store_grow(&l->device, sizeof *l->device, cap) && clb_store_grow(&l->run, sizeof *l->run, cap) &&
           clb_store_grow(&l->time, sizeof *l->time, cap) && clb_store_grow(&l->key, sizeof *l->key, cap) &&
           clb_store_grow(&l->model, sizeof *l->model, cap) && clb_store_grow(&l->driver, sizeof *l->driver, cap) &&
           clb_store_grow(&l->first, sizeof *l->first, cap + 1);
}

static int res_grow(clb_store_latest *l, size_t cap)
{
    return clb_store_grow(&l->row, sizeof *l->row, cap) && clb_store_grow(&l->value, sizeof *l->value, cap) &&
           clb_store_grow(&l->spread, sizeof *l->spread, cap) && clb_store_grow(&l->nsamp, sizeof *l->nsamp, cap) &&
           clb_store_grow(&l->ok, sizeof *l->ok, cap);
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

/* The results of run into l (appended). */
static int load_results(sqlite3_stmt *st, int64_t run, int ok_code, clb_store_latest *l, size_t *cap)
{
    int rc;
    sqlite3_bind_int64(st, 1, run);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (l->nres == *cap && !res_grow(l, *cap = *cap ? 2 * *cap : 4096))
            break;
        size_t i = l->nres++;
        l->row[i] = sqlite3_column_int64(st, 0);
        l->ok[i] = sqlite3_column_int(st, 1) == ok_code;
        l->value[i] = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2);
        l->spread[i] = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);
        l->nsamp[i] = sqlite3_column_int(st, 4);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

clb_error clb_store_latest_runs(clb_store *s, clb_store_latest *out, clb_diag *d)
{
    static const char dq[] =
        "SELECT d.id, d.key, d.model, r.id, r.time, r.driver FROM devices d JOIN runs r ON r.id ="
        " (SELECT id FROM runs WHERE device = d.id ORDER BY time DESC, id DESC LIMIT 1) ORDER BY d.id";
    static const char rq[] = "SELECT row, status, value, spread, n FROM results WHERE run = ?1 ORDER BY row";
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
    sqlite3_stmt *res = st ? clb_store_prep(s, rq, d) : NULL;
    size_t dcap = 0, rcap = 0;
    int rc = SQLITE_ROW;
    while (res && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (out->ndev == dcap && !devs_grow(out, dcap = dcap ? 2 * dcap : 256)) {
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
        if (!out->key[i] || !out->model[i] || !out->driver[i] || !load_results(res, out->run[i], ok_code, out, &rcap)) {
            clb_store_fail(s, "reading the latest runs", d);
            break;
        }
    }
    if (d->err == CLB_OK && res && rc != SQLITE_DONE)
        clb_store_fail(s, "reading the latest runs", d);
    if (out->first)
        out->first[out->ndev] = out->nres;
    sqlite3_finalize(res);
    sqlite3_finalize(st);
done:
    if (d->err != CLB_OK)
        clb_store_latest_free(out);
    return d->err;
}
