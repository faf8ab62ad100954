/* app.euler untiled kernels: one launch per time step, y -> yn (seed 003, chapter 5).
 * Preceded by euler_ode.cl and the host's defines; GV: global, or global volatile (cache bypass). */

/* Linear: each work-item a contiguous range [first, last) (the pthreads partition). */
kernel void eu_linear(GV const T *y, GV T *yn)
{
    int gs = (int)get_global_size(0), id = (int)get_global_id(0);
    int per = (NC + gs - 1) / gs, lo = id * per, hi = min(lo + per, NC);
    for (int j = lo; j < hi; j++)
        yn[j] = y[j] + HH * eu_f_global(y, 0, j);
}

/* Coalesced: 4 consecutive components per work-item, neighbours take neighbours, stride
 * 4 x work-items. */
kernel void eu_coalesced(GV const T *y, GV T *yn)
{
    int gs = (int)get_global_size(0), id = (int)get_global_id(0);
    for (int i = 4 * id; i < NC; i += 4 * gs) {
        yn[i] = y[i] + HH * eu_f_global(y, 0, i);
        yn[i + 1] = y[i + 1] + HH * eu_f_global(y, 0, i + 1);
        yn[i + 2] = y[i + 2] + HH * eu_f_global(y, 0, i + 2);
        yn[i + 3] = y[i + 3] + HH * eu_f_global(y, 0, i + 3);
    }
}

/* Vectorized problem function over VT, coalesced. */
#if EU_STRING
kernel void eu_vector(GV const VT *y, GV VT *yn)
{
    int gs = (int)get_global_size(0), id = (int)get_global_id(0);
    for (int i = id; i < NC / VW; i += gs)
        yn[i] = y[i] + HH * eu_fv(y, i);
}
#else
/* BRUSS2D: neighbouring work-items take neighbouring VT of a row, and each walks EU_RB rows
 * down its column, so the rows above and below are registers, not two more reads through the
 * caches per VT (which bound the one-VT-per-item form by L2 bandwidth on GPUs). Reflection at
 * the top and bottom rows as in eu_f. */
#define EU_RB 16
kernel void eu_vector(GV const VT *y, GV VT *yn)
{
    int gs = (int)get_global_size(0), id = (int)get_global_id(0);
    int rs = 2 * GRID / VW, bands = (GRID + EU_RB - 1) / EU_RB;
    for (int t = id; t < rs * bands; t += gs) {
        int cv = t % rs, k0 = t / rs * EU_RB, k1 = min(GRID, k0 + EU_RB), col = cv * VW / 2;
        VT up = y[(k0 > 0 ? k0 - 1 : k0 + 1) * rs + cv], c = y[k0 * rs + cv];
        for (int k = k0; k < k1; k++) {
            int i = k * rs + cv;
            VT dn = y[(k + 1 < GRID ? k + 1 : k - 1) * rs + cv];
            yn[i] = c + HH * eu_fv_rows(y, i, col, up, c, dn);
            up = c;
            c = dn;
        }
    }
}
#endif
