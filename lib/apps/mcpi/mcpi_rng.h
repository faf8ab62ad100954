/* MonteCarloPi's random numbers: the one definition of seed 004's getRandom (TORMENT OpenACC,
 * Fig. 1) and of sample i's seed, shared by the host (mcpi.h), the OpenCL kernels (mcpi.cl:
 * cmake/EmbedKernelsScript.cmake pastes this file over its #include line when it embeds the
 * kernel), the CUDA twin (lib/apps/cuda/cuda_twins.cu) and the tests' fake twin. Written in
 * the common subset of C11, OpenCL C 1.2 and CUDA C++. */
#ifndef CLB_MCPI_RNG_H
#define CLB_MCPI_RNG_H

#if defined(__OPENCL_VERSION__)
#define MCPI_FN
#define MCPI_U32 uint
#elif defined(__CUDACC__)
#include <stdint.h>
#define MCPI_FN __device__ __forceinline__ static
#define MCPI_U32 uint32_t
#else
#include <stdint.h>
#define MCPI_FN static inline
#define MCPI_U32 uint32_t
#endif

/* The LCG's constants (glibc's rand_r). */
#define MCPI_LCG_A 1103515245u
#define MCPI_LCG_C 12345u

/* Sample i's seed from seed27 = i * 27 (mod 2^32): a kernel may step seed27 instead of
 * multiplying. */
#define MCPI_SEED(seed27) (1987u ^ (seed27))

/* The seed's getRandom with `next` pinned to 32 bits (the bits it extracts, 16..26, lie below
 * bit 32, so an `unsigned long` next gives the same values). Seed 004 writes it
 *     next = next * A + C; result = (next >> 16) % 2048;
 *     next = next * A + C; result = (result << 10) ^ ((next >> 16) % 1024);
 *     next = next * A + C; result = (result << 10) ^ ((next >> 16) % 1024);
 * i.e. bits 16..26 of the first state, then bits 16..25 of the second and of the third: 11 + 10 +
 * 10 bits, [0, 2^31). Here the same bits are placed with fewer integer operations (the GPU's
 * limit, docs/apps/mcpi.md): the second state's field stays where it is and the third's, shifted
 * right by 10, is selected below it (its low 6 bits of garbage leave with the shift by 6); the
 * first's field is shifted into bits 20..30. tests/test_mcpi_rng.c checks it against the seed's
 * text. */
MCPI_FN MCPI_U32 mcpi_get_random(MCPI_U32 *seed)
{
    MCPI_U32 s1 = *seed * MCPI_LCG_A + MCPI_LCG_C;
    MCPI_U32 s2 = s1 * MCPI_LCG_A + MCPI_LCG_C;
    MCPI_U32 s3 = s2 * MCPI_LCG_A + MCPI_LCG_C;
    MCPI_U32 low = ((s2 & 0x03FF0000u) | ((s3 >> 10) & ~0x03FF0000u)) >> 6;
    *seed = s3;
    return ((s1 << 4) & 0x7FF00000u) | low;
}

#endif
