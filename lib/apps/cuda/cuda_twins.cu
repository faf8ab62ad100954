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

/* Enough blocks of 256 threads to fill the device several times over (grid-stride loops). */
static int fill_blocks(size_t work, unsigned *blocks, char *err, size_t errlen)
{
    int rc = 0, dev = 0, sms = 0;
    CU(cudaGetDevice(&dev));
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    {
        size_t need = (work + 255) / 256, cap = (size_t)sms * 32;
        *blocks = (unsigned)(need < cap ? (need ? need : 1) : cap);
    }
cleanup:
    return rc;
}

/* ---- SAXPY: y = a x + y, grid-stride ---- */

__global__ void saxpy_kernel(size_t n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

static int saxpy(size_t n, float a, const float *x, float *y_inout, unsigned reps, double *times_s,
                 char *err, size_t errlen)
{
    int rc = 0;
    unsigned blocks = 1;
    float *dx = NULL, *dy = NULL;
    if (n == 0)
        CU_FAIL("saxpy: n is 0");
    if (cu_select(err, errlen) != 0 || fill_blocks(n, &blocks, err, errlen) != 0)
        return 1;
    CU(cudaMalloc(&dx, n * sizeof *dx));
    CU(cudaMalloc(&dy, n * sizeof *dy));
    CU(cudaMemcpy(dx, x, n * sizeof *dx, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dy, y_inout, n * sizeof *dy, cudaMemcpyHostToDevice));
    rc = cu_timed(cu_no_prep, [&]() {
        saxpy_kernel<<<blocks, 256>>>(n, a, dx, dy);
        return cudaPeekAtLastError();
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU(cudaMemcpy(y_inout, dy, n * sizeof *dy, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(dx);
    cudaFree(dy);
    return rc;
}

/* ---- MonteCarloPi of seed 004: one sample per thread ---- */

/* The seed's getRandom (Fig. 1): 32-bit unsigned state, three LCG steps giving 11 + 10 + 10 bits. */
__device__ static unsigned get_random(uint32_t *seed)
{
    uint32_t next = *seed;
    unsigned result;
    next = next * 1103515245u + 12345u;
    result = (next / 65536u) % 2048u;
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (next / 65536u) % 1024u;
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (next / 65536u) % 1024u;
    *seed = next;
    return result;
}

/* Sample i: seed 1987 ^ (i * 27) mod 2^32; x, y = r / RAND_MAX in float as the seed's CUDA
 * version (RAND_MAX = 2147483647), d = sqrt(x x + y y) <= 1, every operation rounded as IEEE
 * float without contraction so the count is bit-exact against a C host. The block's count by
 * __syncthreads_count, one atomicAdd per block. */
__global__ void mcpi_kernel(unsigned long long samples, unsigned long long *inside)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    int in = 0;
    if (i < samples) {
        uint32_t seed = 1987u ^ (uint32_t)(i * 27u);
        float x = __fdiv_rn((float)get_random(&seed), (float)2147483647);
        float y = __fdiv_rn((float)get_random(&seed), (float)2147483647);
        in = __fsqrt_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y))) <= 1.0f;
    }
    int count = __syncthreads_count(in);
    if (threadIdx.x == 0 && count)
        atomicAdd(inside, (unsigned long long)count);
}

static int mcpi(unsigned long long samples, unsigned reps, double *times_s, unsigned long long *inside,
                char *err, size_t errlen)
{
    int rc = 0;
    unsigned long long *dcount = NULL, blocks = (samples + 255) / 256;
    if (samples == 0 || blocks > INT_MAX)
        CU_FAIL("mcpi: %llu samples is outside 1 .. 2^31 blocks of 256", samples);
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaMalloc(&dcount, sizeof *dcount));
    rc = cu_timed([&]() { return cudaMemset(dcount, 0, sizeof *dcount); }, [&]() {
        mcpi_kernel<<<(unsigned)blocks, 256>>>(samples, dcount);
        return cudaPeekAtLastError();
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU(cudaMemcpy(inside, dcount, sizeof *inside, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(dcount);
    return rc;
}

/* ---- StringMatch of seed 004: text tile and pattern in shared memory, atomicMin ---- */

enum { SM_THREADS = 256 };

/* Block (bx, k): start positions bx*256 .. +255 against pattern k. The tile holds the text the
 * block's windows cover (256 + pat_len - 1 bytes), then the pattern. A start beyond the first
 * match already found skips its comparison, as the seed's gid < *result. */
__global__ void strmatch_kernel(const char *__restrict__ text, unsigned long long text_len,
                                const char *__restrict__ pats, unsigned pat_len,
                                unsigned long long *first)
{
    extern __shared__ char tile[];
    char *pat = tile + SM_THREADS + pat_len;
    const char *p = pats + (size_t)blockIdx.y * pat_len;
    unsigned long long base = blockIdx.x * (unsigned long long)SM_THREADS, start = base + threadIdx.x;
    for (unsigned j = threadIdx.x; j < SM_THREADS + pat_len - 1; j += SM_THREADS)
        tile[j] = base + j < text_len ? text[base + j] : 0;
    for (unsigned j = threadIdx.x; j < pat_len; j += SM_THREADS)
        pat[j] = p[j];
    __syncthreads();
    unsigned long long *res = first + blockIdx.y;
    if (start + pat_len > text_len || start > *(volatile unsigned long long *)res)
        return;
    unsigned i = 0;
    while (i < pat_len && tile[threadIdx.x + i] == pat[i])
        i++;
    if (i == pat_len)
        atomicMin(res, start);
}

static int strmatch(const char *text, size_t text_len, const char *patterns, size_t npat,
                    size_t pat_len, unsigned reps, double *times_s, long long *pos, char *err,
                    size_t errlen)
{
    int rc = 0;
    char *dt = NULL, *dp = NULL;
    unsigned long long *dfirst = NULL, *first = NULL;
    size_t shared = SM_THREADS + 2 * pat_len, starts = text_len - pat_len + 1;
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
        dim3 grid((unsigned)((starts + SM_THREADS - 1) / SM_THREADS), (unsigned)npat);
        rc = cu_timed([&]() { return cudaMemset(dfirst, 0xFF, npat * sizeof *dfirst); }, [&]() {
            strmatch_kernel<<<grid, SM_THREADS, shared>>>(dt, text_len, dp, (unsigned)pat_len, dfirst);
            return cudaPeekAtLastError();
        }, reps, times_s, err, errlen);
    }
    if (rc != 0)
        goto cleanup;
    CU(cudaMemcpy(first, dfirst, npat * sizeof *first, cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < npat; k++)
        pos[k] = first[k] == ULLONG_MAX ? -1 : (long long)first[k];
cleanup:
    cudaFree(dt);
    cudaFree(dp);
    cudaFree(dfirst);
    free(first);
    return rc;
}

static const clbcu_api api = {CLBCU_ABI_VERSION, device_name, saxpy, clbcu_sgemm, clbcu_dgemm, mcpi, strmatch,
                              clbcu_euler_string};

extern "C" __attribute__((visibility("default"))) const clbcu_api *clbcu_get_api(void)
{
    return &api;
}
