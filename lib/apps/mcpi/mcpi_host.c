/* MonteCarloPi on the host: the seed's sequential loop and one slice per thread. Built with
 * -O3 -march=CLBENCH_HOST_ARCH (CMakeLists.txt); integer arithmetic only, so the count is
 * the same whatever the compiler vectorizes. */
#include "apps/mcpi/mcpi.h"

#include <stdlib.h>

uint64_t mcpi_host_range(uint64_t i0, uint64_t i1)
{
    uint64_t count = 0;
    for (uint64_t i = i0; i < i1; i++)
        count += mcpi_inside(i);
    return count;
}

uint64_t mcpi_host_sequential(uint64_t n)
{
    return mcpi_host_range(0, n);
}

typedef struct job {
    uint64_t i0, i1, count;
} job;

static void *run_job(void *p)
{
    job *j = p;
    j->count = mcpi_host_range(j->i0, j->i1);
    return NULL;
}

clb_error mcpi_host_pthreads(uint64_t n, unsigned threads, uint64_t *inside, clb_diag *d)
{
    job *jobs = calloc(threads, sizeof *jobs);
    clb_diag_clear(d);
    if (!jobs)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned t = 0; t < threads; t++)
        jobs[t] = (job){n * t / threads, n * (t + 1) / threads, 0};
    if (app_parallel(threads, jobs, sizeof *jobs, run_job, d) == CLB_OK) {
        *inside = 0;
        for (unsigned t = 0; t < threads; t++)
            *inside += jobs[t].count;
    }
    free(jobs);
    return d->err;
}
