/* Validation of a GEMM result against A B computed in double (docs/apps/gemm.md). */
#include "apps/gemm/gemm.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static double at(const void *p, size_t prec, size_t i)
{
    return prec == 4 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* Unit roundoff of the app's precision, plus the host's double rounding. */
static double unit_roundoff(size_t prec)
{
    return (prec == 4 ? 0x1p-24 : 0x1p-53) + 2 * 0x1p-53;
}

/* Element (i, j) of A B and its error scale sum_k |a_ik b_kj|, both in double. */
static void dot(const gemm_mats *m, size_t i, size_t j, double *v, double *s)
{
    double acc = 0, mag = 0;
    for (size_t k = 0; k < m->n; k++) {
        double p = at(m->a, m->prec, i * m->n + k) * at(m->b, m->prec, k * m->n + j);
        acc += p;
        mag += fabs(p);
    }
    *v = acc;
    *s = mag;
}

static clb_error check_element(const gemm_mats *m, const void *c, size_t ldc, size_t i, size_t j,
                               double tolf, clb_diag *d)
{
    double v, s, got = at(c, m->prec, i * ldc + j);
    dot(m, i, j, &v, &s);
    double tol = tolf * s + DBL_MIN;
    if (!(fabs(got - v) <= tol))
        return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                            "C[%zu][%zu] = %.9g, expected %.9g (|error| %.3g > bound %.3g)", i, j,
                            got, v, fabs(got - v), tol);
    return CLB_OK;
}

/* y = |M| x or M x for an n x n matrix (abs selects), in double. */
static void matvec(const void *mat, size_t prec, size_t n, size_t ld, const double *x, double *y,
                   int abs_)
{
    for (size_t i = 0; i < n; i++) {
        double acc = 0;
        for (size_t k = 0; k < n; k++) {
            double e = at(mat, prec, i * ld + k);
            acc += (abs_ ? fabs(e) : e) * x[k];
        }
        y[i] = acc;
    }
}

/* The bound of row i of C x - A (B x) (docs/apps/gemm.md, "Freivalds' test"): with every
 * element within tolf s_ij and x random signs drawn after C, Hoeffding's inequality bounds
 * |sum_j e_ij x_j| by tolf ||a_i|| ||B||_F sqrt(2 ln(2 n V / delta)) except with probability
 * delta over all n rows and V vectors; the host's double matrix-vector products add at most
 * n u_d ((|C| 1)_i + 2 (|A| |B| 1)_i). */
static void freivalds_bounds(const gemm_mats *m, const void *c, size_t ldc, double tolf, double *tol)
{
    size_t n = m->n;
    double *one = malloc(n * sizeof *one), *t = malloc(n * sizeof *t), *w = malloc(n * sizeof *w),
           *cr = malloc(n * sizeof *cr);
    double bf = 0, hoeff = sqrt(2.0 * log(2.0 * (double)n * GEMM_FREIVALDS_VECTORS / GEMM_FREIVALDS_DELTA));
    for (size_t i = 0; i < n * n; i++)
        bf += at(m->b, m->prec, i) * at(m->b, m->prec, i);
    if (one && t && w && cr) {
        for (size_t i = 0; i < n; i++)
            one[i] = 1;
        matvec(m->b, m->prec, n, n, one, t, 1); /* |B| 1 */
        matvec(m->a, m->prec, n, n, t, w, 1);   /* |A| |B| 1 */
        matvec(c, m->prec, n, ldc, one, cr, 1); /* |C| 1 */
    }
    for (size_t i = 0; i < n; i++) {
        double ai = 0;
        for (size_t k = 0; k < n; k++)
            ai += at(m->a, m->prec, i * n + k) * at(m->a, m->prec, i * n + k);
        /* out of memory: the host rounding term falls back to infinity (nothing rejected) */
        double host = one && t && w && cr ? (double)n * 0x1p-52 * (cr[i] + 2 * w[i]) : INFINITY;
        tol[i] = tolf * sqrt(ai * bf) * hoeff + host + DBL_MIN;
    }
    free(one);
    free(t);
    free(w);
    free(cr);
}

/* Freivalds: C x against A (B x) for GEMM_FREIVALDS_VECTORS independent vectors of random
 * signs (every element of C weighs fully in its row's sum). */
static clb_error freivalds(const gemm_mats *m, const void *c, size_t ldc, uint64_t *rng,
                           double tolf, clb_diag *d)
{
    size_t n = m->n;
    double *x = calloc(n, sizeof *x), *t = calloc(n, sizeof *t), *y = calloc(n, sizeof *y),
           *z = calloc(n, sizeof *z), *tol = calloc(n, sizeof *tol);
    clb_diag_clear(d);
    if (!x || !t || !y || !z || !tol)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    freivalds_bounds(m, c, ldc, tolf, tol);
    for (int v = 0; v < GEMM_FREIVALDS_VECTORS; v++) {
        for (size_t i = 0; i < n; i++)
            x[i] = clb_rand64(rng) >> 63 ? 1.0 : -1.0;
        matvec(c, m->prec, n, ldc, x, y, 0);  /* C x */
        matvec(m->b, m->prec, n, n, x, t, 0); /* B x */
        matvec(m->a, m->prec, n, n, t, z, 0); /* A (B x) */
        for (size_t i = 0; i < n; i++)
            if (!(fabs(y[i] - z[i]) <= tol[i]))
                CLB_FAIL(d, CLB_ERR_INVALID_RESULT,
                         "Freivalds check (vector %d): row %zu of C x is %.9g, A (B x) gives %.9g "
                         "(|diff| %.3g > bound %.3g)",
                         v + 1, i, y[i], z[i], fabs(y[i] - z[i]), tol[i]);
    }
cleanup:
    free(x);
    free(t);
    free(y);
    free(z);
    free(tol);
    return d->err;
}

clb_error gemm_check(const gemm_mats *m, const void *c, size_t ldc, uint64_t seed, clb_diag *d)
{
    size_t n = m->n;
    double tolf = 4.0 * sqrt((double)n) * unit_roundoff(m->prec);
    uint64_t rng = seed | 1;
    clb_diag_clear(d);
    if (n <= GEMM_CHECK_ALL_N) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                if (check_element(m, c, ldc, i, j, tolf, d) != CLB_OK)
                    return d->err;
        return CLB_OK;
    }
    if (freivalds(m, c, ldc, &rng, tolf, d) != CLB_OK)
        return d->err;
    /* The edges, where padding and partial tiles end, then random elements. */
    for (size_t e = 0; e < n; e += 1 + n / 256)
        if (check_element(m, c, ldc, n - 1, e, tolf, d) != CLB_OK ||
            check_element(m, c, ldc, e, n - 1, tolf, d) != CLB_OK)
            return d->err;
    for (int s = 0; s < 1024; s++)
        if (check_element(m, c, ldc, clb_rand64(&rng) % n, clb_rand64(&rng) % n, tolf, d) != CLB_OK)
            return d->err;
    return CLB_OK;
}

clb_error gemm_mats_init(gemm_mats *m, size_t n, size_t prec, uint64_t seed, clb_diag *d)
{
    m->n = n;
    m->prec = prec;
    m->a = malloc(n * n * prec);
    m->b = malloc(n * n * prec);
    if (!m->a || !m->b)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory for two %zu x %zu matrices", n, n);
    uint64_t rng = seed | 1;
    for (size_t i = 0; i < n * n; i++) {
        double va = app_uniform(&rng), vb = app_uniform(&rng);
        if (prec == 4) {
            ((float *)m->a)[i] = (float)va;
            ((float *)m->b)[i] = (float)vb;
        } else {
            ((double *)m->a)[i] = va;
            ((double *)m->b)[i] = vb;
        }
    }
    return CLB_OK;
}

void gemm_mats_free(gemm_mats *m)
{
    free(m->a);
    free(m->b);
    m->a = m->b = NULL;
}

void gemm_roof_params(clb_result *res, size_t n, size_t prec)
{
    double nn = (double)n, bytes = 3.0 * nn * nn * (double)prec;
    clb_param_num(res, "flops", 2.0 * nn * nn * nn);
    clb_param_num(res, "bytes", bytes);
    clb_param_num(res, "working_set_bytes", bytes);
}
