/* The GEMM twins: C = A B, row-major n x n. Variant 0 is the CUDA form of the OpenCL ladder's
 * blocked rungs (lib/apps/gemm/gemm_rungs.cl: a TSM x TSN tile per block over TSK-deep slices in
 * shared memory, A stored transposed, WPTM x WPTN outputs per thread in registers strided by the
 * block's extent, two buffers with one barrier per slice). Variant 1 is cuBLAS, loaded with
 * dlopen, row-major through the transpose trick (C^T = B^T A^T in column-major). */
#include "cuda_common.cuh"

#include <dlfcn.h>

template <int TSM, int TSN, int TSK, int WPTM, int WPTN> struct tile_cfg {
    enum { RTSM = TSM / WPTM, RTSN = TSN / WPTN, NT = RTSM * RTSN };
};

/* Slice k0 of A (TSM x TSK, stored As[k][m]) and B (TSK x TSN) into shared memory; elements
 * outside the matrix are 0, so any n works. */
template <typename T, int TSM, int TSN, int TSK, int NT>
__device__ static void load_slice(const T *__restrict__ A, const T *__restrict__ B, int n, int m0,
                                  int n0, int k0, int tid, T *As, T *Bs)
{
#pragma unroll
    for (int v = tid; v < TSM * TSK; v += NT) {
        int r = v / TSK, c = v % TSK, gm = m0 + r, gk = k0 + c;
        As[c * TSM + r] = gm < n && gk < n ? A[(size_t)gm * n + gk] : T(0);
    }
#pragma unroll
    for (int v = tid; v < TSK * TSN; v += NT) {
        int r = v / TSN, c = v % TSN, gk = k0 + r, gn = n0 + c;
        Bs[r * TSN + c] = gk < n && gn < n ? B[(size_t)gk * n + gn] : T(0);
    }
}

template <typename T, int TSM, int TSN, int TSK, int WPTM, int WPTN>
__global__ void __launch_bounds__(tile_cfg<TSM, TSN, TSK, WPTM, WPTN>::NT)
gemm_blocked(int n, const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C)
{
    typedef tile_cfg<TSM, TSN, TSK, WPTM, WPTN> cfg;
    __shared__ T As[2][TSK * TSM], Bs[2][TSK * TSN];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * cfg::RTSN + tx;
    int n0 = blockIdx.x * TSN, m0 = blockIdx.y * TSM, slices = (n + TSK - 1) / TSK;
    T acc[WPTM][WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = T(0);
    load_slice<T, TSM, TSN, TSK, cfg::NT>(A, B, n, m0, n0, 0, tid, As[0], Bs[0]);
    __syncthreads();
    for (int t = 0; t < slices; t++) {
        int cur = t & 1;
        if (t + 1 < slices)
            load_slice<T, TSM, TSN, TSK, cfg::NT>(A, B, n, m0, n0, (t + 1) * TSK, tid, As[cur ^ 1], Bs[cur ^ 1]);
#pragma unroll
        for (int k = 0; k < TSK; k++) {
            T breg[WPTN];
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                breg[wn] = Bs[cur][k * TSN + tx + wn * cfg::RTSN];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                T a = As[cur][k * TSM + ty + wm * cfg::RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] = fma(a, breg[wn], acc[wm][wn]);
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) {
            int i = m0 + ty + wm * cfg::RTSM, j = n0 + tx + wn * cfg::RTSN;
            if (i < n && j < n)
                C[(size_t)i * n + j] = acc[wm][wn];
        }
}

/* SGEMM: 128 x 128 tiles, 8 deep, 8 x 8 outputs per thread (256 threads); DGEMM: 64 x 64 x 16,
 * 4 x 4 per thread (256 threads): the shapes the ladder's tuner picks on NVIDIA GPUs. */
template <typename T> struct own_shape;
template <> struct own_shape<float> {
    enum { TSM = 128, TSN = 128, TSK = 8, WPTM = 8, WPTN = 8 };
};
template <> struct own_shape<double> {
    enum { TSM = 64, TSN = 64, TSK = 16, WPTM = 4, WPTN = 4 };
};

template <typename T> static cudaError_t launch_own(int n, const T *a, const T *b, T *c)
{
    typedef own_shape<T> s;
    dim3 block(s::TSN / s::WPTN, s::TSM / s::WPTM);
    dim3 grid((unsigned)((n + s::TSN - 1) / s::TSN), (unsigned)((n + s::TSM - 1) / s::TSM));
    gemm_blocked<T, s::TSM, s::TSN, s::TSK, s::WPTM, s::WPTN><<<grid, block>>>(n, a, b, c);
    return cudaPeekAtLastError();
}

/* ---- cuBLAS by dlopen: the few entry points, with plain C types (cublas_api.h) ---- */

typedef int (*create_fn)(void **);
typedef int (*destroy_fn)(void *);
typedef int (*mathmode_fn)(void *, int);
typedef int (*sgemm_fn)(void *, int, int, int, int, int, const float *, const float *, int,
                        const float *, int, const float *, float *, int);
typedef int (*dgemm_fn)(void *, int, int, int, int, int, const double *, const double *, int,
                        const double *, int, const double *, double *, int);

typedef struct blas {
    void *lib, *handle;
    destroy_fn destroy;
    void *gemm; /* cublasSgemm_v2 or cublasDgemm_v2 */
} blas;

/* Any symbol the module needs from cuBLAS, or NULL with the reason. */
static void *sym(blas *b, const char *name, char *err, size_t errlen)
{
    void *p = dlsym(b->lib, name);
    if (!p)
        snprintf(err, errlen, "cuBLAS has no %s", name);
    return p;
}

/* libcublas.so.13, else .12; a missing library is the row's reason, not an error of the twin.
 * The math mode is CUBLAS_PEDANTIC_MATH (2): no TF32 or other reduced-precision shortcuts. */
static int blas_open(blas *b, int dbl, char *err, size_t errlen)
{
    int rc = 0;
    create_fn create = NULL;
    mathmode_fn mode = NULL;
    if (!(b->lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL)) &&
        !(b->lib = dlopen("libcublas.so.12", RTLD_NOW | RTLD_LOCAL)))
        CU_FAIL("cuBLAS is not installed (dlopen libcublas.so.13 and .12 failed: %s)", dlerror());
    create = (create_fn)sym(b, "cublasCreate_v2", err, errlen);
    b->destroy = (destroy_fn)sym(b, "cublasDestroy_v2", err, errlen);
    mode = (mathmode_fn)sym(b, "cublasSetMathMode", err, errlen);
    b->gemm = sym(b, dbl ? "cublasDgemm_v2" : "cublasSgemm_v2", err, errlen);
    if (!create || !b->destroy || !mode || !b->gemm) {
        rc = 1; /* sym wrote the reason */
        goto cleanup;
    }
    if (create(&b->handle) != 0)
        CU_FAIL("cublasCreate failed (no usable device?)");
    if (mode(b->handle, 2) != 0)
        CU_FAIL("cublasSetMathMode(CUBLAS_PEDANTIC_MATH) failed");
cleanup:
    return rc;
}

static void blas_close(blas *b)
{
    if (b->handle)
        b->destroy(b->handle);
    if (b->lib)
        dlclose(b->lib);
}

/* Row-major C = A B is column-major C^T = B^T A^T: pass B first (CUBLAS_OP_N = 0). */
static cudaError_t blas_gemm(const blas *b, int n, const float *a, const float *bm, float *c)
{
    const float one = 1, zero = 0;
    return ((sgemm_fn)b->gemm)(b->handle, 0, 0, n, n, n, &one, bm, n, a, n, &zero, c, n) == 0
               ? cudaPeekAtLastError()
               : cudaErrorUnknown;
}
static cudaError_t blas_gemm(const blas *b, int n, const double *a, const double *bm, double *c)
{
    const double one = 1, zero = 0;
    return ((dgemm_fn)b->gemm)(b->handle, 0, 0, n, n, n, &one, bm, n, a, n, &zero, c, n) == 0
               ? cudaPeekAtLastError()
               : cudaErrorUnknown;
}

template <typename T>
static int gemm(int variant, size_t n, const T *a, const T *b, T *c, unsigned reps, double *times_s,
                char *err, size_t errlen)
{
    int rc = 0, ni = (int)n;
    size_t bytes = n * n * sizeof(T);
    T *da = NULL, *db = NULL, *dc = NULL;
    blas bl = {NULL, NULL, NULL, NULL};
    if (n == 0 || n > 46340 || (variant != 0 && variant != 1))
        CU_FAIL("gemm: variant %d at n = %zu is not supported (variant 0 or 1, n in 1 .. 46340)", variant, n);
    if (cu_select(err, errlen) != 0 || (variant == 1 && blas_open(&bl, sizeof(T) == 8, err, errlen) != 0)) {
        rc = 1; /* the reason is in err */
        goto cleanup;
    }
    CU(cudaMalloc(&da, bytes));
    CU(cudaMalloc(&db, bytes));
    CU(cudaMalloc(&dc, bytes));
    CU(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    CU(cudaMemset(dc, 0x5A, bytes)); /* junk: a kernel that writes nothing fails validation */
    rc = cu_timed(cu_no_prep, [&]() {
        return variant == 0 ? launch_own<T>(ni, da, db, dc) : blas_gemm(&bl, ni, da, db, dc);
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
cleanup:
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    blas_close(&bl);
    return rc;
}

int clbcu_sgemm(int variant, size_t n, const float *a, const float *b, float *c, unsigned reps,
                double *times_s, char *err, size_t errlen)
{
    return gemm<float>(variant, n, a, b, c, reps, times_s, err, errlen);
}

int clbcu_dgemm(int variant, size_t n, const double *a, const double *b, double *c, unsigned reps,
                double *times_s, char *err, size_t errlen)
{
    return gemm<double>(variant, n, a, b, c, reps, times_s, err, errlen);
}
