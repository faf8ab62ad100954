/* app.euler problem functions f_j(y) (docs/apps/euler.md). The host prefix defines T, VT, VW,
 * EU_STRING, NC (components), GRID (BRUSS2D N), K2, ALPHA, HH (step) and BS (block size).
 * EU_F(NAME, AS) defines f over an array in address space AS whose element 0 holds
 * component `off`; the arithmetic mirrors euler_host_t.h operation for operation. GV is the
 * global address space of the kernels' vectors: `global volatile` in the cache-bypass rows
 * (seed 003, figure 7.14: every value loaded again, not served by a cache). */
#ifndef GV
#define GV global
#endif
#if EU_STRING
#define EU_F(NAME, AS)                                                    \
    T NAME(AS const T *y, int off, int j)                                 \
    {                                                                     \
        if (!(j & 1))                                                     \
            return y[j + 1 - off];                                        \
        T l = j >= 3 ? y[j - 3 - off] : (T)0;                             \
        T r = j + 1 < NC ? y[j + 1 - off] : (T)0;                         \
        return K2 * (l - (T)2 * y[j - 1 - off] + r);                      \
    }
#else
#define EU_F(NAME, AS)                                                    \
    T NAME(AS const T *y, int off, int j)                                 \
    {                                                                     \
        int row = 2 * GRID, p = j >> 1, k = p / GRID, col = p - k * GRID; \
        T u = y[2 * p - off], v = y[2 * p + 1 - off], self = y[j - off];  \
        T up = k > 0 ? y[j - row - off] : y[j + row - off];               \
        T down = k + 1 < GRID ? y[j + row - off] : y[j - row - off];      \
        T left = col > 0 ? y[j - 2 - off] : y[j + 2 - off];               \
        T right = col + 1 < GRID ? y[j + 2 - off] : y[j - 2 - off];       \
        T lap = up + down + left + right - (T)4 * self, uuv = u * u * v;  \
        if (j & 1)                                                        \
            return (T)3.4 * u - uuv + ALPHA * lap;                        \
        return (T)1 + uuv - (T)4.4 * u + ALPHA * lap;                     \
    }
#endif

EU_F(eu_f_global, GV)
EU_F(eu_f_local, local)

/* The vectorized problem function over VT = float4 (two points) or double2 (one point), over
 * an array in address space AS whose element 0 holds vector `off`. */
#if EU_STRING && VW == 4
#define EU_FV(NAME, AS)                                                                   \
    VT NAME(AS const VT *y, int off, int i)                                               \
    {                                                                                     \
        VT c = y[i - off];                                                                \
        T xl = i > 0 ? y[i - 1 - off].z : (T)0, xr = i + 1 < NC / 4 ? y[i + 1 - off].x : (T)0; \
        return (VT)(c.y, K2 * (xl - (T)2 * c.x + c.z), c.w, K2 * (c.x - (T)2 * c.z + xr)); \
    }
#define EU_FV_STRING 1
#elif EU_STRING
#define EU_FV(NAME, AS)                                                                   \
    VT NAME(AS const VT *y, int off, int i)                                               \
    {                                                                                     \
        VT c = y[i - off];                                                                \
        T xl = i > 0 ? y[i - 1 - off].x : (T)0, xr = i + 1 < NC / 2 ? y[i + 1 - off].x : (T)0; \
        return (VT)(c.y, K2 * (xl - (T)2 * c.x + xr));                                    \
    }
#define EU_FV_STRING 1
#endif
#ifdef EU_FV_STRING
EU_FV(eu_fv_g, GV)
EU_FV(eu_fv_local, local)
VT eu_fv(GV const VT *y, int i) { return eu_fv_g(y, 0, i); }
#else
/* BRUSS2D: the rows above and below come in as values (eu_vector walks down a column of
 * VT, keeping them in registers); col is the first point's column. */
#if VW == 4
#define EU_FV_ROWS(NAME, AS)                                                              \
    VT NAME(AS const VT *y, int off, int i, int col, VT up, VT c, VT dn)                  \
    {                                                                                     \
        VT lf = (VT)(col > 0 ? y[i - 1 - off].zw : c.zw, c.xy);                           \
        VT rt = (VT)(c.zw, col + 2 < GRID ? y[i + 1 - off].xy : c.xy);                    \
        VT lap = up + dn + lf + rt - (T)4 * c, u = c.xxzz, uuv = u * u * c.yyww;          \
        return (VT)(1, 0, 1, 0) + (VT)(1, -1, 1, -1) * uuv + (VT)(-4.4, 3.4, -4.4, 3.4) * u + ALPHA * lap; \
    }
#else
#define EU_FV_ROWS(NAME, AS)                                                              \
    VT NAME(AS const VT *y, int off, int i, int col, VT up, VT c, VT dn)                  \
    {                                                                                     \
        VT lf = col > 0 ? y[i - 1 - off] : y[i + 1 - off], rt = col + 1 < GRID ? y[i + 1 - off] : y[i - 1 - off]; \
        VT lap = up + dn + lf + rt - (T)4 * c, u = c.xx, uuv = u * u * c.yy;              \
        return (VT)(1, 0) + (VT)(1, -1) * uuv + (VT)(-4.4, 3.4) * u + ALPHA * lap;        \
    }
#endif
EU_FV_ROWS(eu_fv_rows_g, GV)
EU_FV_ROWS(eu_fv_rows_local, local)
VT eu_fv_rows(GV const VT *y, int i, int col, VT up, VT c, VT dn)
{
    return eu_fv_rows_g(y, 0, i, col, up, c, dn);
}
/* One vector of a tile in local memory (the diamond with the vectorized problem function):
 * the rows above and below from the tile, reflected at the grid's top and bottom. */
VT eu_fv_local(local const VT *y, int off, int i)
{
    int rs = 2 * GRID / VW, k = i / rs, col = (i - k * rs) * VW / 2;
    VT up = y[(k > 0 ? i - rs : i + rs) - off], dn = y[(k + 1 < GRID ? i + rs : i - rs) - off];
    return eu_fv_rows_local(y, off, i, col, up, y[i - off], dn);
}
#endif
