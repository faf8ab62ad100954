/* Launch overhead: one work-item increments a counter, so every launch is observable
 * (validation compares the count with the number of launches) while the argument list
 * stays unchanged: changing an argument between launches costs drivers measurable time
 * (PoCL: 24 -> 38 us QUEUED->END), which is not launch overhead. */
__kernel void touch(__global uint *count)
{
    if (get_global_id(0) == 0)
        count[0] = count[0] + 1u;
}

/* launch.clpeak_method: the kernel clpeak --kernel-latency launches (its global bandwidth
 * kernel with local-size offsets), written anew: each work-item sums 16 floats that lie one
 * work-group size apart inside its group's block and writes the sum. The pointers are not
 * const, as in clpeak, so the argument kinds match too. */
__kernel void read16(__global float *in, __global float *out)
{
    size_t l = get_local_size(0), id = get_group_id(0) * l * 16 + get_local_id(0);
    float s = 0.0f;
    for (int i = 0; i < 16; i++, id += l)
        s += in[id];
    out[get_global_id(0)] = s;
}
