/* The results store (docs/store.md): every results, suite and fleet document kept in one SQLite
 * file, deduplicated by the SHA-256 of its bytes, decomposed into devices, runs (one per device
 * entry of a document) and results (one number per run and row), and reproducible byte for byte.
 * Above lib/doc (it reads documents through the capped reader), below judge and report, which
 * consume its plain arrays (the drift test, the site, fleet checks). The library reads no
 * environment: the caller names the file. */
#ifndef CLB_STORE_H
#define CLB_STORE_H

#include "clbench.h"

#include <stdint.h>
#include <stdio.h>

/* The schema version this code writes; older stores are migrated when opened. */
#define CLB_STORE_SCHEMA 5

typedef struct clb_store clb_store;

/* Opens the store at path (create: make it when absent, else a missing file is CLB_ERR_USAGE),
 * migrating an older schema in place, one transaction per step. Refused with CLB_ERR_USAGE and
 * the file untouched: a file that is not SQLite, an SQLite file of another application, a store
 * of a newer schema. CLB_ERR_IO for what SQLite cannot do (a locked store past the timeout, a
 * full disk). *out: caller frees with clb_store_close. */
clb_error clb_store_open(const char *path, int create, clb_store **out, clb_diag *d);
void clb_store_close(clb_store *s);
/* The schema version of the open store (CLB_STORE_SCHEMA once opened). */
int clb_store_schema_version(clb_store *s);

/* What one add did. known: the document was already in the store (nothing changed). */
typedef struct clb_store_added {
    int64_t doc;        /* the document's id */
    int known;
    size_t runs, results;
    char hash[65];      /* SHA-256 of the bytes, hex */
} clb_store_added;

/* Adds the document in text[0..len) (name for messages) in one transaction: idempotent by the
 * hash of its bytes. CLB_ERR_USAGE: not a results document (the reader's message); CLB_ERR_IO:
 * SQLite failed (retried while another writer holds the store). */
clb_error clb_store_add_bytes(clb_store *s, const char *text, size_t len, const char *name,
                              clb_store_added *out, clb_diag *d);
/* The same for a file, read through the capped reader (clb_doc_read_file). */
clb_error clb_store_add_file(clb_store *s, const char *path, clb_store_added *out, clb_diag *d);

/* One device: identity (host, slot, model, variant); key = "HOST/SLOT" (+ "+VARIANT"), what
 * people type. driver: of its newest run. last_run: unix seconds. uuid (CL_DEVICE_UUID_KHR when
 * not all zero) and pci ("DDDD:BB:DD.F", cl_khr_pci_bus_info or NVIDIA's attributes): "" when the
 * driver does not tell (or the device was stored before schema 3). Strings owned by the array. */
typedef struct clb_store_device {
    int64_t id;
    char *key, *model, *vendor, *driver, *host, *slot, *variant, *uuid, *pci;
    int64_t last_run;
    size_t runs;
} clb_store_device;
/* Every device in id order; caller frees with clb_store_devices_free. */
clb_error clb_store_devices(clb_store *s, clb_store_device **out, size_t *n, clb_diag *d);
void clb_store_devices_free(clb_store_device *v, size_t n);
/* The index of device id in v[0..n) (in id order, as clb_store_devices gives them); n when absent. */
size_t clb_store_device_index(const clb_store_device *v, size_t n, int64_t id);
/* The device named by what: its id, its key, or a case-insensitive substring of exactly one
 * device's key or model. CLB_ERR_USAGE naming the candidates when none or several match. */
clb_error clb_store_find_device(clb_store *s, const char *what, int64_t *id, clb_diag *d);

/* One (device, row) history, oldest run first, as plain arrays of n entries: time (unix
 * seconds), value (the result's median; NaN without a number), spread (its cv, relative; NaN
 * when unknown), nsamp (samples; 0 when unknown), status (a code: clb_status for the library's
 * names, clb_store_status_name for any code), run (the run's id). better: +1 higher, -1 lower,
 * 0 unknown. Owned by the series; clb_store_series_free releases them. */
typedef struct clb_store_series {
    int64_t device, row;
    char *row_name, *unit;
    int better;
    size_t n;
    int64_t *time, *run;
    double *value, *spread;
    int *nsamp, *status;
} clb_store_series;
/* The history of row on device; n = 0 when the device never ran it. */
clb_error clb_store_history(clb_store *s, int64_t device, const char *row, clb_store_series *out,
                            clb_diag *d);
void clb_store_series_free(clb_store_series *sr);
/* Calls fn for every (device, row) series of device (0: every device), devices in id order,
 * rows in name order; the series is valid during the call. fn returning nonzero stops (that
 * value is returned in *stopped when stopped is not NULL). */
typedef int (*clb_store_series_fn)(const clb_store_series *sr, void *arg);
clb_error clb_store_each_series(clb_store *s, int64_t device, clb_store_series_fn fn, void *arg,
                                int *stopped, clb_diag *d);
/* The name of a status code ("ok", ..., or a document's own status text); "?" when unknown. */
const char *clb_store_status_name(clb_store *s, int code);

/* One stored document. */
typedef struct clb_store_doc {
    int64_t id, added, time; /* unix seconds: when added, its provenance date */
    int64_t bytes;           /* of the file as added */
    size_t runs;
    char hash[65];
    char kind[16];           /* "results", "suite", "fleet" */
    char source[256];        /* where it was added from (since schema 2; "" before) */
} clb_store_doc;
/* Every document in id order; caller frees *out with free. */
clb_error clb_store_docs(clb_store *s, clb_store_doc **out, size_t *n, clb_diag *d);
/* The document id named by what: its id or a prefix (>= 6 hex digits) of its hash. */
clb_error clb_store_find_doc(clb_store *s, const char *what, int64_t *id, clb_diag *d);
/* Document doc as the schema's canonical text (cJSON_Print and a newline, what clb_doc_write
 * writes): the bytes of a document clbench wrote. *text: caller frees. */
clb_error clb_store_export(clb_store *s, int64_t doc, char **text, size_t *len, clb_diag *d);

/* SHA-256 of data[0..n) as 64 hex digits and a NUL. */
void clb_store_sha256_hex(const void *data, size_t n, char out[65]);

/* The latest run of every device with its results (what fleet-check --store compares), read in
 * one pass: devices in id order, each with its newest run (by time, then id) and that run's
 * results in row id order, as plain arrays. Device i's results are [first[i], first[i + 1]).
 * Rows are named by row id through row_name/row_better (index = row id; NULL names for ids no
 * row has). value: the result's number (NaN without one), spread: its cv (NaN unknown), nsamp:
 * its samples (0 unknown), ok: its status is "ok". Everything owned by the struct. */
typedef struct clb_store_latest {
    size_t ndev;
    int64_t *device, *run, *time;
    char **key, **model, **driver;
    size_t *first;  /* ndev + 1 */
    size_t nres;
    int64_t *row;
    double *value, *spread;
    int *nsamp, *ok;
    size_t nrow_ids; /* max row id + 1 */
    char **row_name;
    int *row_better;
} clb_store_latest;
clb_error clb_store_latest_runs(clb_store *s, clb_store_latest *out, clb_diag *d);
void clb_store_latest_free(clb_store_latest *l);
/* One suite score of a stored suite document: a column (device, variant) of its top-level suite
 * object (docs/suite.md). device: the store's device of the column (its run in that document of
 * the same model and variant; 0 when none). host: that device's host, else the suite's
 * system.hostname. status "ok" with peak and average (harmonic means of the reference ratios),
 * else "void" (or the document's text) with reason and NaN scores. time: the document's date. */
typedef struct clb_store_score {
    int64_t doc, time, device;
    char *host, *model, *variant, *status, *reason;
    double peak, average;
} clb_store_score;
/* Every column's score of every suite document, documents in id order; caller frees with
 * clb_store_scores_free. */
clb_error clb_store_suite_scores(clb_store *s, clb_store_score **out, size_t *n, clb_diag *d);
void clb_store_scores_free(clb_store_score *v, size_t n);

/* The key of device id (lib/store/store_query.c): one lookup, not the whole device list.
 * *key: caller frees. CLB_ERR_USAGE when no device has that id. */
clb_error clb_store_device_key(clb_store *s, int64_t id, char **key, clb_diag *d);

#endif
