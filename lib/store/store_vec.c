/* Growing arrays, what every query and the records fill. */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

int clb_store_grow(void *p, size_t sz, size_t cap)
{
    void *q = realloc(*(void **)p, cap * sz);
    if (q)
        *(void **)p = q;
    return q != NULL;
}

int clb_store_room(void *p, size_t sz, size_t n, size_t *cap)
{
    size_t c = *cap ? 2 * *cap : 64;
    if (n < *cap)
        return 1;
    if (!clb_store_grow(p, sz, c))
        return 0;
    *cap = c;
    return 1;
}

void *clb_store_vec_add(clb_store_vec *a)
{
    if (!clb_store_room(&a->v, a->sz, a->n, &a->cap))
        return NULL;
    void *el = (char *)a->v + a->n++ * a->sz;
    memset(el, 0, a->sz);
    return el;
}
