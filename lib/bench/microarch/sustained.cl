/* sustained.*: FP32 FMA chains held for a configurable time. The host specialises the kernel
 * with a prefix (lib/bench/microarch/sustained.c picks the best of a small search, as compute.* does):
 *   SUS_VT      float or floatW (W = SUS_W lanes)
 *   SUS_W       vector width 1, 2, 4, 8, 16
 *   SUS_LANES   (SUS_VT)(0, 1, ..., W-1)
 *   SUS_CHAINS  independent chains per work-item (instruction-level parallelism)
 * Chain j, lane l starts at in[g] + (j*W + l) and steps x = fma(x, a, b), 16 unrolled steps
 * per iteration; a, b are uniform arguments (contractive: values stay finite). Lane l of the
 * output is the sum of its chains in order 0..CHAINS-1; the host recomputes sampled lanes. */
#pragma OPENCL FP_CONTRACT OFF

#if SUS_W == 1
#define SUS_STORE(v, g, out) (out)[g] = (v)
#else
#define SUS_STORE_(w) vstore##w
#define SUS_STORE_W(w) SUS_STORE_(w)
#define SUS_STORE(v, g, out) SUS_STORE_W(SUS_W)((v), (g), (out))
#endif

__kernel void fma_chains(__global const float *in, __global float *out, float a, float b,
                         int iters)
{
    size_t g = get_global_id(0);
    const SUS_VT va = (SUS_VT)(a), vb = (SUS_VT)(b), x0 = (SUS_VT)(in[g]);
    SUS_VT x[SUS_CHAINS];
#pragma unroll
    for (int j = 0; j < SUS_CHAINS; j++)
        x[j] = x0 + (SUS_LANES + (SUS_VT)((float)(j * SUS_W)));
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 16; u++) {
#pragma unroll
            for (int j = 0; j < SUS_CHAINS; j++)
                x[j] = fma(x[j], va, vb);
        }
    }
    SUS_VT s = x[0];
#pragma unroll
    for (int j = 1; j < SUS_CHAINS; j++)
        s = s + x[j];
    SUS_STORE(s, g, out);
}
