/* A typical arithmetic kernel, compiled only to ask the driver for its preferred work-group
 * size multiple (the SIMD or warp width it vectorizes or schedules by). */
__kernel void probe(__global float *a, float s)
{
    size_t i = get_global_id(0);
    a[i] = a[i] * s + 1.0f;
}
