/* The store's blob formats share one integer code (store_pack.c's documents, store_points.c's
 * records): unsigned LEB128 varints, 7 bits a byte, low bits first, and zigzag for signs; doubles as 8 little-endian bytes. */
#ifndef CLB_STORE_VARINT_H
#define CLB_STORE_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* Writes v into t (at most 10 bytes); returns the bytes written. */
static inline size_t clb_varint_put(unsigned char t[10], uint64_t v)
{
    size_t k = 0;
    do {
        t[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return k;
}

/* Reads one varint of b[*at .. n) and moves *at past it; a truncated or over-long one sets
 * *bad and reads 0. */
static inline uint64_t clb_varint_get(const unsigned char *b, size_t n, size_t *at, int *bad)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && *at < n; shift += 7) {
        unsigned char x = b[(*at)++];
        v |= (uint64_t)(x & 0x7f) << shift;
        if (!(x & 0x80))
            return v;
    }
    *bad = 1;
    return 0;
}

/* The bytes clb_varint_put would write for v. */
static inline int clb_varint_len(uint64_t v)
{
    int k = 1;
    while (v > 0x7f)
        v >>= 7, k++;
    return k;
}

/* A double's 64 bits, little-endian whatever the host's order (the blobs travel between hosts). */
static inline void clb_le64_put(unsigned char t[8], uint64_t bits)
{
    for (int k = 0; k < 8; k++)
        t[k] = (unsigned char)(bits >> (8 * k));
}

static inline uint64_t clb_le64_get(const unsigned char *b)
{
    uint64_t bits = 0;
    for (int k = 0; k < 8; k++)
        bits |= (uint64_t)b[k] << (8 * k);
    return bits;
}

static inline uint64_t clb_zigzag(int64_t m) { return ((uint64_t)m << 1) ^ (uint64_t)(m >> 63); }
static inline int64_t clb_unzigzag(uint64_t z) { return (int64_t)((z >> 1) ^ (~(z & 1) + 1)); }

#endif
