/* sustained.*: a high-ILP FP32 FMA kernel (8 independent chains per work-item, 16 steps each
 * per iteration) kept running for a configurable time. Contractive constants keep the values
 * finite; the host recomputes a lane. */
__kernel void fma8(__global const float *in, __global float *out, float a, float b, int iters)
{
    size_t g = get_global_id(0);
    float x0 = in[g], x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
            x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
            x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
        }
    }
    out[g] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
