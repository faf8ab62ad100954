/* Helpers of the memory.* rows (memory.c, memory_stream.c): random host data, a random
 * permutation, and device buffers created from host data. */
#include "bench/memory/memory.h"

#include <stdlib.h>

cl_uint *mem_host_random(size_t words, uint64_t seed)
{
    cl_uint *p = malloc(words * sizeof *p);
    if (p)
        clb_fill_random(p, words * sizeof *p, seed);
    return p;
}

/* A random permutation of 0..n-1 (Fisher-Yates). */
cl_uint *mem_random_permutation(size_t n, uint64_t seed)
{
    cl_uint *p = malloc(n * sizeof *p);
    uint64_t st = seed;
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++)
        p[i] = (cl_uint)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(clb_rand64(&st) % (i + 1));
        cl_uint t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

clb_error mem_upload(clb_ctx *c, cl_mem *buf, const void *host, size_t bytes, cl_mem_flags fl)
{
    clb_diag *d = &c->diag;
    CLB_CL(d, *buf = clCreateBuffer(clb_device_context(c->dev), fl, bytes, NULL, CLB_ERRP));
    if (host)
        CLB_CL(d, clEnqueueWriteBuffer(clb_device_queue(c->dev), *buf, CL_TRUE, 0, bytes, host, 0,
                                       NULL, NULL));
cleanup:
    return d->err;
}
