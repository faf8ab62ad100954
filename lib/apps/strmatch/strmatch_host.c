/* StringMatch on the host: the seed's naive search, one thread or one slice of start
 * positions per thread. Built with -O3 -march=CLBENCH_HOST_ARCH (CMakeLists.txt). */
#include "apps/strmatch/strmatch.h"

#include <stdlib.h>

long long strmatch_first(const char *text, size_t len, const char *pat, size_t m, size_t i0, size_t i1)
{
    if (len < m)
        return -1;
    if (i1 > len - m + 1)
        i1 = len - m + 1;
    for (size_t i = i0; i < i1; i++) {
        size_t j = 0;
        while (j < m && text[i + j] == pat[j])
            j++;
        if (j == m)
            return (long long)i;
    }
    return -1;
}

void strmatch_host_sequential(const strmatch_input *in, long long *pos)
{
    for (size_t k = 0; k < in->npat; k++)
        pos[k] = strmatch_first(in->text, in->len, in->pats + k * in->m, in->m, 0, in->len);
}

typedef struct job {
    const strmatch_input *in;
    size_t i0, i1;
    long long pos[STRMATCH_NPAT];
} job;

static void *run_job(void *p)
{
    job *j = p;
    for (size_t k = 0; k < j->in->npat; k++)
        j->pos[k] = strmatch_first(j->in->text, j->in->len, j->in->pats + k * j->in->m, j->in->m, j->i0, j->i1);
    return NULL;
}

clb_error strmatch_host_pthreads(const strmatch_input *in, unsigned threads, long long *pos, clb_diag *d)
{
    job *jobs = calloc(threads, sizeof *jobs);
    clb_diag_clear(d);
    if (!jobs)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned t = 0; t < threads; t++)
        jobs[t] = (job){.in = in, .i0 = in->len * t / threads, .i1 = in->len * (t + 1) / threads};
    if (app_parallel(threads, jobs, sizeof *jobs, run_job, d) == CLB_OK) {
        /* The first slice with a match holds the first occurrence. */
        for (size_t k = 0; k < in->npat; k++) {
            pos[k] = -1;
            for (unsigned t = 0; t < threads && pos[k] < 0; t++)
                pos[k] = jobs[t].pos[k];
        }
    }
    free(jobs);
    return d->err;
}
