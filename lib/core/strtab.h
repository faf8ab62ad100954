/* Distinct byte strings numbered in the order first added, found through one open-addressing
 * hash table (linear probing, a power of two of slots, at most half full): the store's packed
 * strings and the site writer's pools. */
#ifndef CLB_CORE_STRTAB_H
#define CLB_CORE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct clb_strtab {
    const char **s; /* index -> string: the caller's (borrowed), or with copy its own copy */
    size_t *len;
    size_t n, cap;
    uint32_t *slot; /* index + 1, 0 empty */
    size_t nslot;
    int copy; /* set before the first add: keep NUL-terminated copies (freed with the table) */
} clb_strtab;

/* The index of the len bytes at key, added when new (*added 1, else 0); SIZE_MAX when out of
 * memory or past UINT32_MAX / 4 strings (the table unchanged). */
size_t clb_strtab_add(clb_strtab *t, const void *key, size_t len, int *added);
/* Frees the table and its copies; t is emptied, copy kept. */
void clb_strtab_free(clb_strtab *t);

#endif
