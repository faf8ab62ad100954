/* Arrays grown by doubling (grow.h). */
#include "core/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity *cap doubles to for need elements of size sz, 0 when it or its bytes overflow. */
static size_t doubled(size_t cap, size_t need, size_t sz)
{
    size_t c = cap < 16 ? 16 : cap;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return 0;
        c *= 2;
    }
    return sz && c <= SIZE_MAX / sz ? c : 0;
}

int clb_grow_by(void *p, size_t sz, size_t n, size_t k, size_t *cap)
{
    if (k > SIZE_MAX - n)
        return 0;
    if (n + k <= *cap)
        return 1;
    size_t c = doubled(*cap, n + k, sz);
    void *q = c ? realloc(*(void **)p, c * sz) : NULL;
    if (!q)
        return 0;
    *(void **)p = q;
    *cap = c;
    return 1;
}

int clb_grow(void *p, size_t sz, size_t n, size_t *cap)
{
    return clb_grow_by(p, sz, n, 1, cap);
}

int clb_grow_zeroed(void *p, size_t sz, size_t n, size_t *cap)
{
    size_t old = *cap;
    if (!clb_grow(p, sz, n, cap))
        return 0;
    memset((char *)*(void **)p + old * sz, 0, (*cap - old) * sz);
    return 1;
}

int clb_grow_all(void *const *arr, const size_t *sz, size_t k, size_t n, size_t *cap)
{
    size_t grown = *cap;
    for (size_t i = 0; i < k; i++) {
        size_t c = *cap;
        if (!clb_grow(arr[i], sz[i], n, &c))
            return 0;
        grown = c;
    }
    *cap = grown;
    return 1;
}
