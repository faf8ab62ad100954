/* memory.latency*: pointer chase by one work-item (lib/bench/memory/memory_latency.c).
 * next[] holds, at each node's first word, the word index of the next node of a random
 * cyclic permutation (Sattolo), so every load depends on the previous one and no prefetcher
 * can guess the next address. 16 hops per loop iteration, unrolled. The end node is written
 * out and checked against the host's walk of the same cycle. */

#define HOP(m) p = (m)[p];
#define HOP16(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) \
                 HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m)

kernel void chase(global const uint *restrict next, global uint *restrict out, uint start,
                  uint rounds)
{
    uint p = start;
    for (uint i = 0; i < rounds; i++) {
        HOP16(next)
    }
    out[0] = p;
}

/* The same chase in local memory: the single work-item copies the n-word cycle in first
 * (n is small, its cost is included in the launch but amortized over the hops). */
kernel void chase_local(global const uint *restrict next, global uint *restrict out, uint n,
                        uint start, uint rounds, local uint *lm)
{
    for (uint i = 0; i < n; i++)
        lm[i] = next[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint p = start;
    for (uint i = 0; i < rounds; i++) {
        HOP16(lm)
    }
    out[0] = p;
}
