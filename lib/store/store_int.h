/* What the store's files share: the handle, SQLite's errors as a clb_diag, transactions that
 * wait for other writers. */
#ifndef CLB_STORE_INT_H
#define CLB_STORE_INT_H

#include "core/grow.h"
#include "core/strtab.h"
#include "store/store.h"

#include <sqlite3.h>

/* "clbs": PRAGMA application_id of a clbench store (another SQLite file is refused). */
#define CLB_STORE_APP_ID 0x636c6273

struct clb_store {
    sqlite3 *db;
    char *path;
    char **status_names; /* code -> name, loaded on first use */
    int nstatus;
    char **row_names; /* row id -> name, loaded on first use (the export's holes) */
    size_t nrow_names;
    int64_t *row_by_name; /* row ids sorted by name (the migration's lookups) */
    size_t nrow_by_name;
};

/* CLB_ERR_IO "PATH: what: SQLite's message" (CLB_ERR_USAGE for a file that is not a database). */
clb_error clb_store_fail(clb_store *s, const char *what, clb_diag *d);
/* Runs sql (no results); CLB_OK or the failure. */
clb_error clb_store_exec(clb_store *s, const char *sql, clb_diag *d);
/* BEGIN IMMEDIATE, waiting (busy timeout, then retries) while another writer holds the store. */
clb_error clb_store_begin(clb_store *s, clb_diag *d);
/* COMMIT (retried while readers finish), or ROLLBACK when ok is 0; returns d->err or the failure. */
clb_error clb_store_end(clb_store *s, int ok, clb_diag *d);
/* A prepared statement; NULL with d set on failure. */
sqlite3_stmt *clb_store_prep(clb_store *s, const char *sql, clb_diag *d);

/* lib/store/store_pack.c: a JSON value as compact bytes and back, exactly (numbers as doubles):
 * a run's results. pack: caller frees, NULL when out of memory; unpack: NULL when damaged. */
unsigned char *clb_store_pack(const cJSON *v, size_t *len);
cJSON *clb_store_unpack(const void *b, size_t n);
/* SQL function clb_repack(results): the packed form of now, from any earlier (registered on open
 * for the migrations). */
void clb_store_repack_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* Schema 5: what the queries read of one result, kept per run in runs.points (store_points.c),
 * in the order of the run's counted results (the first of each name). value: NaN without a
 * number; spread: the cv, NaN unknown; n: the samples, -1 unknown. */
typedef struct clb_store_rec {
    int64_t row;
    int status, n;
    double value, spread;
} clb_store_rec;
/* The records as bytes (deflated when smaller); caller frees, NULL out of memory. */
unsigned char *clb_store_points_encode(const clb_store_rec *r, size_t n, size_t *len);
/* The records of a points blob into *out (caller frees; *out NULL when n is 0); 0 when damaged. */
int clb_store_points_decode(const void *b, size_t len, clb_store_rec **out, size_t *n);

/* Format 3 (schema 5): a run's results as format 2, but each counted result marked and its
 * members that the run's records hold (name, status, value, stats.median, stats.n, stats.cv)
 * written as holes when they equal what the record gives back. rec_of[i]: the record of
 * results element i, -1 none (rec_of NULL: no records). name_of and status_of: a row id's name,
 * a status code's name, what the export fills the holes with. */
unsigned char *clb_store_pack3(const cJSON *v, const clb_store_rec *recs, const long *rec_of,
                               const char *(*name_of)(void *, int64_t), const char *(*status_of)(void *, int),
                               void *arg, size_t *len);
cJSON *clb_store_unpack3(const void *b, size_t n, const clb_store_rec *recs, size_t nrec,
                         const char *(*name_of)(void *, int64_t), const char *(*status_of)(void *, int), void *arg);
/* SQL clb_points(results) and clb_repack(results, points): a format 2 run's records and its
 * format 3 blob (the migration to schema 5; user data: the store). */
void clb_store_points_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void clb_store_repack3_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv);
/* A run's records from its results array: the first result of each name counts (rj_ok_in's
 * rule); row_of gives a result's row id (-1 failure), code_of a status name's code (-1 failure).
 * *rec_of: per element of results, its record or -1 (caller frees both). 0 on failure. */
int clb_store_records(const cJSON *results, int64_t (*row_of)(void *, const cJSON *, const char *, size_t),
                      int64_t (*code_of)(void *, const char *), void *arg, clb_store_rec **recs, size_t *nrec,
                      long **rec_of);
/* The double m / 10^e that gives d back bit for bit: e (1..22), 0 when none (store_pack.c). */
int clb_store_decimal(double d, int64_t *m);
/* The name of row id (NULL when none), cached from the rows table on first use. */
const char *clb_store_row_name(clb_store *s, int64_t row);
/* name_of and status_of of the store (arg: the store): NULL for an id or code it has not. */
const char *clb_store_hole_name(void *arg, int64_t row);
const char *clb_store_hole_status(void *arg, int code);
/* The code of a status name, -1 when the store has none (from the statuses table). */
int clb_store_status_code(clb_store *s, const char *name);
/* A growing array of elements of size sz (the queries' results). */
typedef struct clb_store_vec {
    void *v;
    size_t n, cap, sz;
} clb_store_vec;
/* Room for one more element, zeroed and counted (freed with the rest if its filling fails);
 * NULL out of memory (store_query.c). */
void *clb_store_vec_add(clb_store_vec *a);
/* Every row of st through fill(st, out, arg), which appends what the row gives (0: out of
 * memory). On failure (what: for SQLite's message) the elements are released through drop
 * (NULL: the array only) and *out is NULL, *n 0; else *out and *n are the array. */
clb_error clb_store_collect(clb_store *s, sqlite3_stmt *st, size_t sz, void *out, size_t *n,
                            int (*fill)(sqlite3_stmt *, clb_store_vec *, void *), void *arg,
                            void (*drop)(void *, size_t), const char *what, clb_diag *d);

/* lib/store/store_scan.c: the devices array of a document's text, [*lo, *hi), and its entries
 * [span[2i], span[2i + 1]) for i < *nspan (span: caller frees), found without parsing; 0 when the
 * text is not one object with such an array (the caller parses it whole for the message). */
int clb_store_scan(const char *t, size_t n, size_t *lo, size_t *hi, size_t **span, size_t *nspan);

#endif
