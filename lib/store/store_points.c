/* What the queries read of a run's results (schema 5, runs.points): one record per counted
 * result (row, status, value, spread, n) in the run's order, as bytes:
 *
 * points := 'P' body | 'Q' varint(len) zlib(body)     (deflated when that is smaller)
 * body   := varint(count) record*count
 * record := varint(zigzag(row - previous row)) varint(status) varint(n + 1) num(value) num(spread)
 * num    := 0 (none) | e varint(zigzag m) (m / 10^e, 1 <= e <= 22, exactly the double)
 *         | 22 + e varint(zigzag(m - the last m of exponent e of that column)) | 255 8 bytes
 *
 * A run's values are decimals of a document's text: m / 10^e gives the same bits (IEEE division of
 * exact operands is correctly rounded), checked when written. */
#include "store/store_int.h"
#include "store/store_varint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { PLAIN = 'P', ZIPPED = 'Q', NUM_NONE = 0, NUM_DELTA = 22, NUM_RAW = 255, EMAX = 22 };

static const double p10[EMAX + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

typedef struct buf {
    unsigned char *b;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *o, const void *src, size_t k)
{
    if (!o->oom && !clb_grow_by(&o->b, 1, o->n, k, &o->cap))
        o->oom = 1;
    if (o->oom)
        return;
    memcpy(o->b + o->n, src, k);
    o->n += k;
}

static void put_varint(buf *o, uint64_t v)
{
    unsigned char t[10];
    put(o, t, clb_varint_put(t, v));
}

/* last[e]: the last m of exponent e of this column (0 before any) */
static void put_num(buf *o, double d, int64_t last[EMAX + 1])
{
    int64_t m = 0;
    int e = isnan(d) ? -1 : clb_store_decimal(d, &m);
    if (e < 0) {
        put(o, (unsigned char[]){NUM_NONE}, 1);
    } else if (e == 0) {
        uint64_t bits;
        memcpy(&bits, &d, 8);
        unsigned char t[9] = {NUM_RAW};
        clb_le64_put(t + 1, bits);
        put(o, t, 9);
    } else {
        uint64_t z = clb_zigzag(m), dz = clb_zigzag((int64_t)((uint64_t)m - (uint64_t)last[e]));
        int delta = clb_varint_len(dz) < clb_varint_len(z);
        put(o, (unsigned char[]){(unsigned char)(delta ? NUM_DELTA + e : e)}, 1);
        put_varint(o, delta ? dz : z);
        last[e] = m;
    }
}

unsigned char *clb_store_points_encode(const clb_store_rec *r, size_t n, size_t *len)
{
    buf o = {0};
    int64_t last[2][EMAX + 1] = {{0}}, row = 0;
    put(&o, (unsigned char[]){PLAIN}, 1);
    put_varint(&o, n);
    for (size_t i = 0; i < n; i++) {
        put_varint(&o, clb_zigzag((int64_t)((uint64_t)r[i].row - (uint64_t)row)));
        row = r[i].row;
        put_varint(&o, clb_zigzag(r[i].status));
        put_varint(&o, (uint64_t)((int64_t)r[i].n + 1));
        put_num(&o, r[i].value, last[0]);
        put_num(&o, r[i].spread, last[1]);
    }
    if (o.oom) {
        free(o.b);
        return NULL;
    }
    uLongf cap = compressBound((uLong)o.n);
    unsigned char *z = o.n > 64 ? malloc(11 + cap) : NULL;
    size_t h = 1;
    if (z) {
        z[0] = ZIPPED;
        for (uint64_t k = o.n - 1;; k >>= 7) { /* the body's length, without its first byte */
            z[h++] = (unsigned char)((k & 0x7f) | (k > 0x7f ? 0x80 : 0));
            if (k <= 0x7f)
                break;
        }
    }
    if (z && compress2(z + h, &cap, o.b + 1, (uLong)(o.n - 1), 6) == Z_OK && h + cap < o.n) {
        free(o.b);
        *len = h + cap;
        return z;
    }
    free(z);
    *len = o.n;
    return o.b;
}

typedef struct cur {
    const unsigned char *b;
    size_t n, at;
    int bad;
} cur;

static uint64_t get_varint(cur *c) { return clb_varint_get(c->b, c->n, &c->at, &c->bad); }

static double get_num(cur *c, int64_t last[EMAX + 1])
{
    if (c->at >= c->n)
        return c->bad = 1, NAN;
    unsigned tag = c->b[c->at++];
    if (tag == NUM_NONE)
        return NAN;
    if (tag == NUM_RAW) {
        if (c->n - c->at < 8)
            return c->bad = 1, NAN;
        uint64_t bits = clb_le64_get(c->b + c->at);
        c->at += 8;
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (tag > 2 * EMAX)
        return c->bad = 1, NAN;
    int e = tag > NUM_DELTA ? (int)tag - NUM_DELTA : (int)tag;
    int64_t m = clb_unzigzag(get_varint(c));
    if (tag > NUM_DELTA)
        m = (int64_t)((uint64_t)m + (uint64_t)last[e]);
    if (m >= (1ll << 53) || m <= -(1ll << 53))
        return c->bad = 1, NAN;
    last[e] = m;
    return (double)m / p10[e];
}

static int decode_body(cur *c, clb_store_rec **out, size_t *n)
{
    uint64_t cnt = get_varint(c);
    int64_t last[2][EMAX + 1] = {{0}}, row = 0;
    if (c->bad || cnt > c->n) /* a record takes at least 5 bytes */
        return 0;
    clb_store_rec *r = cnt ? malloc((size_t)cnt * sizeof *r) : NULL;
    if (cnt && !r)
        return 0;
    for (size_t i = 0; i < cnt && !c->bad; i++) {
        row = (int64_t)((uint64_t)row + (uint64_t)clb_unzigzag(get_varint(c)));
        r[i].row = row;
        int64_t st = clb_unzigzag(get_varint(c));
        uint64_t np1 = get_varint(c);
        r[i].status = (int)st, r[i].n = (int)np1 - 1;
        if (st < 0 || st > 0x7fffffff || np1 > 0x7fffffff)
            c->bad = 1;
        r[i].value = get_num(c, last[0]);
        r[i].spread = get_num(c, last[1]);
    }
    if (c->bad || c->at != c->n) {
        free(r);
        return 0;
    }
    *out = r, *n = (size_t)cnt;
    return 1;
}

int clb_store_points_decode(const void *b, size_t len, clb_store_rec **out, size_t *n)
{
    const unsigned char *p = b;
    *out = NULL, *n = 0;
    if (!b || len < 2)
        return 0;
    if (p[0] == PLAIN) {
        cur c = {p + 1, len - 1, 0, 0};
        return decode_body(&c, out, n);
    }
    if (p[0] != ZIPPED)
        return 0;
    cur h = {p, len, 1, 0};
    uint64_t plain = get_varint(&h);
    if (h.bad || plain == 0 || plain > 1032 * (uint64_t)(len - h.at) + 64 || plain > (1u << 30))
        return 0;
    unsigned char *body = malloc((size_t)plain);
    uLongf got = (uLongf)plain;
    int ok = body && uncompress(body, &got, p + h.at, (uLong)(len - h.at)) == Z_OK && got == plain;
    if (ok) {
        cur c = {body, (size_t)plain, 0, 0};
        ok = decode_body(&c, out, n);
    }
    free(body);
    return ok;
}
