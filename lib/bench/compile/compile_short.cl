/* compile.short: a minimal program. CLB_NONCE (prepended per build) makes every build's
 * source unique, so no driver cache can answer it. */
__kernel void compile_k(__global uint *out)
{
    uint i = (uint)get_global_id(0);
    out[i] = i * 2654435761u + (uint)CLB_NONCE;
}
