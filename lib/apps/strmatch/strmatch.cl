/* StringMatch of seed 004 (TORMENT OpenACC, Figs. 4-5): the first start position of each
 * pattern (m bytes) in the text, naive comparison. Dimension 1 of the NDRange is the pattern;
 * first[k] is the smallest matching start found so far (0xFFFFFFFF: none), lowered with the
 * 32-bit atomic_min. npos = len - m + 1 start positions. */

/* One start position per work-item, text and pattern read from global memory. */
__kernel void strmatch_cl_naive(__global const uchar *text, uint npos, __global const uchar *pats,
                                uint m, volatile __global uint *first)
{
    uint i = get_global_id(0), k = get_global_id(1);
    if (i >= npos)
        return;
    __global const uchar *t = text + i, *p = pats + (size_t)k * m;
    uint j = 0;
    while (j < m && t[j] == p[j])
        j++;
    if (j == m)
        atomic_min(&first[k], i);
}

/* The group's tile of text (its W x local size start positions plus m - 1 bytes) and the
 * pattern staged in local memory (seed Fig. 5); each work-item compares W start positions
 * spaced by the local size, so neighbours read neighbouring bytes. */
__kernel void strmatch_cl_local(__global const uchar *text, uint len, uint npos,
                                __global const uchar *pats, uint m, volatile __global uint *first,
                                uint w, __local uchar *tile, __local uchar *pat)
{
    uint t = get_local_id(0), ls = get_local_size(0), k = get_global_id(1);
    uint span = ls * w, g0 = get_group_id(0) * span;
    for (uint j = t; j < span + m - 1; j += ls)
        tile[j] = g0 + j < len ? text[g0 + j] : 0;
    for (uint j = t; j < m; j += ls)
        pat[j] = pats[(size_t)k * m + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < w; r++) {
        uint o = r * ls + t, j = 0;
        if (g0 + o >= npos)
            return;
        while (j < m && tile[o + j] == pat[j])
            j++;
        if (j == m) {
            atomic_min(&first[k], g0 + o);
            return; /* the item's later positions are larger */
        }
    }
}

/* A grid sized to fill the device; each work-item takes start positions i, i + G, ... in
 * increasing order (G the global size of dimension 0, neighbours on neighbouring bytes) with
 * the pattern in local memory, and stops at its first match or as soon as a smaller match is
 * known: first[k] is re-read before every position with a plain volatile load, racing by
 * design with other items' atomic_min (as the seed's `gid < *result`): it only decreases, so
 * a stale value costs work, never correctness. An atomic read (an RMW) on the same word from
 * every item would serialize. Oclgrind's race check reports this load, and only this. */
__kernel void strmatch_cl_early(__global const uchar *text, uint npos, __global const uchar *pats,
                                uint m, volatile __global uint *first, __local uchar *pat)
{
    uint t = get_local_id(0), ls = get_local_size(0), k = get_global_id(1);
    uint g = get_global_size(0);
    for (uint j = t; j < m; j += ls)
        pat[j] = pats[(size_t)k * m + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar p0 = pat[0];
    for (uint i = get_global_id(0); i < npos && i < first[k]; i += g) {
        __global const uchar *s = text + i;
        if (s[0] != p0)
            continue;
        uint j = 1;
        while (j < m && s[j] == pat[j])
            j++;
        if (j == m) {
            atomic_min(&first[k], i);
            return;
        }
    }
}
