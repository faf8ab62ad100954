/* compute.*: arithmetic peak. One source, specialised by build-time macros (set by
 * lib/bench/compute/compute.c; the host reference in lib/bench/compute/compute_model.c mirrors this file):
 *   CLB_T      scalar type (float, double, half, uint)
 *   CLB_VT     vector type of width CLB_W (float, float4, ...)
 *   CLB_W      vector width 1, 2, 4, 8, 16
 *   CLB_LANES  (CLB_VT)(0, 1, ..., W-1): the per-lane offset the seed adds
 *   CLB_CHAINS independent accumulators per work-item (instruction-level parallelism)
 *   CLB_UNROLL steps per loop iteration (even; 24 as in the seed)
 *   CLB_OP     1 add, 2 mul, 3 mad as a*b+c (-cl-mad-enable), 4 fma(), 5 mad(), 6 mad24,
 *              7 dot_4x8packed_uu_uint (cl_khr_integer_dot_product; width 1 only), 8 mul24
 *   CLB_SHAPE  0 reg: x = x op y with y, c private per work-item
 *              1 arg: x = a op x with a, b uniform kernel arguments
 *              2 pingpong: accumulators in pairs, each update reads its partner
 *   CLB_FP64, CLB_FP16  enable the extensions.
 *
 * Operations counted per step and chain and lane (ops per loop iteration per lane =
 * CLB_UNROLL * CLB_CHAINS * this): add, mul: 1; mad, fma, mad(), mad24: 2; the packed 8-bit
 * dot product plus accumulate: 8 (4 multiplies, 3 adds inside, 1 accumulate). The int24 mask
 * that keeps mad24's and mul24's inputs in range is not counted, the initialisation and the final sum
 * over the chains are not counted (they are outside the loop).
 *
 * Operand patterns keep values bounded (seed 000 §4.3.1, after SHOC):
 *   add: x += a, then x += b with b ~ -a (reg/arg); pingpong x = y - x, y = x - y (period 6)
 *   mul: x *= q, then x *= 1/q (reg/arg)
 *   mad, fma, mad(): x = x*q + c with q = 1 at run time, c ~ 2^-20 (reg/arg): x*q is
 *                    exact, so fused or not gives the same bits, and x grows with every step;
 *                    pingpong x = x*p + y, y = y*p + x with p = -1 (a rotation, period 3)
 *   uint add, mul: pingpong only, since a compiler may legally fold a loop-invariant
 *     integer operand (x + a + b) or a linear recurrence: add is x = x + y, y = y ^ x (the
 *     xor, a simple ALU op of the add's cost, defeats the folding; both counted), mul is
 *     x = x*y, y = y*x with odd values (never 0 mod 2^32).
 *   uint mad: x = x*a + b (reg/arg); pingpong x = x*y + a, y = y*x + a (wraps mod 2^32)
 *   mad24: x = mad24(x, a, b) & 0xFFFFFF (reg/arg)
 *   mul24: pingpong only, x = mul24(x, y) & 0xFFFFFF, y = mul24(y, x) & 0xFFFFFF (odd values)
 *   dot4: x = dot_4x8packed_uu_uint(x, a) + b (reg/arg): the sum's bytes are the next
 *     packed input, so the chain is nonlinear and cannot be folded
 * Work-item inputs in[4*gid + 0..3] = x0, a, b, d; chain j lane l starts at
 * fma(j*W + l, d, x0) (integers: x0 + (j*W + l)*d). Each lane of the output is the sum of
 * the chains in order 0..CHAINS-1, written back so nothing is optimised away. */
#if CLB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if CLB_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#if CLB_OP == 7
#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable
#endif
#if CLB_OP != 3
/* Only the a*b+c variant may contract; everything else is one correctly rounded op. */
#pragma OPENCL FP_CONTRACT OFF
#endif

#if CLB_IS_INT
#define START(idx, d, x0) ((x0) + (CLB_VT)(idx) * (d))
#else
#define START(idx, d, x0) fma((CLB_VT)(idx), (d), (x0))
#endif

#if CLB_OP == 1 && CLB_IS_INT
#define PAIR(x, y, P, C) x = (x) + (y); y = (y) ^ (x)
#elif CLB_OP == 1
#define STEP(x, A, B, u) x = (((u) & 1) ? (x) + (B) : (x) + (A))
#define PAIR(x, y, P, C) x = (y) - (x); y = (x) - (y)
#elif CLB_OP == 2
#define STEP(x, A, B, u) x = (((u) & 1) ? (x) * (B) : (x) * (A))
#define PAIR(x, y, P, C) x = (x) * (y); y = (y) * (x)
#elif CLB_OP == 3
#if CLB_IS_INT
#define STEP(x, A, B, u) x = (x) * (A) + (B)
#define PAIR(x, y, P, C) x = (x) * (y) + (C); y = (y) * (x) + (C)
#else
#define STEP(x, A, B, u) x = (x) * (A) + (B)
#define PAIR(x, y, P, C) x = (x) * (P) + (y); y = (y) * (P) + (x)
#endif
#elif CLB_OP == 4
#define STEP(x, A, B, u) x = fma((x), (A), (B))
#define PAIR(x, y, P, C) x = fma((x), (P), (y)); y = fma((y), (P), (x))
#elif CLB_OP == 5
#define STEP(x, A, B, u) x = mad((x), (A), (B))
#define PAIR(x, y, P, C) x = mad((x), (P), (y)); y = mad((y), (P), (x))
#elif CLB_OP == 6
#define STEP(x, A, B, u) x = mad24((x), (A), (B)) & (CLB_VT)(0xFFFFFFu)
#define PAIR(x, y, P, C) x = mad24((x), (y), (C)) & (CLB_VT)(0xFFFFFFu); y = mad24((y), (x), (C)) & (CLB_VT)(0xFFFFFFu)
#elif CLB_OP == 8
#define PAIR(x, y, P, C) x = mul24((x), (y)) & (CLB_VT)(0xFFFFFFu); y = mul24((y), (x)) & (CLB_VT)(0xFFFFFFu)
#elif CLB_OP == 7
#define STEP(x, A, B, u) x = dot_4x8packed_uu_uint((x), (A)) + (B)
#define PAIR(x, y, P, C) x = dot_4x8packed_uu_uint((x), (y)) + (C); y = dot_4x8packed_uu_uint((y), (x)) + (C)
#endif

#if CLB_W == 1
#define STORE(v, gid, out) (out)[gid] = (v)
#else
#define STORE_(w) vstore##w
#define STORE_W(w) STORE_(w)
#define STORE(v, gid, out) STORE_W(CLB_W)((v), (gid), (out))
#endif

__kernel void compute(__global const CLB_T *in, __global CLB_T *out, uint n, CLB_T ka, CLB_T kb,
                      CLB_T kp)
{
    const size_t gid = get_global_id(0);
    const CLB_VT x0 = (CLB_VT)(in[4 * gid]);
    const CLB_VT d = (CLB_VT)(in[4 * gid + 3]);
#if CLB_SHAPE == 1
    const CLB_VT A = (CLB_VT)(ka), B = (CLB_VT)(kb);
#else
    const CLB_VT A = (CLB_VT)(in[4 * gid + 1]), B = (CLB_VT)(in[4 * gid + 2]);
#endif
    const CLB_VT P = (CLB_VT)(kp); /* pingpong multiplier (floating) or addend (integers) */
    CLB_VT acc[CLB_CHAINS];
#pragma unroll
    for (int j = 0; j < CLB_CHAINS; j++)
        acc[j] = START(CLB_LANES + (CLB_VT)(j * CLB_W), d, x0);
    for (uint i = 0; i < n; i++) {
#pragma unroll
        for (int u = 0; u < CLB_UNROLL; u++) {
#if CLB_SHAPE == 2
#pragma unroll
            for (int j = 0; j < CLB_CHAINS; j += 2) {
                PAIR(acc[j], acc[j + 1], P, P);
            }
#else
#pragma unroll
            for (int j = 0; j < CLB_CHAINS; j++) {
                STEP(acc[j], A, B, u);
            }
#endif
        }
    }
    CLB_VT sum = acc[0];
#pragma unroll
    for (int j = 1; j < CLB_CHAINS; j++)
        sum = sum + acc[j];
    STORE(sum, gid, out);
}
