/* app.euler problem functions f_j(y) (docs/apps/euler.md). The host prefix defines T, VT, VW,
 * EU_STRING, NC (components), GRID (BRUSS2D N), K2, ALPHA, HH (step) and BS (block size).
 * EU_F(NAME, AS) defines f over an array in address space AS whose element 0 holds
 * component `off`; the arithmetic mirrors euler_host_t.h operation for operation. */
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

EU_F(eu_f_global, global)
EU_F(eu_f_local, local)

/* The vectorized problem function over VT = float4 (two points) or double2 (one point). */
#if EU_STRING && VW == 4
VT eu_fv(global const VT *y, int i)
{
    VT c = y[i];
    T xl = i > 0 ? y[i - 1].z : (T)0, xr = i + 1 < NC / 4 ? y[i + 1].x : (T)0;
    return (VT)(c.y, K2 * (xl - (T)2 * c.x + c.z), c.w, K2 * (c.x - (T)2 * c.z + xr));
}
#elif EU_STRING
VT eu_fv(global const VT *y, int i)
{
    VT c = y[i];
    T xl = i > 0 ? y[i - 1].x : (T)0, xr = i + 1 < NC / 2 ? y[i + 1].x : (T)0;
    return (VT)(c.y, K2 * (xl - (T)2 * c.x + xr));
}
#else
/* BRUSS2D: the rows above and below come in as values (eu_vector walks down a column of
 * VT, keeping them in registers); col is the first point's column. */
#if VW == 4
VT eu_fv_rows(global const VT *y, int i, int col, VT up, VT c, VT dn)
{
    VT lf = (VT)(col > 0 ? y[i - 1].zw : c.zw, c.xy);
    VT rt = (VT)(c.zw, col + 2 < GRID ? y[i + 1].xy : c.xy);
    VT lap = up + dn + lf + rt - (T)4 * c, u = c.xxzz, uuv = u * u * c.yyww;
    return (VT)(1, 0, 1, 0) + (VT)(1, -1, 1, -1) * uuv + (VT)(-4.4, 3.4, -4.4, 3.4) * u + ALPHA * lap;
}
#else
VT eu_fv_rows(global const VT *y, int i, int col, VT up, VT c, VT dn)
{
    VT lf = col > 0 ? y[i - 1] : y[i + 1], rt = col + 1 < GRID ? y[i + 1] : y[i - 1];
    VT lap = up + dn + lf + rt - (T)4 * c, u = c.xx, uuv = u * u * c.yy;
    return (VT)(1, 0) + (VT)(1, -1) * uuv + (VT)(-4.4, 3.4) * u + ALPHA * lap;
}
#endif
#endif
