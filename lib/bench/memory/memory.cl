/* memory.*: global-memory bandwidth kernels (lib/bench/memory/memory.c).
 * Built with -DVW=n -DVT=uintn (n = 1, 2, 4, 8, 16) and -DPATTERN / -DOP for the variant.
 * Elements are 32-bit unsigned integers, so every checksum is exact (wrapping arithmetic)
 * and the host can reproduce it.
 *
 * Layout: the array holds nchunks (>= 2) chunks of `chunk` vectors. In pass q (counted
 * across launches: q = pbase + p) work-group w works on chunk
 * CHUNK(w, q) = (w * mult + q % per) % nchunks, its work-items interleaved (item l touches
 * l, l + L, l + 2L, ...), so accesses are coalesced on GPUs.
 *  - DRAM arrays: mult = per >= 2: group w owns chunks w * per .. w * per + per - 1. No two
 *    groups read the same chunk, so groups that drift apart cannot share cache lines (with
 *    a rotation shared between groups, a group one pass behind its neighbour would stream
 *    the very chunk the neighbour streams and halve the DRAM traffic).
 *  - Arrays smaller than groups x chunk (the working-set sweep): mult = 1, per = nchunks,
 *    groups share chunks on purpose.
 * Consecutive passes always read different chunks: with the same addresses in every pass a
 * compiler may unroll-and-jam the pass loop and merge the identical loads (PoCL did, and
 * reported several times the DRAM bandwidth with a correct checksum).
 * With -DBLOCKED=1 (CPU devices) item l instead streams through its own contiguous slices:
 * CPU OpenCL runtimes run the work-items of a group one after another, so the interleaved
 * order would jump by L vectors. The chunk is cut into STREAMS equal parts and item l reads
 * slice [l * n, (l + 1) * n) of each part (n = chunk / STREAMS / L), the parts in turn: a
 * core then follows STREAMS sequential streams at once, which keeps more cache-line fetches
 * in flight than one stream does (docs/results/memory.md). chunk is a multiple of
 * L * STREAMS. */

#ifndef BLOCKED
#define BLOCKED 0
#endif
#ifndef STREAMS
#define STREAMS 1u
#endif
#if BLOCKED
#define FOR_J(l, L, chunk)                                                                     \
    for (uint i_ = 0, n_ = (chunk) / STREAMS / (L); i_ < n_; i_++)                             \
        for (uint s_ = 0, j = (l) * n_ + i_; s_ < STREAMS; s_++, j += (chunk) / STREAMS)
#else
#define FOR_J(l, L, chunk) for (uint j = (l); j < (chunk); j += (L))
#endif

#if VW == 1
#define HSUM(v) (v)
#define LANES 0u
#elif VW == 2
#define HSUM(v) ((v).s0 + (v).s1)
#define LANES (uint2)(0u, 1u)
#elif VW == 4
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define LANES (uint4)(0u, 1u, 2u, 3u)
#elif VW == 8
#define HSUM4_(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define HSUM(v) (HSUM4_((v).lo) + HSUM4_((v).hi))
#define LANES (uint8)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u)
#elif VW == 16
#define HSUM4_(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#define HSUM(v) (HSUM4_((v).lo.lo) + HSUM4_((v).lo.hi) + HSUM4_((v).hi.lo) + HSUM4_((v).hi.hi))
#define LANES (uint16)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u)
#endif

#define CHUNK(w, q) (((w) * mult + (q) % per) % nchunks)

#ifndef PATTERN
#define PATTERN 0
#endif

/* Reads every vector of its chunks and writes the per-work-item sum of all words. (Strided
 * and random reads use simple_read below.) */
kernel void mem_read(global const VT *restrict a, global uint *restrict out, uint chunk,
                     uint nchunks, uint passes, uint pbase, uint per, uint mult)
{
    uint l = get_local_id(0), L = get_local_size(0), w = get_group_id(0);
    VT acc = (VT)(0u);
    for (uint p = 0; p < passes; p++) {
        uint base = CHUNK(w, pbase + p) * chunk;
        FOR_J(l, L, chunk) {
            acc += a[base + j];
        }
    }
    out[get_global_id(0)] = HSUM(acc);
}

/* The seed's cache-reuse pattern (after AMD's GlobalMemoryBandwidth readLinear): work-item g
 * reads the 32 consecutive vectors starting at its own, so each vector is read by 32
 * neighbouring work-items and mostly hits in cache. The array has n vectors plus 32 of
 * padding that repeat its start; each pass moves the window by 32. */
kernel void mem_read_reuse(global const VT *restrict a, global uint *restrict out, uint n,
                           uint passes)
{
    uint g = get_global_id(0);
    VT acc = (VT)(0u);
    for (uint p = 0; p < passes; p++) {
        global const VT *w = a + (g + p * 32u) % n;
#pragma unroll
        for (uint k = 0; k < 32u; k++)
            acc += w[k];
    }
    out[g] = HSUM(acc);
}

/* Writes hash(word index) ^ tag to every word of its chunks; the host checks every word. */
kernel void mem_write(global VT *restrict a, uint chunk, uint nchunks, uint passes, uint tag,
                      uint pbase, uint per, uint mult)
{
    uint l = get_local_id(0), L = get_local_size(0), w = get_group_id(0);
    for (uint p = 0; p < passes; p++) {
        uint base = CHUNK(w, pbase + p) * chunk;
        FOR_J(l, L, chunk) {
            uint v = base + j;
            a[v] = (((VT)(v * (uint)VW) + LANES) * 2654435761u) ^ (VT)(tag);
        }
    }
}

/* STREAM kernels. OP 0 copy c = a; 1 scale c = k a; 2 add c = a + b; 3 triad c = a + k b. */
kernel void mem_stream(global const VT *restrict a, global const VT *restrict b,
                       global VT *restrict c, uint chunk, uint nchunks, uint passes, uint k,
                       uint pbase, uint per, uint mult)
{
    uint l = get_local_id(0), L = get_local_size(0), w = get_group_id(0);
    for (uint p = 0; p < passes; p++) {
        uint base = CHUNK(w, pbase + p) * chunk;
        FOR_J(l, L, chunk) {
            uint v = base + j;
#if OP == 0
            c[v] = a[v];
#elif OP == 1
            c[v] = a[v] * k;
#elif OP == 2
            c[v] = a[v] + b[v];
#else
            c[v] = a[v] + b[v] * k;
#endif
        }
    }
    (void)b;
    (void)k;
}

/* ---- The straightforward form (lib/bench/memory/memory_stream.c): one vector per work-item, global
 * size = vectors (read_strided / read_random: = lines) when one launch fits the watchdog
 * (else a share of them, below), no loop, so nothing is read twice in a launch. The local size comes from the host (a power of two for the reads' reduction) or,
 * for write and STREAM, from the driver. ---- */

/* The work-group's sum of x in local memory; item 0 writes it. Two barriers and no barrier
 * inside a loop: CPU runtimes split a work-group loop at every barrier, and a tree of log2(L)
 * barriers made PoCL ~100x slower than the read itself. L is a multiple of 16. */
void simple_group_sum(local uint *t, uint x, global uint *out)
{
    uint l = get_local_id(0), L = get_local_size(0);
    t[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < L / 16u) {
        uint s = 0;
        for (uint i = 0; i < 16u; i++)
            s += t[l * 16u + i];
        t[l * 16u] = s; /* only item l reads this block */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        uint s = 0;
        for (uint i = 0; i < L; i += 16u)
            s += t[i];
        out[get_group_id(0)] = s;
    }
}

/* Reads: item g of a launch works on logical item (base + g) mod total: a launch covers the
 * next global-size items of the pass, continuing where the previous one stopped, so every item
 * is touched once per pass however many launches the runner sizes a pass into. (Write and
 * STREAM: below.) */
#define SIMPLE_ITEM(g)                      \
    uint g = get_global_id(0) + base;       \
    g = g >= total ? g - total : g

#ifndef FETCH
#define FETCH 1
#endif
#ifndef PER_ITEM
#define PER_ITEM 0
#endif
#ifndef LAYOUT
#define LAYOUT 0
#endif
/* Item g reads vector g * stride (PATTERN 0, 1) or idx[g] * stride (PATTERN 2): with the
 * stride one cache line, each line of the array is touched once per pass. */
kernel void simple_read(global const VT *restrict a, global const uint *restrict idx,
                        global uint *restrict out, local uint *t, uint stride, uint base,
                        uint total)
{
    SIMPLE_ITEM(g);
#if PER_ITEM
    /* -DPER_ITEM=1 (linear reads): reduction-free. Item g sums its FETCH vectors, L apart in its
     * group's block (LAYOUT 0) or `total` apart (LAYOUT 1: one strip per fetch, as clpeak's
     * global-offset kernel), and writes that sum to its own word of out: no local memory, no
     * barrier, coalesced stores. Every loaded word feeds the stored sum, so no load can be
     * dropped; the host checks every item's word. */
#if LAYOUT == 1
    uint v0 = g, step = total;
#else
    uint step = get_local_size(0), v0 = (g / step) * step * FETCH + g % step;
#endif
    VT acc = a[v0];
#pragma unroll
    for (uint i = 1; i < FETCH; i++)
        acc += a[v0 + i * step];
    (void)idx;
    (void)stride;
    (void)t;
    out[get_global_id(0)] = HSUM(acc);
#elif FETCH > 1
    /* -DFETCH=n (linear reads): item g reads n vectors L apart inside its work-group's block of
     * n L vectors, all loads issued before the sum needs them, so each work-item keeps n
     * requests in flight (clpeak's global_bandwidth form). */
    uint L = get_local_size(0), v0 = (g / L) * L * FETCH + g % L;
    VT acc = a[v0];
#pragma unroll
    for (uint i = 1; i < FETCH; i++)
        acc += a[v0 + i * L];
    (void)idx;
    (void)stride;
    simple_group_sum(t, HSUM(acc), out);
#else
#if PATTERN == 2
    uint v = idx[g] * stride;
#else
    uint v = g * stride;
#endif
    (void)idx;
    simple_group_sum(t, HSUM(a[v]), out);
#endif
}

/* Write and STREAM: a launch never runs past the end of the pass (memory_stream.c, f_enqueue
 * starts it at vector 0 instead), so item g of a launch is vector base + g with no wrap, and
 * the index is a size_t as in stream_simple: with the reads' wrap (a compare and a select per
 * item) and a 32-bit index, PoCL compiled each work-item's 16-byte store with ~20 scalar
 * instructions around it and the uint4 write reached ~0.6x stream_simple's (docs/results/memory.md,
 * "PoCL here, interleaved pairs"). */

/* Writes hash(word index) ^ tag, as mem_write: word w = v VW + lane holds (w K) ^ tag, computed
 * as v (VW K) + lane K (the same words mod 2^32), a scalar multiply that the compiler turns
 * into one add per work-item, where (v VW + lane) K needs a vector multiply per vector. */
kernel void simple_write(global VT *restrict a, uint tag, uint base)
{
    size_t i = get_global_id(0) + base;
    uint v = (uint)i;
    a[i] = ((VT)(v * ((uint)VW * 2654435761u)) + LANES * 2654435761u) ^ (VT)(tag);
}

/* STREAM, OP as mem_stream. */
kernel void simple_stream(global const VT *restrict a, global const VT *restrict b,
                          global VT *restrict c, uint k, uint base)
{
    size_t v = get_global_id(0) + base;
#if OP == 0
    c[v] = a[v];
#elif OP == 1
    c[v] = a[v] * k;
#elif OP == 2
    c[v] = a[v] + b[v];
#else
    c[v] = a[v] + b[v] * k;
#endif
    (void)b;
    (void)k;
}
