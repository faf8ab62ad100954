/* compile.long: a long program (after SHOC's KernelCompile): 90 distinct functions with
 * loops, chained by one kernel. CLB_NONCE (prepended per build) makes every build's source
 * unique. The host reference in lib/bench/compile/compile.c computes the same stages for ids 10..99:
 *   repeat (id % 3 + 1) times: x ^= x >> (id % 13 + 3); x *= (2 id + 1) | 0x10001;
 *                               x = rotate(x, id % 31 + 1)
 *   then x += id. */
#define STAGE(id)                                                  \
    uint stage_##id(uint x)                                        \
    {                                                              \
        for (uint r = 0; r < (id % 3u) + 1u; r++) {                \
            x ^= x >> (id % 13u + 3u);                             \
            x *= (2u * id + 1u) | 0x10001u;                        \
            x = rotate(x, (uint)(id % 31u + 1u));                  \
        }                                                          \
        return x + (uint)id;                                       \
    }
#define STAGES(a) STAGE(a##0) STAGE(a##1) STAGE(a##2) STAGE(a##3) STAGE(a##4) \
                  STAGE(a##5) STAGE(a##6) STAGE(a##7) STAGE(a##8) STAGE(a##9)
STAGES(1) STAGES(2) STAGES(3) STAGES(4) STAGES(5) STAGES(6) STAGES(7) STAGES(8) STAGES(9)

#define CALL(id) x = stage_##id(x);
#define CALLS(a) CALL(a##0) CALL(a##1) CALL(a##2) CALL(a##3) CALL(a##4) \
                 CALL(a##5) CALL(a##6) CALL(a##7) CALL(a##8) CALL(a##9)

__kernel void compile_k(__global uint *out)
{
    uint i = (uint)get_global_id(0);
    uint x = i ^ (uint)CLB_NONCE;
    CALLS(1) CALLS(2) CALLS(3) CALLS(4) CALLS(5) CALLS(6) CALLS(7) CALLS(8) CALLS(9)
    out[i] = x;
}
