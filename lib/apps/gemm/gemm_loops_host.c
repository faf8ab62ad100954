/* Seed 002's sequential loop-order comparison (its first program, mul()): C = A B by the plain
 * triple loop in each order of (i, j, k), every product added into C in memory, and a blocked
 * form. Built with -O3 -march=CLBENCH_HOST_ARCH like the other host rows, and (GCC) without
 * loop interchange, which would otherwise rewrite the slow orders into the fast one
 * (CMakeLists.txt): the order measured is the order named. */
#include "apps/gemm/gemm.h"

#include <string.h>

static const char *const names[GEMM_LOOP_COUNT] = {"ijk", "ikj", "jik", "jki", "kij", "kji", "blocked"};

const char *gemm_loop_name(gemm_loop l)
{
    return (unsigned)l < GEMM_LOOP_COUNT ? names[l] : "?";
}

/* One order: the three loops nested X, Y, Z (outermost first). */
#define ORDER(T, NAME, X, Y, Z)                                                            \
    static void NAME(const T *restrict a, const T *restrict b, T *restrict c, size_t n)   \
    {                                                                                      \
        for (size_t X = 0; X < n; X++)                                                     \
            for (size_t Y = 0; Y < n; Y++)                                                 \
                for (size_t Z = 0; Z < n; Z++)                                             \
                    c[i * n + j] += a[i * n + k] * b[k * n + j];                           \
    }

/* Tiles of GEMM_LOOP_TILE in i, k and j, i-k-j within a tile. */
#define BLOCKED(T, NAME)                                                                   \
    static void NAME(const T *restrict a, const T *restrict b, T *restrict c, size_t n)   \
    {                                                                                      \
        const size_t t = GEMM_LOOP_TILE;                                                   \
        for (size_t ii = 0; ii < n; ii += t)                                               \
            for (size_t kk = 0; kk < n; kk += t)                                           \
                for (size_t jj = 0; jj < n; jj += t)                                       \
                    for (size_t i = ii; i < ii + t && i < n; i++)                          \
                        for (size_t k = kk; k < kk + t && k < n; k++)                      \
                            for (size_t j = jj; j < jj + t && j < n; j++)                  \
                                c[i * n + j] += a[i * n + k] * b[k * n + j];               \
    }

#define ALL(T, S)                                                                          \
    ORDER(T, ijk_##S, i, j, k)                                                             \
    ORDER(T, ikj_##S, i, k, j)                                                             \
    ORDER(T, jik_##S, j, i, k)                                                             \
    ORDER(T, jki_##S, j, k, i)                                                             \
    ORDER(T, kij_##S, k, i, j)                                                             \
    ORDER(T, kji_##S, k, j, i)                                                             \
    BLOCKED(T, blk_##S)
ALL(float, f)
ALL(double, d)

typedef void (*loop_f)(const float *restrict, const float *restrict, float *restrict, size_t);
typedef void (*loop_d)(const double *restrict, const double *restrict, double *restrict, size_t);
static const loop_f fs[GEMM_LOOP_COUNT] = {ijk_f, ikj_f, jik_f, jki_f, kij_f, kji_f, blk_f};
static const loop_d ds[GEMM_LOOP_COUNT] = {ijk_d, ikj_d, jik_d, jki_d, kij_d, kji_d, blk_d};

void gemm_host_loop(const gemm_mats *m, gemm_loop l, void *c)
{
    memset(c, 0, m->n * m->n * m->prec);
    if ((unsigned)l >= GEMM_LOOP_COUNT)
        return;
    if (m->prec == 4)
        fs[l](m->a, m->b, c, m->n);
    else
        ds[l](m->a, m->b, c, m->n);
}
