/* A JSON value in a compact binary form for the store (a run's results): what a document said,
 * exactly (numbers as their IEEE doubles, so cJSON prints them back the same), in a third of
 * the bytes of its text and without printing a number. Keys and strings repeat within a run
 * (name, status, unit, ...): each is written once and referred to by its index after that.
 *
 * value  := NULL | FALSE | TRUE | INT varint(zigzag) | REAL 8 bytes (little-endian double)
 *         | STR string | ARR varint(n) value*n | OBJ varint(n) (string value)*n
 * string := varint(0) varint(len) bytes   (new: takes the next index)
 *         | varint(i + 1)                 (the i-th string written before) */
#include "store/store_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { T_NULL, T_FALSE, T_TRUE, T_INT, T_REAL, T_STR, T_ARR, T_OBJ };

/* Strings already written, by an open-addressing hash of their bytes. */
typedef struct pack {
    unsigned char *b;
    size_t n, cap;
    const char **str; /* index -> string (borrowed from the tree) */
    size_t nstr, capstr;
    uint32_t *slot; /* hash table: index + 1, 0 empty */
    size_t nslot;
    int oom;
} pack;

static void put(pack *p, const void *src, size_t k)
{
    if (p->oom)
        return;
    if (p->n + k > p->cap) {
        size_t cap = p->cap ? p->cap : 4096;
        while (cap < p->n + k)
            cap *= 2;
        unsigned char *b = realloc(p->b, cap);
        if (!b) {
            p->oom = 1;
            return;
        }
        p->b = b, p->cap = cap;
    }
    memcpy(p->b + p->n, src, k);
    p->n += k;
}

static void put_varint(pack *p, uint64_t v)
{
    unsigned char t[10];
    size_t k = 0;
    do {
        t[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put(p, t, k);
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Room for one more string in the table (kept at most half full). */
static int grow_strings(pack *p)
{
    if (p->nstr == p->capstr) {
        size_t cap = p->capstr ? 2 * p->capstr : 64;
        const char **v = realloc(p->str, cap * sizeof *v);
        if (!v)
            return 0;
        p->str = v, p->capstr = cap;
    }
    if (2 * (p->nstr + 1) <= p->nslot)
        return 1;
    size_t nslot = p->nslot ? 2 * p->nslot : 256;
    uint32_t *slot = calloc(nslot, sizeof *slot);
    if (!slot)
        return 0;
    for (size_t i = 0; i < p->nstr; i++) {
        size_t j = hash_str(p->str[i]) & (nslot - 1);
        while (slot[j])
            j = (j + 1) & (nslot - 1);
        slot[j] = (uint32_t)(i + 1);
    }
    free(p->slot);
    p->slot = slot, p->nslot = nslot;
    return 1;
}

static void put_string(pack *p, const char *s)
{
    if (!grow_strings(p)) {
        p->oom = 1;
        return;
    }
    size_t j = hash_str(s) & (p->nslot - 1);
    for (; p->slot[j]; j = (j + 1) & (p->nslot - 1))
        if (strcmp(p->str[p->slot[j] - 1], s) == 0) {
            put_varint(p, p->slot[j]);
            return;
        }
    p->slot[j] = (uint32_t)(p->nstr + 1);
    p->str[p->nstr++] = s;
    size_t len = strlen(s);
    put_varint(p, 0);
    put_varint(p, len);
    put(p, s, len);
}

static void put_value(pack *p, const cJSON *v)
{
    unsigned char tag;
    const cJSON *c;
    size_t n = 0;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        /* integers exactly, but not -0 (printed "-0") */
        if (d == floor(d) && fabs(d) < 9007199254740992.0 && !(d == 0 && signbit(d))) {
            int64_t i = (int64_t)d;
            tag = T_INT;
            put(p, &tag, 1);
            put_varint(p, ((uint64_t)i << 1) ^ (uint64_t)(i >> 63));
        } else {
            unsigned char t[9] = {T_REAL};
            uint64_t bits;
            memcpy(&bits, &d, 8);
            for (int k = 0; k < 8; k++)
                t[1 + k] = (unsigned char)(bits >> (8 * k));
            put(p, t, 9);
        }
        return;
    }
    if (cJSON_IsString(v)) {
        tag = T_STR;
        put(p, &tag, 1);
        put_string(p, v->valuestring);
        return;
    }
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        tag = cJSON_IsArray(v) ? T_ARR : T_OBJ;
        for (c = v->child; c; c = c->next)
            n++;
        put(p, &tag, 1);
        put_varint(p, n);
        for (c = v->child; c; c = c->next) {
            if (tag == T_OBJ)
                put_string(p, c->string ? c->string : "");
            put_value(p, c);
        }
        return;
    }
    tag = cJSON_IsTrue(v) ? T_TRUE : cJSON_IsFalse(v) ? T_FALSE : T_NULL;
    put(p, &tag, 1);
}

unsigned char *clb_store_pack(const cJSON *v, size_t *len)
{
    pack p = {0};
    put_value(&p, v);
    free(p.str);
    free(p.slot);
    if (p.oom) {
        free(p.b);
        return NULL;
    }
    *len = p.n;
    return p.b ? p.b : calloc(1, 1);
}

/* Reading back: a cursor and the strings seen so far (borrowed from the buffer, copied on use). */
typedef struct unpack {
    const unsigned char *b;
    size_t n, at;
    char **str;
    size_t nstr, capstr;
    int bad;
} unpack;

static uint64_t get_varint(unpack *u)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && u->at < u->n; shift += 7) {
        unsigned char c = u->b[u->at++];
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    u->bad = 1;
    return 0;
}

/* The next string (owned by u's table), NULL when damaged. */
static const char *get_string(unpack *u)
{
    uint64_t ref = get_varint(u);
    if (ref > 0)
        return ref <= u->nstr ? u->str[ref - 1] : (u->bad = 1, NULL);
    uint64_t len = get_varint(u);
    if (u->bad || len > u->n - u->at)
        return u->bad = 1, NULL;
    if (u->nstr == u->capstr) {
        size_t cap = u->capstr ? 2 * u->capstr : 64;
        char **v = realloc(u->str, cap * sizeof *v);
        if (!v)
            return u->bad = 1, NULL;
        u->str = v, u->capstr = cap;
    }
    char *s = malloc(len + 1);
    if (!s)
        return u->bad = 1, NULL;
    memcpy(s, u->b + u->at, len);
    s[len] = '\0';
    u->at += len;
    return u->str[u->nstr++] = s;
}

static cJSON *get_value(unpack *u, int depth)
{
    if (u->at >= u->n || depth > CJSON_NESTING_LIMIT)
        return u->bad = 1, NULL;
    unsigned char tag = u->b[u->at++];
    switch (tag) {
    case T_NULL: return cJSON_CreateNull();
    case T_FALSE: return cJSON_CreateFalse();
    case T_TRUE: return cJSON_CreateTrue();
    case T_INT: {
        uint64_t z = get_varint(u);
        return cJSON_CreateNumber((double)(int64_t)((z >> 1) ^ (~(z & 1) + 1)));
    }
    case T_REAL: {
        if (u->n - u->at < 8)
            return u->bad = 1, NULL;
        uint64_t bits = 0;
        for (int k = 0; k < 8; k++)
            bits |= (uint64_t)u->b[u->at + (size_t)k] << (8 * k);
        u->at += 8;
        double d;
        memcpy(&d, &bits, 8);
        return cJSON_CreateNumber(d);
    }
    case T_STR: {
        const char *s = get_string(u);
        return s ? cJSON_CreateString(s) : NULL;
    }
    case T_ARR:
    case T_OBJ: {
        uint64_t n = get_varint(u);
        cJSON *c = tag == T_ARR ? cJSON_CreateArray() : cJSON_CreateObject(), *last = NULL;
        for (uint64_t i = 0; c && !u->bad && i < n; i++) {
            const char *key = tag == T_OBJ ? get_string(u) : NULL;
            cJSON *item = u->bad ? NULL : get_value(u, depth + 1);
            if (!item || (tag == T_OBJ && !(item->string = strdup(key)))) {
                cJSON_Delete(item);
                u->bad = 1;
                break;
            }
            /* appended by hand: cJSON_AddItemToArray walks the list, O(n^2) for a long array */
            if (last)
                last->next = item, item->prev = last;
            else
                c->child = item;
            c->child->prev = item;
            last = item;
        }
        if (u->bad) {
            cJSON_Delete(c);
            return NULL;
        }
        return c;
    }
    }
    return u->bad = 1, NULL;
}

cJSON *clb_store_unpack(const void *b, size_t n)
{
    unpack u = {b, n, 0, NULL, 0, 0, 0};
    cJSON *v = get_value(&u, 0);
    if (v && u.at != n) {
        cJSON_Delete(v);
        v = NULL;
    }
    for (size_t i = 0; i < u.nstr; i++)
        free(u.str[i]);
    free(u.str);
    return v;
}
