/* app.sgemm.* / app.dgemm.*: shared declarations of the GEMM rows (lib/apps/gemm/). */
#ifndef CLB_APP_GEMM_H
#define CLB_APP_GEMM_H

#include "apps/app.h"

/* Row-major n x n matrices of float (prec 4) or double (prec 8). */
typedef struct gemm_mats {
    size_t n;
    size_t prec;  /* bytes per element: 4 or 8 */
    void *a, *b;  /* inputs, n x n */
} gemm_mats;

/* C = A B on the host: one thread (sequential) or threads threads, each a band of rows.
 * Cache-blocked i-k-j loops the compiler vectorizes (lib/apps/gemm/gemm_host.c, built with
 * -O3 -march=CLBENCH_HOST_ARCH). c is n x n with leading dimension n. */
void gemm_host_sequential(const gemm_mats *m, void *c);
clb_error gemm_host_pthreads(const gemm_mats *m, void *c, unsigned threads, clb_diag *d);

/* Checks c (n x n, leading dimension ldc, elements of m->prec bytes) against A B
 * (docs/apps/gemm.md): every element when n <= GEMM_CHECK_ALL_N, else Freivalds' test with
 * GEMM_FREIVALDS_VECTORS independent vectors of random signs (false alarm probability at most
 * GEMM_FREIVALDS_DELTA) plus sampled elements, the last row and the last column. Each element
 * must lie within 4 sqrt(n) u sum_k |a_ik b_kj| of the product computed in double. */
#define GEMM_CHECK_ALL_N 512
#define GEMM_FREIVALDS_VECTORS 2
#define GEMM_FREIVALDS_DELTA 1e-9
clb_error gemm_check(const gemm_mats *m, const void *c, size_t ldc, uint64_t seed, clb_diag *d);

/* Fills m's inputs with uniform random values in [-1, 1); returns CLB_ERR_NOMEM. */
clb_error gemm_mats_init(gemm_mats *m, size_t n, size_t prec, uint64_t seed, clb_diag *d);
void gemm_mats_free(gemm_mats *m);

/* The roofline's point (docs/roofline.md): params flops = 2 n^3 and bytes = working_set_bytes =
 * 3 n^2 prec (A, B read and C written once: the compulsory traffic). */
void gemm_roof_params(clb_result *res, size_t n, size_t prec);

#endif
