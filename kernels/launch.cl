/* Launch overhead: one work-item stores the launch's tag, so every launch is observable
 * (validation reads the tag back) while doing no other work. */
__kernel void touch(__global uint *out, uint tag)
{
    if (get_global_id(0) == 0)
        out[0] = tag;
}
