/* app.euler tiled_1d: overlapped temporal blocking of STRING held in registers (docs/apps/euler.md,
 * "1-D tiling in registers"). Preceded by euler_ode.cl, the host's defines and the geometry: P2
 * (float2 or double2: one point's (x, v) = components 2p, 2p + 1), NP = NC / 2 points, LX
 * work-items of RX consecutive points each, the patch of LX RX points, HALO points on each side,
 * TX = LX RX - 2 HALO interior points per work-group. A step needs the neighbours' positions
 * only: each item trades its two end positions through local memory (two buffers, one barrier a
 * step); everything else stays in registers. */

/* One Euler step of an item's points: px is the left neighbour's position, xr the right one's,
 * the arithmetic that of eu_f_global and the update y + HH f (euler_ode.cl). */
#define EU_T1_STEP(x, v, px, xr)                                                        \
    _Pragma("unroll") for (int i = 0; i < RX; i++)                                      \
    {                                                                                   \
        T r_ = i + 1 < RX ? x[(i + 1) % RX] : (xr), xo_ = x[i];                         \
        x[i] = xo_ + HH * v[i];                                                         \
        v[i] = v[i] + HH * (K2 * (px - (T)2 * xo_ + r_));                               \
        px = xo_;                                                                       \
    }

/* nsteps (1 .. HALO) steps of one tile: y at level t, yn at level t + nsteps. Points outside
 * 0 .. NP - 1 are the string's fixed ends (x = v = 0), kept so after every step by the work-groups
 * that hold any (a uniform branch); the valid region shrinks by one point per side a step, so
 * after HALO steps the interior is exact. */
kernel void eu_tile1d(global const P2 *y, global P2 *yn, local T *ex, int nsteps)
{
    int lid = (int)get_local_id(0);
    int g0 = (int)get_group_id(0) * TX - HALO, p0 = g0 + lid * RX;
    int edge = g0 < 0 || g0 + LX * RX > NP;
    T x[RX], v[RX];
#pragma unroll
    for (int i = 0; i < RX; i++) {
        int p = p0 + i;
        P2 e = p >= 0 && p < NP ? y[p] : (P2)(0);
        x[i] = e.x;
        v[i] = e.y;
    }
    for (int j = 0; j < nsteps; j++) {
        local T *b = ex + (j & 1) * 2 * LX; /* step j's ends; step j + 1 writes the other pair */
        b[lid] = x[0];
        b[LX + lid] = x[RX - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
        /* the group's outer items read their own ends: wrong values, in the halo only */
        T px = b[LX + max(lid - 1, 0)], xr = b[min(lid + 1, LX - 1)];
        EU_T1_STEP(x, v, px, xr);
        if (edge) {
#pragma unroll
            for (int i = 0; i < RX; i++)
                if (p0 + i < 0 || p0 + i >= NP)
                    x[i] = v[i] = (T)0;
        }
    }
#pragma unroll
    for (int i = 0; i < RX; i++) {
        int r = lid * RX + i, p = p0 + i;
        if (r >= HALO && r < HALO + TX && p < NP)
            yn[p] = (P2)(x[i], v[i]);
    }
}
