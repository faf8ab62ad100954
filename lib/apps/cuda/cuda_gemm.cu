/* The GEMM twins: C = A B, row-major n x n. Variant 0 is the CUDA form of the OpenCL rows'
 * fastest kernel on NVIDIA GPUs, the warp tiles of lib/apps/gemm/gemm_rungs.cl, at the shapes
 * their tuner picks there. Variant 1 is cuBLAS, loaded with
 * dlopen, row-major through the transpose trick (C^T = B^T A^T in column-major). */
#include "cuda_common.cuh"

#include <cuda_pipeline.h>
#include <dlfcn.h>

/* Vectors of N elements of T: the 16-byte global loads (float4, double2) and the fragments. */
template <typename T, int N> struct vec;
template <> struct vec<float, 4> { typedef float4 type; };
template <> struct vec<double, 2> { typedef double2 type; };
/* Between a vector and registers, by component (no cast of a local array, which would put it in
 * local memory). */
__device__ __forceinline__ static void unpack(float *d, float4 v) { d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w; }
__device__ __forceinline__ static void unpack(double *d, double2 v) { d[0] = v.x; d[1] = v.y; }
__device__ __forceinline__ static void pack(float4 *v, const float *s) { *v = make_float4(s[0], s[1], s[2], s[3]); }
__device__ __forceinline__ static void pack(double2 *v, const double *s) { *v = make_double2(s[0], s[1]); }

/* The warp-tile kernel of the OpenCL rows app.*gemm.warp_tiles / .tuned (gemm_rungs.cl, family
 * 3): a block of NT threads computes a BM x BN block of C over BK-deep slices; thread (ty, tx)
 * owns TM x TN outputs as FV x FV groups, its rows g BM / GM + ty FV + i, its columns
 * h BN / GN + tx FV + j, read as FV-vectors from shared memory (A stored transposed, As[k][m],
 * rows padded by 4 against bank conflicts of the transposed stores); a warp lies over a
 * (32 / LN) x LN patch of threads. The next slice is fetched from global memory (16-byte
 * vectors, coalesced) into registers while the current one is used, then stored into the other
 * buffer (DB 1, one barrier per slice) or, with one buffer (DB 0), after a barrier; DB 2 is DB 1
 * with B's slice copied straight into shared memory by cp.async (no registers; the OpenCL rows
 * have no such copy). Each output
 * is one fma chain over k = 0 .. n - 1 in order. n is a multiple of BM, BN and BK (the caller
 * pads). MINB: blocks per SM the register allocation must allow (__launch_bounds__). */
template <typename T, int BM, int BN, int BK, int TM, int TN, int FV, int LN, int DB> struct wcfg {
    enum {
        WRN = BN / TN, NT = (BM / TM) * WRN, GM = TM / FV, GN = TN / FV, VW = 16 / (int)sizeof(T),
        AS = BM + 4, LA = (BM * BK / VW + NT - 1) / NT, LB = (BK * BN / VW + NT - 1) / NT, NB = DB ? 2 : 1
    };
};

template <typename T, int BM, int BN, int BK, int TM, int TN, int FV, int LN, int DB, int MINB>
__global__ void __launch_bounds__(wcfg<T, BM, BN, BK, TM, TN, FV, LN, DB>::NT, MINB)
gemm_warp(int n, const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C)
{
    typedef wcfg<T, BM, BN, BK, TM, TN, FV, LN, DB> W;
    typedef typename vec<T, W::VW>::type ldv;
    typedef typename vec<T, FV>::type frag;
    __shared__ __align__(16) T As[W::NB][BK][W::AS];
    __shared__ __align__(16) T Bs[W::NB][BK][BN];
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
    const int ty = w / (W::WRN / LN) * (32 / LN) + lane / LN, tx = w % (W::WRN / LN) * LN + lane % LN;
    const size_t n0 = blockIdx.x * (size_t)BN, m0 = blockIdx.y * (size_t)BM, ld = (size_t)n;
    T acc[TM][TN], pa[W::LA][W::VW], pb[W::LB][W::VW];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = T(0);
    auto fetch = [&](int k0, int buf) {
#pragma unroll
        for (int l = 0; l < W::LA; l++) {
            int v = tid + l * W::NT, r = v / (BK / W::VW), c = (v % (BK / W::VW)) * W::VW;
            if (v < BM * BK / W::VW)
                unpack(pa[l], *(const ldv *)(A + (m0 + r) * ld + k0 + c));
        }
#pragma unroll
        for (int l = 0; l < W::LB; l++) {
            int v = tid + l * W::NT, r = v / (BN / W::VW), c = (v % (BN / W::VW)) * W::VW;
            if (v < BK * BN / W::VW) {
                const T *src = B + (size_t)(k0 + r) * ld + n0 + c;
                if (DB == 2)
                    __pipeline_memcpy_async(&Bs[buf][r][c], src, 16);
                else
                    unpack(pb[l], *(const ldv *)src);
            }
        }
        if (DB == 2)
            __pipeline_commit();
    };
    auto store = [&](int buf) {
#pragma unroll
        for (int l = 0; l < W::LA; l++) {
            int v = tid + l * W::NT, r = v / (BK / W::VW), c = (v % (BK / W::VW)) * W::VW;
            if (v < BM * BK / W::VW)
#pragma unroll
                for (int e = 0; e < W::VW; e++)
                    As[buf][c + e][r] = pa[l][e];
        }
#pragma unroll
        for (int l = 0; l < W::LB; l++) {
            int v = tid + l * W::NT, r = v / (BN / W::VW), c = (v % (BN / W::VW)) * W::VW;
            if (DB != 2 && v < BK * BN / W::VW)
                pack((ldv *)&Bs[buf][r][c], pb[l]);
        }
        if (DB == 2)
            __pipeline_wait_prior(0);
    };
    const int slices = n / BK;
    fetch(0, 0);
    store(0);
    __syncthreads();
    for (int t = 0; t < slices; t++) {
        const int cur = DB ? t & 1 : 0;
        if (t + 1 < slices)
            fetch((t + 1) * BK, cur ^ 1);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            T a[TM], b[TN];
#pragma unroll
            for (int g = 0; g < W::GM; g++)
                unpack(&a[g * FV], *(const frag *)&As[cur][k][g * (BM / W::GM) + ty * FV]);
#pragma unroll
            for (int h = 0; h < W::GN; h++)
                unpack(&b[h * FV], *(const frag *)&Bs[cur][k][h * (BN / W::GN) + tx * FV]);
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        if (t + 1 < slices) { /* uniform over the block */
            if (!DB)
                __syncthreads(); /* every thread done reading the one buffer */
            store(DB ? cur ^ 1 : 0);
        }
        __syncthreads();
    }
#pragma unroll
    for (int g = 0; g < W::GM; g++)
#pragma unroll
        for (int i = 0; i < FV; i++)
#pragma unroll
            for (int h = 0; h < W::GN; h++)
                pack((frag *)(C + (m0 + g * (BM / W::GM) + ty * FV + i) * ld + n0 + h * (BN / W::GN) + tx * FV),
                     &acc[g * FV + i][h * FV]);
}

template <typename T, int BM, int BN, int BK, int TM, int TN, int FV, int LN, int DB, int MINB>
static cudaError_t launch_warp(int n, const T *a, const T *b, T *c)
{
    typedef wcfg<T, BM, BN, BK, TM, TN, FV, LN, DB> W;
    dim3 grid((unsigned)(n / BN), (unsigned)(n / BM));
    gemm_warp<T, BM, BN, BK, TM, TN, FV, LN, DB, MINB><<<grid, W::NT>>>(n, a, b, c);
    return cudaPeekAtLastError();
}

/* The own kernel's shapes, in the order of CLBCU_SGEMM_SHAPES / CLBCU_DGEMM_SHAPES
 * (cuda_twins.h): the OpenCL rows' winners on NVIDIA GPUs (docs/results/gemm.md) and their
 * neighbours; the row screens them on the device (each one validated) and keeps the fastest.
 * quantum: n is padded to a multiple of it. */
template <typename T> struct own_shape {
    int quantum;
    cudaError_t (*launch)(int n, const T *a, const T *b, T *c);
};
static const own_shape<float> sgemm_shapes[CLBCU_SGEMM_SHAPES] = {
    {128, launch_warp<float, 128, 128, 16, 8, 8, 4, 8, 1, 2>},
    {128, launch_warp<float, 128, 128, 8, 8, 8, 4, 8, 1, 2>},
    {128, launch_warp<float, 128, 64, 16, 8, 8, 4, 8, 1, 3>},
    {128, launch_warp<float, 128, 64, 8, 8, 8, 4, 8, 1, 3>},
    {128, launch_warp<float, 128, 128, 16, 8, 8, 4, 8, 1, 1>},
    {128, launch_warp<float, 128, 128, 16, 8, 8, 4, 8, 2, 2>},
    {128, launch_warp<float, 128, 128, 8, 8, 8, 4, 8, 2, 2>},
};
static const own_shape<double> dgemm_shapes[CLBCU_DGEMM_SHAPES] = {
    {128, launch_warp<double, 64, 128, 8, 8, 8, 2, 8, 1, 1>},
    {128, launch_warp<double, 64, 128, 16, 8, 8, 2, 8, 0, 1>},
    {128, launch_warp<double, 128, 128, 8, 8, 8, 2, 8, 1, 1>},
    {128, launch_warp<double, 64, 128, 8, 8, 8, 2, 8, 2, 1>},
};
template <typename T> static const own_shape<T> *own(int shape);
template <> const own_shape<float> *own<float>(int shape)
{
    return shape >= 0 && shape < CLBCU_SGEMM_SHAPES ? &sgemm_shapes[shape] : NULL;
}
template <> const own_shape<double> *own<double>(int shape)
{
    return shape >= 0 && shape < CLBCU_DGEMM_SHAPES ? &dgemm_shapes[shape] : NULL;
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

/* The own kernel (variant 0: shape 0; variant 2 + i: shape i) runs on np x np matrices (n padded
 * with zeros to the shape's quantum), cuBLAS (variant 1) on n x n; the result comes back n x n. */
template <typename T>
static int gemm(int variant, size_t n, const T *a, const T *b, T *c, unsigned reps, double *times_s,
                char *err, size_t errlen)
{
    int rc = 0;
    const own_shape<T> *sh = own<T>(variant == 0 ? 0 : variant - 2);
    size_t np = sh ? (n + (size_t)sh->quantum - 1) / (size_t)sh->quantum * (size_t)sh->quantum : n,
           row = n * sizeof(T), prow = np * sizeof(T), bytes = np * prow;
    T *da = NULL, *db = NULL, *dc = NULL;
    blas bl = {NULL, NULL, NULL, NULL};
    if (n == 0 || np > 46336 || (!sh && variant != 1))
        CU_FAIL("gemm: variant %d at n = %zu is not supported (0, 1 or 2 + a shape of cuda_twins.h; n in 1 .. 46336)",
                variant, n);
    if (cu_select(err, errlen) != 0 || (variant == 1 && blas_open(&bl, sizeof(T) == 8, err, errlen) != 0)) {
        rc = 1; /* the reason is in err */
        goto cleanup;
    }
    CU(cudaMalloc(&da, bytes));
    CU(cudaMalloc(&db, bytes));
    CU(cudaMalloc(&dc, bytes));
    CU(cudaMemset(da, 0, bytes));
    CU(cudaMemset(db, 0, bytes));
    CU(cudaMemcpy2D(da, prow, a, row, row, n, cudaMemcpyHostToDevice));
    CU(cudaMemcpy2D(db, prow, b, row, row, n, cudaMemcpyHostToDevice));
    CU(cudaMemset(dc, 0x5A, bytes)); /* junk: a kernel that writes nothing fails validation */
    rc = cu_timed(cu_no_prep, [&]() {
        return sh ? sh->launch((int)np, da, db, dc) : blas_gemm(&bl, (int)n, da, db, dc);
    }, reps, times_s, err, errlen);
    if (rc == 0)
        CU_READBACK(cudaMemcpy2D(c, row, dc, prow, row, n, cudaMemcpyDeviceToHost));
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
