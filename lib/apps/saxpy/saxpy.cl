/* SAXPY in place, y = a x + y (seed 001's listing 1 with C = B = y): one element per
 * work-item, and four per work-item with float4 loads and stores. */
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

/* Seed 001, listing 1 as printed: C = alpha A + B, the result in a third buffer. */
__kernel void saxpy_seed(float alpha, __global const float *A, __global const float *B,
                         __global float *C)
{
    size_t idx = get_global_id(0);
    C[idx] = alpha * A[idx] + B[idx];
}
