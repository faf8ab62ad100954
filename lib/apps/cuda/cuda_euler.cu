/* The Euler twin (app.euler.cuda): explicit Euler on STRING in float, the problem of the OpenCL
 * rows app.euler.string.f32.* (docs/apps/euler.md), with the temporal blocking of the best of
 * them: row-wise tiles in shared memory (euler_tile.cl's eu_tile_row), the rows' geometry rule
 * (euler_geom.c: korrStrat, blocks of 4 components, dia_blocks from the shared memory a block may
 * use), 4 blocks of 256 threads per SM, one launch per row of tiles, timed with cudaEvents around
 * all launches of a run. Two tilings, as the OpenCL rows diamond_row_korr (diamonds) and
 * honeycomb (hexagons cut after hs = dia_blocks / 12.5 levels); the twin screens both on the
 * run's problem and keeps the faster (the best OpenCL row differs with the size). */
#include "cuda_common.cuh"

#include <string.h>

enum { ET_THREADS = 256, ET_BS = 4, ET_GROUPS_PER_SM = 4 };

/* The tiling (docs/apps/euler.md, "Tiling"): K blocks of ET_BS components, tiles of at most
 * W = 2 (m + hs) blocks, half-height hs, flat half-width m (0: diamonds), period X = 4 m + 2 hs;
 * local_bytes of shared memory per block. */
struct et_geom {
    long K, m, hs, X, diamonds;
    size_t local_bytes;
};

__device__ __forceinline__ static int et_w(int m, int hs, int s)
{
    return m + min(s, 2 * hs - s);
}

/* f_j over a shared array whose element 0 holds component off: euler_ode.cl's eu_f_local for
 * STRING, operation for operation (outside the string's ends 0). */
__device__ __forceinline__ static float et_f(const float *y, int off, int j, int nc, float k2)
{
    if (!(j & 1))
        return y[j + 1 - off];
    float l = j >= 3 ? y[j - 3 - off] : 0.0f;
    float r = j + 1 < nc ? y[j + 1 - off] : 0.0f;
    return k2 * (l - 2.0f * y[j - 1 - off] + r);
}

/* Loads the blocks of level t - 1 a tile needs at half-width w and does not hold (wp < 0: none). */
__device__ __forceinline__ static void et_load(float *cur, const float *gp, int off, int c, int w, int wp, int K)
{
    int lo = max(c - w - 1, 0) * ET_BS, hi = min(c + w + 1, K) * ET_BS;
    int klo = wp < 0 ? 0 : (c - wp) * ET_BS, khi = wp < 0 ? 0 : (c + wp) * ET_BS;
    for (int e = lo + (int)threadIdx.x; e < hi; e += (int)blockDim.x)
        if (e < klo || e >= khi)
            cur[e - off] = gp[e];
}

/* One row of tiles (eu_tile_row): tile j centred at block c0 + j X covers levels t0 + 1 ..
 * t0 + 2 hs (clipped to 1 .. steps) at half-width m + min(s, 2 hs - s); level t lives in
 * g[t & 1]. cur and nxt hold 2 (m + hs) + 2 blocks each; the blocks a growing tile needs next are loaded into nxt while the
 * level is computed there, so each level costs one barrier. */
__global__ void __launch_bounds__(ET_THREADS) euler_tile_row(float *g0, float *g1, int nc, float k2, float h,
                                                              int K, int m, int hs, int X, int steps, int t0, int c0,
                                                              int ntiles)
{
    extern __shared__ float buf[];
    int slots = (2 * (m + hs) + 2) * ET_BS;
    int sfirst = max(1, 1 - t0), slast = min(2 * hs, steps - t0);
    for (int tile = (int)blockIdx.x; tile < ntiles; tile += (int)gridDim.x) {
        int c = c0 + tile * X, off = (c - m - hs - 1) * ET_BS;
        float *cur = buf, *nxt = buf + slots;
        et_load(cur, ((t0 + sfirst) & 1) ? g0 : g1, off, c, et_w(m, hs, sfirst), -1, K);
        __syncthreads();
        for (int s = sfirst; s <= slast; s++) {
            int t = t0 + s, w = et_w(m, hs, s);
            float *gn = (t & 1) ? g1 : g0;
            int clo = max(c - w, 0) * ET_BS, chi = min(c + w, K) * ET_BS;
            int all = s == 2 * hs || t == steps, edge = et_w(m, hs, s + 1) < w;
            int elo = (c - w + 2) * ET_BS, ehi = (c + w - 2) * ET_BS;
            for (int e = clo + (int)threadIdx.x; e < chi; e += (int)blockDim.x) {
                float v = cur[e - off] + h * et_f(cur, off, e, nc, k2);
                nxt[e - off] = v;
                if (all || (edge && (e < elo || e >= ehi)))
                    gn[e] = v;
            }
            if (s < slast) /* level t of the blocks beyond [c - w, c + w), stored by earlier launches */
                et_load(nxt, gn, off, c, et_w(m, hs, s + 1), w, K);
            __syncthreads();
            float *sw = cur;
            cur = nxt;
            nxt = sw;
        }
    }
}

/* eu_geom_plan for the row-wise tiles with korrStrat: W_max the largest even dia_blocks whose
 * two arrays of W + 2 blocks fit smem; D = mult CU - 1 >= ceil(K / W_max); W = ceil(K / D)
 * rounded up to even, at least 4; hs = W / 2 (diamonds), or for the honeycomb (euler_cl.c)
 * hs = W 2 / 25 (at least 1) and m = W / 2 - hs. */
static int et_plan(size_t n, int sms, int smem, int honeycomb, et_geom *g)
{
    size_t blk = ET_BS * sizeof(float), fit = (size_t)smem / (2 * blk), cu = sms > 0 ? (size_t)sms : 1;
    size_t wmax = fit > 2 ? (fit - 2) / 2 * 2 : 0, K = n / ET_BS;
    if (wmax < 4)
        return 1;
    size_t dmin = (K + wmax - 1) / wmax, mult = (dmin + 1 + cu - 1) / cu;
    while (cu * mult < 2)
        mult++;
    size_t d = cu * mult - 1, w = (K + d - 1) / d;
    w = (w + 1) / 2 * 2;
    w = w < 4 ? 4 : w;
    g->K = (long)K;
    g->diamonds = (long)d;
    g->hs = (long)(w / 2);
    if (honeycomb)
        g->hs = w * 2 / 25 ? (long)(w * 2 / 25) : 1;
    g->m = (long)(w / 2) - g->hs;
    g->X = 4 * g->m + 2 * g->hs;
    g->local_bytes = 2 * (w + 2) * blk;
    return 0;
}

/* All launches of one run: row r = l - 1 of tiles starts at level r hs, centres c0 + j X with
 * c0 = 0 (even rows) or X / 2 (odd rows), rows -1 .. launches - 2 (eu_geom_row). */
static cudaError_t euler_tiled(const et_geom *g, size_t n, size_t steps, float k2, float h, float *const d[2],
                               unsigned groups)
{
    long launches = ((long)steps - 1) / g->hs + 2;
    for (long l = 0; l < launches; l++) {
        long r = l - 1, t0 = r * g->hs, c0 = r % 2 ? g->X / 2 : 0;
        long half = g->m + g->hs, tiles = c0 - half >= g->K ? 0 : (g->K - 1 + half - c0) / g->X + 1;
        if (tiles == 0)
            continue;
        unsigned grid = tiles < (long)groups ? (unsigned)tiles : groups;
        euler_tile_row<<<grid, ET_THREADS, g->local_bytes>>>(d[0], d[1], (int)n, k2, h, (int)g->K, (int)g->m,
                                                             (int)g->hs, (int)g->X, (int)steps, (int)t0, (int)c0, (int)tiles);
    }
    return cudaPeekAtLastError();
}

/* The tiling to run: configure's CLBCU_TILING_DIAMOND or _HONEYCOMB forces one (tests), else
 * both are screened on the run's problem, 3 timed runs each after a warm-up, and the faster
 * median wins. A screen run's output is overwritten by the reported runs, whose last result is
 * the one the row validates. */
template <typename Prep>
static int et_choose(size_t n, size_t steps, float k2, float h, float *const d[2], unsigned groups,
                     const et_geom geo[2], Prep prep, int *pick, double med[2], char *err, size_t errlen)
{
    med[0] = med[1] = 0;
    if (clbcu_euler_tiling != CLBCU_TILING_SCREEN) {
        *pick = clbcu_euler_tiling == CLBCU_TILING_HONEYCOMB;
        return 0;
    }
    for (int k = 0; k < 2; k++) {
        double t[3];
        if (cu_timed(prep, [&]() { return euler_tiled(&geo[k], n, steps, k2, h, d, groups); }, 3, t, err, errlen))
            return 1;
        double lo = t[0] < t[1] ? t[0] : t[1], hi = t[0] < t[1] ? t[1] : t[0];
        med[k] = t[2] < lo ? lo : t[2] > hi ? hi : t[2];
    }
    *pick = med[1] < med[0];
    return 0;
}

int clbcu_euler_string(size_t n, size_t steps, float k2, float h, const float *y0, float *y_out,
                       unsigned reps, double *times_s, char *err, size_t errlen)
{
    int rc = 0, dev = 0, sms = 0, smem = 0, pick = 0;
    size_t bytes = n * sizeof(float);
    float *dinit = NULL, *d[2] = {NULL, NULL};
    et_geom geo[2];
    double med[2];
    unsigned groups;
    if (n < 8 || n % 4 || steps == 0 || n > ((size_t)1 << 30) || steps > ((size_t)1 << 30))
        CU_FAIL("euler_string: n %zu (a multiple of 4, 8 .. 2^30) or %zu steps (1 .. 2^30) outside the kernel's range",
                n, steps);
    if (cu_select(err, errlen) != 0)
        return 1;
    CU(cudaGetDevice(&dev));
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CU(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, dev));
    if (et_plan(n, sms, smem, 0, &geo[0]) != 0 || et_plan(n, sms, smem, 1, &geo[1]) != 0)
        CU_FAIL("euler_string: a tile of 4 blocks needs %zu B of shared memory, the device allows %d B",
                (size_t)2 * 6 * ET_BS * sizeof(float), smem);
    groups = (unsigned)((sms > 0 ? sms : 1) * ET_GROUPS_PER_SM);
    CU(cudaMalloc(&dinit, bytes));
    CU(cudaMalloc(&d[0], bytes));
    CU(cudaMalloc(&d[1], bytes));
    CU(cudaMemcpy(dinit, y0, bytes, cudaMemcpyHostToDevice));
    {
        /* Each run starts from the initial state in g[0] with g[1] poisoned (0xFF bytes: NaN), so
         * a level the tiles skip cannot pass for computed; the resets are outside the events, as
         * the OpenCL rows' copy and poison before their first launch. */
        auto prep = [&]() {
            cudaError_t e = cudaMemcpyAsync(d[0], dinit, bytes, cudaMemcpyDeviceToDevice);
            return e != cudaSuccess ? e : cudaMemsetAsync(d[1], 0xFF, bytes);
        };
        if (et_choose(n, steps, k2, h, d, groups, geo, prep, &pick, med, err, errlen) != 0)
            CU_FAIL("%s", err[0] ? err : "euler_string: the screen failed");
        rc = cu_timed(prep, [&]() { return euler_tiled(&geo[pick], n, steps, k2, h, d, groups); }, reps, times_s,
                      err, errlen);
    }
    if (rc == 0)
        CU_READBACK(cudaMemcpy(y_out, d[steps & 1], bytes, cudaMemcpyDeviceToHost));
    if (rc == 0) /* success: err carries the tiling (cuda_twins.h) */
        snprintf(err, errlen,
                 "%s: dia_blocks %ld, hs %ld, m %ld, period %ld, %ld diamonds (korrStrat), %zu B shared, %u blocks "
                 "of %d; screen medians diamond %.6g s, honeycomb %.6g s%s",
                 pick ? "honeycomb" : "diamond", 2 * (geo[pick].m + geo[pick].hs), geo[pick].hs, geo[pick].m,
                 geo[pick].X, geo[pick].diamonds, geo[pick].local_bytes, groups, ET_THREADS, med[0], med[1],
                 med[0] > 0 ? "" : " (not screened: forced by configure, CLBENCH_EULER_CUDA_TILING in the tool)");
cleanup:
    cudaFree(dinit);
    cudaFree(d[0]);
    cudaFree(d[1]);
    return rc;
}
