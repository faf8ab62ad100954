/* app.euler tiled kernels (seed 003, chapters 6-9; docs/apps/euler.md, "Tiling"). One launch
 * computes one row of tiles; tile j is centred at block c0 + j X and covers levels
 * t0 + 1 .. t0 + 2 hs (clipped to 1 .. steps) with half-width m + min(s, 2 hs - s) blocks at
 * level s: m = 0 gives diamonds, m > 0 honeycombs. Level t lives in g[t & 1]. A tile loads
 * what its previous level does not hold (all at its first level, then two blocks per side
 * while it grows), stores its two outer blocks per side while it shrinks and everything at
 * its last level or at t = steps. Work-groups take tiles group_id, + groups, ...
 * EU_VEC (the diamond with the vectorized problem function): the row-wise kernel works on ET =
 * VT, EB = BS / VW vectors per block; otherwise ET = T, EB = BS. GV: global or global volatile. */
#if EU_VEC
#define ET VT
#define EB (BS / VW)
#define EU_FL eu_fv_local
#else
#define ET T
#define EB BS
#define EU_FL eu_f_local
#endif

int eu_w(int m, int hs, int s) { return m + min(s, 2 * hs - s); }

/* Loads the blocks of level t - 1 a tile needs at level s and does not hold. */
void eu_load(local ET *cur, GV const ET *gp, int off, int c, int w, int wp, int K)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0);
    int lo = max(c - w - 1, 0) * EB, hi = min(c + w + 1, K) * EB;
    int klo = wp < 0 ? 0 : (c - wp) * EB, khi = wp < 0 ? 0 : (c + wp) * EB;
    for (int e = lo + lid; e < hi; e += ls)
        if (e < klo || e >= khi)
            cur[e - off] = gp[e];
}

/* Row-wise: cur and nxt hold 2 (W + 2) blocks; every level in parallel. The blocks of level t a
 * growing tile needs next are loaded into nxt while level t is computed there (other slots), so
 * each level costs one barrier. */
kernel void eu_tile_row(GV ET *g0, GV ET *g1, local ET *buf, int K, int m, int hs,
                        int X, int steps, int t0, int c0, int ntiles)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0), slots = (2 * (m + hs) + 2) * EB;
    int sfirst = max(1, 1 - t0), slast = min(2 * hs, steps - t0);
    for (int tile = (int)get_group_id(0); tile < ntiles; tile += (int)get_num_groups(0)) {
        int c = c0 + tile * X, off = (c - m - hs - 1) * EB;
        local ET *cur = buf, *nxt = buf + slots;
        eu_load(cur, ((t0 + sfirst) & 1) ? g0 : g1, off, c, eu_w(m, hs, sfirst), -1, K);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = sfirst; s <= slast; s++) {
            int t = t0 + s, w = eu_w(m, hs, s);
            GV ET *gn = (t & 1) ? g1 : g0;
            int clo = max(c - w, 0) * EB, chi = min(c + w, K) * EB;
            int all = s == 2 * hs || t == steps, edge = eu_w(m, hs, s + 1) < w;
            int elo = (c - w + 2) * EB, ehi = (c + w - 2) * EB;
            for (int e = clo + lid; e < chi; e += ls) {
                ET v = cur[e - off] + HH * EU_FL(cur, off, e);
                nxt[e - off] = v;
                if (all || (edge && (e < elo || e >= ehi)))
                    gn[e] = v;
            }
            if (s < slast) /* level t of the blocks beyond [c - w, c + w), stored by earlier launches */
                eu_load(nxt, gn, off, c, eu_w(m, hs, s + 1), w, K);
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            local ET *sw = cur;
            cur = nxt;
            nxt = sw;
        }
    }
}

#if !EU_VEC
/* Copies block b's new values from its rolling slot back into the tile (column sweep). */
void eu_put_back(local T *buf, int W, int b, int off)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0);
    local T *tmp = buf + (W + 2 + b % 3) * BS;
    for (int e = lid; e < BS; e += ls)
        buf[b * BS + e - off] = tmp[e];
}

/* Column-wise: one array of W + 2 blocks plus 3 rolling blocks; blocks one at a time, all
 * work-items on one block, block b's new values written back once block b + 2 is done (its
 * old values are then no longer read). */
kernel void eu_tile_col(GV T *g0, GV T *g1, local T *buf, int K, int m, int hs,
                        int X, int steps, int t0, int c0, int ntiles)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0), W = 2 * (m + hs);
    int sfirst = max(1, 1 - t0), slast = min(2 * hs, steps - t0);
    for (int tile = (int)get_group_id(0); tile < ntiles; tile += (int)get_num_groups(0)) {
        int c = c0 + tile * X, off = (c - m - hs - 1) * BS;
        for (int s = sfirst; s <= slast; s++) {
            int t = t0 + s, w = eu_w(m, hs, s), wp = s == sfirst ? -1 : eu_w(m, hs, s - 1);
            GV T *gn = (t & 1) ? g1 : g0;
            eu_load(buf, (t & 1) ? g0 : g1, off, c, w, wp, K);
            barrier(CLK_LOCAL_MEM_FENCE);
            int bl = max(c - w, 0), bh = min(c + w, K);
            int all = s == 2 * hs || t == steps, edge = eu_w(m, hs, s + 1) < w;
            for (int b = bl; b < bh; b++) {
                local T *tmp = buf + (W + 2 + b % 3) * BS;
                int st = all || (edge && (b < c - w + 2 || b >= c + w - 2));
                for (int e = lid; e < BS; e += ls) {
                    int j = b * BS + e;
                    T v = buf[j - off] + HH * eu_f_local(buf, off, j);
                    tmp[e] = v;
                    if (st)
                        gn[j] = v;
                }
                if (b - 2 >= bl)
                    eu_put_back(buf, W, b - 2, off);
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            for (int b = max(bh - 2, bl); b < bh; b++)
                eu_put_back(buf, W, b, off);
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
    }
}

/* Global memory only (seed 003, 7.3, figure 7.11: "lediglich globalen Speicher"): the same
 * diamonds and launches as eu_tile_row, but every level is read from and written to the global
 * ping-pong arrays, with a barrier (global fence) between levels instead of local memory. The
 * tiles of a launch stay independent, so overwriting level t - 2 with level t is safe as in the
 * local kernels (docs/apps/euler.md, "Tiling"). buf is unused (the same arguments as eu_tile_row). */
kernel void eu_tile_glob(GV T *g0, GV T *g1, local T *buf, int K, int m, int hs,
                         int X, int steps, int t0, int c0, int ntiles)
{
    int lid = (int)get_local_id(0), ls = (int)get_local_size(0);
    int sfirst = max(1, 1 - t0), slast = min(2 * hs, steps - t0);
    for (int tile = (int)get_group_id(0); tile < ntiles; tile += (int)get_num_groups(0)) {
        int c = c0 + tile * X;
        for (int s = sfirst; s <= slast; s++) {
            int t = t0 + s, w = eu_w(m, hs, s);
            GV T *gn = (t & 1) ? g1 : g0;
            GV const T *gc = (t & 1) ? g0 : g1;
            int clo = max(c - w, 0) * BS, chi = min(c + w, K) * BS;
            for (int e = clo + lid; e < chi; e += ls)
                gn[e] = gc[e] + HH * eu_f_global(gc, 0, e);
            barrier(CLK_GLOBAL_MEM_FENCE);
        }
    }
}
#endif
