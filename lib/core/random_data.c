/* Random benchmark input: no zero pages, nothing a memory compressor or a cache could exploit. */
#include "core/internal.h"

#include <string.h>

uint64_t clb_rand64(uint64_t *state)
{
    /* xorshift64*: fast, and its output has no pattern a memory compressor could exploit. */
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint64_t clb_fill_random(void *buf, size_t bytes, uint64_t seed)
{
    unsigned char *p = buf;
    uint64_t s = seed;
    while (bytes >= 8) {
        uint64_t v = clb_rand64(&s);
        memcpy(p, &v, 8);
        p += 8;
        bytes -= 8;
    }
    if (bytes) {
        uint64_t v = clb_rand64(&s);
        memcpy(p, &v, bytes);
    }
    return s;
}
