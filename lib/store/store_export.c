/* A stored document back out: its head and its entries rebuilt from their skeletons and the
 * interned members, printed as clb_doc_write prints (cJSON_Print and a newline). */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

/* The parsed JSON of blob id (NULL on failure). */
static cJSON *blob(clb_store *s, sqlite3_stmt *get, int64_t id)
{
    cJSON *v = NULL;
    sqlite3_bind_int64(get, 1, id);
    if (sqlite3_step(get) == SQLITE_ROW)
        v = cJSON_Parse((const char *)sqlite3_column_text(get, 0));
    sqlite3_reset(get);
    (void)s;
    return v;
}

/* The object of skeleton text sk with hole (the member of id 0) set to fill (taken). */
static cJSON *rebuild(clb_store *s, sqlite3_stmt *get, const char *sk, cJSON *fill)
{
    cJSON *pairs = cJSON_Parse(sk), *p, *o = cJSON_CreateObject();
    int ok = pairs && o;
    cJSON *walk = ok ? pairs : NULL;
    cJSON_ArrayForEach(p, walk)
    {
        const cJSON *k = cJSON_GetArrayItem(p, 0), *id = cJSON_GetArrayItem(p, 1);
        cJSON *v = NULL;
        if (cJSON_IsString(k) && cJSON_IsNumber(id))
            v = id->valuedouble == 0 ? fill : blob(s, get, (int64_t)id->valuedouble);
        if (v == fill)
            fill = NULL;
        if (!(ok = v != NULL))
            break;
        cJSON_AddItemToObject(o, k->valuestring, v);
    }
    cJSON_Delete(pairs);
    cJSON_Delete(fill);
    if (!ok)
        cJSON_Delete(o);
    return ok ? o : NULL;
}

/* A run's results member: format 3 (store_pack.c) with its holes filled from the run's records
 * (store_points.c), the statement's columns 1 and 2. */
static cJSON *run_results(clb_store *s, sqlite3_stmt *st)
{
    clb_store_rec *recs = NULL;
    size_t n = 0;
    const void *pts = sqlite3_column_blob(st, 2);
    if (!clb_store_points_decode(pts, (size_t)sqlite3_column_bytes(st, 2), &recs, &n))
        return NULL;
    cJSON *res = clb_store_unpack3(sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1), recs, n,
                                   clb_store_hole_name, clb_store_hole_status, s);
    free(recs);
    return res;
}

/* The device entries of document doc, in their order. */
static cJSON *entries(clb_store *s, sqlite3_stmt *get, int64_t doc, clb_diag *d)
{
    sqlite3_stmt *st = clb_store_prep(s, "SELECT entry, results, points FROM runs WHERE doc = ?1 ORDER BY pos", d);
    cJSON *devs = st ? cJSON_CreateArray() : NULL;
    int rc = SQLITE_ROW;
    if (st)
        sqlite3_bind_int64(st, 1, doc);
    while (devs && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *res = run_results(s, st);
        cJSON *e = res ? rebuild(s, get, (const char *)sqlite3_column_text(st, 0), res) : NULL;
        if (!e) {
            rc = SQLITE_CORRUPT;
            break;
        }
        cJSON_AddItemToArray(devs, e);
    }
    if (devs && rc != SQLITE_DONE) {
        clb_diag_set(d, CLB_ERR_IO, "%s: document %lld: a run cannot be rebuilt (damaged store?)", s->path, (long long)doc);
        cJSON_Delete(devs);
        devs = NULL;
    }
    sqlite3_finalize(st);
    return devs;
}

clb_error clb_store_export(clb_store *s, int64_t doc, char **text, size_t *len, clb_diag *d)
{
    clb_diag_clear(d);
    *text = NULL, *len = 0;
    sqlite3_stmt *head = clb_store_prep(s, "SELECT head FROM docs WHERE id = ?1", d);
    sqlite3_stmt *get = head ? clb_store_prep(s, "SELECT json FROM blobs WHERE id = ?1", d) : NULL;
    cJSON *out = NULL;
    if (get) {
        sqlite3_bind_int64(head, 1, doc);
        if (sqlite3_step(head) != SQLITE_ROW) {
            clb_diag_set(d, CLB_ERR_USAGE, "%s: no document %lld", s->path, (long long)doc);
        } else {
            cJSON *devs = entries(s, get, doc, d);
            out = devs ? rebuild(s, get, (const char *)sqlite3_column_text(head, 0), devs) : NULL;
            if (!out && d->err == CLB_OK)
                clb_diag_set(d, CLB_ERR_IO, "%s: document %lld cannot be rebuilt (damaged store?)", s->path, (long long)doc);
        }
    }
    char *printed = out ? cJSON_Print(out) : NULL;
    if (printed) {
        *len = strlen(printed);
        *text = realloc(printed, *len + 2);
        if (*text) {
            (*text)[(*len)++] = '\n';
            (*text)[*len] = '\0';
        } else {
            free(printed);
            clb_diag_set(d, CLB_ERR_NOMEM, "out of memory exporting a document");
        }
    } else if (out) {
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory exporting a document");
    }
    cJSON_Delete(out);
    sqlite3_finalize(get);
    sqlite3_finalize(head);
    return d->err;
}
