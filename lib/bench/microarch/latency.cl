/* latency.*: one dependent chain per work-item; STEP(x) (defined by the host's prefix, with
 * T its type) consumes the previous result, and its operands a, b come from kernel
 * arguments, so the compiler can neither fold nor reorder the chain. UNROLL (64) steps per
 * loop iteration, unrolled, so the loop's own instructions and branch cost little per step. The host recomputes lanes of out and compares. */
__kernel void chain(__global const T *in, __global T *out, T a, T b, int iters)
{
    size_t g = get_global_id(0);
    T x = in[g], y = b;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            STEP(x);
        }
    }
    out[g] = x;
}

/* The seed's dependency-distance sweep (000 §4.3.5): D interleaved independent FMA chains,
 * so each operation depends on the one D operations earlier. Throughput rises with D until
 * D operations cover the pipeline, then stays flat: the knee. */
#define DIST_KERNEL(D)                                                               \
    __kernel void dist_##D(__global const float *in, __global float *out, float a,  \
                           float b, int iters)                                      \
    {                                                                                \
        size_t g = get_global_id(0);                                                 \
        float v[D];                                                                  \
        for (int j = 0; j < D; j++)                                                  \
            v[j] = in[g] + (float)j;                                                 \
        for (int i = 0; i < iters; i++) {                                            \
            _Pragma("unroll") for (int u = 0; u < DUNROLL; u++)                      \
            {                                                                        \
                _Pragma("unroll") for (int j = 0; j < D; j++) v[j] = fma(v[j], a, b); \
            }                                                                        \
        }                                                                            \
        float s = 0.0f;                                                              \
        for (int j = 0; j < D; j++)                                                  \
            s += v[j];                                                               \
        out[g] = s;                                                                  \
    }

#ifdef WITH_DIST
DIST_KERNEL(1) DIST_KERNEL(2) DIST_KERNEL(3) DIST_KERNEL(4) DIST_KERNEL(5) DIST_KERNEL(6)
DIST_KERNEL(7) DIST_KERNEL(8) DIST_KERNEL(9) DIST_KERNEL(10) DIST_KERNEL(11) DIST_KERNEL(12)
DIST_KERNEL(13) DIST_KERNEL(14) DIST_KERNEL(15) DIST_KERNEL(16) DIST_KERNEL(17)
DIST_KERNEL(18) DIST_KERNEL(19) DIST_KERNEL(20) DIST_KERNEL(21) DIST_KERNEL(22)
DIST_KERNEL(23) DIST_KERNEL(24) DIST_KERNEL(25) DIST_KERNEL(26) DIST_KERNEL(27)
DIST_KERNEL(28) DIST_KERNEL(29) DIST_KERNEL(30) DIST_KERNEL(31) DIST_KERNEL(32)
#endif
