/* Host GEMM, sequential and on all cores with pthreads: the reference rows of the ladder.
 * Built with -O3 -march=CLBENCH_HOST_ARCH (CMakeLists.txt). i-k-j order over blocks of k and
 * j, so the inner loop streams a row of B and of C that the compiler vectorizes and a block
 * of B stays in the L2 cache while the rows of A pass over it. */
#include "apps/gemm/gemm.h"

#include <stdlib.h>
#include <string.h>

enum { BK = 128, BJ = 512 };

#define GEMM_BAND(T, NAME)                                                                 \
    static void NAME(const T *restrict a, const T *restrict b, T *restrict c, size_t n,    \
                     size_t i0, size_t i1)                                                 \
    {                                                                                      \
        memset(c + i0 * n, 0, (i1 - i0) * n * sizeof *c);                                  \
        for (size_t jj = 0; jj < n; jj += BJ) {                                            \
            size_t j1 = jj + BJ < n ? jj + BJ : n;                                         \
            for (size_t kk = 0; kk < n; kk += BK) {                                        \
                size_t k1 = kk + BK < n ? kk + BK : n;                                     \
                for (size_t i = i0; i < i1; i++) {                                         \
                    T *restrict ci = c + i * n;                                            \
                    for (size_t k = kk; k < k1; k++) {                                     \
                        const T aik = a[i * n + k];                                        \
                        const T *restrict bk = b + k * n;                                  \
                        for (size_t j = jj; j < j1; j++)                                   \
                            ci[j] += aik * bk[j];                                          \
                    }                                                                      \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    }
GEMM_BAND(float, band_f)
GEMM_BAND(double, band_d)

static void band(const gemm_mats *m, void *c, size_t i0, size_t i1)
{
    if (m->prec == 4)
        band_f(m->a, m->b, c, m->n, i0, i1);
    else
        band_d(m->a, m->b, c, m->n, i0, i1);
}

void gemm_host_sequential(const gemm_mats *m, void *c)
{
    band(m, c, 0, m->n);
}

typedef struct band_job {
    const gemm_mats *m;
    void *c;
    size_t i0, i1;
} band_job;

static void *band_thread(void *p)
{
    band_job *j = p;
    band(j->m, j->c, j->i0, j->i1);
    return NULL;
}

clb_error gemm_host_pthreads(const gemm_mats *m, void *c, unsigned threads, clb_diag *d)
{
    band_job *job = calloc(threads, sizeof *job);
    clb_diag_clear(d);
    if (!job)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned t = 0; t < threads; t++)
        job[t] = (band_job){m, c, m->n * t / threads, m->n * (t + 1) / threads};
    app_parallel(threads, job, sizeof *job, band_thread, d);
    free(job);
    return d->err;
}
