/* atomics.*: atomic_add on int, global and local, uncontended (one address per work-item)
 * and contended (one address for all); each counter starts from a random value and the host
 * checks the final counts exactly. LSZ (the work-group size) comes from the host's prefix. */
__kernel void global_uncontended(__global uint *ctr, int iters)
{
    __global uint *p = ctr + get_global_id(0);
    for (int i = 0; i < iters; i++)
        atomic_add(p, 1u);
}

__kernel void global_contended(__global uint *ctr, int iters)
{
    for (int i = 0; i < iters; i++)
        atomic_add(ctr, 1u);
}

/* Local counters are seeded from ctr, counted, and written back to ctr. */
__kernel void local_uncontended(__global uint *ctr, int iters)
{
    __local uint l[LSZ];
    size_t lid = get_local_id(0), g = get_global_id(0);
    l[lid] = ctr[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < iters; i++)
        atomic_add(&l[lid], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    ctr[g] = l[lid];
}

__kernel void local_contended(__global uint *ctr, int iters)
{
    __local uint l[1];
    size_t lid = get_local_id(0), grp = get_group_id(0);
    if (lid == 0)
        l[0] = ctr[grp];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < iters; i++)
        atomic_add(&l[0], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        ctr[grp] = l[0];
}

/* Latency: each atomic's increment depends on the value the previous one returned (v stays
 * below 2^31, so the increment is 1, but the compiler cannot know), one work-item. */
__kernel void global_latency(__global uint *ctr, int iters)
{
    uint v = 0;
    for (int i = 0; i < iters; i++)
        v = atomic_add(ctr, (v >> 31) | 1u);
}

__kernel void local_latency(__global uint *ctr, int iters)
{
    __local uint l[1];
    uint v = 0;
    l[0] = ctr[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < iters; i++)
        v = atomic_add(&l[0], (v >> 31) | 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    ctr[0] = l[0];
}
