/* The suite scores of the stored suite documents (the site's scores table): read from each
 * document's interned suite member, without rebuilding the document. */
#include "store/store_int.h"
#include "doc/doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_store_scores_free(clb_store_score *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i].host), free(v[i].model), free(v[i].variant), free(v[i].status), free(v[i].reason);
    free(v);
}

/* The parsed member key of a document whose head skeleton is sk (NULL when absent). */
static cJSON *member(sqlite3_stmt *get, const char *sk, const char *key)
{
    cJSON *pairs = cJSON_Parse(sk ? sk : ""), *p, *v = NULL;
    cJSON_ArrayForEach(p, pairs)
    {
        const cJSON *k = cJSON_GetArrayItem(p, 0), *id = cJSON_GetArrayItem(p, 1);
        if (!cJSON_IsString(k) || !cJSON_IsNumber(id) || strcmp(k->valuestring, key) != 0 || id->valuedouble == 0)
            continue;
        sqlite3_bind_int64(get, 1, (int64_t)id->valuedouble);
        if (sqlite3_step(get) == SQLITE_ROW)
            v = cJSON_Parse((const char *)sqlite3_column_text(get, 0));
        sqlite3_reset(get);
        break;
    }
    cJSON_Delete(pairs);
    return v;
}

static char *dup_or(const char *s, const char *dflt)
{
    return strdup(s ? s : dflt);
}

/* The device of doc's runs with this model and variant ("base" is the store's ""); its host into
 * *host (caller frees). 0 when none. */
static int64_t column_device(sqlite3_stmt *devs, int64_t doc, const char *model, const char *variant, char **host)
{
    int64_t id = 0;
    const char *v = strcmp(variant, "base") == 0 ? "" : variant;
    sqlite3_bind_int64(devs, 1, doc);
    sqlite3_bind_text(devs, 2, model, -1, SQLITE_STATIC);
    sqlite3_bind_text(devs, 3, v, -1, SQLITE_STATIC);
    if (sqlite3_step(devs) == SQLITE_ROW) {
        id = sqlite3_column_int64(devs, 0);
        *host = dup_or((const char *)sqlite3_column_text(devs, 1), "");
    }
    sqlite3_reset(devs);
    return id;
}

/* One column's score into o; 0 when out of memory. */
static int score_of(sqlite3_stmt *devs, int64_t doc, int64_t time, const cJSON *suite, const cJSON *col,
                    clb_store_score *o)
{
    const cJSON *sc = rj_obj(col, "score");
    const char *sys_host = rj_str(rj_obj(suite, "system"), "hostname");
    memset(o, 0, sizeof *o);
    o->doc = doc, o->time = time, o->peak = o->average = NAN;
    o->model = dup_or(rj_str(col, "device"), "");
    o->variant = dup_or(rj_str(col, "variant"), "base");
    o->status = dup_or(rj_str(sc, "status"), "void");
    o->reason = dup_or(rj_str(sc, "reason"), sc ? "" : "no score in the document");
    if (!o->model || !o->variant || !o->status || !o->reason)
        return 0;
    o->device = column_device(devs, doc, o->model, o->variant, &o->host);
    if (!o->host)
        o->host = dup_or(sys_host, "");
    double p, a;
    if (strcmp(o->status, "ok") == 0 && rj_num(sc, "peak", &p) && rj_num(sc, "average", &a))
        o->peak = p, o->average = a;
    else if (strcmp(o->status, "ok") == 0) { /* ok without its numbers shows none */
        free(o->status), free(o->reason);
        o->status = strdup("void"), o->reason = strdup("the score has no peak or average");
    }
    return o->host && o->status && o->reason;
}

/* The statements a suite document's row is read with. */
typedef struct suite_q {
    sqlite3_stmt *get, *devs;
} suite_q;

static void drop_scores(void *v, size_t n)
{
    clb_store_scores_free(v, n);
}

/* Appends the columns of the suite document in st's row (id, time, head); 0 when out of memory. */
static int fill_scores(sqlite3_stmt *st, clb_store_vec *out, void *arg)
{
    const suite_q *q = arg;
    int64_t doc = sqlite3_column_int64(st, 0), time = sqlite3_column_int64(st, 1);
    cJSON *suite = member(q->get, (const char *)sqlite3_column_text(st, 2), "suite");
    const cJSON *col;
    int ok = 1;
    cJSON_ArrayForEach(col, rj_arr(suite, "columns"))
    {
        clb_store_score *o = clb_store_vec_add(out); /* counted even when partly filled: freed with the rest */
        if (!(ok = o && score_of(q->devs, doc, time, suite, col, o)))
            break;
    }
    cJSON_Delete(suite);
    return ok;
}

clb_error clb_store_suite_scores(clb_store *s, clb_store_score **out, size_t *n, clb_diag *d)
{
    clb_diag_clear(d);
    *out = NULL, *n = 0;
    suite_q q = {NULL, NULL};
    sqlite3_stmt *docs = clb_store_prep(s, "SELECT id, time, head FROM docs WHERE kind = 'suite' ORDER BY id", d);
    q.get = docs ? clb_store_prep(s, "SELECT json FROM blobs WHERE id = ?1", d) : NULL;
    q.devs = q.get ? clb_store_prep(s,
                                    "SELECT v.id, v.host FROM runs r JOIN devices v ON v.id = r.device"
                                    " WHERE r.doc = ?1 AND v.model = ?2 AND v.variant = ?3 ORDER BY r.pos",
                                    d)
                   : NULL;
    if (q.devs)
        clb_store_collect(s, docs, sizeof **out, out, n, fill_scores, &q, drop_scores, "reading the suite documents", d);
    sqlite3_finalize(q.devs);
    sqlite3_finalize(q.get);
    sqlite3_finalize(docs);
    return d->err;
}
