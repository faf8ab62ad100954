/* Arrays grown by doubling, the one place their sizes are checked against size_t overflow.
 * p is the address of the array pointer (T **, as void *); *cap counts elements. On failure
 * (overflow or out of memory) the array and *cap are left as they were. */
#ifndef CLB_CORE_GROW_H
#define CLB_CORE_GROW_H

#include <stddef.h>

/* Room for n + k elements of size sz: *cap doubled (from 16) until it holds them; 0 on failure. */
int clb_grow_by(void *p, size_t sz, size_t n, size_t k, size_t *cap);
/* Room for element n (n + 1 elements). */
int clb_grow(void *p, size_t sz, size_t n, size_t *cap);
/* Room for element n, the elements added zeroed (tables indexed by an id). */
int clb_grow_zeroed(void *p, size_t sz, size_t n, size_t *cap);
/* Room for element n in each of k parallel arrays (arr[i] the address of array i, sz[i] its
 * element size) sharing *cap. On failure *cap is unchanged: arrays already grown keep their
 * contents, only their room is larger. */
int clb_grow_all(void *const *arr, const size_t *sz, size_t k, size_t n, size_t *cap);

#endif
