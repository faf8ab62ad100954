/* The Euler twin (app.euler.cuda): explicit Euler on STRING in float, the problem of the OpenCL
 * rows app.euler.string.f32.* (docs/apps/euler.md), one launch per step between two device
 * buffers, timed with cudaEvents around all steps of a run. */
#include "cuda_common.cuh"

enum { EU_THREADS = 256 };

/* One step: thread i owns the float4 of components 4i .. 4i+3, i.e. two mass points (position,
 * velocity, position, velocity), loaded and stored as one 16-byte access. The only neighbours
 * are the positions y[4i-2] and y[4i+4], scalar loads through the read-only cache that the
 * neighbouring threads' float4 loads have already brought in. The arithmetic is euler_ode.cl's
 * eu_fv operation for operation: f = (v, K^2 (x_l - 2 x + x_r)), y' = y + h f, outside ends 0. */
__global__ void euler_string_step(size_t n4, float k2, float h, const float4 *__restrict__ y,
                                  float4 *__restrict__ yn)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n4)
        return;
    const float *ys = reinterpret_cast<const float *>(y);
    float4 c = y[i];
    float xl = i > 0 ? __ldg(ys + 4 * i - 2) : 0.0f;
    float xr = i + 1 < n4 ? __ldg(ys + 4 * i + 4) : 0.0f;
    float4 f = make_float4(c.y, k2 * (xl - 2.0f * c.x + c.z), c.w, k2 * (c.x - 2.0f * c.z + xr));
    yn[i] = make_float4(c.x + h * f.x, c.y + h * f.y, c.z + h * f.z, c.w + h * f.w);
}

/* steps launches from init: d[0] -> d[1] -> d[0] ...; the result is in d[steps & 1]. */
static cudaError_t euler_steps(size_t n4, size_t steps, float k2, float h, float4 *const d[2])
{
    unsigned blocks = (unsigned)((n4 + EU_THREADS - 1) / EU_THREADS);
    for (size_t s = 0; s < steps; s++)
        euler_string_step<<<blocks, EU_THREADS>>>(n4, k2, h, d[s & 1], d[(s + 1) & 1]);
    return cudaPeekAtLastError();
}

int clbcu_euler_string(size_t n, size_t steps, float k2, float h, const float *y0, float *y_out,
                       unsigned reps, double *times_s, char *err, size_t errlen)
{
    int rc = 0;
    size_t n4 = n / 4, bytes = n * sizeof(float);
    float4 *dinit = NULL, *d[2] = {NULL, NULL};
    if (n < 8 || n % 4 || steps == 0 || (n4 + EU_THREADS - 1) / EU_THREADS > 0x7fffffffu)
        CU_FAIL("euler_string: n %zu (a multiple of 4, at least 8) or %zu steps outside the kernel's range",
                n, steps);
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaMalloc(&dinit, bytes));
    CU(cudaMalloc(&d[0], bytes));
    CU(cudaMalloc(&d[1], bytes));
    CU(cudaMemcpy(dinit, y0, bytes, cudaMemcpyHostToDevice));
    /* Each run starts from the initial state; the reset is a copy outside the events, as the
     * OpenCL rows' clEnqueueCopyBuffer before their first launch. */
    rc = cu_timed([&]() { return cudaMemcpyAsync(d[0], dinit, bytes, cudaMemcpyDeviceToDevice); },
                  [&]() { return euler_steps(n4, steps, k2, h, d); }, reps, times_s, err, errlen);
    if (rc == 0)
        CU(cudaMemcpy(y_out, d[steps & 1], bytes, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(dinit);
    cudaFree(d[0]);
    cudaFree(d[1]);
    return rc;
}
