/* Opening the store: refusing what is not one, the schema and its migrations, and the
 * transactions every writer goes through (WAL, busy timeout, retries). */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Schema version 1 (docs/store.md, "Schema"). Documents and the large members of their device
 * entries are kept as interned JSON (blobs), so a document comes back byte for byte; results
 * hold one number per (run, row) for the queries. */
static const char schema_v1[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
    "CREATE TABLE blobs(id INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE, json TEXT NOT NULL);"
    "CREATE TABLE docs(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, bytes INTEGER NOT NULL,"
    " added INTEGER NOT NULL, time INTEGER NOT NULL, kind TEXT NOT NULL, head TEXT NOT NULL);"
    "CREATE TABLE devices(id INTEGER PRIMARY KEY, key TEXT NOT NULL, host TEXT NOT NULL,"
    " slot TEXT NOT NULL, model TEXT NOT NULL, variant TEXT NOT NULL, vendor TEXT NOT NULL,"
    " UNIQUE(host, slot, model, variant));"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, doc INTEGER NOT NULL, pos INTEGER NOT NULL,"
    " device INTEGER NOT NULL, time INTEGER NOT NULL, driver TEXT NOT NULL, tool_version TEXT NOT NULL,"
    " entry TEXT NOT NULL, results TEXT NOT NULL, UNIQUE(doc, pos));"
    "CREATE INDEX runs_device ON runs(device, time);"
    "CREATE TABLE rows(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL,"
    " better INTEGER NOT NULL);"
    "CREATE TABLE statuses(code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
    "CREATE TABLE results(run INTEGER NOT NULL, row INTEGER NOT NULL, status INTEGER NOT NULL,"
    " value REAL, spread REAL, n INTEGER, PRIMARY KEY(run, row)) WITHOUT ROWID;"
    "PRAGMA application_id = 1668047475;"; /* CLB_STORE_APP_ID */

/* Version 2: where each document was added from (the file named to store add, "this run"). */
static const char schema_v2[] = "ALTER TABLE docs ADD COLUMN source TEXT NOT NULL DEFAULT ''";

/* Version 3: what names a card beyond its slot (CL_DEVICE_UUID_KHR, the PCI address), for fleet
 * checks that must not compare a device with itself; filled for devices seen from now on. */
static const char schema_v3[] = "ALTER TABLE devices ADD COLUMN uuid TEXT NOT NULL DEFAULT '';"
                                "ALTER TABLE devices ADD COLUMN pci TEXT NOT NULL DEFAULT ''";

/* The migrations, in order: step i brings a store of version i to version i + 1, in one
 * transaction with the version's update. A new schema is one more step (and a fixture of the
 * previous version in tests/data/store-vN.sql, which cli_store_migrate opens). */
/* Version 4: each run's results in the packed format 2 (store_pack.c: objects of a known key
 * list without their keys, doubles as short decimals or references to one just written), about
 * half the bytes of format 1; every run is repacked. */
static const char schema_v4[] = "UPDATE runs SET results = clb_repack(results)";

/* Version 5: what the queries read of each run's results in the run's row (runs.points, its
 * records: row, status, value, cv, n, store_points.c) instead of a row per result, and the results
 * in format 3, without what the records hold (store_pack.c); nres counts the records. */
static const char schema_v5[] = "ALTER TABLE runs ADD COLUMN points BLOB;"
                                "ALTER TABLE runs ADD COLUMN nres INTEGER NOT NULL DEFAULT 0;"
                                "UPDATE runs SET points = clb_points(results), results = clb_repack3(results),"
                                " nres = (SELECT count(*) FROM results WHERE run = runs.id);"
                                "DROP TABLE results";

static const char *const steps[] = {schema_v1, schema_v2, schema_v3, schema_v4, schema_v5};
#define NSTEPS (int)(sizeof steps / sizeof steps[0])
_Static_assert(sizeof steps / sizeof steps[0] == CLB_STORE_SCHEMA, "one migration step per version");

clb_error clb_store_fail(clb_store *s, const char *what, clb_diag *d)
{
    int code = sqlite3_errcode(s->db);
    clb_error e = code == SQLITE_NOTADB ? CLB_ERR_USAGE : CLB_ERR_IO;
    return clb_diag_set(d, e, "%s: %s: %s%s", s->path, what, sqlite3_errmsg(s->db),
                        code == SQLITE_NOTADB ? " (not a clbench store)" : "");
}

clb_error clb_store_exec(clb_store *s, const char *sql, clb_diag *d)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return clb_store_fail(s, sql, d);
    return CLB_OK;
}

sqlite3_stmt *clb_store_prep(clb_store *s, const char *sql, clb_diag *d)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        clb_store_fail(s, "preparing a query", d);
        return NULL;
    }
    return st;
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* sql retried while SQLite answers BUSY or LOCKED (its busy handler waits up to BUSY_MS first;
 * some answers, such as a recovery in progress, come without waiting): writers queue here, for at
 * most RETRY_S in all. */
#define BUSY_MS 10000
#define RETRY_S 60.0
static int exec_retry(clb_store *s, const char *sql)
{
    double until = now_s() + RETRY_S;
    int rc;
    while ((rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL)) == SQLITE_BUSY || rc == SQLITE_LOCKED) {
        if (now_s() > until)
            break;
        nap_ms(5 + (long)(rand() % 20));
    }
    return rc;
}

clb_error clb_store_begin(clb_store *s, clb_diag *d)
{
    return exec_retry(s, "BEGIN IMMEDIATE") == SQLITE_OK ? CLB_OK : clb_store_fail(s, "BEGIN", d);
}

clb_error clb_store_end(clb_store *s, int ok, clb_diag *d)
{
    if (ok && exec_retry(s, "COMMIT") == SQLITE_OK)
        return CLB_OK;
    clb_error e = ok ? clb_store_fail(s, "COMMIT", d) : d->err;
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return e;
}

/* One integer from sql (-1 when it yields no row or fails). */
static long long one_int(clb_store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* The store's schema version: 0 for an empty database; -1 with d set when it is not a store
 * (not SQLite, another application's database, no version). */
static int read_version(clb_store *s, clb_diag *d)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        clb_store_fail(s, "reading the schema", d);
        d->err = CLB_ERR_USAGE; /* not a database SQLite can read: refused, untouched */
        sqlite3_finalize(st);
        return -1;
    }
    long long tables = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    long long app = one_int(s, "PRAGMA application_id");
    if (tables == 0 && app == 0)
        return 0;
    long long v = app == CLB_STORE_APP_ID ? one_int(s, "SELECT value FROM meta WHERE key = 'schema_version'") : -1;
    if (v < 1) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: an SQLite database that is not a clbench store (application id %#llx); not touched",
                     s->path, app);
        return -1;
    }
    return (int)v;
}

/* Brings the store from its version to CLB_STORE_SCHEMA, one transaction per step; the version
 * is read again inside each, so concurrent openers migrate once. */
static clb_error migrate(clb_store *s, clb_diag *d)
{
    for (;;) {
        if (clb_store_begin(s, d) != CLB_OK)
            return d->err;
        int v = read_version(s, d);
        if (v < 0 || v >= NSTEPS) {
            clb_store_end(s, 0, d);
            if (v > NSTEPS)
                return clb_diag_set(d, CLB_ERR_USAGE, "%s: store schema version %d is newer than this clbench's %d; not touched",
                                    s->path, v, NSTEPS);
            return v < 0 ? d->err : CLB_OK;
        }
        char set[128];
        snprintf(set, sizeof set, "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', %d)", v + 1);
        int ok = clb_store_exec(s, steps[v], d) == CLB_OK && clb_store_exec(s, set, d) == CLB_OK;
        if (clb_store_end(s, ok, d) != CLB_OK)
            return d->err;
    }
}

int clb_store_schema_version(clb_store *s)
{
    clb_diag d;
    return read_version(s, &d);
}

/* Checks what the file is before anything is written to it (WAL mode rewrites the header). */
static clb_error check_then_configure(clb_store *s, clb_diag *d)
{
    sqlite3_busy_timeout(s->db, BUSY_MS);
    int v = read_version(s, d);
    if (v < 0)
        return d->err;
    if (v > NSTEPS)
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: store schema version %d is newer than this clbench's %d; not touched",
                            s->path, v, NSTEPS);
    /* a new store: 2 KiB pages (a run's deflated results, some 7 KB, waste less of their last
     * overflow page than with 4 KiB: 36 B per result in runs, not 41; the file's page size is
     * fixed once it has a table) */
    if (v == 0 && clb_store_exec(s, "PRAGMA page_size=2048", d) != CLB_OK)
        return d->err;
    if (exec_retry(s, "PRAGMA journal_mode=WAL") != SQLITE_OK)
        return clb_store_fail(s, "setting WAL mode", d);
    if (clb_store_exec(s, "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536", d) != CLB_OK)
        return d->err;
    return v < NSTEPS ? migrate(s, d) : CLB_OK;
}

clb_error clb_store_open(const char *path, int create, clb_store **out, clb_diag *d)
{
    clb_diag_clear(d);
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0 && !create)
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: no store there (clbench store add creates it)", path);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: not a regular file; not a store", path);
    clb_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory opening the store");
    }
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "clb_repack", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, clb_store_repack_sql,
                                NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "clb_points", 1, SQLITE_UTF8, s, clb_store_points_sql, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "clb_repack3", 1, SQLITE_UTF8, s, clb_store_repack3_sql, NULL, NULL) !=
            SQLITE_OK) {
        clb_store_fail(s, "opening", d);
    } else if (check_then_configure(s, d) == CLB_OK) {
        *out = s;
        return CLB_OK;
    }
    clb_store_close(s);
    return d->err;
}

void clb_store_close(clb_store *s)
{
    if (!s)
        return;
    sqlite3_close_v2(s->db);
    for (int i = 0; i < s->nstatus; i++)
        free(s->status_names[i]);
    free(s->status_names);
    for (size_t i = 0; i < s->nrow_names; i++)
        free(s->row_names[i]);
    free(s->row_names), free(s->row_by_name);
    free(s->path);
    free(s);
}
