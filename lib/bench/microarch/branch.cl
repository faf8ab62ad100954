/* branch.*: the seed's branching test (000 §4.3.4) and a divergence sweep.
 * The seed: 32 values preloaded into private memory, then, for each, add it or subtract it
 * depending on the loaded value (branch_seed) against straight adds (straight_seed). The
 * branch condition is off the dependency chain over acc, as in the seed; branch_running_sum
 * (clbench's own form) branches on acc itself, which puts the compare on the chain. The host
 * recomputes acc exactly. */
__kernel void branch_seed(__global const float *in, __global float *out, int iters)
{
    size_t g = get_global_id(0);
    float v[32];
    for (int i = 0; i < 32; i++)
        v[i] = in[g * 32 + i];
    float acc = in[g * 32];
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < 32; i++) {
            if (v[i] > 0.0f)
                acc += v[i];
            else
                acc -= v[i];
        }
    }
    out[g] = acc;
}

__kernel void branch_running_sum(__global const float *in, __global float *out, int iters)
{
    size_t g = get_global_id(0);
    float v[32];
    for (int i = 0; i < 32; i++)
        v[i] = in[g * 32 + i];
    float acc = in[g * 32];
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < 32; i++) {
            if (acc > 0.0f)
                acc -= v[i];
            else
                acc += v[i];
        }
    }
    out[g] = acc;
}

__kernel void straight_seed(__global const float *in, __global float *out, int iters)
{
    size_t g = get_global_id(0);
    float v[32];
    for (int i = 0; i < 32; i++)
        v[i] = in[g * 32 + i];
    float acc = in[g * 32];
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < 32; i++)
            acc += v[i];
    }
    out[g] = acc;
}

/* Divergence: lane l takes path ((l / B) & 1). Both paths are equally heavy dependent FMA
 * chains with different constants (so they cannot be merged into one with selected
 * operands); a SIMD group whose lanes disagree executes both, one after the other. */
__kernel void diverge(__global const float *in, __global float *out, int iters, int block,
                      float a, float b)
{
    size_t g = get_global_id(0);
    float x = in[g];
    if ((get_local_id(0) / (uint)block) & 1u) {
        for (int it = 0; it < iters; it++) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                x = fma(x, a, b);
        }
    } else {
        for (int it = 0; it < iters; it++) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                x = fma(x, b, a);
        }
    }
    out[g] = x;
}
