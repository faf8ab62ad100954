/* A JSON value in a compact binary form for the store (a run's results): what a document said,
 * exactly (numbers as their IEEE doubles, so cJSON prints them back the same), in a third of
 * the bytes of its text and without printing a number. Keys and strings repeat within a run
 * (name, status, unit, ...): each is written once and referred to by its index after that.
 *
 * value  := NULL | FALSE | TRUE | INT varint(zigzag) | REAL 8 bytes (little-endian double)
 *         | STR string | ARR varint(n) value*n | OBJ varint(n) (string value)*n
 * string := varint(0) varint(len) bytes   (new: takes the next index)
 *         | varint(i + 1)                 (the i-th string written before)
 *
 * Format 2 (what is written now; a blob whose first byte is FORMAT2) adds, since the statistics
 * are most of a run's bytes and the structure repeats in every result:
 *         | SHAPE varint(i)  value*n       (an object with the key list of the i-th object
 *                                           completed before: its keys are not written again)
 *         | DEC + e  varint(zigzag m)      (the double m / 10^e, 1 <= e <= 22, |m| < 2^53: the
 *                                           short decimals a document's text mostly holds)
 *         | DDELTA + e  varint(zigzag d)   (the same, m = the last decimal of exponent e + d)
 *         | BACK + k                       (the double k places back among those written,
 *                                           1 <= k <= 64: a median that is the value, ci95's ends)
 *         | STRREF + i                     (the i-th string, i < 128, as a value)
 * and a new string is varint(0) varint(pre) varint(len) bytes: the first pre bytes of the string
 * before it in the table, then len bytes.
 * Every object written as OBJ is numbered when it is complete (reader and writer alike), every
 * non-integer number is counted in the order written. Format 1 blobs are read either way.
 * What is stored is format 2 deflated (DEFLATED, the length, zlib's stream) when that is smaller.
 *
 * Format 3 (schema 5; FORMAT3, deflated DEFLATED3) is format 2 written beside the run's records
 * (store_points.c), which the queries read and which hold the number of each counted result:
 *         | REC value                      (a counted result: the next record is its record)
 *         | HOLE                           (a member whose value the record gives back: name,
 *                                           status, value, median, n or cv, by its key)
 *         | SHOLE                          (a statistic of the result's stats object that its
 *                                           samples give back: min, max, median, mean, stddev or
 *                                           cv, by its key; filled when the result is complete)
 * A hole is written only when the record or the samples give back exactly the member's value
 * (the same bits, the same string); a double filled from a record counts among the doubles
 * written, on both sides; one filled from the samples does not. */
#include "store/store_int.h"
#include "store/store_varint.h"

#include <math.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

enum { PEND = 8 }; /* the most statistics of one result filled from its samples */
enum { T_NULL, T_FALSE, T_TRUE, T_INT, T_REAL, T_STR, T_ARR, T_OBJ, T_SHAPE, T_REC, T_HOLE, T_SHOLE };
enum {
    FORMAT2 = 0xF2,
    DEFLATED = 0xF3, /* varint(length) and zlib's stream of a format 2 blob */
    FORMAT3 = 0xF4,
    DEFLATED3 = 0xF5,
    DEFLATE_LEVEL = 6,
    T_DEC = 16, /* + e: 17..38 */
    DEC_MAX = 22,
    T_DDELTA = 38, /* + e: 39..60 */
    T_BACK = 63,   /* + k: 64..127 */
    BACK_MAX = 64,
    T_STRREF = 128, /* + i: 128..255 */
    STRREF_MAX = 128,
    RING = 256,
    DSLOTS = 4096
};

/* 10^e, exact as doubles for e <= 22. */
static const double p10[DEC_MAX + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* An object's key list, as written (keys borrowed from the tree or the reader's strings). */
typedef struct shape {
    const char **key;
    size_t n;
    uint32_t hash;
} shape;

typedef struct pack {
    unsigned char *b;
    size_t n, cap;
    clb_strtab str; /* the strings already written (borrowed from the tree), numbered as written */
    shape *shp; /* objects' key lists, in the order completed */
    size_t nshp, capshp;
    uint32_t *sslot; /* hash table of shapes: index + 1 */
    size_t nsslot;
    uint64_t ring[RING]; /* the last doubles written, by count % RING */
    uint64_t nd;        /* doubles written */
    uint64_t dpos[DSLOTS]; /* hash of a double's bits -> its count + 1 */
    int64_t lastm[DEC_MAX + 1]; /* the last decimal of each exponent */
    int haslast[DEC_MAX + 1];
    int oom;
    /* format 3: the records, the current result's, and the names the holes stand for */
    const clb_store_rec *recs, *cur;
    const long *rec_of;
    const char *(*name_of)(void *, int64_t);
    const char *(*status_of)(void *, int);
    void *arg;
    const cJSON *stats; /* the current result's stats object, when its samples give sst */
    double sst[6];
    int nshole; /* its statistics written as holes (at most PEND) */
    int copies; /* min, max and median too (copies of samples: see put_results) */
} pack;

/* The statistics the samples give back, by key (lib/core/stats.c's definitions). */
static const char *const stat_key[6] = {"min", "max", "median", "mean", "stddev", "cv"};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min, max, median, mean, stddev, cv of the numbers of samples, computed as clb_stats_compute
 * does (sorted, summed in order; each product its own statement, so that no compiler fuses a
 * multiply-add and the bits are the same on every machine: IEEE operations and sqrt are
 * correctly rounded); 0 when samples is not a non-empty array of finite numbers. */
static int sample_stats(const cJSON *samples, double out[6])
{
    size_t n = (size_t)cJSON_GetArraySize(samples), i = 0;
    const cJSON *x;
    if (!cJSON_IsArray(samples) || n == 0 || n > 100000000)
        return 0;
    double *v = malloc(n * sizeof *v), sum = 0.0, ss = 0.0;
    if (!v)
        return 0;
    cJSON_ArrayForEach(x, samples)
    {
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) {
            free(v);
            return 0;
        }
        v[i++] = x->valuedouble;
    }
    qsort(v, n, sizeof *v, cmp_double);
    for (i = 0; i < n; i++)
        sum += v[i];
    double mean = sum / (double)n;
    for (i = 0; i < n; i++) {
        double dev = v[i] - mean;
        double sq = dev * dev;
        ss += sq;
    }
    double sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    out[0] = v[0], out[1] = v[n - 1];
    out[2] = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    out[3] = mean, out[4] = sd, out[5] = mean != 0.0 ? sd / fabs(mean) : 0.0;
    free(v);
    return 1;
}

static int stat_index(const char *key)
{
    for (int k = 0; k < 6; k++)
        if (strcmp(key, stat_key[k]) == 0)
            return k;
    return -1;
}

static void put(pack *p, const void *src, size_t k)
{
    if (p->oom)
        return;
    if (!clb_grow_by(&p->b, 1, p->n, k, &p->cap)) {
        p->oom = 1;
        return;
    }
    memcpy(p->b + p->n, src, k);
    p->n += k;
}

static void put_varint(pack *p, uint64_t v)
{
    unsigned char t[10];
    put(p, t, clb_varint_put(t, v));
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* A string: its reference when written before; value (a string value, not a key): as one byte
 * STRREF + i for the first STRREF_MAX strings, else STR and the string. */
static void put_string(pack *p, const char *s, int value)
{
    unsigned char tag = T_STR;
    int added;
    size_t len = strlen(s), i = clb_strtab_add(&p->str, s, len, &added), pre = 0;
    if (i == SIZE_MAX) {
        p->oom = 1;
        return;
    }
    if (!added) {
        if (value && i < STRREF_MAX) {
            tag = (unsigned char)(T_STRREF + i);
            put(p, &tag, 1);
        } else {
            if (value)
                put(p, &tag, 1);
            put_varint(p, i + 1);
        }
        return;
    }
    /* new: the length it shares with the string written last (a row name after the last row's) */
    const char *last = i ? p->str.s[i - 1] : "";
    while (pre < len && last[pre] == s[pre])
        pre++;
    if (value)
        put(p, &tag, 1);
    put_varint(p, 0);
    put_varint(p, pre);
    put_varint(p, len - pre);
    put(p, s + pre, len - pre);
}

/* The double's decimal form m / 10^e when one gives it back bit for bit (IEEE division of exact
 * operands is correctly rounded: the value strtod gives for "mE-e"); 0 when none does. */
static int decimal(double d, int64_t *m)
{
    uint64_t bits, back;
    memcpy(&bits, &d, 8);
    if (!isfinite(d))
        return 0;
    for (int e = 1; e <= DEC_MAX; e++) {
        double x = d * p10[e];
        if (fabs(x) >= 9007199254740992.0)
            return 0;
        *m = (int64_t)llround(x);
        double y = (double)*m / p10[e];
        memcpy(&back, &y, 8);
        if (back == bits)
            return e;
    }
    return 0;
}

int clb_store_decimal(double d, int64_t *m)
{
    return decimal(d, m);
}


static uint32_t hash_bits(uint64_t b)
{
    b ^= b >> 29;
    b *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t)(b >> 32);
}

/* A non-integer number: a reference to the same double among the last BACK_MAX, else its
 * decimal form, else its 8 bytes. */
static void put_double(pack *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    uint32_t h = hash_bits(bits) & (DSLOTS - 1);
    uint64_t at = p->dpos[h];
    int64_t m;
    int e;
    if (at && p->nd - (at - 1) <= BACK_MAX && p->ring[(at - 1) % RING] == bits) {
        unsigned char t = (unsigned char)(T_BACK + (p->nd - (at - 1)));
        put(p, &t, 1);
    } else if ((e = decimal(d, &m)) > 0) {
        /* the difference from the last decimal of the same exponent when it is shorter (a
         * statistic next to the value, one row's value next to the last row's) */
        uint64_t z = clb_zigzag(m), dz = p->haslast[e] ? clb_zigzag(m - p->lastm[e]) : z;
        int delta = clb_varint_len(dz) < clb_varint_len(z);
        unsigned char t = (unsigned char)(delta ? T_DDELTA + e : T_DEC + e);
        put(p, &t, 1);
        put_varint(p, delta ? dz : z);
        p->lastm[e] = m, p->haslast[e] = 1;
    } else {
        unsigned char t[9] = {T_REAL};
        clb_le64_put(t + 1, bits);
        put(p, t, 9);
    }
    p->ring[p->nd % RING] = bits;
    p->dpos[h] = ++p->nd;
}

static uint32_t hash_keys(const char *const *key, size_t n)
{
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ hash_str(key[i])) * 16777619u;
    return h;
}

static int same_keys(const shape *a, const char *const *key, size_t n)
{
    if (a->n != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(a->key[i], key[i]) != 0)
            return 0;
    return 1;
}

/* Numbers a completed object's key list (key: taken); 0 when out of memory. */
static int add_shape(shape **shp, size_t *nshp, size_t *capshp, const char **key, size_t n, uint32_t h)
{
    if (!clb_grow(shp, sizeof **shp, *nshp, capshp))
        return 0;
    (*shp)[(*nshp)++] = (shape){key, n, h};
    return 1;
}

/* The index of a shape with these keys, -1 when none. */
static long find_shape(const pack *p, const char *const *key, size_t n, uint32_t h)
{
    if (!p->nsslot)
        return -1;
    for (size_t j = h & (p->nsslot - 1); p->sslot[j]; j = (j + 1) & (p->nsslot - 1)) {
        const shape *a = &p->shp[p->sslot[j] - 1];
        if (a->hash == h && same_keys(a, key, n))
            return (long)p->sslot[j] - 1;
    }
    return -1;
}

/* Files the last shape in the hash table (kept at most half full). */
static int index_shape(pack *p)
{
    if (2 * p->nshp > p->nsslot) {
        size_t nslot = p->nsslot ? 2 * p->nsslot : 64;
        uint32_t *slot = calloc(nslot, sizeof *slot);
        if (!slot)
            return 0;
        free(p->sslot);
        p->sslot = slot, p->nsslot = nslot;
        for (size_t i = 0; i + 1 < p->nshp; i++) {
            size_t j = p->shp[i].hash & (nslot - 1);
            while (slot[j])
                j = (j + 1) & (nslot - 1);
            slot[j] = (uint32_t)(i + 1);
        }
    }
    size_t j = p->shp[p->nshp - 1].hash & (p->nsslot - 1);
    while (p->sslot[j])
        j = (j + 1) & (p->nsslot - 1);
    p->sslot[j] = (uint32_t)p->nshp;
    return 1;
}

static void put_value(pack *p, const cJSON *v);

/* Whether a number is written as a double (not an integer varint): what counts it. */
static int counted_double(double d)
{
    return !(d == floor(d) && fabs(d) < 9007199254740992.0 && !(d == 0 && signbit(d)));
}

/* A double filled into a hole, counted as if written (both sides do the same). */
static void note_double(pack *p, double d)
{
    uint64_t bits;
    int64_t m;
    int e;
    if (!counted_double(d))
        return;
    memcpy(&bits, &d, 8);
    if ((e = decimal(d, &m)) > 0)
        p->lastm[e] = m, p->haslast[e] = 1;
    uint32_t h = hash_bits(bits) & (DSLOTS - 1);
    p->ring[p->nd % RING] = bits;
    p->dpos[h] = ++p->nd;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The member c of the current result when its record gives it back exactly (a hole). */
static int hole(pack *p, const cJSON *c)
{
    const clb_store_rec *r = p->cur;
    const char *k = c->string, *want = NULL;
    if (!r || !k)
        return 0;
    if (strcmp(k, "value") == 0 || strcmp(k, "median") == 0)
        return isnan(r->value) ? cJSON_IsNull(c) : cJSON_IsNumber(c) && same_bits(c->valuedouble, r->value);
    if (strcmp(k, "cv") == 0)
        return !isnan(r->spread) && cJSON_IsNumber(c) && same_bits(c->valuedouble, r->spread);
    if (strcmp(k, "n") == 0)
        return r->n >= 0 && cJSON_IsNumber(c) && same_bits(c->valuedouble, (double)r->n);
    if (strcmp(k, "name") == 0)
        want = p->name_of(p->arg, r->row);
    else if (strcmp(k, "status") == 0)
        want = p->status_of(p->arg, r->status);
    return want && cJSON_IsString(c) && strcmp(c->valuestring, want) == 0;
}

/* Whether d is one of the last BACK_MAX doubles written: a one-byte back reference. */
static int backward(const pack *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    uint64_t at = p->dpos[hash_bits(bits) & (DSLOTS - 1)];
    return at && p->nd - (at - 1) <= BACK_MAX && p->ring[(at - 1) % RING] == bits;
}

/* Member c of object o: the samples give it back (and it is not a one-byte back reference
 * anyway, which keeps the structure of a result the same from result to result). */
static int sample_hole(pack *p, const cJSON *o, const cJSON *c)
{
    int k = o == p->stats && c->string && p->nshole < PEND ? stat_index(c->string) : -1;
    if (k >= 0 && k <= 2 && !p->copies)
        return 0;
    return k >= 0 && cJSON_IsNumber(c) && same_bits(c->valuedouble, p->sst[k]) && !backward(p, c->valuedouble) &&
           ++p->nshole;
}

/* A member of o: a hole when the record or the samples give it back, else its value. */
static void put_member(pack *p, const cJSON *o, const cJSON *c)
{
    if (!hole(p, c) && sample_hole(p, o, c)) {
        unsigned char tag = T_SHOLE;
        put(p, &tag, 1);
        return;
    }
    if (!hole(p, c)) {
        put_value(p, c);
        return;
    }
    unsigned char tag = T_HOLE;
    put(p, &tag, 1);
    if (cJSON_IsNumber(c))
        note_double(p, c->valuedouble);
}

/* An object: SHAPE and its values when its key list was seen, else OBJ with its keys, numbered
 * when complete. */
static void put_object(pack *p, const cJSON *v)
{
    size_t n = 0, i = 0;
    const cJSON *c;
    for (c = v->child; c; c = c->next)
        n++;
    const char **key = malloc((n ? n : 1) * sizeof *key);
    if (!key) {
        p->oom = 1;
        return;
    }
    for (c = v->child; c; c = c->next)
        key[i++] = c->string ? c->string : "";
    uint32_t h = hash_keys(key, n);
    long at = find_shape(p, key, n, h);
    unsigned char tag = at >= 0 ? T_SHAPE : T_OBJ;
    put(p, &tag, 1);
    put_varint(p, at >= 0 ? (uint64_t)at : n);
    for (c = v->child; c; c = c->next) {
        if (at < 0)
            put_string(p, c->string ? c->string : "", 0);
        put_member(p, v, c);
    }
    if (at >= 0) {
        free(key);
    } else if (!add_shape(&p->shp, &p->nshp, &p->capshp, key, n, h)) {
        free(key);
        p->oom = 1;
    } else if (!index_shape(p)) {
        p->oom = 1; /* key is the shape's now */
    }
}

static void put_value(pack *p, const cJSON *v)
{
    unsigned char tag;
    const cJSON *c;
    size_t n = 0;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        /* integers exactly, but not -0 (printed "-0") */
        if (!counted_double(d)) {
            int64_t i = (int64_t)d;
            tag = T_INT;
            put(p, &tag, 1);
            put_varint(p, clb_zigzag(i));
        } else {
            put_double(p, d);
        }
        return;
    }
    if (cJSON_IsString(v)) {
        put_string(p, v->valuestring, 1);
        return;
    }
    if (cJSON_IsObject(v)) {
        put_object(p, v);
        return;
    }
    if (cJSON_IsArray(v)) {
        tag = T_ARR;
        for (c = v->child; c; c = c->next)
            n++;
        put(p, &tag, 1);
        put_varint(p, n);
        for (c = v->child; c; c = c->next)
            put_value(p, c);
        return;
    }
    tag = cJSON_IsTrue(v) ? T_TRUE : cJSON_IsFalse(v) ? T_FALSE : T_NULL;
    put(p, &tag, 1);
}

/* The top array of format 3: each counted result after REC, its record current. */
static void put_results(pack *p, const cJSON *v)
{
    unsigned char tag = T_ARR, rec = T_REC;
    size_t n = 0, i = 0;
    const cJSON *c;
    for (c = v->child; c; c = c->next)
        n++;
    put(p, &tag, 1);
    put_varint(p, n);
    for (c = v->child; c; c = c->next, i++) {
        p->cur = p->rec_of[i] >= 0 ? &p->recs[p->rec_of[i]] : NULL;
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(c, "stats");
        p->stats = cJSON_IsObject(c) && cJSON_IsObject(st) &&
                           sample_stats(cJSON_GetObjectItemCaseSensitive(c, "samples"), p->sst)
                       ? st
                       : NULL;
        p->nshole = 0;
        /* min, max and median are samples: written before them, a sample that equals one is a
         * one-byte back reference when it is at most BACK_MAX doubles later, cheaper than the
         * sample written out after a hole; past that reach the hole is cheaper */
        p->copies = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c, "samples")) > BACK_MAX - 16;
        if (p->cur)
            put(p, &rec, 1);
        put_value(p, c);
    }
    p->cur = NULL, p->stats = NULL;
}

static unsigned char *pack_plain(const cJSON *v, const pack *f3, size_t *len)
{
    pack *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    unsigned char f = f3 ? FORMAT3 : FORMAT2;
    if (f3)
        p->recs = f3->recs, p->rec_of = f3->rec_of, p->name_of = f3->name_of, p->status_of = f3->status_of,
        p->arg = f3->arg;
    put(p, &f, 1);
    if (f3 && p->rec_of && cJSON_IsArray(v))
        put_results(p, v);
    else
        put_value(p, v);
    for (size_t i = 0; i < p->nshp; i++)
        free(p->shp[i].key);
    free(p->shp);
    free(p->sslot);
    clb_strtab_free(&p->str);
    unsigned char *b = p->b;
    size_t n = p->n;
    int oom = p->oom;
    free(p);
    if (oom) {
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

/* Format 2, deflated when that is smaller (the structure and the bytes of the varints repeat
 * from result to result: 60 B per measured result become 34; level 6 by measurement,
 * docs/results/store-2026-11-25-vm.md). */
static unsigned char *pack_any(const cJSON *v, const pack *f3, size_t *len)
{
    size_t n = 0;
    unsigned char *plain = pack_plain(v, f3, &n);
    uLongf cap = plain ? compressBound((uLong)n) : 0;
    unsigned char *z = plain && n > 64 ? malloc(11 + cap) : NULL;
    if (!z) {
        *len = n;
        return plain;
    }
    size_t h = 1;
    z[0] = f3 ? DEFLATED3 : DEFLATED;
    for (uint64_t k = n;; k >>= 7) {
        z[h++] = (unsigned char)((k & 0x7f) | (k > 0x7f ? 0x80 : 0));
        if (k <= 0x7f)
            break;
    }
    if (compress2(z + h, &cap, plain, (uLong)n, DEFLATE_LEVEL) != Z_OK || h + cap >= n) {
        free(z);
        *len = n;
        return plain;
    }
    free(plain);
    *len = h + cap;
    return z;
}

unsigned char *clb_store_pack(const cJSON *v, size_t *len)
{
    return pack_any(v, NULL, len);
}

unsigned char *clb_store_pack3(const cJSON *v, const clb_store_rec *recs, const long *rec_of,
                               const char *(*name_of)(void *, int64_t), const char *(*status_of)(void *, int),
                               void *arg, size_t *len)
{
    pack f3 = {.recs = recs, .rec_of = rec_of, .name_of = name_of, .status_of = status_of, .arg = arg};
    return pack_any(v, &f3, len);
}

/* Reading back: a cursor and the strings seen so far (borrowed from the buffer, copied on use). */
typedef struct unpack {
    const unsigned char *b;
    size_t n, at;
    char **str;
    size_t nstr, capstr;
    int bad, f2; /* f2: format 2 */
    shape *shp;
    size_t nshp, capshp;
    uint64_t ring[RING];
    uint64_t nd;
    int64_t lastm[DEC_MAX + 1];
    int haslast[DEC_MAX + 1];
    /* format 3: the records and the one of the current result (-1 before the first) */
    const clb_store_rec *recs;
    size_t nrec;
    long cur;
    const char *(*name_of)(void *, int64_t);
    const char *(*status_of)(void *, int);
    void *arg;
    cJSON *pend[PEND]; /* the current result's statistics to fill from its samples */
    int npend;
} unpack;

static uint64_t get_varint(unpack *u) { return clb_varint_get(u->b, u->n, &u->at, &u->bad); }

/* The next string (owned by u's table), NULL when damaged. */
static const char *get_string(unpack *u)
{
    uint64_t ref = get_varint(u);
    if (ref > 0)
        return ref <= u->nstr ? u->str[ref - 1] : (u->bad = 1, NULL);
    /* format 2: the first pre bytes of the string read last, then len bytes */
    uint64_t pre = u->f2 ? get_varint(u) : 0, len = get_varint(u);
    const char *last = u->nstr ? u->str[u->nstr - 1] : "";
    if (u->bad || len > u->n - u->at || pre > strlen(last))
        return u->bad = 1, NULL;
    if (!clb_grow(&u->str, sizeof *u->str, u->nstr, &u->capstr))
        return u->bad = 1, NULL;
    char *s = malloc(pre + len + 1);
    if (!s)
        return u->bad = 1, NULL;
    memcpy(s, last, pre);
    memcpy(s + pre, u->b + u->at, len);
    s[pre + len] = '\0';
    u->at += len;
    return u->str[u->nstr++] = s;
}

/* A double of format 2, counted as the writer counted it. */
static cJSON *got_double(unpack *u, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    u->ring[u->nd++ % RING] = bits;
    return cJSON_CreateNumber(d);
}

static cJSON *get_value(unpack *u, int depth, const char *key);

/* The statistics of result r that its samples give back (format 3's SHOLE): 0 when damaged. */
static int fill_samples(unpack *u, const cJSON *r)
{
    double sst[6];
    int n = u->npend;
    u->npend = 0;
    if (n == 0)
        return 1;
    if (!cJSON_IsObject(r) || !sample_stats(cJSON_GetObjectItemCaseSensitive(r, "samples"), sst))
        return u->bad = 1, 0;
    for (int i = 0; i < n; i++)
        cJSON_SetNumberValue(u->pend[i], sst[stat_index(u->pend[i]->string)]);
    return 1;
}

/* Appends item to container c after last (by hand: cJSON_AddItemToArray walks the list, O(n^2)
 * for a long array). */
static void append(cJSON *c, cJSON **last, cJSON *item)
{
    if (*last)
        (*last)->next = item, item->prev = *last;
    else
        c->child = item;
    c->child->prev = item;
    *last = item;
}

/* An array (keys NULL), an object with its keys inline (OBJ: *keys set to the keys read, for
 * numbering), or one of a known shape (keys given). */
static cJSON *get_members(unpack *u, int depth, int tag, uint64_t n, const char **given, const char ***keys)
{
    cJSON *c = tag == T_ARR ? cJSON_CreateArray() : cJSON_CreateObject(), *last = NULL;
    const char **got = NULL;
    if (tag == T_OBJ && u->f2 && !(n <= u->n - u->at && (got = malloc((n ? n : 1) * sizeof *got))))
        u->bad = 1;
    for (uint64_t i = 0; c && !u->bad && i < n; i++) {
        const char *key = tag == T_OBJ ? get_string(u) : tag == T_SHAPE ? given[i] : NULL;
        if (got)
            got[i] = key;
        cJSON *item = u->bad ? NULL : get_value(u, depth + 1, key);
        if (!item || (tag != T_ARR && !(item->string = strdup(key)))) {
            cJSON_Delete(item);
            u->bad = 1;
            break;
        }
        append(c, &last, item);
        if (depth == 0 && u->recs && !fill_samples(u, item)) /* a result of format 3 is complete */
            break;
    }
    if (u->bad || !c) {
        cJSON_Delete(c);
        free(got);
        return u->bad = 1, NULL;
    }
    if (keys)
        *keys = got;
    return c;
}

/* A double filled into a hole, counted as the writer counted it. */
static cJSON *filled_double(unpack *u, double d)
{
    int64_t m;
    int e;
    if (!counted_double(d))
        return cJSON_CreateNumber(d);
    if ((e = decimal(d, &m)) > 0)
        u->lastm[e] = m, u->haslast[e] = 1;
    return got_double(u, d);
}

/* The value of member key that the current record gives back (format 3's HOLE). */
static cJSON *get_hole(unpack *u, const char *key)
{
    if (!key || u->cur < 0 || (size_t)u->cur >= u->nrec)
        return u->bad = 1, NULL;
    const clb_store_rec *r = &u->recs[u->cur];
    const char *s = NULL;
    if (strcmp(key, "value") == 0 || strcmp(key, "median") == 0)
        return isnan(r->value) ? cJSON_CreateNull() : filled_double(u, r->value);
    if (strcmp(key, "cv") == 0 && !isnan(r->spread))
        return filled_double(u, r->spread);
    if (strcmp(key, "n") == 0 && r->n >= 0)
        return cJSON_CreateNumber((double)r->n);
    if (strcmp(key, "name") == 0)
        s = u->name_of(u->arg, r->row);
    else if (strcmp(key, "status") == 0)
        s = u->status_of(u->arg, r->status);
    return s ? cJSON_CreateString(s) : (u->bad = 1, NULL);
}

static cJSON *get_value(unpack *u, int depth, const char *key)
{
    if (u->at >= u->n || depth > CJSON_NESTING_LIMIT)
        return u->bad = 1, NULL;
    unsigned char tag = u->b[u->at++];
    if (u->recs && tag == T_HOLE)
        return get_hole(u, key);
    if (u->recs && tag == T_SHOLE) { /* filled when the result is complete, its samples read */
        cJSON *x = key && stat_index(key) >= 0 && u->npend < PEND ? cJSON_CreateNumber(0) : NULL;
        return x ? (u->pend[u->npend++] = x) : (u->bad = 1, NULL);
    }
    if (u->recs && tag == T_REC) {
        u->cur++;
        return get_value(u, depth, key);
    }
    if (u->f2 && tag > T_DEC && tag <= T_DDELTA + DEC_MAX) {
        int e = tag > T_DDELTA ? tag - T_DDELTA : tag - T_DEC;
        int64_t m = clb_unzigzag(get_varint(u));
        if (tag > T_DDELTA && !u->haslast[e])
            return u->bad = 1, NULL;
        if (tag > T_DDELTA)
            m = (int64_t)((uint64_t)m + (uint64_t)u->lastm[e]);
        if (u->bad || m >= (1ll << 53) || m <= -(1ll << 53))
            return u->bad = 1, NULL;
        u->lastm[e] = m, u->haslast[e] = 1;
        return got_double(u, (double)m / p10[e]);
    }
    if (u->f2 && tag >= T_STRREF) {
        size_t i = (size_t)(tag - T_STRREF);
        return i < u->nstr ? cJSON_CreateString(u->str[i]) : (u->bad = 1, NULL);
    }
    if (u->f2 && tag > T_BACK && tag <= T_BACK + BACK_MAX) {
        uint64_t k = (uint64_t)(tag - T_BACK);
        if (k > u->nd || k > RING)
            return u->bad = 1, NULL;
        double d;
        memcpy(&d, &u->ring[(u->nd - k) % RING], 8);
        return got_double(u, d);
    }
    switch (tag) {
    case T_NULL: return cJSON_CreateNull();
    case T_FALSE: return cJSON_CreateFalse();
    case T_TRUE: return cJSON_CreateTrue();
    case T_INT: {
        return cJSON_CreateNumber((double)clb_unzigzag(get_varint(u)));
    }
    case T_REAL: {
        if (u->n - u->at < 8)
            return u->bad = 1, NULL;
        uint64_t bits = clb_le64_get(u->b + u->at);
        u->at += 8;
        double d;
        memcpy(&d, &bits, 8);
        return u->f2 ? got_double(u, d) : cJSON_CreateNumber(d);
    }
    case T_STR: {
        const char *s = get_string(u);
        return s ? cJSON_CreateString(s) : NULL;
    }
    case T_ARR: {
        uint64_t n = get_varint(u);
        return u->bad ? NULL : get_members(u, depth, T_ARR, n, NULL, NULL);
    }
    case T_OBJ: {
        uint64_t n = get_varint(u);
        const char **keys = NULL;
        cJSON *o = u->bad ? NULL : get_members(u, depth, T_OBJ, n, NULL, &keys);
        if (o && u->f2 && !add_shape(&u->shp, &u->nshp, &u->capshp, keys, n, 0)) {
            free(keys);
            cJSON_Delete(o);
            return u->bad = 1, NULL;
        }
        return o;
    }
    case T_SHAPE: {
        uint64_t i = get_varint(u);
        if (!u->f2 || u->bad || i >= u->nshp)
            return u->bad = 1, NULL;
        return get_members(u, depth, T_SHAPE, u->shp[i].n, u->shp[i].key, NULL);
    }
    }
    return u->bad = 1, NULL;
}

static cJSON *unpack_plain(const void *b, size_t n, const unpack *f3);

/* A deflated blob: its length, then zlib's stream, which must give exactly that many bytes. */
static cJSON *unpack_deflated(const unsigned char *b, size_t n, const unpack *f3)
{
    uint64_t len = 0;
    size_t at = 1;
    for (int shift = 0;; shift += 7) {
        if (at >= n || shift > 35)
            return NULL;
        len |= (uint64_t)(b[at] & 0x7f) << shift;
        if (!(b[at++] & 0x80))
            break;
    }
    /* no larger than deflate can make of what is there (1032:1), no larger than 1 GiB */
    if (len == 0 || len > 1032 * (uint64_t)(n - at) + 64 || len > (1u << 30))
        return NULL;
    unsigned char *plain = malloc((size_t)len);
    uLongf got = (uLongf)len;
    cJSON *v = NULL;
    if (plain && uncompress(plain, &got, b + at, (uLong)(n - at)) == Z_OK && got == len &&
        plain[0] == (f3 ? FORMAT3 : FORMAT2))
        v = unpack_plain(plain, (size_t)len, f3);
    free(plain);
    return v;
}

cJSON *clb_store_unpack(const void *b, size_t n)
{
    return n > 0 && *(const unsigned char *)b == DEFLATED ? unpack_deflated(b, n, NULL) : unpack_plain(b, n, NULL);
}

cJSON *clb_store_unpack3(const void *b, size_t n, const clb_store_rec *recs, size_t nrec,
                         const char *(*name_of)(void *, int64_t), const char *(*status_of)(void *, int), void *arg)
{
    static const clb_store_rec none;
    unpack f3 = {.recs = recs ? recs : &none, .nrec = nrec, .name_of = name_of, .status_of = status_of, .arg = arg};
    const unsigned char *p = b;
    if (n == 0 || (p[0] != FORMAT3 && p[0] != DEFLATED3))
        return NULL;
    return p[0] == DEFLATED3 ? unpack_deflated(b, n, &f3) : unpack_plain(b, n, &f3);
}

static cJSON *unpack_plain(const void *b, size_t n, const unpack *f3)
{
    unpack *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->b = b, u->n = n;
    if (f3)
        u->recs = f3->recs, u->nrec = f3->nrec, u->name_of = f3->name_of, u->status_of = f3->status_of,
        u->arg = f3->arg;
    u->cur = -1;
    if (n > 0 && u->b[0] == (f3 ? FORMAT3 : FORMAT2))
        u->f2 = 1, u->at = 1;
    else if (f3)
        u->bad = 1;
    cJSON *v = u->bad ? NULL : get_value(u, 0, NULL);
    if (v && (u->at != n || (f3 && ((size_t)(u->cur + 1) != u->nrec || u->npend)))) { /* format 3: all used */
        cJSON_Delete(v);
        v = NULL;
    }
    for (size_t i = 0; i < u->nstr; i++)
        free(u->str[i]);
    for (size_t i = 0; i < u->nshp; i++)
        free(u->shp[i].key);
    free(u->shp);
    free(u->str);
    free(u);
    return v;
}

/* SQL clb_repack(results): a run's results as format 2, from format 1 or the text version 1
 * kept; format 2 as it is. The migration to schema version 4 runs it over every run. */
void clb_store_repack_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *b = sqlite3_value_blob(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    if (sqlite3_value_type(argv[0]) == SQLITE_BLOB && n > 0 && (b[0] == FORMAT2 || b[0] == DEFLATED)) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    cJSON *v = sqlite3_value_type(argv[0]) == SQLITE_BLOB ? clb_store_unpack(b, n)
                                                           : cJSON_Parse((const char *)sqlite3_value_text(argv[0]));
    size_t len = 0;
    unsigned char *packed = v ? clb_store_pack(v, &len) : NULL;
    cJSON_Delete(v);
    if (packed)
        sqlite3_result_blob64(ctx, packed, len, free);
    else
        sqlite3_result_error(ctx, "a run's results cannot be read (damaged store?)", -1);
}
