/* SAXPY on the host, one thread or one slice per thread: the reference rows. Built with -O3
 * -march=CLBENCH_HOST_ARCH (CMakeLists.txt) so the loop is vectorized. */
#include "apps/saxpy/saxpy.h"

#include <stdlib.h>

static void slice(float a, const float *restrict x, float *restrict y, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++)
        y[i] = a * x[i] + y[i];
}

void saxpy_host_sequential(float a, const float *x, float *y, size_t n)
{
    slice(a, x, y, 0, n);
}

typedef struct job {
    float a;
    const float *x;
    float *y;
    size_t i0, i1;
} job;

static void *run_job(void *p)
{
    job *j = p;
    slice(j->a, j->x, j->y, j->i0, j->i1);
    return NULL;
}

clb_error saxpy_host_pthreads(float a, const float *x, float *y, size_t n, unsigned threads,
                              clb_diag *d)
{
    job *jobs = calloc(threads, sizeof *jobs);
    clb_diag_clear(d);
    if (!jobs)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned t = 0; t < threads; t++) {
        /* Slices on 16-element boundaries, so no two threads share a cache line. */
        size_t i0 = n * t / threads / 16 * 16, i1 = n * (t + 1) / threads / 16 * 16;
        jobs[t] = (job){a, x, y, i0, t + 1 == threads ? n : i1};
    }
    app_parallel(threads, jobs, sizeof *jobs, run_job, d);
    free(jobs);
    return d->err;
}
