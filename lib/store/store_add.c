/* Adding a document: its bytes' hash (adding twice changes nothing), then in one transaction
 * its head, one run per device entry, one result per (run, row). Statements are prepared once
 * per document and rows are interned in memory, for bulk adds of fleet documents. */
#define _DEFAULT_SOURCE /* timegm */
#include "store/store_int.h"
#include "doc/doc.h"

#include <math.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void clb_store_sha256_hex(const void *data, size_t n, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    static const char hex[] = "0123456789abcdef";
    EVP_Digest(data, n, md, &len, EVP_sha256(), NULL);
    for (unsigned i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[64] = '\0';
}

/* The statements of one add, prepared once. */
enum { Q_BLOB_GET, Q_BLOB_PUT, Q_DOC, Q_DEV_PUT, Q_DEV_GET, Q_DEV_IDS, Q_RUN, Q_ROW_PUT, Q_STATUS_PUT, NQ };
static const char *const sql[NQ] = {
    [Q_BLOB_GET] = "SELECT id FROM blobs WHERE hash = ?1",
    [Q_BLOB_PUT] = "INSERT INTO blobs(hash, json) VALUES(?1, ?2)",
    [Q_DOC] = "INSERT INTO docs(hash, bytes, added, time, kind, head, source) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [Q_DEV_PUT] = "INSERT OR IGNORE INTO devices(key, host, slot, model, variant, vendor) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [Q_DEV_GET] = "SELECT id FROM devices WHERE host = ?1 AND slot = ?2 AND model = ?3 AND variant = ?4",
    [Q_DEV_IDS] = "UPDATE devices SET uuid = ?2, pci = ?3 WHERE id = ?1 AND (uuid <> ?2 OR pci <> ?3)",
    [Q_RUN] = ("INSERT INTO runs(doc, pos, device, time, driver, tool_version, entry, results, points, nres)"
               " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
    [Q_ROW_PUT] = "INSERT INTO rows(name, unit, better) VALUES(?1, ?2, ?3)",
    [Q_STATUS_PUT] = "INSERT INTO statuses(code, name) VALUES(?1, ?2)",
};

/* A name and its id (rows, statuses), sorted by name for bsearch. */
typedef struct named_id {
    char *name;
    int64_t id;
} named_id;
typedef struct intern {
    named_id *v;
    size_t n, cap;
} intern;

/* The device entries: from the parsed tree, or streamed: parsed one at a time from their spans
 * in the text (clb_store_scan), so a fleet document never is one tree in memory. */
typedef struct entries {
    const cJSON *walk; /* the tree's next entry */
    const char *text;  /* streamed: the text and the entries' spans */
    const size_t *span;
    size_t n, i;
    cJSON *cur; /* the streamed entry in hand */
    int bad;    /* a streamed entry is not JSON: the document is refused */
} entries;

static const cJSON *next_entry(entries *e)
{
    if (!e->text) {
        const cJSON *v = e->walk;
        e->walk = v ? v->next : NULL;
        return v;
    }
    cJSON_Delete(e->cur);
    e->cur = NULL;
    if (e->i >= e->n)
        return NULL;
    const char *end = NULL;
    size_t lo = e->span[2 * e->i], hi = e->span[2 * e->i + 1];
    e->i++;
    e->cur = cJSON_ParseWithLengthOpts(e->text + lo, hi - lo, &end, 0);
    if (!e->cur || end != e->text + hi) {
        e->bad = 1;
        cJSON_Delete(e->cur);
        e->cur = NULL;
    }
    return e->cur;
}

typedef struct add_ctx {
    clb_store *s;
    sqlite3_stmt *q[NQ];
    intern rows, statuses;
    int64_t next_status;
    const cJSON *doc; /* streamed: its head, with no devices */
    entries ents;
    const char *name; /* where the document comes from */
    named_id *hint;   /* the previous entry's row at each position: fleets repeat the order */
    size_t nhint;
    const char **row_by_id; /* a row id's interned name (the holes of format 3) */
    size_t nrow_by_id;
    clb_diag *d;
} add_ctx;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named_id *)a)->name, ((const named_id *)b)->name);
}

static int64_t intern_find(const intern *t, const char *name)
{
    named_id key = {(char *)name, 0}, *hit = t->n ? bsearch(&key, t->v, t->n, sizeof *t->v, cmp_named) : NULL;
    return hit ? hit->id : -1;
}

static int intern_put(intern *t, const char *name, int64_t id)
{
    if (!clb_grow(&t->v, sizeof *t->v, t->n, &t->cap))
        return 0;
    char *copy = strdup(name);
    if (!copy)
        return 0;
    size_t i = t->n;
    while (i > 0 && strcmp(t->v[i - 1].name, name) > 0) /* insertion keeps it sorted */
        i--;
    memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof *t->v);
    t->v[i] = (named_id){copy, id};
    t->n++;
    return 1;
}

static void intern_free(intern *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].name);
    free(t->v);
}

/* Loads table (rows or statuses: id/code, name) into t. */
static int intern_load(add_ctx *c, intern *t, const char *q)
{
    sqlite3_stmt *st = clb_store_prep(c->s, q, c->d);
    int rc = SQLITE_ROW;
    while (st && (rc = sqlite3_step(st)) == SQLITE_ROW)
        if (!intern_put(t, (const char *)sqlite3_column_text(st, 1), sqlite3_column_int64(st, 0)))
            rc = SQLITE_NOMEM;
    sqlite3_finalize(st);
    return st && rc == SQLITE_DONE;
}

/* Files row id's name (interned, valid for the add) for name_of. */
static int row_name_put(add_ctx *c, int64_t id, const char *name)
{
    if (id < 0 || !clb_grow_zeroed(&c->row_by_id, sizeof *c->row_by_id, (size_t)id, &c->nrow_by_id))
        return 0;
    c->row_by_id[id] = name;
    return 1;
}

static int rows_by_id(add_ctx *c)
{
    for (size_t i = 0; i < c->rows.n; i++)
        if (!row_name_put(c, c->rows.v[i].id, c->rows.v[i].name))
            return 0;
    return 1;
}

/* The holes' names during an add (arg: the add). */
static const char *add_name_of(void *arg, int64_t row)
{
    const add_ctx *c = arg;
    return row >= 0 && (size_t)row < c->nrow_by_id ? c->row_by_id[row] : NULL;
}

static const char *add_status_of(void *arg, int code)
{
    const add_ctx *c = arg;
    for (size_t i = 0; i < c->statuses.n; i++)
        if (c->statuses.v[i].id == code)
            return c->statuses.v[i].name;
    return NULL;
}

/* Steps a prepared insert or lookup and resets it; the SQLite code. */
static int step_reset(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc;
}

/* The id of the JSON value v, interned by the hash of its unformatted text; -1 on failure. */
static int64_t blob_id(add_ctx *c, const cJSON *v)
{
    char *text = cJSON_PrintUnformatted(v), hex[65];
    int64_t id = -1;
    if (!text)
        return -1;
    clb_store_sha256_hex(text, strlen(text), hex);
    sqlite3_stmt *get = c->q[Q_BLOB_GET], *put = c->q[Q_BLOB_PUT];
    sqlite3_bind_blob(get, 1, hex, 32, SQLITE_STATIC); /* 128 bits of the hash: ample for dedup */
    if (sqlite3_step(get) == SQLITE_ROW)
        id = sqlite3_column_int64(get, 0);
    sqlite3_reset(get);
    if (id < 0) {
        sqlite3_bind_blob(put, 1, hex, 32, SQLITE_STATIC);
        sqlite3_bind_text(put, 2, text, -1, SQLITE_STATIC);
        if (step_reset(put) == SQLITE_DONE)
            id = sqlite3_last_insert_rowid(c->s->db);
    }
    free(text);
    return id;
}

/* The skeleton of object o: [[key, blob id], ...] in member order, hole (its key with id 0)
 * where the member named hole goes (the devices of a document, the results of an entry). */
static char *skeleton(add_ctx *c, const cJSON *o, const char *hole)
{
    cJSON *sk = cJSON_CreateArray(), *m;
    int ok = sk != NULL, holed = 0;
    cJSON_ArrayForEach(m, o)
    {
        int hole_here = !holed && m->string && strcmp(m->string, hole) == 0; /* the first: what readers see */
        int64_t id = hole_here ? 0 : blob_id(c, m);
        holed |= hole_here;
        cJSON *pair = cJSON_CreateArray();
        ok = ok && id >= 0 && pair && m->string;
        if (!ok) {
            cJSON_Delete(pair);
            break;
        }
        cJSON_AddItemToArray(pair, cJSON_CreateString(m->string));
        cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)id));
        cJSON_AddItemToArray(sk, pair);
    }
    char *text = ok ? cJSON_PrintUnformatted(sk) : NULL;
    cJSON_Delete(sk);
    return text;
}

/* Unix seconds of "YYYY-MM-DDTHH:MM:SSZ" (0 when absent or otherwise). */
static int64_t parse_date(const char *s)
{
    struct tm tm = {0};
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                     &tm.tm_sec) != 6)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (int64_t)timegm(&tm);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

/* The card's UUID (not all zero) and PCI address into the device's row (the newest entry's). */
static int device_ids(add_ctx *c, int64_t id, const cJSON *props)
{
    const char *uuid = rj_str(props, "CL_DEVICE_UUID_KHR");
    const cJSON *pci = rj_obj(props, "CL_DEVICE_PCI_BUS_INFO_KHR");
    double dom = 0, bus = -1, slot = -1, fn = 0;
    char addr[32] = "";
    if (uuid && strspn(uuid, "0-") == strlen(uuid))
        uuid = NULL; /* an all-zero UUID names nothing */
    if (pci) {
        rj_num(pci, "domain", &dom), rj_num(pci, "bus", &bus), rj_num(pci, "device", &slot);
        rj_num(pci, "function", &fn);
    } else {
        rj_num(props, "CL_DEVICE_PCI_DOMAIN_ID_NV", &dom), rj_num(props, "CL_DEVICE_PCI_BUS_ID_NV", &bus);
        rj_num(props, "CL_DEVICE_PCI_SLOT_ID_NV", &slot);
    }
    if (bus >= 0 && slot >= 0 && bus < 65536 && slot < 65536 && dom >= 0 && dom < 65536 && fn >= 0 && fn < 16)
        snprintf(addr, sizeof addr, "%04x:%02x:%02x.%x", (unsigned)dom, (unsigned)bus, (unsigned)slot, (unsigned)fn);
    sqlite3_stmt *q = c->q[Q_DEV_IDS];
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, or_empty(uuid), -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, addr, -1, SQLITE_STATIC);
    return step_reset(q) == SQLITE_DONE;
}

/* The device entry's device id, made when new: (host, slot, model, variant). */
static int64_t device_id(add_ctx *c, const cJSON *entry)
{
    const cJSON *props = rj_obj(entry, "device"), *sel = rj_obj(entry, "selection");
    const char *host = rj_str(entry, "node");
    if (!host)
        host = rj_str(rj_obj(rj_obj(c->doc, "provenance"), "host"), "hostname");
    const char *variant = rj_str(rj_obj(entry, "suite_column"), "variant");
    if (variant && strcmp(variant, "base") == 0)
        variant = NULL;
    double p = -1, dv = -1;
    rj_num(sel, "platform_index", &p);
    rj_num(sel, "device_index", &dv);
    char slot[64], key[512];
    snprintf(slot, sizeof slot, "%.0f:%.0f", p, dv);
    snprintf(key, sizeof key, "%s/%s%s%s", host ? host : "?", slot, variant ? "+" : "", or_empty(variant));
    const char *vals[6] = {key, host ? host : "?", slot, rj_device_name(entry), or_empty(variant),
                           or_empty(rj_str(props, "CL_DEVICE_VENDOR"))};
    sqlite3_stmt *put = c->q[Q_DEV_PUT], *get = c->q[Q_DEV_GET];
    for (int i = 0; i < 6; i++)
        sqlite3_bind_text(put, i + 1, vals[i], -1, SQLITE_STATIC);
    for (int i = 0; i < 4; i++)
        sqlite3_bind_text(get, i + 1, vals[i + 1], -1, SQLITE_STATIC);
    int64_t id = -1;
    if (step_reset(put) == SQLITE_DONE && sqlite3_step(get) == SQLITE_ROW)
        id = sqlite3_column_int64(get, 0);
    sqlite3_reset(get);
    return id >= 0 && device_ids(c, id, props) ? id : -1;
}

/* Remembers that position pos held the row name (the interned copy, valid for the add). */
static void hint_set(add_ctx *c, size_t pos, const char *name)
{
    if (!clb_grow_zeroed(&c->hint, sizeof *c->hint, pos, &c->nhint))
        return;
    named_id key = {(char *)name, 0}, *hit = bsearch(&key, c->rows.v, c->rows.n, sizeof key, cmp_named);
    if (hit)
        c->hint[pos] = *hit;
}

/* The id of name in t, inserted (with the statement's extra columns bound) when new. */
static int64_t row_id(add_ctx *c, const cJSON *r, const char *name, size_t pos)
{
    if (pos < c->nhint && c->hint[pos].name && strcmp(c->hint[pos].name, name) == 0)
        return c->hint[pos].id;
    int64_t id = intern_find(&c->rows, name);
    if (id >= 0) {
        hint_set(c, pos, name);
        return id;
    }
    const char *better = rj_str(r, "better");
    sqlite3_stmt *put = c->q[Q_ROW_PUT];
    sqlite3_bind_text(put, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(put, 2, or_empty(rj_str(r, "unit")), -1, SQLITE_STATIC);
    sqlite3_bind_int(put, 3, !better ? 0 : strcmp(better, "higher") == 0 ? 1 : strcmp(better, "lower") == 0 ? -1 : 0);
    if (step_reset(put) != SQLITE_DONE)
        return -1;
    id = sqlite3_last_insert_rowid(c->s->db);
    if (!intern_put(&c->rows, name, id))
        return -1;
    hint_set(c, pos, name);
    named_id key = {(char *)name, 0}, *hit = bsearch(&key, c->rows.v, c->rows.n, sizeof key, cmp_named);
    return hit && row_name_put(c, id, hit->name) ? id : -1;
}

/* The code of a status name: the library's own names are clb_status, others from 64 on. */
static int64_t status_code(add_ctx *c, const char *name)
{
    int64_t code = intern_find(&c->statuses, name);
    if (code >= 0)
        return code;
    code = -1;
    for (int i = 0; i < CLB_STATUS_COUNT_ && code < 0; i++)
        if (strcmp(clb_status_name((clb_status)i), name) == 0)
            code = i;
    if (code < 0)
        code = c->next_status++;
    sqlite3_stmt *put = c->q[Q_STATUS_PUT];
    sqlite3_bind_int64(put, 1, code);
    sqlite3_bind_text(put, 2, name, -1, SQLITE_STATIC);
    if (step_reset(put) != SQLITE_DONE || !intern_put(&c->statuses, name, code))
        return -1;
    return code;
}

/* The records' lookups during an add: a result's row (made when new), a status's code. */
static int64_t add_row_of(void *arg, const cJSON *r, const char *name, size_t pos)
{
    return row_id(arg, r, name, pos);
}

static int64_t add_code_of(void *arg, const char *name)
{
    return status_code(arg, name);
}

/* One device entry at position pos of document doc: its run, with its records (what the queries
 * read) and its results in format 3 (the rest, for the export). */
static int add_entry(add_ctx *c, int64_t doc, int pos, const cJSON *entry, int64_t time, size_t *nres)
{
    const cJSON *results = rj_arr(entry, "results"), *member = cJSON_GetObjectItemCaseSensitive(entry, "results");
    if (!cJSON_IsObject(entry)) {
        clb_diag_set(c->d, CLB_ERR_USAGE, "%s: device entry %d is not an object", c->name, pos);
        return 0;
    }
    int64_t dev = device_id(c, entry);
    char *sk = dev >= 0 ? skeleton(c, entry, "results") : NULL;
    clb_store_rec *recs = NULL;
    long *rec_of = NULL;
    size_t nrec = 0, plen = 0, ptlen = 0;
    /* results is member when that is an array (the first "results": what readers see) */
    int ok = sk && (!results || clb_store_records(results, add_row_of, add_code_of, c, &recs, &nrec, &rec_of));
    cJSON *none = member ? NULL : cJSON_CreateNull();
    /* the member as it is, whatever it holds: the export gives it back */
    unsigned char *packed = ok ? clb_store_pack3(member ? member : none, recs, results ? rec_of : NULL, add_name_of,
                                                 add_status_of, c, &plen)
                               : NULL;
    unsigned char *points = packed ? clb_store_points_encode(recs, nrec, &ptlen) : NULL;
    cJSON_Delete(none);
    ok = points != NULL;
    sqlite3_stmt *q = c->q[Q_RUN];
    if (ok) {
        sqlite3_bind_int64(q, 1, doc);
        sqlite3_bind_int(q, 2, pos);
        sqlite3_bind_int64(q, 3, dev);
        sqlite3_bind_int64(q, 4, time);
        sqlite3_bind_text(q, 5, or_empty(rj_str(rj_obj(entry, "device"), "CL_DRIVER_VERSION")), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 6, or_empty(rj_str(rj_obj(c->doc, "provenance"), "tool_version")), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 7, sk, -1, SQLITE_STATIC);
        sqlite3_bind_blob(q, 8, packed, (int)plen, SQLITE_STATIC);
        sqlite3_bind_blob(q, 9, points, (int)ptlen, SQLITE_STATIC);
        sqlite3_bind_int64(q, 10, (int64_t)nrec);
        ok = step_reset(q) == SQLITE_DONE;
    }
    *nres += (size_t)cJSON_GetArraySize(results);
    free(sk), free(packed), free(points), free(recs), free(rec_of);
    return ok;
}

static const char *kind_of(const cJSON *doc, const cJSON *first)
{
    if (rj_obj(doc, "suite"))
        return "suite";
    return first && (rj_str(first, "node") || cJSON_GetObjectItemCaseSensitive(first, "rank")) ? "fleet" : "results";
}

/* The document's rows inside the open transaction. */
static int add_doc_rows(add_ctx *c, const char *hash, size_t len, clb_store_added *out)
{
    const char *date = rj_str(rj_obj(c->doc, "provenance"), "date");
    int64_t time_s = parse_date(date);
    char *head = skeleton(c, c->doc, "devices");
    const cJSON *e = next_entry(&c->ents);
    sqlite3_stmt *q = c->q[Q_DOC];
    int ok = head != NULL && !c->ents.bad;
    if (ok) {
        sqlite3_bind_text(q, 1, hash, 64, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, (int64_t)len);
        sqlite3_bind_int64(q, 3, (int64_t)time(NULL));
        sqlite3_bind_int64(q, 4, time_s);
        sqlite3_bind_text(q, 5, kind_of(c->doc, e), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 6, head, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 7, c->name, -1, SQLITE_STATIC);
        ok = step_reset(q) == SQLITE_DONE;
    }
    free(head);
    out->doc = sqlite3_last_insert_rowid(c->s->db);
    for (int pos = 0; ok && e; e = next_entry(&c->ents), pos++) {
        if (!(ok = add_entry(c, out->doc, pos, e, time_s, &out->results)))
            break;
        out->runs++;
    }
    return ok && !c->ents.bad;
}

/* The id of the document with this hash, or -1. */
static int64_t known_doc(clb_store *s, const char *hash)
{
    sqlite3_stmt *st = NULL;
    int64_t id = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT id FROM docs WHERE hash = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, hash, 64, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return id;
}

static int prepare_all(add_ctx *c)
{
    for (int i = 0; i < NQ; i++)
        if (!(c->q[i] = clb_store_prep(c->s, sql[i], c->d)))
            return 0;
    c->next_status = 64;
    int64_t top = -1;
    for (size_t i = 0; i < c->statuses.n; i++)
        top = c->statuses.v[i].id > top ? c->statuses.v[i].id : top;
    c->next_status = top >= 64 ? top + 1 : 64;
    return 1;
}

static void add_ctx_free(add_ctx *c)
{
    for (int i = 0; i < NQ; i++)
        sqlite3_finalize(c->q[i]);
    intern_free(&c->rows);
    intern_free(&c->statuses);
    free(c->hint);
    free(c->row_by_id);
}

/* The transaction: known again inside it (another writer may have added it meanwhile). doc:
 * the whole tree (ents empty), or the head of a streamed document (ents its entries). */
static clb_error add_parsed(clb_store *s, const cJSON *doc, entries ents, const char *name, const char *hex,
                            size_t len, clb_store_added *out, clb_diag *d)
{
    add_ctx c = {.s = s, .doc = doc, .ents = ents, .name = name, .d = d};
    if (!ents.text)
        c.ents.walk = rj_devices(doc) ? rj_devices(doc)->child : NULL;
    if (clb_store_begin(s, d) != CLB_OK)
        return d->err;
    int ok = 1;
    if ((out->doc = known_doc(s, hex)) >= 0) {
        out->known = 1;
    } else {
        ok = intern_load(&c, &c.rows, "SELECT id, name FROM rows") && rows_by_id(&c) &&
             intern_load(&c, &c.statuses, "SELECT code, name FROM statuses") && prepare_all(&c) &&
             add_doc_rows(&c, hex, len, out);
        if (!ok && d->err == CLB_OK && c.ents.bad)
            clb_diag_set(d, CLB_ERR_USAGE, "%s: a device entry is not JSON", name);
        else if (!ok && d->err == CLB_OK)
            clb_store_fail(s, "adding the document", d);
    }
    cJSON_Delete(c.ents.cur);
    add_ctx_free(&c);
    return clb_store_end(s, ok, d);
}

/* The whole text parsed by the one reader: its refusal (exit 2) names what is wrong. */
static clb_error add_whole(clb_store *s, const char *text, size_t len, const char *name, clb_store_added *out,
                           clb_diag *d)
{
    entries none = {0};
    clb_diag_clear(d);
    cJSON *doc = clb_doc_parse(text, len, name, d);
    if (!doc && d->err != CLB_ERR_NOMEM)
        d->err = CLB_ERR_USAGE; /* an unusable document, as for report: the store is untouched */
    if (!doc)
        return d->err;
    clb_error e = add_parsed(s, doc, none, name, out->hash, len, out, d);
    cJSON_Delete(doc);
    return e;
}

/* Streamed: the head (the text with an empty devices array) through the one reader, then the
 * entries one at a time. 0 when the text is not laid out for it (then add_whole). */
static int add_streamed(clb_store *s, const char *text, size_t len, const char *name, clb_store_added *out,
                        clb_diag *d, clb_error *e)
{
    size_t bom = clb_doc_skip_bom(text, len), lo, hi, *span = NULL, nspan = 0;
    if (!clb_store_scan(text + bom, len - bom, &lo, &hi, &span, &nspan))
        return 0;
    size_t hlen = len - (hi - lo) + 2;
    char *head = malloc(hlen);
    cJSON *doc = NULL;
    if (head) {
        memcpy(head, text, bom + lo);
        memcpy(head + bom + lo, "[]", 2);
        memcpy(head + bom + lo + 2, text + bom + hi, len - bom - hi);
        doc = clb_doc_parse(head, hlen, name, d);
    }
    int done = doc != NULL;
    if (doc) {
        entries ents = {.text = text + bom, .span = span, .n = nspan};
        *e = add_parsed(s, doc, ents, name, out->hash, len, out, d);
        done = *e != CLB_ERR_USAGE; /* a bad entry: the reader's message instead */
    }
    cJSON_Delete(doc);
    free(head);
    free(span);
    return done;
}

clb_error clb_store_add_bytes(clb_store *s, const char *text, size_t len, const char *name, clb_store_added *out,
                              clb_diag *d)
{
    clb_diag_clear(d);
    memset(out, 0, sizeof *out);
    out->doc = -1;
    clb_store_sha256_hex(text, len, out->hash);
    if ((out->doc = known_doc(s, out->hash)) >= 0) {
        out->known = 1; /* the bytes are there: no need to parse them */
        return CLB_OK;
    }
    clb_error e = CLB_OK;
    if (add_streamed(s, text, len, name, out, d, &e))
        return e;
    out->runs = out->results = 0;
    return add_whole(s, text, len, name, out, d);
}

clb_error clb_store_add_file(clb_store *s, const char *path, clb_store_added *out, clb_diag *d)
{
    char *text = NULL;
    size_t len = 0;
    clb_diag_clear(d);
    if (clb_doc_read_file(path, &text, &len, d) != CLB_OK)
        return d->err == CLB_ERR_NOMEM ? d->err : (d->err = CLB_ERR_USAGE);
    clb_error e = clb_store_add_bytes(s, text, len, path, out, d);
    free(text);
    return e;
}
