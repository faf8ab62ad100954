/* app.euler host side: the two problems, their initial states, the sequential and pthreads
 * Euler in float and double (euler_host_t.h), and the double reference of the whole vector that
 * every variant is validated against. */
#include "apps/euler/euler.h"

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
#include "apps/euler/euler_host_t.h"
#undef T
#undef EU_S
#define T float
#define EU_S(x) x##_f32
#include "apps/euler/euler_host_t.h"
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

clb_error eu_reference(const eu_ode *o, size_t steps, unsigned threads, size_t **idx, double **ref,
                       size_t *count)
{
    double *tmp = malloc(o->n * sizeof *tmp);
    *idx = NULL;
    *count = 0;
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
