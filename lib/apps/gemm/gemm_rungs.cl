/* GEMM ladder, C = A B, row-major, all matrices padded by the host to the rung's multiples
 * (padding is zero, so no bounds checks): A is M x K, B is K x N, C is M x N. The prefix
 * defines REAL, REAL4, REAL8 (float or double) and, per rung, KP (= K, for private rows),
 * and the blocking macros of the blocked rungs. One kernel per rung, named after it. */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* Seed 002, rung 1: work-items along dimension 0 walk down a column of C (a row apart in
 * memory), and the sum accumulates in global memory. */
__kernel void gemm_naive(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                         __global REAL *C)
{
    int i = get_global_id(0), j = get_global_id(1);
    C[i * N + j] = 0;
    for (int k = 0; k < K; k++)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
}

/* Seed 002, rungs 2-9 read B stored column-major (Bt, N x K: Bt[j * K + k] = B[k][j]), as the
 * seed's genMatrices writes it from its rung 2 on: the host transposes B before the upload,
 * outside the timed runs (the seed's generation is not timed either), so every dot product
 * reads a row of A and a row of Bt contiguously. */

/* Rung 2 (matr_mul_1dim_coalesced): rung 1's mapping, B column-major. */
__kernel void gemm_coalesced(int M, int N, int K, __global const REAL *A,
                             __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0), j = get_global_id(1);
    C[i * N + j] = 0;
    for (int k = 0; k < K; k++)
        C[i * N + j] += A[i * K + k] * Bt[j * K + k];
}

/* Rung 3 (matr_mul_sum_local): the sum in a private variable, one store. */
__kernel void gemm_private_acc(int M, int N, int K, __global const REAL *A,
                               __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0), j = get_global_id(1);
    REAL acc = 0;
    for (int k = 0; k < K; k++)
        acc += A[i * K + k] * Bt[j * K + k];
    C[i * N + j] = acc;
}

/* Not the seed's: B stays row-major and neighbouring work-items (dimension 0) take
 * neighbouring columns j, so their reads of B are contiguous across the work-items. */
__kernel void gemm_coalesced_map(int M, int N, int K, __global const REAL *A,
                                 __global const REAL *B, __global REAL *C)
{
    int j = get_global_id(0), i = get_global_id(1);
    C[i * N + j] = 0;
    for (int k = 0; k < K; k++)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
}

/* The same with the sum in a private variable: seed 001's listing 2 (gemm1, column-major
 * there, the same accesses in row-major terms). */
__kernel void gemm_private_acc_map(int M, int N, int K, __global const REAL *A,
                                   __global const REAL *B, __global REAL *C)
{
    int j = get_global_id(0), i = get_global_id(1);
    REAL acc = 0;
    for (int k = 0; k < K; k++)
        acc += A[i * K + k] * B[k * N + j];
    C[i * N + j] = acc;
}

/* Seed 001, listing 3: TS x TS tiles of A and B in local memory. */
#ifndef TS
#define TS 16
#endif
__kernel void gemm_tiled(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                         __global REAL *C)
{
    __local REAL As[TS][TS], Bs[TS][TS];
    int c = get_local_id(0), r = get_local_id(1);
    int j = get_group_id(0) * TS + c, i = get_group_id(1) * TS + r;
    REAL acc = 0;
    for (int t = 0; t < K; t += TS) {
        As[r][c] = A[i * K + t + c];
        Bs[r][c] = B[(t + r) * N + j];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[r][k] * Bs[k][c];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[i * N + j] = acc;
}

/* Seed 002, rung 4 (matr_mul_row_calc): one row of C per work-item. */
__kernel void gemm_row(int M, int N, int K, __global const REAL *A, __global const REAL *Bt,
                       __global REAL *C)
{
    int i = get_global_id(0);
    for (int j = 0; j < N; j++) {
        REAL acc = 0;
        for (int k = 0; k < K; k++)
            acc += A[i * K + k] * Bt[j * K + k];
        C[i * N + j] = acc;
    }
}

#ifdef KP
/* Rung 5 (matr_mul_row_in_private): the work-item's row of A copied once into private memory. */
__kernel void gemm_row_private_a(int M, int N, int K, __global const REAL *A,
                                 __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0);
    REAL arow[KP];
    for (int k = 0; k < KP; k++)
        arow[k] = A[i * K + k];
    for (int j = 0; j < N; j++) {
        REAL acc = 0;
        for (int k = 0; k < KP; k++)
            acc += arow[k] * Bt[j * K + k];
        C[i * N + j] = acc;
    }
}

/* Rung 6 (matr_mul_col_local): plus column j of B (a row of Bt), copied by the work-group
 * into local memory, each work-item a strided share; the barrier before the copy (missing in
 * the seed's listing) keeps a fast work-item from overwriting a column others still read. */
__kernel void gemm_row_local_b(int M, int N, int K, __global const REAL *A,
                               __global const REAL *Bt, __global REAL *C,
                               __local REAL *bcol)
{
    int i = get_global_id(0);
    REAL arow[KP];
    for (int k = 0; k < KP; k++)
        arow[k] = A[i * K + k];
    for (int j = 0; j < N; j++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = get_local_id(0); k < KP; k += (int)get_local_size(0))
            bcol[k] = Bt[j * K + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        REAL acc = 0;
        for (int k = 0; k < KP; k++)
            acc += arow[k] * bcol[k];
        C[i * N + j] = acc;
    }
}

/* Rungs 7-9 build on rung 5, as the seed does (its fastest so far): no local memory. */

/* Rung 7 (matr_mul_vect): dot() on 4-vectors assembled from scalars in the loop (KP % 4 == 0). */
__kernel void gemm_row_float4(int M, int N, int K, __global const REAL *A,
                              __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0);
    REAL arow[KP];
    for (int k = 0; k < KP; k++)
        arow[k] = A[i * K + k];
    for (int j = 0; j < N; j++) {
        __global const REAL *b = Bt + j * K;
        REAL acc = 0;
        for (int k = 0; k < KP; k += 4)
            acc += dot((REAL4)(arow[k], arow[k + 1], arow[k + 2], arow[k + 3]),
                       (REAL4)(b[k], b[k + 1], b[k + 2], b[k + 3]));
        C[i * N + j] = acc;
    }
}

/* Rung 8 (matr_mul_vect_v2): the row of A held as 4-vectors, built once outside the main
 * loop, which still assembles B's 4-vectors from scalars. */
__kernel void gemm_row_float4_noconv(int M, int N, int K, __global const REAL *A,
                                     __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0);
    REAL4 arow[KP / 4];
    for (int k = 0; k < KP / 4; k++)
        arow[k] = (REAL4)(A[i * K + 4 * k], A[i * K + 4 * k + 1], A[i * K + 4 * k + 2],
                          A[i * K + 4 * k + 3]);
    for (int j = 0; j < N; j++) {
        __global const REAL *b = Bt + j * K;
        REAL acc = 0;
        for (int k = 0; k < KP / 4; k++)
            acc += dot(arow[k], (REAL4)(b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]));
        C[i * N + j] = acc;
    }
}

/* Rung 9 (matr_mul_vect_v3): 8-vectors (KP % 8 == 0); dot8 as in the seed, via 4-vector halves. */
__kernel void gemm_row_float8(int M, int N, int K, __global const REAL *A,
                              __global const REAL *Bt, __global REAL *C)
{
    int i = get_global_id(0);
    REAL8 arow[KP / 8];
    for (int k = 0; k < KP / 8; k++)
        arow[k] = vload8(k, A + i * K);
    for (int j = 0; j < N; j++) {
        __global const REAL *b = Bt + j * K;
        REAL acc = 0;
        for (int k = 0; k < KP / 8; k++) {
            REAL8 p = arow[k] * vload8(k, b);
            acc += dot(p.lo + p.hi, (REAL4)(1));
        }
        C[i * N + j] = acc;
    }
}
#endif

#ifdef TSM
/* Blocked rungs: a work-group computes a TSM x TSN tile of C over TSK-deep slices of A and B
 * held in local memory; each work-item accumulates WPTM x WPTN outputs in registers, strided
 * by the work-group's extent so neighbouring work-items touch neighbouring local words.
 * VW: width of the global loads (vloadVW); DBUF: two local buffers, the next slice loaded
 * while the current one is used, one barrier per slice. */
#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define NT (RTSM * RTSN)
#define NBUF (1 + DBUF)
#if VW == 1
#define LOADV(p) (*(p))
#define STOREV(v, p) (*(p) = (v))
typedef REAL realv;
#else
#define LOADV(p) CAT(vload, VW)(0, p)
#define STOREV(v, p) CAT(vstore, VW)(v, 0, p)
typedef CAT(REAL, VW) realv;
#endif

/* Slice t of A (TSM x TSK, stored transposed: As[k][m]) and of B (TSK x TSN) into buffer b. */
void load_slice(__global const REAL *A, __global const REAL *B, int N, int K, int m0,
                       int n0, int k0, int tid, __local REAL *As, __local REAL *Bs)
{
    for (int v = tid; v < TSM * TSK / VW; v += NT) {
        int r = v / (TSK / VW), cv = (v % (TSK / VW)) * VW;
        REAL tmp[VW];
        STOREV(LOADV(A + (m0 + r) * K + k0 + cv), tmp);
        for (int e = 0; e < VW; e++)
            As[(cv + e) * TSM + r] = tmp[e];
    }
    for (int v = tid; v < TSK * TSN / VW; v += NT) {
        int r = v / (TSN / VW), cv = (v % (TSN / VW)) * VW;
        STOREV(LOADV(B + (k0 + r) * N + n0 + cv), Bs + r * TSN + cv);
    }
}

void blocked(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                    __global REAL *C, __local REAL *As, __local REAL *Bs)
{
    int tx = get_local_id(0), ty = get_local_id(1), tid = ty * RTSN + tx;
    int n0 = get_group_id(0) * TSN, m0 = get_group_id(1) * TSM;
    REAL acc[WPTM][WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0;
    int slices = K / TSK;
    load_slice(A, B, N, K, m0, n0, 0, tid, As, Bs);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < slices; t++) {
        int cur = (t % NBUF);
        if (DBUF && t + 1 < slices)
            load_slice(A, B, N, K, m0, n0, (t + 1) * TSK, tid, As + ((t + 1) % NBUF) * TSK * TSM,
                       Bs + ((t + 1) % NBUF) * TSK * TSN);
        __local REAL *as = As + cur * TSK * TSM, *bs = Bs + cur * TSK * TSN;
        for (int k = 0; k < TSK; k++) {
            REAL breg[WPTN];
            for (int wn = 0; wn < WPTN; wn++)
                breg[wn] = bs[k * TSN + tx + wn * RTSN];
            for (int wm = 0; wm < WPTM; wm++) {
                REAL a = as[k * TSM + ty + wm * RTSM];
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] = fma(a, breg[wn], acc[wm][wn]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!DBUF && t + 1 < slices) {
            load_slice(A, B, N, K, m0, n0, (t + 1) * TSK, tid, As, Bs);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            C[(m0 + ty + wm * RTSM) * N + n0 + tx + wn * RTSN] = acc[wm][wn];
}

#define BLOCKED_KERNEL(name)                                                                 \
    __kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void name(                 \
        int M, int N, int K, __global const REAL *A, __global const REAL *B, __global REAL *C) \
    {                                                                                        \
        __local REAL As[NBUF * TSK * TSM], Bs[NBUF * TSK * TSN];                             \
        blocked(M, N, K, A, B, C, As, Bs);                                                   \
    }
/* Beyond the seeds: 2D register blocking (VW 1, one buffer), vectorized global loads,
 * double-buffered local slices, and the configuration the tuner found on this device. */
BLOCKED_KERNEL(gemm_regblock)
BLOCKED_KERNEL(gemm_vectorized)
BLOCKED_KERNEL(gemm_double_buffered)
#if FAMILY == 0
BLOCKED_KERNEL(gemm_tuned)
#endif
#endif

#ifdef RM
/* Register blocking with explicit vectors, the form a CPU compiles well: no local memory and
 * no barriers; each work-item keeps an RM x (VN W) block of C in RM * VN vectors of width W,
 * streaming its rows of A and a panel of B that neighbouring work-items (dimension 0 walks
 * down the rows) share in cache. The loops over the block are unrolled in full so that the
 * accumulators live in registers: PoCL (LLVM 15) left them on the stack otherwise, one load
 * and one store per FMA (2.4x slower on AVX-512). */
#define VT CAT(REAL, W)
#define NR (VN * W)

/* acc[r][v] += A[i0 + r][k] * the VN vectors at bk (one step of the micro-kernel). */
#define VB_STEP(acc, A, lda, i0, k, bk)                                                  \
    do {                                                                                 \
        VT b_[VN];                                                                       \
        _Pragma("unroll") for (int v = 0; v < VN; v++) b_[v] = CAT(vload, W)(0, (bk) + v * W); \
        _Pragma("unroll") for (int r = 0; r < RM; r++) {                                 \
            VT a_ = (VT)((A)[((i0) + r) * (lda) + (k)]);                                 \
            _Pragma("unroll") for (int v = 0; v < VN; v++) acc[r][v] = fma(a_, b_[v], acc[r][v]); \
        }                                                                                \
    } while (0)

/* The RM x NR block of C at (i0, j0): from zero (first) or from C, and back to C. */
#define VB_LOAD(acc, C, N, i0, j0, first)                                                \
    _Pragma("unroll") for (int r = 0; r < RM; r++) _Pragma("unroll") for (int v = 0; v < VN; v++) \
        acc[r][v] = (first) ? (VT)(0) : CAT(vload, W)(0, (C) + ((i0) + r) * (N) + (j0) + v * W)
#define VB_STORE(acc, C, N, i0, j0)                                                      \
    _Pragma("unroll") for (int r = 0; r < RM; r++) _Pragma("unroll") for (int v = 0; v < VN; v++) \
        CAT(vstore, W)(acc[r][v], 0, (C) + ((i0) + r) * (N) + (j0) + v * W)

#if FAMILY != 2
void vecblock(int M, int N, int K, __global const REAL *A, __global const REAL *B,
              __global REAL *C)
{
    int i0 = get_global_id(0) * RM, j0 = get_global_id(1) * NR;
    VT acc[RM][VN];
    VB_LOAD(acc, C, N, i0, j0, 1);
    for (int k = 0; k < K; k++)
        VB_STEP(acc, A, K, i0, k, B + k * N + j0);
    VB_STORE(acc, C, N, i0, j0);
}

__kernel void gemm_register_vectors(int M, int N, int K, __global const REAL *A,
                                    __global const REAL *B, __global REAL *C)
{
    vecblock(M, N, K, A, B, C);
}
#endif
#if FAMILY == 1
__kernel void gemm_tuned(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                         __global REAL *C)
{
    vecblock(M, N, K, A, B, C);
}
#endif
#if FAMILY == 2
/* Packed panels (the CPU micro-kernel recipe): B is first copied panel by panel, the NR
 * columns of a panel contiguous for all K rows (Bp[p][k][0..NR)), so the inner loop streams
 * it; a work-item owns MB blocks of RM rows of one panel and walks K in slices of KC, the
 * slice of the panel (KC x NR) staying in L1/L2 while its MB blocks reuse it; the partial
 * block of C goes back to C between slices. Work-groups of one item (the host's geometry). */
__kernel void gemm_pack_b(int N, int K, __global const REAL *B, __global REAL *Bp)
{
    int k = get_global_id(0), p = get_global_id(1);
    for (int c = 0; c < NR; c++)
        Bp[((size_t)p * K + k) * NR + c] = B[k * N + p * NR + c];
}

__kernel void gemm_tuned(int M, int N, int K, __global const REAL *A, __global const REAL *Bp,
                         __global REAL *C)
{
    int ib = get_global_id(0) * MB * RM, p = get_global_id(1), j0 = p * NR;
    __global const REAL *bp = Bp + (size_t)p * K * NR;
    for (int k0 = 0; k0 < K; k0 += KC) {
        int k1 = min(K, k0 + KC);
        for (int m = 0; m < MB; m++) {
            int i0 = ib + m * RM;
            VT acc[RM][VN];
            VB_LOAD(acc, C, N, i0, j0, k0 == 0);
            for (int k = k0; k < k1; k++)
                VB_STEP(acc, A, K, i0, k, bp + k * NR);
            VB_STORE(acc, C, N, i0, j0);
        }
    }
}
#endif
#endif

#ifdef WBM
/* Warp tiles (family 3, the form of the fast CUDA SGEMMs on NVIDIA GPUs): a
 * work-group of WNT items computes a WBM x WBN block of C over K slices of WBK. Each item
 * owns WTM x WTN outputs in registers as groups of WFV rows x WFV columns (WFV, the fragment
 * width: 4, or 2 for DGEMM): its rows are the groups g * WBM / GM + ty * WFV (GM = WTM / WFV
 * groups), its columns g * WBN / GN + tx * WFV, so its A and B fragments are WFV-vector reads
 * from local memory (LDS.128 on NVIDIA: a float4 or a double2), A stored transposed
 * (As[k][m]); the items of a warp read the same A vector (broadcast) and contiguous B
 * vectors. The next slice is loaded from global memory into registers (4-vectors, coalesced)
 * while the current one is used, then stored to the other local buffer: one barrier per
 * slice (WDB 1); with one buffer (WDB 0) the store waits for a barrier after the reads, two
 * barriers per slice for half the local memory. WLN > 0 lays a warp over a (32 / WLN) x WLN
 * patch of items (fewer distinct vectors per read than a row of items). All sizes are
 * compile-time constants, loops unrolled. */
#ifndef WFV
#define WFV 4
#endif
#ifndef WDB
#define WDB 1
#endif
#ifndef WFA
#define WFA 0
#endif
#ifndef WCP_ASM
#define WCP_ASM 0
#endif
typedef CAT(REAL, WFV) realf;
#define WGM (WTM / WFV)
#define WGN (WTN / WFV)
#define WRN (WBN / WTN)                       /* items along N */
#define WNT ((WBM / WTM) * WRN)               /* items per work-group */
#define WNB (WDB >= 3 ? WDB : WDB ? 2 : 1)    /* local buffers (WDB 3, 4: stages of the ring) */
#define WAS (WBM + 4)                         /* As row: 4 more, so the transposed stores of
                                                 neighbouring k do not share a bank */
#define WLA ((WBM * WBK / 4 + WNT - 1) / WNT) /* A vectors per item and slice */
#define WLB ((WBK * WBN / 4 + WNT - 1) / WNT) /* B vectors per item and slice */
/* 4-vector access at an offset that is a multiple of 4 (rows padded to WBK, WBN): through a
 * vector pointer: vload4 promises the compiler only the scalar's alignment, so it may split
 * the access into four scalar loads. Fragments likewise, at multiples of WFV. */
#define WCV(p) (*(__global const REAL4 *)(p))
#define WF(p) (*(__global realf *)(p))
/* The fragment of item i at scalar offset off (a multiple of WFV) of a local buffer. */
#if WFA
#define WFRAG(buf, off, i) (*(__local const realf *)((__local const REAL *)(buf) + (off) + (i) * WFV))
#else
#define WFRAG(buf, off, i) (((__local const realf *)(buf))[(off) / WFV + (i)])
#endif

/* WDB 2: B's slice goes straight from global into local buffer nb (the other one) by
 * cp.async, 16 bytes a copy, no registers, waited for before the slice's barrier (NVIDIA's
 * inline PTX, WCP_ASM from the host); elsewhere the same copy as a plain load and store, which
 * keeps the form checkable on any device. */
#if WDB == 2 && WCP_ASM
#define WCP_COPY(dst, src)                                                                 \
    __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16;" ::"l"((ulong)(dst)), \
                         "l"((ulong)(src))                                                 \
                         : "memory")
#define WCP_WAIT() __asm__ __volatile__("cp.async.wait_all;" ::: "memory")
#else
#define WCP_COPY(dst, src) (*(__local float4 *)(dst) = *(__global const float4 *)(src))
#define WCP_WAIT() ((void)0)
#endif
#define WCP_ELEMS (16 / (int)sizeof(REAL)) /* elements of one 16-byte copy */

/* WDB 3 or 4: A and B by cp.async into a ring of WDB stages (the form of cuBLAS's FFMA kernels):
 * B's rows as 16-byte copies, A's elements one by one (4 or 8 bytes) into the transposed layout,
 * so neither takes registers nor store instructions; each item's copies of one slice are one
 * commit group and slice t is waited for with WDB - 2 groups still in flight. Off NVIDIA a plain
 * load and store stands in for each copy (the form stays checkable on any device). */
#if WDB >= 3 && WCP_ASM
#define WCP_ONE(dst, src)                                                                       \
    do {                                                                                        \
        if (sizeof(REAL) == 4)                                                                  \
            __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 4;" ::"l"((ulong)(dst)), \
                                 "l"((ulong)(src))                                              \
                                 : "memory");                                                   \
        else                                                                                    \
            __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 8;" ::"l"((ulong)(dst)), \
                                 "l"((ulong)(src))                                              \
                                 : "memory");                                                   \
    } while (0)
#define WCP_QUAD(dst, src)                                                                 \
    __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16;" ::"l"((ulong)(dst)), \
                         "l"((ulong)(src))                                                 \
                         : "memory")
#define WCP_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")
#if WDB == 3
#define WCP_WAIT_SLICE() __asm__ __volatile__("cp.async.wait_group 1;" ::: "memory")
#else
#define WCP_WAIT_SLICE() __asm__ __volatile__("cp.async.wait_group 2;" ::: "memory")
#endif
#elif WDB >= 3
#define WCP_ONE(dst, src) (*(dst) = *(src))
#define WCP_QUAD(dst, src) (*(__local float4 *)(dst) = *(__global const float4 *)(src))
#define WCP_COMMIT() ((void)0)
#define WCP_WAIT_SLICE() ((void)0)
#endif

/* Slice k0 of A and B from global memory into the item's registers (WDB 2: B into local
 * buffer nb). */
#define WT_FETCH(pa, pb, k0, nb)                                                          \
    do {                                                                                  \
        _Pragma("unroll") for (int l = 0; l < WLA; l++) {                                 \
            int v = tid + l * WNT, r = v / (WBK / 4), c = (v % (WBK / 4)) * 4;            \
            if (v < WBM * WBK / 4)                                                        \
                pa[l] = WCV(A + (m0 + r) * K + (k0) + c);                                 \
        }                                                                                 \
        _Pragma("unroll") for (int l = 0; l < WLB; l++) {                                 \
            int v = tid + l * WNT, r = v / (WBN / 4), c = (v % (WBN / 4)) * 4;            \
            if (v < WBK * WBN / 4) {                                                      \
                __global const REAL *src_ = B + ((k0) + r) * N + n0 + c;                  \
                if (WDB == 2) {                                                           \
                    __local REAL *dst_ = (__local REAL *)(Bs + (nb) * (WBK * WBN / 4) + v); \
                    _Pragma("unroll") for (int e = 0; e < 4; e += WCP_ELEMS)              \
                        WCP_COPY(dst_ + e, src_ + e);                                     \
                } else                                                                    \
                    pb[l] = WCV(src_);                                                    \
            }                                                                             \
        }                                                                                 \
    } while (0)

/* The registers into local buffer buf: A transposed (four scalar stores), B as vectors. */
#define WT_STORE(pa, pb, buf)                                                             \
    do {                                                                                  \
        __local REAL *as_ = (__local REAL *)(As + (buf) * (WBK * WAS / 4));               \
        _Pragma("unroll") for (int l = 0; l < WLA; l++) {                                 \
            int v = tid + l * WNT, r = v / (WBK / 4), c = (v % (WBK / 4)) * 4;            \
            if (v < WBM * WBK / 4) {                                                      \
                as_[(c + 0) * WAS + r] = pa[l].s0;                                        \
                as_[(c + 1) * WAS + r] = pa[l].s1;                                        \
                as_[(c + 2) * WAS + r] = pa[l].s2;                                        \
                as_[(c + 3) * WAS + r] = pa[l].s3;                                        \
            }                                                                             \
        }                                                                                 \
        _Pragma("unroll") for (int l = 0; l < WLB; l++) {                                 \
            int v = tid + l * WNT;                                                        \
            if (WDB != 2 && v < WBK * WBN / 4)                                            \
                Bs[(buf) * (WBK * WBN / 4) + v] = pb[l];                                  \
        }                                                                                 \
    } while (0)

/* acc[WFV g + i][h] += a[g].si * b[h] for the WFV rows i of group g. */
#define WT_ROW(g, i, s)                                                                   \
    _Pragma("unroll") for (int h = 0; h < WGN; h++) acc[WFV * (g) + (i)][h] =              \
        fma((realf)(a[g].s), b[h], acc[WFV * (g) + (i)][h])

void warp_tiles(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                __global REAL *C, __local REAL4 *As, __local REAL4 *Bs)
{
    int tid = get_local_id(0);
#if WLN
    /* warp w covers a (32 / WLN) x WLN patch of the items' grid */
    int w = tid / 32, lane = tid % 32;
    int ty = w / (WRN / WLN) * (32 / WLN) + lane / WLN, tx = w % (WRN / WLN) * WLN + lane % WLN;
#else
    int tx = tid % WRN, ty = tid / WRN;
#endif
    int n0 = get_group_id(0) * WBN, m0 = get_group_id(1) * WBM;
    realf acc[WTM][WGN];
    REAL4 pa[WLA], pb[WLB];
    _Pragma("unroll") for (int i = 0; i < WTM; i++)
        _Pragma("unroll") for (int h = 0; h < WGN; h++) acc[i][h] = (realf)(0);
    int slices = K / WBK;
    WT_FETCH(pa, pb, 0, 0);
    WT_STORE(pa, pb, 0);
    WCP_WAIT();
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < slices; t++) {
        int cur = WDB ? t & 1 : 0;
        if (t + 1 < slices)
            WT_FETCH(pa, pb, (t + 1) * WBK, cur ^ 1);
        /* fragments at the same addresses in two spellings (WFA, see gemm_blk.fa): NVIDIA's
         * compiler schedules them differently, each form wins at one slice depth */
        __local const REAL4 *as4 = As + cur * (WBK * WAS / 4), *bs4 = Bs + cur * (WBK * WBN / 4);
        _Pragma("unroll") for (int k = 0; k < WBK; k++) {
            realf a[WGM], b[WGN];
            _Pragma("unroll") for (int g = 0; g < WGM; g++)
                a[g] = WFRAG(as4, k * WAS + g * (WBM / WGM), ty);
            _Pragma("unroll") for (int h = 0; h < WGN; h++)
                b[h] = WFRAG(bs4, k * WBN + h * (WBN / WGN), tx);
            _Pragma("unroll") for (int g = 0; g < WGM; g++) {
                WT_ROW(g, 0, s0);
                WT_ROW(g, 1, s1);
#if WFV == 4
                WT_ROW(g, 2, s2);
                WT_ROW(g, 3, s3);
#endif
            }
        }
        if (t + 1 < slices) { /* uniform over the work-group */
#if !WDB
            barrier(CLK_LOCAL_MEM_FENCE); /* every item done reading the one buffer */
#endif
            WT_STORE(pa, pb, WDB ? cur ^ 1 : 0);
        }
        WCP_WAIT();
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    _Pragma("unroll") for (int g = 0; g < WGM; g++)
        _Pragma("unroll") for (int i = 0; i < WFV; i++)
            _Pragma("unroll") for (int h = 0; h < WGN; h++)
                WF(C + (m0 + g * (WBM / WGM) + ty * WFV + i) * N + n0 + h * (WBN / WGN) + tx * WFV) =
                    acc[WFV * g + i][h];
}

#if WDB >= 3
/* Slice s of A and B into stage st of the ring by cp.async (A: element e of the slice is row
 * e / WBK, column e % WBK, so a warp's copies read whole runs of a row and, through the
 * transposed layout's padded rows, write distinct banks at WBK 8), then the commit; past
 * the last slice only the (empty) commit, so the group count stays one per slice. */
#define WT_ASYNC(s, st)                                                                   \
    do {                                                                                  \
        if ((s) < slices) {                                                               \
            __local REAL *as_ = (__local REAL *)(As + (st) * (WBK * WAS / 4));            \
            __local REAL *bs_ = (__local REAL *)(Bs + (st) * (WBK * WBN / 4));            \
            _Pragma("unroll") for (int l = 0; l < WLA * 4; l++) {                         \
                int e = tid + l * WNT, r = e / WBK, c = e % WBK;                          \
                if (e < WBM * WBK)                                                        \
                    WCP_ONE(as_ + c * WAS + r, A + (m0 + r) * K + (s) * WBK + c);         \
            }                                                                             \
            _Pragma("unroll") for (int l = 0; l < WLB; l++) {                             \
                int v = tid + l * WNT, r = v / (WBN / 4), c = (v % (WBN / 4)) * 4;        \
                if (v < WBK * WBN / 4) {                                                  \
                    __global const REAL *src_ = B + ((s) * WBK + r) * N + n0 + c;         \
                    _Pragma("unroll") for (int e = 0; e < 4; e += WCP_ELEMS)              \
                        WCP_QUAD(bs_ + v * 4 + e, src_ + e);                              \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
        WCP_COMMIT();                                                                     \
    } while (0)

/* The ring: slices 0 .. WDB - 2 in flight before the loop; at step t, wait for slice t (this
 * item's copies), one barrier (every item's copies of slice t visible, and every item done
 * with slice t - 1, whose stage the copy of slice t + WDB - 1 then takes), then the FMAs. */
void warp_tiles_async(int M, int N, int K, __global const REAL *A, __global const REAL *B,
                      __global REAL *C, __local REAL4 *As, __local REAL4 *Bs)
{
    int tid = get_local_id(0);
#if WLN
    int w = tid / 32, lane = tid % 32;
    int ty = w / (WRN / WLN) * (32 / WLN) + lane / WLN, tx = w % (WRN / WLN) * WLN + lane % WLN;
#else
    int tx = tid % WRN, ty = tid / WRN;
#endif
    int n0 = get_group_id(0) * WBN, m0 = get_group_id(1) * WBM;
    realf acc[WTM][WGN];
    _Pragma("unroll") for (int i = 0; i < WTM; i++)
        _Pragma("unroll") for (int h = 0; h < WGN; h++) acc[i][h] = (realf)(0);
    int slices = K / WBK;
    _Pragma("unroll") for (int s = 0; s < WDB - 1; s++)
        WT_ASYNC(s, s);
    for (int t = 0; t < slices; t++) {
        int cur = t % WDB;
        WCP_WAIT_SLICE();
        barrier(CLK_LOCAL_MEM_FENCE);
        WT_ASYNC(t + WDB - 1, (t + WDB - 1) % WDB);
        __local const REAL4 *as4 = As + cur * (WBK * WAS / 4), *bs4 = Bs + cur * (WBK * WBN / 4);
        _Pragma("unroll") for (int k = 0; k < WBK; k++) {
            realf a[WGM], b[WGN];
            _Pragma("unroll") for (int g = 0; g < WGM; g++)
                a[g] = WFRAG(as4, k * WAS + g * (WBM / WGM), ty);
            _Pragma("unroll") for (int h = 0; h < WGN; h++)
                b[h] = WFRAG(bs4, k * WBN + h * (WBN / WGN), tx);
            _Pragma("unroll") for (int g = 0; g < WGM; g++) {
                WT_ROW(g, 0, s0);
                WT_ROW(g, 1, s1);
#if WFV == 4
                WT_ROW(g, 2, s2);
                WT_ROW(g, 3, s3);
#endif
            }
        }
    }
    _Pragma("unroll") for (int g = 0; g < WGM; g++)
        _Pragma("unroll") for (int i = 0; i < WFV; i++)
            _Pragma("unroll") for (int h = 0; h < WGN; h++)
                WF(C + (m0 + g * (WBM / WGM) + ty * WFV + i) * N + n0 + h * (WBN / WGN) + tx * WFV) =
                    acc[WFV * g + i][h];
}
#define WT_BODY warp_tiles_async
#else
#define WT_BODY warp_tiles
#endif

/* WMR (a register cap from the host's build option): no required work-group size, which NVIDIA's
 * compiler turns into .reqntid, and then ptxas ignores the cap (seen with ptxas 13.0 on the
 * dumped PTX: 155 registers either way) */
#ifndef WMR
#define WMR 0
#endif
#if WMR
#define WT_ATTR
#else
#define WT_ATTR __attribute__((reqd_work_group_size(WNT, 1, 1)))
#endif
#define WARP_KERNEL(name)                                                                    \
    __kernel WT_ATTR void name(                                                              \
        int M, int N, int K, __global const REAL *A, __global const REAL *B, __global REAL *C) \
    {                                                                                        \
        __local REAL4 As[WNB * WBK * WAS / 4], Bs[WNB * WBK * WBN / 4];                      \
        WT_BODY(M, N, K, A, B, C, As, Bs);                                                   \
    }
WARP_KERNEL(gemm_warp_tiles)
#if FAMILY == 3
WARP_KERNEL(gemm_tuned)
#endif
#endif
