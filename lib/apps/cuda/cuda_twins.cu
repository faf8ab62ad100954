/* libclbench_cuda.so: the CUDA twins of the app rows (docs/apps/cuda.md). This file holds the
 * exported table, device_name, SAXPY, MonteCarloPi and StringMatch; the GEMMs are in
 * cuda_gemm.cu, the Euler twin in cuda_euler.cu. Built by nvcc for CLBENCH_CUDA_ARCH, the CUDA
 * runtime linked statically. */
#include "cuda_common.cuh"

#include <limits.h>
#include <stdint.h>
#include <string.h>

static int device_name(char *name, size_t len, char *err, size_t errlen)
{
    int rc = 0, dev = 0, drv = 0;
    cudaDeviceProp p;
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaGetDevice(&dev));
    CU(cudaGetDeviceProperties(&p, dev));
    CU(cudaDriverGetVersion(&drv));
    snprintf(name, len, "%s (CUDA device %d, PCI %04x:%02x:%02x.0, sm_%d%d, driver %d.%d)", p.name,
             dev, (unsigned)p.pciDomainID, (unsigned)p.pciBusID, (unsigned)p.pciDeviceID, p.major,
             p.minor, drv / 1000, (drv % 1000) / 10);
cleanup:
    return rc;
}

/* ---- SAXPY: y = a x + y, the OpenCL row opencl_float4 in CUDA ---- */

enum { SX_THREADS = 256 };

/* One float4 of x and y per thread, one thread per 4 elements over the whole array (no
 * grid-stride loop): the launch of saxpy_float4 (global size n / 4). A last thread whose float4
 * would cross n does the remaining n % 4 elements one by one. */
__global__ void saxpy_float4(size_t n, float a, const float4 *__restrict__ x, float4 *__restrict__ y)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (4 * i + 3 < n) {
        float4 xv = x[i], yv = y[i];
        y[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
    } else if (4 * i < n) {
        const float *xs = reinterpret_cast<const float *>(x);
        float *ys = reinterpret_cast<float *>(y);
        for (size_t j = 4 * i; j < n; j++)
            ys[j] = a * xs[j] + ys[j];
    }
}

static int saxpy(size_t n, float a, const float *x, float *y_inout, unsigned reps, double *times_s,
                 char *err, size_t errlen)
{
    int rc = 0;
    size_t threads = (n + 3) / 4, blocks = (threads + SX_THREADS - 1) / SX_THREADS;
    float *dx = NULL, *dy = NULL;
    if (n == 0 || blocks > 0x7fffffffu)
        CU_FAIL("saxpy: n = %zu outside the kernel's range (1 .. 2^31 blocks of %d float4)", n, SX_THREADS);
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaMalloc(&dx, n * sizeof *dx)); /* 256-byte aligned: float4 accesses are aligned */
    CU(cudaMalloc(&dy, n * sizeof *dy));
    CU(cudaMemcpy(dx, x, n * sizeof *dx, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dy, y_inout, n * sizeof *dy, cudaMemcpyHostToDevice));
    rc = cu_timed(cu_no_prep, [&]() {
        saxpy_float4<<<(unsigned)blocks, SX_THREADS>>>(n, a, reinterpret_cast<const float4 *>(dx),
                                                       reinterpret_cast<float4 *>(dy));
        return cudaPeekAtLastError();
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU_READBACK(cudaMemcpy(y_inout, dy, n * sizeof *dy, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(dx);
    cudaFree(dy);
    return rc;
}

/* ---- MonteCarloPi of seed 004: the OpenCL row cl_items in CUDA ---- */

/* The seed's getRandom and sample i's seed: the one definition (lib/apps/mcpi/mcpi_rng.h). */
#include "../mcpi/mcpi_rng.h"

/* Sample with seed27 = (uint32_t)(i * 27): seed 1987 ^ seed27; x, y = r / RAND_MAX in float, and
 * (float)RAND_MAX is 2^31, so the division is the exact scaling by 2^-31 (lib/apps/mcpi/mcpi.cl);
 * inside when x x + y y <= 1 + 2^-23, which is sqrt(x x + y y) <= 1 without the square root;
 * every operation an IEEE float rounding without contraction, so the count is bit-exact against
 * the host. */
__device__ __forceinline__ static unsigned mcpi_inside(uint32_t seed27)
{
    uint32_t seed = MCPI_SEED(seed27);
    float x = __uint2float_rn(mcpi_get_random(&seed)) * 0x1p-31f;
    float y = __uint2float_rn(mcpi_get_random(&seed)) * 0x1p-31f;
    return __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)) <= 0x1.000002p0f;
}

enum { MC_THREADS = 256, MC_BLOCKS_PER_SM = 8 };

/* cl_items: a grid that fills the device (MC_BLOCKS_PER_SM blocks of 256 per SM); thread i takes
 * samples i, i + G, i + 2G, ... (G the grid's threads) into a private count, the seed being
 * stepped by G * 27 instead of multiplied; the block sums by warp shuffles, one atomicAdd per
 * block. */
__global__ void __launch_bounds__(MC_THREADS) mcpi_kernel(unsigned long long samples, unsigned long long *inside)
{
    __shared__ unsigned warp_sum[MC_THREADS / 32];
    unsigned long long i = blockIdx.x * (unsigned long long)MC_THREADS + threadIdx.x;
    unsigned long long g = (unsigned long long)gridDim.x * MC_THREADS;
    uint32_t s27 = (uint32_t)(i * 27u), step27 = (uint32_t)(g * 27u);
    unsigned c = 0;
    for (; i < samples; i += g, s27 += step27)
        c += mcpi_inside(s27);
    for (int o = 16; o > 0; o >>= 1)
        c += __shfl_down_sync(0xffffffffu, c, o);
    if (threadIdx.x % 32 == 0)
        warp_sum[threadIdx.x / 32] = c;
    __syncthreads();
    if (threadIdx.x < 32) {
        c = threadIdx.x < MC_THREADS / 32 ? warp_sum[threadIdx.x] : 0;
        for (int o = 16; o > 0; o >>= 1)
            c += __shfl_down_sync(0xffffffffu, c, o);
        if (threadIdx.x == 0 && c)
            atomicAdd(inside, (unsigned long long)c);
    }
}

static int mcpi(unsigned long long samples, unsigned reps, double *times_s, unsigned long long *inside,
                char *err, size_t errlen)
{
    int rc = 0, dev = 0, sms = 0;
    unsigned long long *dcount = NULL, blocks;
    if (samples == 0)
        CU_FAIL("mcpi: 0 samples");
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaGetDevice(&dev));
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    blocks = (unsigned long long)sms * MC_BLOCKS_PER_SM;
    if ((samples + MC_THREADS - 1) / MC_THREADS < blocks)
        blocks = (samples + MC_THREADS - 1) / MC_THREADS;
    /* a thread's count is 32 bits: at most 2^32 - 1 samples per thread */
    if (samples / (blocks * MC_THREADS) >= 0xffffffffull)
        CU_FAIL("mcpi: %llu samples exceed 2^32 per thread on %llu blocks", samples, blocks);
    CU(cudaMalloc(&dcount, sizeof *dcount));
    rc = cu_timed([&]() { return cudaMemset(dcount, 0, sizeof *dcount); }, [&]() {
        mcpi_kernel<<<(unsigned)blocks, MC_THREADS>>>(samples, dcount);
        return cudaPeekAtLastError();
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU_READBACK(cudaMemcpy(inside, dcount, sizeof *inside, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(dcount);
    return rc;
}

/* ---- StringMatch of seed 004: the OpenCL row cl_local in CUDA ---- */

enum { SM_THREADS = 256, SM_W = 16 };

/* Block (bx, k): SM_W x 256 start positions against pattern k. The tile holds the text those
 * windows cover (SM_W x 256 + pat_len - 1 bytes), then the pattern; thread t compares starts
 * t, t + 256, ... (neighbours on neighbouring bytes) and stops at its first match. A block whose
 * first start lies beyond a match already found skips its work (a plain volatile read that
 * races by design with atomicMin: the value only decreases, so a stale one costs work, never
 * correctness). */
__global__ void __launch_bounds__(SM_THREADS)
strmatch_kernel(const unsigned char *__restrict__ text, unsigned long long text_len,
                unsigned long long npos, const unsigned char *__restrict__ pats, unsigned pat_len,
                unsigned long long *first)
{
    extern __shared__ unsigned char tile[];
    const unsigned span = SM_THREADS * SM_W;
    unsigned char *pat = tile + span + pat_len;
    const unsigned char *p = pats + (size_t)blockIdx.y * pat_len;
    unsigned long long g0 = blockIdx.x * (unsigned long long)span;
    unsigned long long *res = first + blockIdx.y;
    if (g0 > *(volatile unsigned long long *)res)
        return; /* uniform over the block */
    for (unsigned j = threadIdx.x; j < span + pat_len - 1; j += SM_THREADS)
        tile[j] = g0 + j < text_len ? text[g0 + j] : 0;
    for (unsigned j = threadIdx.x; j < pat_len; j += SM_THREADS)
        pat[j] = p[j];
    __syncthreads();
    for (unsigned r = 0; r < SM_W; r++) {
        unsigned o = r * SM_THREADS + threadIdx.x, j = 0;
        if (g0 + o >= npos)
            return;
        while (j < pat_len && tile[o + j] == pat[j])
            j++;
        if (j == pat_len) {
            atomicMin(res, g0 + o);
            return; /* the thread's later starts are larger */
        }
    }
}

static int strmatch(const char *text, size_t text_len, const char *patterns, size_t npat,
                    size_t pat_len, unsigned reps, double *times_s, long long *pos, char *err,
                    size_t errlen)
{
    int rc = 0;
    unsigned char *dt = NULL, *dp = NULL;
    unsigned long long *dfirst = NULL, *first = NULL;
    size_t shared = SM_THREADS * SM_W + 2 * pat_len, starts = text_len - pat_len + 1;
    if (pat_len == 0 || pat_len > text_len || npat == 0 || npat > 65535 || shared > 48 * 1024)
        CU_FAIL("strmatch: pattern length %zu, %zu patterns, text of %zu bytes are outside the kernel's range",
                pat_len, npat, text_len);
    if (cu_select(err, errlen) != 0)
        return 1;
    if (!(first = (unsigned long long *)malloc(npat * sizeof *first)))
        CU_FAIL("strmatch: out of host memory");
    CU(cudaMalloc(&dt, text_len));
    CU(cudaMalloc(&dp, npat * pat_len));
    CU(cudaMalloc(&dfirst, npat * sizeof *dfirst));
    CU(cudaMemcpy(dt, text, text_len, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dp, patterns, npat * pat_len, cudaMemcpyHostToDevice));
    {
        size_t span = SM_THREADS * SM_W;
        dim3 grid((unsigned)((starts + span - 1) / span), (unsigned)npat);
        rc = cu_timed([&]() { return cudaMemset(dfirst, 0xFF, npat * sizeof *dfirst); }, [&]() {
            strmatch_kernel<<<grid, SM_THREADS, shared>>>(dt, text_len, starts, dp, (unsigned)pat_len, dfirst);
            return cudaPeekAtLastError();
        }, reps, times_s, err, errlen);
    }
    if (rc != 0)
        goto cleanup;
    CU_READBACK(cudaMemcpy(first, dfirst, npat * sizeof *first, cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < npat; k++)
        pos[k] = first[k] == ULLONG_MAX ? -1 : (long long)first[k];
cleanup:
    cudaFree(dt);
    cudaFree(dp);
    cudaFree(dfirst);
    free(first);
    return rc;
}

char clbcu_bus_id[64];
int clbcu_euler_tiling;

static int configure(const char *pci_bus_id, int euler_tiling)
{
    const char *bus = pci_bus_id ? pci_bus_id : "";
    if (strlen(bus) >= sizeof clbcu_bus_id || euler_tiling < CLBCU_TILING_SCREEN || euler_tiling > CLBCU_TILING_HONEYCOMB)
        return 1;
    memcpy(clbcu_bus_id, bus, strlen(bus) + 1);
    clbcu_euler_tiling = euler_tiling;
    return 0;
}

double clbcu_call_t0, clbcu_setup_s = -1, clbcu_readback_s;

static int last_phases(double *setup_s, double *readback_s)
{
    if (clbcu_setup_s < 0)
        return 1;
    *setup_s = clbcu_setup_s;
    *readback_s = clbcu_readback_s;
    return 0;
}

static const clbcu_api api = {CLBCU_ABI_VERSION, device_name, saxpy, clbcu_sgemm, clbcu_dgemm, mcpi, strmatch,
                              clbcu_euler_string, configure, last_phases};

extern "C" __attribute__((visibility("default"))) const clbcu_api *clbcu_get_api(void)
{
    return &api;
}
