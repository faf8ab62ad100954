/* app.euler host side: the two problems, their initial states, the sequential and pthreads
 * Euler in float and double (euler_host_t.h), and the windowed double reference that every
 * variant is validated against. */
#include "euler.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EU_MAX_THREADS 256
#define EU_PI 3.14159265358979323846

/* Holds worker threads until every one was created (go = 1) or one failed (go = -1). */
typedef struct eu_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go;
} eu_gate;

static int eu_gate_wait(eu_gate *g)
{
    pthread_mutex_lock(&g->mu);
    while (!g->go)
        pthread_cond_wait(&g->cv, &g->mu);
    int go = g->go;
    pthread_mutex_unlock(&g->mu);
    return go > 0;
}

static void eu_gate_open(eu_gate *g, int go)
{
    pthread_mutex_lock(&g->mu);
    g->go = go;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

#define T double
#define EU_S(x) x##_f64
#include "euler_host_t.h"
#undef T
#undef EU_S
#define T float
#define EU_S(x) x##_f32
#include "euler_host_t.h"
#undef T
#undef EU_S

void eu_ode_init(eu_ode *o, eu_problem p, size_t n_or_grid)
{
    memset(o, 0, sizeof *o);
    o->prob = p;
    if (p == EU_STRING) {
        o->n = n_or_grid < 8 ? 8 : n_or_grid / 4 * 4;
        double k = (double)(o->n / 2 + 1); /* K = P + 1 for P mass points on a unit string */
        o->k2 = k * k;
        o->h = 0.01 / k; /* 2 h K = 0.02 << 1 */
        o->dist = 3;
        return;
    }
    o->grid = n_or_grid < 4 ? 4 : n_or_grid / 2 * 2; /* even: float4 holds whole points */
    o->n = 2 * o->grid * o->grid;
    o->alpha = 2e-3 * (double)(o->grid - 1) * (double)(o->grid - 1);
    /* a quarter of the diffusion bound 1 / (4 a (N-1)^2), at most 0.01 for the reaction terms
     * (their Jacobian reaches ~20 here: small grids would otherwise blow up) */
    o->h = 0.25 / (4 * o->alpha);
    o->h = o->h < 0.01 ? o->h : 0.01;
    o->dist = 2 * o->grid;
}

/* Uniform in [-1, 1) from the project's seeded generator. */
static double unit_random(uint64_t *st)
{
    return (double)(clb_rand64(st) >> 11) * 0x1p-52 - 1.0;
}

void eu_initial(const eu_ode *o, double *y)
{
    uint64_t st = 0x45756c6572ull; /* "Euler" */
    clb_fill_random(&st, sizeof st, st);
    if (o->prob == EU_STRING) {
        double pts = (double)(o->n / 2 + 1);
        for (size_t p = 0; p < o->n / 2; p++) {
            y[2 * p] = sin(EU_PI * (double)(p + 1) / pts) + 0.1 * unit_random(&st);
            y[2 * p + 1] = 0.1 * unit_random(&st);
        }
        return;
    }
    double last = (double)(o->grid - 1);
    for (size_t k = 0; k < o->grid; k++)
        for (size_t j = 0; j < o->grid; j++) {
            size_t i = 2 * (k * o->grid + j);
            y[i] = 0.5 + (double)j / last + 0.01 * unit_random(&st);
            y[i + 1] = 1.0 + 5.0 * (double)k / last + 0.01 * unit_random(&st);
        }
}

double eu_flops_per_component(eu_problem p)
{
    /* Counted in f and the update (docs/apps/euler.md): STRING even 0 + 2, odd 4 + 2;
     * BRUSS2D lap 6, u*u*v 2, U 4 / V 3 more, alpha*lap 1 + sum 1, update 2. */
    return p == EU_STRING ? 4.0 : 15.5;
}

/* The window [a, a + w) after steps steps, computed on its dependence cone of init. */
static clb_error window_ref(const eu_ode *o, const double *init, size_t steps, size_t a, size_t w,
                            double *out)
{
    size_t cone = steps * o->dist;
    size_t lo = a > cone ? a - cone : 0, hi = a + w + cone < o->n ? a + w + cone : o->n;
    double *y = malloc((hi - lo) * sizeof *y), *z = malloc((hi - lo) * sizeof *z);
    if (!y || !z) {
        free(y), free(z);
        return CLB_ERR_NOMEM;
    }
    memcpy(y, init + lo, (hi - lo) * sizeof *y);
    for (size_t s = 1; s <= steps; s++) {
        size_t l = lo ? lo + s * o->dist : 0, r = hi < o->n ? hi - s * o->dist : o->n;
        step_f64(o, y, z, lo, l, r);
        double *t = y;
        y = z;
        z = t;
    }
    memcpy(out, y + (a - lo), w * sizeof *out);
    free(y);
    free(z);
    return CLB_OK;
}

/* nwin windows of w components spread over the vector, both ends included. */
static clb_error windows_ref(const eu_ode *o, size_t steps, size_t w, size_t nwin, size_t *idx,
                             double *ref)
{
    double *init = malloc(o->n * sizeof *init);
    clb_error e = init ? CLB_OK : CLB_ERR_NOMEM;
    if (init)
        eu_initial(o, init);
    for (size_t i = 0; e == CLB_OK && i < nwin; i++) {
        size_t a = (o->n - w) * i / (nwin - 1);
        e = window_ref(o, init, steps, a, w, ref + i * w);
        for (size_t j = 0; j < w; j++)
            idx[i * w + j] = a + j;
    }
    free(init);
    return e;
}

clb_error eu_reference(const eu_ode *o, size_t steps, size_t width, unsigned threads,
                       size_t **idx, double **ref, size_t *count)
{
    enum { NWIN = 5 };
    size_t w = width < o->n ? width : o->n, cone = 2 * steps * o->dist;
    *idx = NULL;
    *ref = NULL;
    *count = 0;
    /* windows run on one thread, the whole vector on all: take the cheaper */
    if ((w + cone) * NWIN * (threads ? threads : 1) < o->n) {
        *idx = malloc(NWIN * w * sizeof **idx);
        *ref = malloc(NWIN * w * sizeof **ref);
        if (!*idx || !*ref)
            return CLB_ERR_NOMEM;
        *count = NWIN * w;
        return windows_ref(o, steps, w, NWIN, *idx, *ref);
    }
    double *tmp = malloc(o->n * sizeof *tmp);
    *ref = malloc(o->n * sizeof **ref);
    if (!tmp || !*ref) {
        free(tmp);
        return CLB_ERR_NOMEM;
    }
    eu_initial(o, *ref);
    clb_error e = eu_pthreads_f64(o, *ref, tmp, steps, threads); /* = sequential, bit for bit */
    free(tmp);
    *count = o->n;
    return e;
}

double eu_max_rel_error(const void *got, int fp64, const size_t *idx, const double *ref,
                        size_t count)
{
    /* Even and odd components (position/velocity, U/V) differ in scale by orders of
     * magnitude: each is measured against its own largest value. */
    double big[2] = {0, 0}, err[2] = {0, 0};
    for (size_t i = 0; i < count; i++) {
        size_t j = idx ? idx[i] : i;
        double g = fp64 ? ((const double *)got)[j] : (double)((const float *)got)[j];
        double e = fabs(g - ref[i]);
        if (e != e)
            return e; /* NaN fails every tolerance */
        big[j & 1] = fabs(ref[i]) > big[j & 1] ? fabs(ref[i]) : big[j & 1];
        err[j & 1] = e > err[j & 1] ? e : err[j & 1];
    }
    for (int k = 0; k < 2; k++)
        err[k] = big[k] > 0 ? err[k] / big[k] : err[k];
    return err[0] > err[1] ? err[0] : err[1];
}
