/* What the store's files share: the handle, SQLite's errors as a clb_diag, transactions that
 * wait for other writers. */
#ifndef CLB_STORE_INT_H
#define CLB_STORE_INT_H

#include "store/store.h"

#include <sqlite3.h>

/* "clbs": PRAGMA application_id of a clbench store (another SQLite file is refused). */
#define CLB_STORE_APP_ID 0x636c6273

struct clb_store {
    sqlite3 *db;
    char *path;
    char **status_names; /* code -> name, loaded on first use */
    int nstatus;
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
/* Grows the array *(T **)p of elements of size sz to cap; 0 when out of memory (*p unchanged). */
int clb_store_grow(void *p, size_t sz, size_t cap);
/* Room for element n of the array *(T **)p, of *cap now (doubled when full); 0 out of memory. */
int clb_store_room(void *p, size_t sz, size_t n, size_t *cap);

/* lib/store/store_pack.c: a JSON value as compact bytes and back, exactly (numbers as doubles):
 * a run's results. pack: caller frees, NULL when out of memory; unpack: NULL when damaged. */
unsigned char *clb_store_pack(const cJSON *v, size_t *len);
cJSON *clb_store_unpack(const void *b, size_t n);
/* SQL function clb_repack(results): the packed form of now, from any earlier (registered on open
 * for the migrations). */
void clb_store_repack_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv);

/* lib/store/store_scan.c: the devices array of a document's text, [*lo, *hi), and its entries
 * [span[2i], span[2i + 1]) for i < *nspan (span: caller frees), found without parsing; 0 when the
 * text is not one object with such an array (the caller parses it whole for the message). */
int clb_store_scan(const char *t, size_t n, size_t *lo, size_t *hi, size_t **span, size_t *nspan);

#endif
