/* A run's records (what the queries read, schema 5) from its results, the names the format 3
 * holes stand for, and the migration of a format 2 run to its records and format 3. */
#include "store/store_int.h"
#include "doc/doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether row was seen in this run (an open-addressing set of row ids + 1, 2n slots). */
static int seen(int64_t *set, size_t nslot, int64_t row)
{
    size_t j = (size_t)((uint64_t)row * 0x9e3779b97f4a7c15ull >> 20) & (nslot - 1);
    for (; set[j]; j = (j + 1) & (nslot - 1))
        if (set[j] == row + 1)
            return 1;
    set[j] = row + 1;
    return 0;
}

static const char *or_empty_status(const cJSON *r)
{
    const char *s = rj_str(r, "status");
    return s ? s : "";
}

/* The record of result r (row and status code known). */
static clb_store_rec record(const cJSON *r, int64_t row, int64_t code)
{
    const cJSON *stats = rj_obj(r, "stats");
    double v, cv, n;
    clb_store_rec x = {row, (int)code, -1, NAN, NAN};
    if (rj_num(r, "value", &v))
        x.value = v;
    if (rj_num(stats, "cv", &cv) && cv >= 0)
        x.spread = cv;
    if (rj_num(stats, "n", &n) && n >= 0 && n < 2e9)
        x.n = (int)n;
    return x;
}

int clb_store_records(const cJSON *results, int64_t (*row_of)(void *, const cJSON *, const char *, size_t),
                      int64_t (*code_of)(void *, const char *), void *arg, clb_store_rec **recs, size_t *nrec,
                      long **rec_of)
{
    size_t n = (size_t)cJSON_GetArraySize(results), nslot = 16, i = 0;
    while (nslot < 2 * n)
        nslot *= 2;
    *recs = malloc((n ? n : 1) * sizeof **recs);
    *rec_of = malloc((n ? n : 1) * sizeof **rec_of);
    int64_t *set = calloc(nslot, sizeof *set);
    int ok = *recs && *rec_of && set;
    *nrec = 0;
    const cJSON *r, *walk = ok ? results : NULL;
    cJSON_ArrayForEach(r, walk)
    {
        const char *name = rj_str(r, "name");
        (*rec_of)[i] = -1;
        if (name) { /* a result without a name stays in the export; no row to file it under */
            int64_t row = row_of(arg, r, name, i), code = code_of(arg, or_empty_status(r));
            if (!(ok = row >= 0 && code >= 0))
                break;
            if (!seen(set, nslot, row)) {
                (*rec_of)[i] = (long)*nrec;
                (*recs)[(*nrec)++] = record(r, row, code);
            }
        }
        i++;
    }
    free(set);
    if (!ok) {
        free(*recs), free(*rec_of);
        *recs = NULL, *rec_of = NULL, *nrec = 0;
    }
    return ok;
}

static char *dup_status(sqlite3_stmt *st)
{
    const unsigned char *t = sqlite3_column_text(st, 1);
    return strdup(t ? (const char *)t : "");
}

static char *dup_status0(sqlite3_stmt *st)
{
    const unsigned char *t = sqlite3_column_text(st, 0);
    return strdup(t ? (const char *)t : "");
}

/* Loads every row's name by id, and the ids sorted by name. */
static int load_rows(clb_store *s)
{
    sqlite3_stmt *st = NULL;
    size_t n = 0;
    for (size_t i = 0; i < s->nrow_names; i++)
        free(s->row_names[i]);
    free(s->row_names), free(s->row_by_name);
    s->row_names = NULL, s->row_by_name = NULL, s->nrow_names = s->nrow_by_name = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT coalesce(max(id), 0) + 1, count(*) FROM rows", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return 0;
    }
    size_t cap = (size_t)sqlite3_column_int64(st, 0), cnt = (size_t)sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    s->row_names = calloc(cap, sizeof *s->row_names);
    s->row_by_name = malloc((cnt ? cnt : 1) * sizeof *s->row_by_name);
    if (!s->row_names || !s->row_by_name)
        return 0;
    s->nrow_names = cap;
    int ok = sqlite3_prepare_v2(s->db, "SELECT id, name FROM rows ORDER BY name", -1, &st, NULL) == SQLITE_OK;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        if (id < 0 || (size_t)id >= cap || n >= cnt || !name || !(s->row_names[id] = strdup(name)))
            ok = 0;
        else
            s->row_by_name[n++] = id;
    }
    sqlite3_finalize(st);
    s->nrow_by_name = n;
    return ok;
}

const char *clb_store_row_name(clb_store *s, int64_t row)
{
    for (int pass = 0; pass < 2; pass++) { /* loaded again once: rows added since */
        if (row >= 0 && (size_t)row < s->nrow_names && s->row_names[row])
            return s->row_names[row];
        if (!load_rows(s))
            break;
    }
    return NULL;
}

const char *clb_store_status_name(clb_store *s, int code)
{
    if (!s->status_names) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, "SELECT code, name FROM statuses", -1, &st, NULL) == SQLITE_OK)
            while (sqlite3_step(st) == SQLITE_ROW) {
                int c = sqlite3_column_int(st, 0);
                if (c < 0 || c > 100000)
                    continue;
                if (c >= s->nstatus) {
                    char **v = realloc(s->status_names, (size_t)(c + 1) * sizeof *v);
                    if (!v)
                        break;
                    memset(v + s->nstatus, 0, (size_t)(c + 1 - s->nstatus) * sizeof *v);
                    s->status_names = v, s->nstatus = c + 1;
                }
                free(s->status_names[c]);
                s->status_names[c] = dup_status(st);
            }
        sqlite3_finalize(st);
    }
    return code >= 0 && code < s->nstatus && s->status_names[code] ? s->status_names[code] : "?";
}

int clb_store_status_code(clb_store *s, const char *name)
{
    clb_store_status_name(s, 0); /* loads the table */
    for (int c = 0; c < s->nstatus; c++)
        if (s->status_names[c] && strcmp(s->status_names[c], name) == 0)
            return c;
    return -1;
}

/* The migration's lookups: the store's rows and statuses as they are (every name of a run was
 * interned when it was added). */
static int64_t row_known(void *arg, const cJSON *r, const char *name, size_t pos)
{
    clb_store *s = arg;
    (void)r, (void)pos;
    if (!s->row_by_name && !load_rows(s))
        return -1;
    size_t lo = 0, hi = s->nrow_by_name;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(s->row_names[s->row_by_name[mid]], name);
        if (c == 0)
            return s->row_by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int64_t code_known(void *arg, const char *name)
{
    return clb_store_status_code(arg, name);
}

static const char *name_of(void *arg, int64_t row)
{
    return clb_store_row_name(arg, row);
}

static const char *status_of(void *arg, int code)
{
    clb_store *s = arg;
    const char *n = clb_store_status_name(s, code);
    if (code >= 0 && code < s->nstatus && s->status_names[code])
        return n;
    /* a status added since the names were loaded: that code read now (the names handed out stay) */
    sqlite3_stmt *st = NULL;
    char *name = NULL;
    if (code >= 0 && code <= 100000 &&
        sqlite3_prepare_v2(s->db, "SELECT name FROM statuses WHERE code = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, code);
        if (sqlite3_step(st) == SQLITE_ROW)
            name = dup_status0(st);
    }
    sqlite3_finalize(st);
    if (name && code >= s->nstatus) {
        char **v = realloc(s->status_names, (size_t)(code + 1) * sizeof *v);
        if (v) {
            memset(v + s->nstatus, 0, (size_t)(code + 1 - s->nstatus) * sizeof *v);
            s->status_names = v, s->nstatus = code + 1;
        }
    }
    if (name && code < s->nstatus && !s->status_names[code])
        return s->status_names[code] = name;
    free(name);
    return NULL;
}

/* The records and the format 2 tree of a run (the SQL functions' argument); 0 when unreadable. */
static int run_records(sqlite3_context *ctx, sqlite3_value *v, cJSON **tree, clb_store_rec **recs, size_t *nrec,
                       long **rec_of)
{
    clb_store *s = sqlite3_user_data(ctx);
    *tree = sqlite3_value_type(v) == SQLITE_BLOB
                ? clb_store_unpack(sqlite3_value_blob(v), (size_t)sqlite3_value_bytes(v))
                : NULL;
    *recs = NULL, *rec_of = NULL, *nrec = 0;
    const cJSON *res = cJSON_IsArray(*tree) ? *tree : NULL;
    if (*tree && (!res || clb_store_records(res, row_known, code_known, s, recs, nrec, rec_of)))
        return 1;
    cJSON_Delete(*tree);
    sqlite3_result_error(ctx, "a run's results cannot be read (damaged store?)", -1);
    return 0;
}

/* The migration's two SQL functions: a stored run's records (points) or its results repacked
 * in format 3 (repack), from the run's old blob. */
static void run_blob_sql(sqlite3_context *ctx, sqlite3_value **argv, int repack)
{
    cJSON *tree;
    clb_store_rec *recs;
    long *rec_of;
    size_t n, len = 0;
    if (!run_records(ctx, argv[0], &tree, &recs, &n, &rec_of))
        return;
    unsigned char *b = repack ? clb_store_pack3(tree, recs, rec_of, name_of, status_of, sqlite3_user_data(ctx), &len)
                              : clb_store_points_encode(recs, n, &len);
    if (b)
        sqlite3_result_blob64(ctx, b, len, free);
    else
        sqlite3_result_error_nomem(ctx);
    cJSON_Delete(tree), free(recs), free(rec_of);
}

void clb_store_points_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    run_blob_sql(ctx, argv, 0);
}

void clb_store_repack3_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    run_blob_sql(ctx, argv, 1);
}

/* The export's and the add's names for the holes (arg: the store). */
const char *clb_store_hole_name(void *arg, int64_t row)
{
    return name_of(arg, row);
}

const char *clb_store_hole_status(void *arg, int code)
{
    return status_of(arg, code);
}
