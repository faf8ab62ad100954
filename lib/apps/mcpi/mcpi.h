/* app.mcpi.*: MonteCarloPi of seed 004 (TORMENT OpenACC, Figs. 1-3), shared declarations.
 * Also what the CUDA twin row (app.mcpi.cuda) is wired with: the sample count, the sequential
 * reference and the validator (docs/apps/mcpi.md). */
#ifndef CLB_APP_MCPI_H
#define CLB_APP_MCPI_H

#include "apps/app.h"

/* glibc's RAND_MAX, the platform of the seed; getRandom returns 11 + 10 + 10 bits, [0, 2^31). */
#define MCPI_RAND_MAX 2147483647u

/* The seed's getRandom and sample i's seed: the one definition (mcpi_rng.h). */
#include "apps/mcpi/mcpi_rng.h"

/* sqrt(s) <= 1 with a correctly rounded sqrt holds exactly for s <= 1 + 2^-23 (the float after
 * 1.0; its root rounds down to 1): the comparison without a square root. */
#define MCPI_S_MAX 0x1.000002p0f

/* Sample i: seed = 1987 ^ i*27 (the product taken mod 2^32, as the seed's 32-bit seed holds
 * it); x = getRandom / RAND_MAX, then y, in float as the seed's CUDA version (Fig. 3); inside
 * when sqrt(x x + y y) <= 1, every operation rounded as IEEE float, nothing contracted into
 * an fma. The one definition of the host, every kernel and the CUDA twin (docs/apps/mcpi.md).
 * (float)RAND_MAX is 2^31, so the division is an exact scaling; the products and the sum are
 * formed in double and rounded to float, which is the correctly rounded float result (double
 * has more than 2 x 24 + 2 bits) and leaves a compiler nothing to contract. */
static inline unsigned mcpi_inside(uint64_t i)
{
    uint32_t seed = MCPI_SEED((uint32_t)(i * 27u));
    float x = (float)mcpi_get_random(&seed) / (float)MCPI_RAND_MAX;
    float y = (float)mcpi_get_random(&seed) / (float)MCPI_RAND_MAX;
    float xx = (float)((double)x * x), yy = (float)((double)y * y);
    return (float)((double)xx + yy) <= MCPI_S_MAX;
}

/* Points inside among samples [i0, i1): the sequential code path (built -O3 -march=native). */
uint64_t mcpi_host_range(uint64_t i0, uint64_t i1);
/* The sequential reference over samples [0, n). */
uint64_t mcpi_host_sequential(uint64_t n);
/* The same count on threads threads, one contiguous slice of samples each. */
clb_error mcpi_host_pthreads(uint64_t n, unsigned threads, uint64_t *inside, clb_diag *d);

/* Sample count of a run: env CLBENCH_MCPI_N, else 2^16 under --quick, 2^26 on CPU devices,
 * 2^30 on others. */
uint64_t mcpi_samples(const clb_ctx *c);

/* The validator: got must equal want (the sequential count of n samples); otherwise
 * CLB_ERR_INVALID_RESULT with the reason in d. */
clb_error mcpi_check(uint64_t n, uint64_t want, uint64_t got, clb_diag *d);

/* 4 inside / n, the estimate of pi. */
double mcpi_pi(uint64_t n, uint64_t inside);

#endif
