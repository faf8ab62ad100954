/* SAXPY on the host, one thread or one slice per thread: the reference rows. Built with -O3
 * -march=CLBENCH_HOST_ARCH (CMakeLists.txt) so the loop is vectorized. */
#include "saxpy.h"

#include <pthread.h>
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
    pthread_t *tid = calloc(threads, sizeof *tid);
    job *jobs = calloc(threads, sizeof *jobs);
    unsigned started = 0;
    clb_diag_clear(d);
    if (!tid || !jobs)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (; started < threads; started++) {
        /* Slices on 16-element boundaries, so no two threads share a cache line. */
        size_t i0 = n * started / threads / 16 * 16, i1 = n * (started + 1) / threads / 16 * 16;
        jobs[started] = (job){a, x, y, i0, started + 1 == threads ? n : i1};
        if (pthread_create(&tid[started], NULL, run_job, &jobs[started]) != 0)
            CLB_FAIL(d, CLB_ERR_NOMEM, "pthread_create failed after %u threads", started);
    }
cleanup:
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    free(jobs);
    return d->err;
}
