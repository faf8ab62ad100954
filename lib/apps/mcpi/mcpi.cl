/* MonteCarloPi of seed 004 (TORMENT OpenACC, Figs. 1-3): sample i seeds the seed's getRandom
 * LCG with 1987 ^ i*27 (mod 2^32) and draws x, then y = getRandom / RAND_MAX in float; inside
 * when sqrt(x x + y y) <= 1 with every operation an IEEE float rounding and no fma, as the
 * host does (lib/apps/mcpi/mcpi.h): without the square root, x x + y y <= 1 + 2^-23.
 * The count is 64 bits kept in two 32-bit words (count[0] low, count[1] high) so that only
 * 32-bit atomics are needed: an add that wraps the low word carries into the high word. */
#pragma OPENCL FP_CONTRACT OFF
#define MCPI_S_MAX 0x1.000002p0f

/* getRandom and the seed: the one definition (pasted here when the kernel is embedded). */
#include "mcpi_rng.h"

/* seed27 = (uint)(i * 27): the caller may step it instead of multiplying. The test
 * x x + y y <= MCPI_S_MAX with x = X 2^-31, y = Y 2^-31 (X, Y the draws rounded to float) is
 * evaluated as X X + Y Y <= MCPI_S_MAX 2^62: scaling by a power of two commutes with every
 * rounding here (no product or sum is subnormal: a nonzero X X is >= 1, and X X <= 2^62 stays
 * far below overflow), so both forms give the same bit for every sample, two multiplies
 * fewer. */
uint inside(uint seed27)
{
    uint seed = MCPI_SEED(seed27);
    float x = convert_float_rte(mcpi_get_random(&seed));
    float y = convert_float_rte(mcpi_get_random(&seed));
    return x * x + y * y <= MCPI_S_MAX * 0x1p62f;
}

void count_add(volatile __global uint *count, uint v)
{
    uint old = atomic_add(&count[0], v);
    if (old + v < old)
        atomic_inc(&count[1]);
}

/* Sums part[0..local size) (a power of two) and adds the sum to count once per group. */
void group_sum_add(__local uint *part, volatile __global uint *count)
{
    uint t = get_local_id(0);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < s)
            part[t] += part[t + s];
    }
    if (t == 0 && part[0])
        count_add(count, part[0]);
}

/* One sample per work-item, one global atomic per point inside (seed Fig. 2's loop body). */
__kernel void mcpi_cl_naive(ulong n, volatile __global uint *count)
{
    ulong i = get_global_id(0);
    if (i < n && inside((uint)(i * 27ul)))
        count_add(count, 1u);
}

/* One sample per work-item, summed in local memory: one atomic per work-group. */
__kernel void mcpi_cl_local(ulong n, volatile __global uint *count, __local uint *part)
{
    ulong i = get_global_id(0);
    part[get_local_id(0)] = i < n ? inside((uint)(i * 27ul)) : 0u;
    group_sum_add(part, count);
}

/* A grid sized to fill the device; each work-item takes samples i, i + G, i + 2G, ... (G the
 * global size) into a private count, then the group sums in local memory (seed Fig. 3). The
 * loop counts the item's samples in 32 bits (the host keeps n / G below 2^32), unrolled
 * 8 times: the 64-bit index and its compare cost issue slots on a GPU whose limit
 * here is the integer issue rate (docs/apps/mcpi.md; on the H200 unrolled 2, 4, 8 times: 938,
 * 1021, 1036 Gsamples/s at 2^30 samples, 32 registers). */
__kernel void mcpi_cl_items(ulong n, volatile __global uint *count, __local uint *part)
{
    ulong i = get_global_id(0), g = get_global_size(0);
    uint s27 = (uint)(i * 27ul), step27 = (uint)(g * 27ul), c = 0;
    uint m = i < n ? (uint)((n - i + g - 1) / g) : 0u;
#pragma unroll 8
    for (uint k = 0; k < m; k++, s27 += step27)
        c += inside(s27);
    part[get_local_id(0)] = c;
    group_sum_add(part, count);
}
