/* app.euler tiled_2d: overlapped ("ghost-zone") temporal blocking of BRUSS2D (docs/apps/euler.md,
 * "2-D tiling"). Preceded by euler_ode.cl, the host's defines and the geometry: P2 (float2 or
 * double2: one point's (U, V)), TX x TY interior points per work-group, HALO points on each
 * side, patch PW = TX + 2 HALO by PH = TY + 2 HALO, work-groups LX x LY, each work-item the
 * points (ly RY + a, lx + b LX), a < RY, b < RX (PW = RX LX, PH = RY LY). */

/* Global row or column index of a patch cell: the grid mirrored at 0 and GRID - 1 (the
 * Neumann reflection of the untiled kernels, repeated when the halo exceeds the grid). */
int eu_reflect(int i)
{
    int per = 2 * (GRID - 1);
    if (i >= 0 && i < GRID)
        return i;
    i %= per;
    i = i < 0 ? i + per : i;
    return i < GRID ? i : per - i;
}

/* One Euler step of point c from its four neighbours, as eu_f_global does it per component. */
P2 eu_step2(P2 c, P2 up, P2 dn, P2 lf, P2 rt)
{
    P2 lap = up + dn + lf + rt - (T)4 * c;
    T u = c.x, uuv = u * u * c.y;
    P2 f = (P2)((T)1 + uuv - (T)4.4 * u, (T)3.4 * u - uuv) + ALPHA * lap;
    return c + HH * f;
}

/* nsteps (1 .. HALO) steps of one tile: y at level t, yn at level t + nsteps. The patch is loaded
 * (cells outside the grid by reflection), every step computes the cells still valid into
 * registers, one barrier, writes them back, one barrier; the last step stores its interior. A
 * launch of fewer than HALO steps loads and computes only the margin it needs. */
/* all (form local_all): every cell of the patch is loaded, computed and written back each
 * step, the still-valid region unasked: no per-point predicate (a sixth of the step loop's
 * instructions in the local form's SASS on the H200). A cell's error moves one cell per step,
 * so the margin's wrong values stop short of the interior, as in the registers form. */
inline void eu_tile2d_body(global const P2 *y, global P2 *yn, local P2 *p, int nsteps, const int all)
{
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    int gx0 = (int)get_group_id(0) * TX - HALO, gy0 = (int)get_group_id(1) * TY - HALO;
    int m = all ? 0 : HALO - nsteps, r0 = ly * RY;
    for (int r = m + ly; r < PH - m; r += LY) {
        int row = eu_reflect(gy0 + r) * GRID;
        for (int c = m + lx; c < PW - m; c += LX)
            p[r * PW + c] = y[row + eu_reflect(gx0 + c)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    P2 nv[RY][RX];
    for (int j = 1; j <= nsteps; j++) {
        int lo = m + j;
#pragma unroll
        for (int b = 0; b < RX; b++) {
            int c = lx + b * LX;
            P2 up = p[max(r0 - 1, 0) * PW + c], cur = p[r0 * PW + c];
#pragma unroll
            for (int a = 0; a < RY; a++) {
                int r = r0 + a;
                P2 dn = p[min(r + 1, PH - 1) * PW + c];
                if (all || (r >= lo && r < PH - lo && c >= lo && c < PW - lo))
                    nv[a][b] = eu_step2(cur, up, dn, p[r * PW + (all ? max(c - 1, 0) : c - 1)],
                                       p[r * PW + (all ? min(c + 1, PW - 1) : c + 1)]);
                up = cur;
                cur = dn;
            }
        }
        if (j == nsteps)
            break;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int b = 0; b < RX; b++)
#pragma unroll
            for (int a = 0; a < RY; a++) {
                int r = r0 + a, c = lx + b * LX;
                if (all || (r >= lo && r < PH - lo && c >= lo && c < PW - lo))
                    p[r * PW + c] = nv[a][b];
            }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int b = 0; b < RX; b++)
#pragma unroll
        for (int a = 0; a < RY; a++) {
            int r = r0 + a, c = lx + b * LX, gy = gy0 + r, gx = gx0 + c;
            if (r >= HALO && r < HALO + TY && c >= HALO && c < HALO + TX && gy < GRID && gx < GRID)
                yn[gy * GRID + gx] = nv[a][b];
        }
}

kernel void eu_tile2d(global const P2 *y, global P2 *yn, local P2 *p, int nsteps)
{
    eu_tile2d_body(y, yn, p, nsteps, 0);
}

kernel void eu_tile2d_all(global const P2 *y, global P2 *yn, local P2 *p, int nsteps)
{
    eu_tile2d_body(y, yn, p, nsteps, 1);
}

/* The same scheme with every point in registers (form "registers"): item (lx, ly) owns the
 * RY x RX block of the patch at rows ly RY .., columns lx RX .. (one block, not strided columns),
 * keeps it in registers across the steps and trades only its edges through local memory: each
 * step stores its boundary points, one barrier, reads the row above and below and the column
 * left and right of its block, one barrier. Points of the block are computed whether or not
 * they are still valid (the margin's values are wrong and never reach the interior); at the
 * patch's border the missing neighbours are the item's own points, likewise. */
kernel void eu_tile2d_reg(global const P2 *y, global P2 *yn, local P2 *p, int nsteps)
{
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    int gx0 = (int)get_group_id(0) * TX - HALO, gy0 = (int)get_group_id(1) * TY - HALO;
    int m = HALO - nsteps, r0 = ly * RY, c0 = lx * RX;
    for (int r = m + ly; r < PH - m; r += LY) {
        int row = eu_reflect(gy0 + r) * GRID;
        for (int c = m + lx; c < PW - m; c += LX)
            p[r * PW + c] = y[row + eu_reflect(gx0 + c)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    P2 v[RY][RX], nv[RY][RX];
#pragma unroll
    for (int a = 0; a < RY; a++)
#pragma unroll
        for (int b = 0; b < RX; b++)
            v[a][b] = p[(r0 + a) * PW + c0 + b];
    int up = max(r0 - 1, 0) * PW, dn = min(r0 + RY, PH - 1) * PW, lf = max(c0 - 1, 0), rt = min(c0 + RX, PW - 1);
    for (int j = 1; j <= nsteps; j++) {
        if (j > 1) { /* step 1 reads the patch as loaded */
            barrier(CLK_LOCAL_MEM_FENCE); /* every item done reading the last step's edges */
#pragma unroll
            for (int a = 0; a < RY; a++)
#pragma unroll
                for (int b = 0; b < RX; b++)
                    if (a == 0 || a == RY - 1 || b == 0 || b == RX - 1)
                        p[(r0 + a) * PW + c0 + b] = v[a][b];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        P2 hu[RX], hd[RX], hl[RY], hr[RY];
#pragma unroll
        for (int b = 0; b < RX; b++) {
            hu[b] = r0 > 0 ? p[up + c0 + b] : v[0][b];
            hd[b] = r0 + RY < PH ? p[dn + c0 + b] : v[RY - 1][b];
        }
#pragma unroll
        for (int a = 0; a < RY; a++) {
            hl[a] = c0 > 0 ? p[(r0 + a) * PW + lf] : v[a][0];
            hr[a] = c0 + RX < PW ? p[(r0 + a) * PW + rt] : v[a][RX - 1];
        }
#pragma unroll
        for (int a = 0; a < RY; a++)
#pragma unroll
            for (int b = 0; b < RX; b++)
                nv[a][b] = eu_step2(v[a][b], a ? v[(a + RY - 1) % RY][b] : hu[b], a + 1 < RY ? v[(a + 1) % RY][b] : hd[b],
                                    b ? v[a][(b + RX - 1) % RX] : hl[a], b + 1 < RX ? v[a][(b + 1) % RX] : hr[a]);
#pragma unroll
        for (int a = 0; a < RY; a++)
#pragma unroll
            for (int b = 0; b < RX; b++)
                v[a][b] = nv[a][b];
    }
#pragma unroll
    for (int a = 0; a < RY; a++)
#pragma unroll
        for (int b = 0; b < RX; b++) {
            int r = r0 + a, c = c0 + b, gy = gy0 + r, gx = gx0 + c;
            if (r >= HALO && r < HALO + TY && c >= HALO && c < HALO + TX && gy < GRID && gx < GRID)
                yn[gy * GRID + gx] = v[a][b];
        }
}
