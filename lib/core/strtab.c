/* Distinct byte strings in an open-addressing hash table (strtab.h). */
#include "core/strtab.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bits. */
static uint64_t hash(const void *key, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = key, *e = p + len; p < e; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

/* The table rebuilt with nslot slots from the strings. */
static int rehash(clb_strtab *t, size_t nslot)
{
    uint32_t *slot = calloc(nslot, sizeof *slot);
    if (!slot)
        return 0;
    for (size_t i = 0; i < t->n; i++) {
        size_t k = (size_t)hash(t->s[i], t->len[i]) & (nslot - 1);
        while (slot[k])
            k = (k + 1) & (nslot - 1);
        slot[k] = (uint32_t)(i + 1);
    }
    free(t->slot);
    t->slot = slot, t->nslot = nslot;
    return 1;
}

/* Room for one more string: its arrays and a table at most half full after it. */
static int room(clb_strtab *t)
{
    void *const arr[] = {(void *)&t->s, &t->len};
    const size_t sz[] = {sizeof *t->s, sizeof *t->len};
    if (t->n >= UINT32_MAX / 4 || !clb_grow_all(arr, sz, 2, t->n, &t->cap))
        return 0;
    return 2 * (t->n + 1) <= t->nslot || rehash(t, t->nslot ? 2 * t->nslot : 256);
}

size_t clb_strtab_add(clb_strtab *t, const void *key, size_t len, int *added)
{
    *added = 0;
    if (!room(t))
        return SIZE_MAX;
    size_t k = (size_t)hash(key, len) & (t->nslot - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslot - 1)) {
        size_t i = t->slot[k] - 1;
        if (t->len[i] == len && memcmp(t->s[i], key, len) == 0)
            return i;
    }
    const char *s = key;
    if (t->copy) {
        char *c = malloc(len + 1);
        if (!c)
            return SIZE_MAX;
        memcpy(c, key, len);
        c[len] = '\0';
        s = c;
    }
    t->s[t->n] = s, t->len[t->n] = len;
    t->slot[k] = (uint32_t)(t->n + 1);
    *added = 1;
    return t->n++;
}

void clb_strtab_free(clb_strtab *t)
{
    for (size_t i = 0; t->copy && i < t->n; i++)
        free((void *)t->s[i]);
    free(t->s), free(t->len), free(t->slot);
    *t = (clb_strtab){.copy = t->copy};
}
