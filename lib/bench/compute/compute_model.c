/* Host model of lib/bench/compute/compute.cl: operation counts, inputs and the reference. */
#include "bench/compute/compute_model.h"

#include "core/internal.h"

#include <math.h>
#include <string.h>

const char *cm_type_name(cm_type t)
{
    static const char *n[] = {"fp32", "fp64", "fp16", "int32", "int24"};
    return n[t];
}

const char *cm_op_name(cm_op op)
{
    static const char *n[] = {"?", "add", "mul", "mad", "fma", "mad_builtin", "mad24", "dot4", "mul24"};
    return n[op];
}

const char *cm_shape_name(cm_shape s)
{
    static const char *n[] = {"reg", "arg", "pingpong"};
    return n[s];
}

const char *cm_scalar_cl(cm_type t)
{
    static const char *n[] = {"float", "double", "half", "uint", "uint"};
    return n[t];
}

size_t cm_elem_bytes(cm_type t)
{
    return t == CM_FP64 ? 8 : t == CM_FP16 ? 2 : 4;
}

int cm_is_int(cm_type t) { return t == CM_INT32 || t == CM_INT24; }

int cm_shape_valid(cm_row r, cm_shape s, unsigned chains)
{
    if (s == CM_PINGPONG)
        return chains % 2 == 0 && r.op != CM_MAD24 && r.op != CM_DOT4 &&
               !(r.op == CM_MUL && !cm_is_int(r.type));
    /* Integer add and mul with a loop-invariant operand could be folded by the compiler. */
    return !(cm_is_int(r.type) && (r.op == CM_ADD || r.op == CM_MUL || r.op == CM_MUL24));
}

int cm_width_valid(cm_row r, unsigned w) { return r.op != CM_DOT4 || w == 1; }

unsigned cm_op_weight(cm_op op)
{
    return op == CM_DOT4 ? 8u : op == CM_ADD || op == CM_MUL || op == CM_MUL24 ? 1u : 2u;
}

double cm_ops_per_iter_lane(cm_op op, unsigned chains)
{
    return (double)CM_UNROLL * chains * cm_op_weight(op);
}

double cm_ops_per_launch(cm_op op, const cm_config *cfg, size_t global, uint64_t iters)
{
    return (double)global * (double)iters * cfg->width * cm_ops_per_iter_lane(op, cfg->chains);
}

size_t cm_top_k(const double *rates, size_t n, size_t *idx, size_t k)
{
    size_t got = 0;
    for (size_t i = 0; i < n && k > 0; i++) {
        if (!(rates[i] > 0))
            continue;
        if (got < k)
            idx[got++] = i;
        else if (rates[i] > rates[idx[k - 1]])
            idx[k - 1] = i;
        else
            continue;
        for (size_t j = got - 1; j > 0 && rates[idx[j]] > rates[idx[j - 1]]; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    }
    return got;
}

/* ---- IEEE half ---- */

double cm_round_half(double v)
{
    if (v == 0 || !isfinite(v))
        return v;
    int e;
    frexp(fabs(v), &e); /* |v| = m * 2^e, m in [0.5, 1) */
    int q = e - 11;     /* exponent of the last of half's 11 significant bits */
    if (q < -24)
        q = -24;        /* subnormal spacing */
    double r = ldexp(nearbyint(ldexp(fabs(v), -q)), q);
    if (r >= 65520.0)
        r = INFINITY;
    return copysign(r, v);
}

uint16_t cm_half_bits(double v)
{
    double a = fabs(cm_round_half(v));
    uint16_t sign = signbit(v) ? 0x8000u : 0u;
    if (isinf(a))
        return (uint16_t)(sign | 0x7C00u);
    if (a < ldexp(1, -14)) /* subnormal: multiples of 2^-24 */
        return (uint16_t)(sign | (uint16_t)ldexp(a, 24));
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5,1) -> 1.f x 2^(e-1) */
    unsigned frac = (unsigned)ldexp(2 * m - 1, 10);
    return (uint16_t)(sign | (unsigned)((e - 1 + 15) << 10) | frac);
}

double cm_half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1F;
    double f = h & 0x3FF, v;
    if (e == 0)
        v = ldexp(f, -24);
    else if (e == 31)
        v = f != 0 ? NAN : INFINITY;
    else
        v = ldexp(1 + f / 1024, e - 15);
    return (h & 0x8000) ? -v : v;
}

/* ---- inputs ---- */

static double uniform(uint64_t *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)(clb_rand64(rng) >> 11) * 0x1p-53;
}

/* v rounded to the floating type t. */
static double rnd(cm_type t, double v)
{
    return t == CM_FP32 ? (double)(float)v : t == CM_FP16 ? cm_round_half(v) : v;
}

/* (a, b) for the reg/arg operands; pp for pingpong. */
static void gen_pair(cm_row r, uint64_t *rng, double *a, double *b)
{
    if (r.op == CM_ADD) {
        *a = rnd(r.type, uniform(rng, 0x1p-8, 0x1p-7));
        *b = rnd(r.type, -*a * (1 - 0x1p-6));
    } else if (r.op == CM_MUL) {
        /* Half's 11 bits would let q * round(1/q) drift out of range: powers of two. */
        *a = r.type == CM_FP16 ? (clb_rand64(rng) & 1 ? 2.0 : 0.5) : rnd(r.type, uniform(rng, 0.9, 1.1));
        *b = rnd(r.type, 1 / *a);
    } else {
        /* q = 1 (a run-time value the compiler cannot see; FMA units do not depend on
         * operand values): x*q is exact, so a*b+c fused or not gives the same bits, and x
         * grows by c each step, so the result depends on every iteration. */
        *a = 1.0;
        *b = r.type == CM_FP16 ? rnd(r.type, uniform(rng, 0x1p-11, 0x1p-10))
                               : rnd(r.type, uniform(rng, 0x1p-20, 0x1p-19));
    }
}

void cm_gen_inputs(cm_row r, uint64_t *rng, cm_inputs *in)
{
    memset(in, 0, sizeof *in);
    if (cm_is_int(r.type)) {
        uint32_t m = r.type == CM_INT24 ? 0x7FFFFFu : 0xFFFFFFFFu;
        for (int i = 0; i < 4; i++)
            in->u[i] = (uint32_t)clb_rand64(rng) & m;
        in->u[3] = r.type == CM_INT24 ? in->u[3] & 0x7FFEu : in->u[3] & ~1u; /* even offsets */
        in->u[0] |= 1u; /* odd starts: products stay odd, never 0 */
        return;
    }
    in->f[0] = rnd(r.type, uniform(rng, 1, 2));
    gen_pair(r, rng, &in->f[1], &in->f[2]);
    in->f[3] = rnd(r.type, uniform(rng, 0x1p-12, 0x1p-11));
}

void cm_gen_args(cm_row r, uint64_t *rng, cm_args *a)
{
    memset(a, 0, sizeof *a);
    if (cm_is_int(r.type)) {
        uint32_t m = r.type == CM_INT24 ? 0xFFFFFFu : 0xFFFFFFFFu;
        for (int i = 0; i < 3; i++)
            a->u[i] = (uint32_t)clb_rand64(rng) & m;
        return;
    }
    gen_pair(r, rng, &a->f[0], &a->f[1]);
    a->f[2] = -1; /* pingpong multiplier: a rotation of period 3, bounded */
}

static void store_value(cm_type t, void *buf, size_t k, double f, uint32_t u)
{
    if (t == CM_FP32)
        ((float *)buf)[k] = (float)f;
    else if (t == CM_FP64)
        ((double *)buf)[k] = f;
    else if (t == CM_FP16)
        ((uint16_t *)buf)[k] = cm_half_bits(f);
    else
        ((uint32_t *)buf)[k] = u;
}

void cm_store_input(cm_type t, void *buf, size_t k, const cm_inputs *in, int i)
{
    store_value(t, buf, k, in->f[i], in->u[i]);
}

void cm_store_arg(cm_type t, void *out, const cm_args *a, int i)
{
    store_value(t, out, 0, a->f[i], a->u[i]);
}

double cm_load_output(cm_type t, const void *buf, size_t k)
{
    if (t == CM_FP32)
        return ((const float *)buf)[k];
    if (t == CM_FP64)
        return ((const double *)buf)[k];
    if (t == CM_FP16)
        return cm_half_value(((const uint16_t *)buf)[k]);
    return ((const uint32_t *)buf)[k];
}

/* ---- floating reference ---- */

/* One correctly rounded operation of type t. Half: the exact double result (our operands
 * span few binades, so a*b+c is exact in double) rounded once to half. */
static double f_add(cm_type t, double a, double b)
{
    return t == CM_FP32 ? (double)((float)a + (float)b) : t == CM_FP64 ? a + b : cm_round_half(a + b);
}

static double f_mul(cm_type t, double a, double b)
{
    return t == CM_FP32 ? (double)((float)a * (float)b) : t == CM_FP64 ? a * b : cm_round_half(a * b);
}

static double f_fma(cm_type t, double a, double b, double c)
{
    return t == CM_FP32 ? (double)fmaf((float)a, (float)b, (float)c)
           : t == CM_FP64 ? fma(a, b, c) : cm_round_half(a * b + c);
}

typedef struct fsim {
    cm_row r;
    double A, B, P;
    double maxabs;
} fsim;

static double f_step(fsim *s, double x, int u)
{
    switch (s->r.op) {
    case CM_ADD: return f_add(s->r.type, x, (u & 1) ? s->B : s->A);
    case CM_MUL: return f_mul(s->r.type, x, (u & 1) ? s->B : s->A);
    default: return f_fma(s->r.type, x, s->A, s->B); /* mad: fused here, bound covers it */
    }
}

static void f_pair(fsim *s, double *x, double *y)
{
    if (s->r.op == CM_ADD) {
        *x = f_add(s->r.type, *y, -*x);
        *y = f_add(s->r.type, *x, -*y);
    } else {
        *x = f_fma(s->r.type, *x, s->P, *y);
        *y = f_fma(s->r.type, *y, s->P, *x);
    }
}

static void f_track(fsim *s, const double *acc, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        if (fabs(acc[j]) > s->maxabs)
            s->maxabs = fabs(acc[j]);
}

static double f_lane(fsim *s, const cm_config *cfg, const cm_inputs *in, unsigned lane,
                     uint64_t iters)
{
    double acc[CM_MAX_CHAINS] = {0};
    for (unsigned j = 0; j < cfg->chains; j++)
        acc[j] = f_fma(s->r.type, (double)(j * cfg->width + lane), in->f[3], in->f[0]);
    f_track(s, acc, cfg->chains);
    for (uint64_t i = 0; i < iters; i++) {
        for (int u = 0; u < CM_UNROLL; u++) {
            if (cfg->shape == CM_PINGPONG)
                for (unsigned j = 0; j < cfg->chains; j += 2)
                    f_pair(s, &acc[j], &acc[j + 1]);
            else
                for (unsigned j = 0; j < cfg->chains; j++)
                    acc[j] = f_step(s, acc[j], u);
        }
        f_track(s, acc, cfg->chains);
    }
    double sum = acc[0];
    for (unsigned j = 1; j < cfg->chains; j++)
        sum = f_add(s->r.type, sum, acc[j]);
    return sum;
}

/* ---- integer reference (uint32, wrapping) ---- */

static uint32_t mad24u(uint32_t x, uint32_t y, uint32_t z)
{
    return (uint32_t)((uint64_t)(x & 0xFFFFFFu) * (y & 0xFFFFFFu) + z);
}

static uint32_t dot4u(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (int i = 0; i < 32; i += 8)
        s += ((a >> i) & 0xFFu) * ((b >> i) & 0xFFu);
    return s;
}

static uint32_t u_lane(cm_row r, const cm_config *cfg, const cm_inputs *in, const cm_args *a,
                       unsigned lane, uint64_t iters)
{
    uint32_t acc[CM_MAX_CHAINS] = {0}, A = cfg->shape == CM_ARG ? a->u[0] : in->u[1],
                                 B = cfg->shape == CM_ARG ? a->u[1] : in->u[2], C = a->u[2];
    for (unsigned j = 0; j < cfg->chains; j++)
        acc[j] = in->u[0] + (uint32_t)(j * cfg->width + lane) * in->u[3];
    for (uint64_t i = 0; i < iters; i++)
        for (int u = 0; u < CM_UNROLL; u++)
            for (unsigned j = 0; j < cfg->chains; j += (cfg->shape == CM_PINGPONG ? 2 : 1)) {
                uint32_t *x = &acc[j], *y = &acc[j + (cfg->shape == CM_PINGPONG)];
                if (cfg->shape != CM_PINGPONG)
                    *x = r.op == CM_MAD24  ? mad24u(*x, A, B) & 0xFFFFFFu
                         : r.op == CM_DOT4 ? dot4u(*x, A) + B
                                           : *x * A + B;
                else if (r.op == CM_ADD) {
                    *x = *x + *y;
                    *y = *y ^ *x;
                } else if (r.op == CM_MUL) {
                    *x = *x * *y;
                    *y = *y * *x;
                } else if (r.op == CM_MUL24) {
                    *x = mad24u(*x, *y, 0) & 0xFFFFFFu;
                    *y = mad24u(*y, *x, 0) & 0xFFFFFFu;
                } else {
                    *x = *x * *y + C;
                    *y = *y * *x + C;
                }
            }
    uint32_t sum = acc[0];
    for (unsigned j = 1; j < cfg->chains; j++)
        sum += acc[j];
    return sum;
}

void cm_reference(cm_row r, const cm_config *cfg, const cm_inputs *in, const cm_args *a,
                  uint64_t iters, double *out, double *maxabs)
{
    fsim s = {.r = r, .P = a->f[2]};
    s.A = cfg->shape == CM_ARG ? a->f[0] : in->f[1];
    s.B = cfg->shape == CM_ARG ? a->f[1] : in->f[2];
    for (unsigned l = 0; l < cfg->width; l++)
        out[l] = cm_is_int(r.type) ? (double)u_lane(r, cfg, in, a, l, iters)
                                   : f_lane(&s, cfg, in, l, iters);
    *maxabs = s.maxabs;
}

double cm_tolerance(cm_row r, const cm_config *cfg, double maxabs)
{
    if (cm_is_int(r.type))
        return 0;
    double u = r.type == CM_FP32 ? 0x1p-24 : r.type == CM_FP64 ? 0x1p-53 : 0x1p-11;
    /* add, mul, fma are correctly rounded and so is the host, and a*b+c is exact in its
     * product (q = +-1): the results should agree to the bit; 8u per chain covers the final
     * sum. mad() may be computed with reduced accuracy (OpenCL C 6.15.2): 400u per chain. */
    double fused = (r.op == CM_MAD || r.op == CM_MADFN) ? 400 : 0;
    return u * maxabs * cfg->chains * (8 + fused);
}
