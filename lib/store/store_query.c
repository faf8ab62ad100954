/* Reading the store back as plain arrays: devices, documents, one row's history, every
 * (device, row) series (the drift test, fleet checks and the site read these). */
#include "store/store_int.h"
#include "doc/doc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *dup_col(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return strdup(t ? (const char *)t : "");
}

void clb_store_devices_free(clb_store_device *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        free(v[i].key), free(v[i].model), free(v[i].vendor), free(v[i].driver);
        free(v[i].host), free(v[i].slot), free(v[i].variant), free(v[i].uuid), free(v[i].pci);
    }
    free(v);
}

void *clb_store_vec_add(clb_store_vec *a)
{
    if (!clb_grow(&a->v, a->sz, a->n, &a->cap))
        return NULL;
    void *el = (char *)a->v + a->n++ * a->sz;
    memset(el, 0, a->sz);
    return el;
}

clb_error clb_store_collect(clb_store *s, sqlite3_stmt *st, size_t sz, void *out, size_t *n,
                            int (*fill)(sqlite3_stmt *, clb_store_vec *, void *), void *arg,
                            void (*drop)(void *, size_t), const char *what, clb_diag *d)
{
    clb_store_vec a = {NULL, 0, 0, sz};
    int rc = SQLITE_DONE;
    while (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
        if (!fill(st, &a, arg)) {
            clb_diag_set(d, CLB_ERR_NOMEM, "%s: out of memory %s", s->path, what);
            break;
        }
    if (d->err == CLB_OK && st && rc != SQLITE_DONE)
        clb_store_fail(s, what, d);
    if (d->err != CLB_OK) {
        if (drop)
            drop(a.v, a.n);
        else
            free(a.v);
        a.v = NULL, a.n = 0;
    }
    *(void **)out = a.v;
    *n = a.n;
    return d->err;
}

size_t clb_store_device_index(const clb_store_device *v, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo].id == id ? lo : n;
}

/* One primary-key lookup (store history --html names its page by it), not the device list. */
clb_error clb_store_device_key(clb_store *s, int64_t id, char **key, clb_diag *d)
{
    clb_diag_clear(d);
    *key = NULL;
    sqlite3_stmt *st = clb_store_prep(s, "SELECT key FROM devices WHERE id = ?1", d);
    if (!st)
        return d->err;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (!(*key = dup_col(st, 0)))
            clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    } else if (rc == SQLITE_DONE) {
        clb_diag_set(d, CLB_ERR_USAGE, "no device %lld in the store (clbench store list)", (long long)id);
    } else {
        clb_store_fail(s, "reading a device's key", d);
    }
    sqlite3_finalize(st);
    return d->err;
}

static int fill_device(sqlite3_stmt *st, clb_store_vec *a, void *arg)
{
    clb_store_device *v = clb_store_vec_add(a);
    (void)arg;
    if (!v)
        return 0;
    v->id = sqlite3_column_int64(st, 0);
    v->key = dup_col(st, 1), v->model = dup_col(st, 2), v->vendor = dup_col(st, 3);
    v->host = dup_col(st, 4), v->slot = dup_col(st, 5), v->variant = dup_col(st, 6);
    v->runs = (size_t)sqlite3_column_int64(st, 7);
    v->last_run = sqlite3_column_int64(st, 8);
    v->driver = dup_col(st, 9);
    v->uuid = dup_col(st, 10), v->pci = dup_col(st, 11);
    return v->key && v->model && v->vendor && v->host && v->slot && v->variant && v->driver && v->uuid && v->pci;
}

static void drop_devices(void *v, size_t n)
{
    clb_store_devices_free(v, n);
}

clb_error clb_store_devices(clb_store *s, clb_store_device **out, size_t *n, clb_diag *d)
{
    static const char q[] =
        "SELECT d.id, d.key, d.model, d.vendor, d.host, d.slot, d.variant, count(r.id), max(r.time),"
        " (SELECT driver FROM runs WHERE device = d.id ORDER BY time DESC, id DESC LIMIT 1), d.uuid, d.pci"
        " FROM devices d LEFT JOIN runs r ON r.device = d.id GROUP BY d.id ORDER BY d.id";
    clb_diag_clear(d);
    *out = NULL, *n = 0;
    sqlite3_stmt *st = clb_store_prep(s, q, d);
    if (st)
        clb_store_collect(s, st, sizeof **out, out, n, fill_device, NULL, drop_devices, "listing devices", d);
    sqlite3_finalize(st);
    return d->err;
}

/* The ids of the devices matching what by sql (?1 = what) into id[0..5); how many matched. */
static size_t devices_where(clb_store *s, const char *sql, const char *what, int64_t id[5], char *names, size_t n,
                            clb_diag *d)
{
    sqlite3_stmt *st = clb_store_prep(s, sql, d);
    size_t hits = 0;
    if (st)
        sqlite3_bind_text(st, 1, what, -1, SQLITE_STATIC);
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        if (hits < 5)
            id[hits] = sqlite3_column_int64(st, 0);
        if (hits < 4 && names) {
            size_t used = strlen(names);
            snprintf(names + used, n - used, "%s%s (%s)", hits ? ", " : "", (const char *)sqlite3_column_text(st, 1),
                     (const char *)sqlite3_column_text(st, 2));
        }
        hits++;
    }
    sqlite3_finalize(st);
    return hits;
}

clb_error clb_store_find_device(clb_store *s, const char *what, int64_t *id, clb_diag *d)
{
    static const char by_id[] = "SELECT id, key, model FROM devices WHERE id = CAST(?1 AS INTEGER) AND ?1 GLOB '[0-9]*'"
                                " AND CAST(CAST(?1 AS INTEGER) AS TEXT) = ?1";
    static const char by_key[] = "SELECT id, key, model FROM devices WHERE key = ?1 ORDER BY id";
    /* a case-insensitive part of the key or the model (ASCII, as SQLite's lower()) */
    static const char by_part[] = "SELECT id, key, model FROM devices WHERE instr(lower(key), lower(?1)) > 0"
                                  " OR instr(lower(model), lower(?1)) > 0 ORDER BY id";
    int64_t ids[5];
    char names[512] = "";
    size_t hits = 0;
    clb_diag_clear(d);
    *id = -1;
    if ((hits = devices_where(s, by_id, what, ids, NULL, 0, d)) == 0 && d->err == CLB_OK)
        hits = devices_where(s, by_key, what, ids, names, sizeof names, d);
    if (hits == 0 && d->err == CLB_OK)
        hits = devices_where(s, by_part, what, ids, names, sizeof names, d);
    if (d->err != CLB_OK)
        return d->err;
    if (hits == 1) {
        *id = ids[0];
        return CLB_OK;
    }
    if (hits > 1)
        return clb_diag_set(d, CLB_ERR_USAGE, "'%s' names %zu devices: %s%s; name one by its id or key", what, hits,
                            names, hits > 4 ? ", ..." : "");
    return clb_diag_set(d, CLB_ERR_USAGE, "no device '%s' in the store (clbench store list)", what);
}

void clb_store_series_free(clb_store_series *sr)
{
    free(sr->row_name), free(sr->unit), free(sr->time), free(sr->run);
    free(sr->value), free(sr->spread), free(sr->nsamp), free(sr->status);
    memset(sr, 0, sizeof *sr);
}

/* Appends the point of run (time, id) with record r. */
static int series_push(clb_store_series *sr, size_t *cap, int64_t time, int64_t run, const clb_store_rec *r)
{
    void *const arr[] = {&sr->time, &sr->run, &sr->value, &sr->spread, &sr->nsamp, &sr->status};
    const size_t sz[] = {sizeof *sr->time,   sizeof *sr->run,   sizeof *sr->value,
                         sizeof *sr->spread, sizeof *sr->nsamp, sizeof *sr->status};
    if (!clb_grow_all(arr, sz, 6, sr->n, cap))
        return 0;
    size_t i = sr->n++;
    sr->time[i] = time;
    sr->run[i] = run;
    sr->status[i] = r->status;
    sr->value[i] = r->value;
    sr->spread[i] = r->spread;
    sr->nsamp[i] = r->n < 0 ? 0 : r->n;
    return 1;
}

/* A device's runs, oldest first, with their records (store_points.c): what history and every
 * series read. */
static const char runs_q[] = "SELECT time, id, points FROM runs WHERE device = ?1 ORDER BY time, id";

/* The records of the run in st's row (columns 0, 1, 2 of runs_q); 0 when damaged. */
static int run_points(sqlite3_stmt *st, clb_store_rec **r, size_t *n)
{
    return clb_store_points_decode(sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2), r, n);
}

static const char row_q[] = "SELECT name, unit, better FROM rows WHERE id = ?1";

/* row's name, unit and better into sr, through q (row_q, prepared by the caller). */
static int series_row(sqlite3_stmt *q, int64_t row, clb_store_series *sr)
{
    sqlite3_bind_int64(q, 1, row);
    int ok = sqlite3_step(q) == SQLITE_ROW;
    if (ok) {
        free(sr->row_name), free(sr->unit);
        sr->row = row;
        sr->row_name = dup_col(q, 0), sr->unit = dup_col(q, 1);
        sr->better = sqlite3_column_int(q, 2);
    }
    sqlite3_reset(q);
    return ok;
}

clb_error clb_store_history(clb_store *s, int64_t device, const char *row, clb_store_series *out, clb_diag *d)
{
    clb_diag_clear(d);
    memset(out, 0, sizeof *out);
    out->device = device;
    sqlite3_stmt *st = clb_store_prep(s, "SELECT id FROM rows WHERE name = ?1", d);
    int64_t rid = -1;
    if (!st)
        return d->err;
    sqlite3_bind_text(st, 1, row, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        rid = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rid < 0) {
        out->row_name = strdup(row);
        return CLB_OK; /* no run of any device has the row */
    }
    sqlite3_stmt *rq = clb_store_prep(s, row_q, d);
    int ok = rq && series_row(rq, rid, out);
    sqlite3_finalize(rq);
    if (!ok || !(st = clb_store_prep(s, runs_q, d)))
        return d->err != CLB_OK ? d->err : clb_store_fail(s, "reading a row", d);
    sqlite3_bind_int64(st, 1, device);
    size_t cap = 0, n = 0;
    int rc;
    clb_store_rec *r = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!run_points(st, &r, &n)) {
            rc = SQLITE_CORRUPT;
            break;
        }
        size_t i = 0;
        while (i < n && r[i].row != rid)
            i++;
        int pushed = i == n || series_push(out, &cap, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), &r[i]);
        free(r);
        if (!pushed) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    if (rc == SQLITE_CORRUPT)
        clb_diag_set(d, CLB_ERR_IO, "%s: a run's records cannot be read (damaged store?)", s->path);
    else if (rc != SQLITE_DONE)
        clb_store_fail(s, "reading a history", d);
    sqlite3_finalize(st);
    return d->err;
}

/* One point of a device: its run, its record, and where it goes (its row's rank by name, then
 * its run's place in time order). */
typedef struct point {
    int64_t time, run;
    clb_store_rec rec;
    size_t rank, seq;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Every walk's state: the rows' ranks by name (index: row id), the device's points. */
typedef struct walk {
    size_t *rank, nrank;
    clb_store_vec pts;
} walk;

/* The points of the device bound to st (runs_q), each row's in time order, rows by name. */
static int device_points(sqlite3_stmt *st, walk *w)
{
    int rc;
    w->pts.n = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        clb_store_rec *r = NULL;
        size_t n = 0, seq = w->pts.n;
        if (!run_points(st, &r, &n)) {
            sqlite3_reset(st);
            return SQLITE_CORRUPT;
        }
        for (size_t i = 0; i < n; i++) {
            point *p = clb_store_vec_add(&w->pts);
            if (!p) {
                free(r);
                sqlite3_reset(st);
                return SQLITE_NOMEM;
            }
            *p = (point){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), r[i],
                         r[i].row >= 0 && (size_t)r[i].row < w->nrank ? w->rank[r[i].row] : w->nrank, seq};
        }
        free(r);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE && w->pts.n)
        qsort(w->pts.v, w->pts.n, sizeof(point), cmp_point);
    return rc;
}

/* The series of one device through fn; the nonzero value of fn that stopped, else 0. */
static int each_of_device(clb_store *s, sqlite3_stmt *st, sqlite3_stmt *rq, int64_t dev, walk *w,
                          clb_store_series *sr, size_t *cap, clb_store_series_fn fn, void *arg, clb_diag *d)
{
    int stop = 0, rc;
    sqlite3_bind_int64(st, 1, dev);
    sr->device = dev;
    sr->n = 0;
    if ((rc = device_points(st, w)) != SQLITE_DONE) {
        if (rc == SQLITE_CORRUPT)
            clb_diag_set(d, CLB_ERR_IO, "%s: a run's records cannot be read (damaged store?)", s->path);
        else
            clb_store_fail(s, "reading the series", d);
        return 0;
    }
    const point *p = w->pts.v;
    for (size_t i = 0; i < w->pts.n && !stop; i++) {
        if (sr->n > 0 && p[i].rec.row != sr->row) {
            stop = fn(sr, arg);
            sr->n = 0;
        }
        if (stop)
            break;
        if (sr->n == 0 && !series_row(rq, p[i].rec.row, sr)) {
            clb_store_fail(s, "reading the series", d);
            return 0;
        }
        if (!series_push(sr, cap, p[i].time, p[i].run, &p[i].rec)) {
            clb_diag_set(d, CLB_ERR_NOMEM, "out of memory reading the series");
            return 0;
        }
    }
    if (!stop && sr->n > 0)
        stop = fn(sr, arg);
    sr->n = 0;
    return stop;
}

/* Each row id's rank in name order (the order of the series). */
static int row_ranks(clb_store *s, walk *w, clb_diag *d)
{
    sqlite3_stmt *st = clb_store_prep(s, "SELECT id FROM rows ORDER BY name", d);
    size_t k = 0;
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        if (id < 0 || id > 100000000)
            continue;
        if ((size_t)id >= w->nrank) {
            size_t n = w->nrank;
            if (!clb_grow(&w->rank, sizeof *w->rank, (size_t)id, &n)) {
                sqlite3_finalize(st);
                clb_diag_set(d, CLB_ERR_NOMEM, "out of memory reading the series");
                return 0;
            }
            for (size_t i = w->nrank; i < n; i++)
                w->rank[i] = SIZE_MAX;
            w->nrank = n;
        }
        w->rank[id] = k++;
    }
    sqlite3_finalize(st);
    return st != NULL;
}

clb_error clb_store_each_series(clb_store *s, int64_t device, clb_store_series_fn fn, void *arg, int *stopped,
                                clb_diag *d)
{
    clb_diag_clear(d);
    if (stopped)
        *stopped = 0;
    walk w = {.pts = {NULL, 0, 0, sizeof(point)}};
    sqlite3_stmt *devs = row_ranks(s, &w, d) ? clb_store_prep(s, "SELECT id FROM devices WHERE ?1 = 0 OR id = ?1 ORDER BY id", d) : NULL;
    sqlite3_stmt *st = devs ? clb_store_prep(s, runs_q, d) : NULL, *rq = st ? clb_store_prep(s, row_q, d) : NULL;
    clb_store_series sr = {0};
    size_t cap = 0;
    int stop = 0;
    if (rq)
        sqlite3_bind_int64(devs, 1, device);
    while (rq && !stop && d->err == CLB_OK && sqlite3_step(devs) == SQLITE_ROW)
        stop = each_of_device(s, st, rq, sqlite3_column_int64(devs, 0), &w, &sr, &cap, fn, arg, d);
    sqlite3_finalize(rq);
    sqlite3_finalize(st);
    sqlite3_finalize(devs);
    clb_store_series_free(&sr);
    free(w.rank), free(w.pts.v);
    if (stopped)
        *stopped = stop;
    return d->err;
}

static int fill_doc(sqlite3_stmt *st, clb_store_vec *a, void *arg)
{
    clb_store_doc *v = clb_store_vec_add(a);
    (void)arg;
    if (!v)
        return 0;
    v->id = sqlite3_column_int64(st, 0), v->added = sqlite3_column_int64(st, 1);
    v->time = sqlite3_column_int64(st, 2), v->bytes = sqlite3_column_int64(st, 3);
    snprintf(v->hash, sizeof v->hash, "%s", (const char *)sqlite3_column_text(st, 4));
    snprintf(v->kind, sizeof v->kind, "%s", (const char *)sqlite3_column_text(st, 5));
    v->runs = (size_t)sqlite3_column_int64(st, 6);
    snprintf(v->source, sizeof v->source, "%s", (const char *)sqlite3_column_text(st, 7));
    return 1;
}

clb_error clb_store_docs(clb_store *s, clb_store_doc **out, size_t *n, clb_diag *d)
{
    static const char q[] = "SELECT d.id, d.added, d.time, d.bytes, d.hash, d.kind,"
                            " (SELECT count(*) FROM runs WHERE doc = d.id), d.source FROM docs d ORDER BY d.id";
    clb_diag_clear(d);
    *out = NULL, *n = 0;
    sqlite3_stmt *st = clb_store_prep(s, q, d);
    if (st)
        clb_store_collect(s, st, sizeof **out, out, n, fill_doc, NULL, NULL, "listing documents", d);
    sqlite3_finalize(st);
    return d->err;
}

clb_error clb_store_find_doc(clb_store *s, const char *what, int64_t *id, clb_diag *d)
{
    clb_store_doc *v = NULL;
    size_t n = 0, hits = 0, len = strlen(what);
    char *end = NULL;
    long long want = strtoll(what, &end, 10);
    if (clb_store_docs(s, &v, &n, d) != CLB_OK)
        return d->err;
    *id = -1;
    for (size_t i = 0; i < n; i++) {
        if (*end == '\0' && end != what && len < 6 && v[i].id == want)
            *id = v[i].id, hits = 1;
        else if (len >= 6 && strncasecmp(v[i].hash, what, len) == 0 && hits++ == 0)
            *id = v[i].id;
    }
    free(v);
    if (hits == 1)
        return CLB_OK;
    *id = -1;
    if (hits)
        return clb_diag_set(d, CLB_ERR_USAGE, "'%s' names %zu documents; give more of the hash", what, hits);
    return clb_diag_set(d, CLB_ERR_USAGE, "no document '%s' in the store (clbench store docs)", what);
}
