/* Host Euler for one element type, included twice by euler_host.c with T (float/double) and
 * EU_S(name) (name_f32/name_f64) defined. The arithmetic mirrors euler_ode.cl operation for
 * operation, so the OpenCL variants and this code differ only by rounding and contraction. */

/* f_j(y) with y holding components off .. (window); reads y[j-d] .. y[j+d] inside [0, n). */
static inline T EU_S(f)(const eu_ode *o, const T *y, size_t off, size_t j)
{
#define Y(i) y[(i) - off]
    if (o->prob == EU_STRING) {
        if (!(j & 1))
            return Y(j + 1);
        T l = j >= 3 ? Y(j - 3) : (T)0, r = j + 1 < o->n ? Y(j + 1) : (T)0;
        return (T)o->k2 * (l - (T)2 * Y(j - 1) + r);
    }
    size_t row = 2 * o->grid, p = j / 2, k = p / o->grid, col = p % o->grid;
    T u = Y(2 * p), v = Y(2 * p + 1), self = Y(j);
    T up = k > 0 ? Y(j - row) : Y(j + row);
    T down = k + 1 < o->grid ? Y(j + row) : Y(j - row);
    T left = col > 0 ? Y(j - 2) : Y(j + 2);
    T right = col + 1 < o->grid ? Y(j + 2) : Y(j - 2);
    T lap = up + down + left + right - (T)4 * self, uuv = u * u * v;
    if (j & 1)
        return (T)3.4 * u - uuv + (T)o->alpha * lap;
    return (T)1 + uuv - (T)4.4 * u + (T)o->alpha * lap;
#undef Y
}

/* One step of components [lo, hi) from the window y (starting at off) into yn (same off). */
static void EU_S(step)(const eu_ode *o, const T *y, T *yn, size_t off, size_t lo, size_t hi)
{
    T h = (T)o->h;
    for (size_t j = lo; j < hi; j++)
        yn[j - off] = y[j - off] + h * EU_S(f)(o, y, off, j);
}

void EU_S(eu_seq)(const eu_ode *o, T *y, T *tmp, size_t steps)
{
    T *a = y, *b = tmp;
    for (size_t s = 0; s < steps; s++) {
        EU_S(step)(o, a, b, 0, 0, o->n);
        T *t = a;
        a = b;
        b = t;
    }
    if (a != y)
        memcpy(y, a, o->n * sizeof *y);
}

typedef struct EU_S(pt_job) {
    const eu_ode *o;
    T *a, *b;
    size_t steps, lo, hi;
    pthread_barrier_t *bar;
    eu_gate *gate;
} EU_S(pt_job);

static void *EU_S(pt_main)(void *arg)
{
    EU_S(pt_job) *j = arg;
    T *a = j->a, *b = j->b;
    if (!eu_gate_wait(j->gate))
        return NULL;
    for (size_t s = 0; s < j->steps; s++) {
        EU_S(step)(j->o, a, b, 0, j->lo, j->hi);
        pthread_barrier_wait(j->bar); /* nobody reads step s+1 before all of it exists */
        T *t = a;
        a = b;
        b = t;
    }
    return NULL;
}

clb_error EU_S(eu_pthreads)(const eu_ode *o, T *y, T *tmp, size_t steps, unsigned threads)
{
    pthread_t tid[EU_MAX_THREADS];
    EU_S(pt_job) job[EU_MAX_THREADS];
    pthread_barrier_t bar;
    eu_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    unsigned started = 0, nt = threads < 1 ? 1 : threads > EU_MAX_THREADS ? EU_MAX_THREADS : threads;
    clb_error e = CLB_OK;
    if (pthread_barrier_init(&bar, NULL, nt) != 0)
        return CLB_ERR_NOMEM;
    for (unsigned i = 0; i < nt; i++) {
        job[i] = (EU_S(pt_job)){o, y, tmp, steps, o->n * i / nt, o->n * (i + 1) / nt, &bar, &gate};
        if (i && pthread_create(&tid[i], NULL, EU_S(pt_main), &job[i]) != 0) {
            e = CLB_ERR_NOMEM; /* the barrier would never open: the gate sends them home */
            break;
        }
        started = i + 1;
    }
    eu_gate_open(&gate, e == CLB_OK ? 1 : -1);
    if (e == CLB_OK)
        EU_S(pt_main)(&job[0]);
    for (unsigned i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&bar);
    if (e == CLB_OK && (steps & 1))
        memcpy(y, tmp, o->n * sizeof *y);
    return e;
}
