/* SAXPY in place, y = a x + y (seed 001, listing 1, with B = y): one element per work-item,
 * and four per work-item with float4 loads and stores. */
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void saxpy_float4(float a, __global const float4 *x, __global float4 *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
