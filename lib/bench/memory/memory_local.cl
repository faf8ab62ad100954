/* memory.local_*, memory.constant_*: on-chip memory bandwidth (lib/bench/memory/memory_local.c).
 * Built with -DVW=n -DVT=uintn. Each work-group copies its slice of `in` into local memory
 * once; the timed loop then has no barrier. Every read kernel sums the whole array once per
 * round, starting at its own offset (l * stride, wrapping), so each work-item's checksum is
 * rounds x the array's word sum, which the host checks item by item. Each round starts one
 * vector later than the previous one: with identical rounds a compiler may unroll-and-jam
 * the round loop and merge the identical loads (or forward the stores of local_rw). */

#if VW == 1
#define HSUM(v) (v)
#elif VW == 2
#define HSUM(v) ((v).s0 + (v).s1)
#elif VW == 4
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#elif VW == 8
#define HSUM4_(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define HSUM(v) (HSUM4_((v).lo) + HSUM4_((v).hi))
#elif VW == 16
#define HSUM4_(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define HSUM(v) (HSUM4_((v).lo.lo) + HSUM4_((v).lo.hi) + HSUM4_((v).hi.lo) + HSUM4_((v).hi.hi))
#endif

/* Sums mem[b..n) then mem[0..b): contiguous runs, so the loop needs no index masking.
 * Two accumulators keep two loads in flight per iteration. */
#define WRAPPED_SUM(mem, b, n, acc0, acc1)                      \
    {                                                           \
        uint j_ = (b);                                          \
        for (; j_ + 1 < (n); j_ += 2) {                         \
            acc0 += (mem)[j_];                                  \
            acc1 += (mem)[j_ + 1];                              \
        }                                                       \
        if (j_ < (n))                                           \
            acc0 += (mem)[j_];                                  \
        for (j_ = 0; j_ + 1 < (b); j_ += 2) {                   \
            acc0 += (mem)[j_];                                  \
            acc1 += (mem)[j_ + 1];                              \
        }                                                       \
        if (j_ < (b))                                           \
            acc0 += (mem)[j_];                                  \
    }

/* Local read: work-item l starts at vector (l * stride) % n. stride 1: neighbouring items
 * read neighbouring words (no bank conflicts); stride s: s-way conflicts where banks are
 * word-interleaved. */
kernel void local_read(global const VT *restrict in, global uint *restrict out,
                       local VT *lm, uint n, uint rounds, uint stride)
{
    uint l = get_local_id(0), L = get_local_size(0), w = get_group_id(0);
    for (uint i = l; i < n; i += L)
        lm[i] = in[(size_t)w * n + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint b = (l * stride) % n;
    VT acc0 = (VT)(0u), acc1 = (VT)(0u);
    for (uint r = 0; r < rounds; r++) {
        WRAPPED_SUM(lm, b, n, acc0, acc1)
        b = b + 1u == n ? 0u : b + 1u;
    }
    out[get_global_id(0)] = HSUM(acc0 + acc1);
}

/* Local read-modify-write: item l owns vectors l, l + L, ...; each round maps every owned
 * vector x -> 3x + 1 (the host applies the same map `rounds` times). Only the owner touches
 * a vector, so the loop needs no barrier. */
kernel void local_rw(global const VT *restrict in, global VT *restrict out, local VT *lm,
                     uint n, uint rounds)
{
    uint l = get_local_id(0), L = get_local_size(0), w = get_group_id(0);
    for (uint i = l; i < n; i += L)
        lm[i] = in[(size_t)w * n + i];
    /* Item l owns k = 0 .. own - 1 (vector l + k L); round r starts at k = r % own. */
    uint own = l < n ? (n - l + L - 1u) / L : 0u, s = 0;
    for (uint r = 0; r < rounds && own; r++) {
        for (uint k = s; k < own; k++)
            lm[l + k * L] = lm[l + k * L] * 3u + 1u;
        for (uint k = 0; k < s; k++)
            lm[l + k * L] = lm[l + k * L] * 3u + 1u;
        s = s + 1u == own ? 0u : s + 1u;
    }
    for (uint i = l; i < n; i += L)
        out[(size_t)w * n + i] = lm[i];
}

/* Constant memory: stride 0 makes every work-item read the same address at the same time
 * (broadcast); stride 1 gives each item of a warp its own address (divergent). */
kernel void const_read(constant VT *restrict c, global uint *restrict out, uint n, uint rounds,
                       uint stride)
{
    uint l = get_local_id(0);
    uint b = (l * stride) % n;
    VT acc0 = (VT)(0u), acc1 = (VT)(0u);
    for (uint r = 0; r < rounds; r++) {
        WRAPPED_SUM(c, b, n, acc0, acc1)
        b = b + 1u == n ? 0u : b + 1u;
    }
    out[get_global_id(0)] = HSUM(acc0 + acc1);
}
