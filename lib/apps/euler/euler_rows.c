/* app.euler rows: sizes, the measurement loop (host wall clock or the span of a run's
 * launches), validation against the double-precision sequential reference, params, and the
 * registry table. Headline: time per component and step (seed 003, eq. 7.5), in ns. */
#include "euler.h"
#include "../app.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Relative error bound against the double reference: 8 units of rounding per step, at least
 * 16 steps' worth (docs/apps/euler.md, "Validation"). */
static double tolerance(int fp64, size_t steps)
{
    return 8.0 * (double)(steps > 16 ? steps : 16) * (fp64 ? DBL_EPSILON : FLT_EPSILON);
}

static size_t env_size(const char *name, size_t dflt)
{
    const char *v = getenv(name);
    char *end = NULL;
    unsigned long long x = v ? strtoull(v, &end, 10) : 0;
    return v && end != v && *end == '\0' && x > 0 ? (size_t)x : dflt;
}

static int is_host(const eu_row *r) { return eu_host_row(r); }
/* Variants whose result is in the OpenCL buffers (the CUDA twin leaves its own in s->out). */
static int on_cl(const eu_row *r) { return !is_host(r) && r->kind != EU_CUDA; }

/* Problem size and steps: --quick tiny, defaults sized for a CPU device, environment for GPUs. */
void eu_choose_sizes(const clb_ctx *c, eu_state *s)
{
    int q = c->opts->quick;
    /* Sizes are halved after an allocation failure (clb_shrink_size). */
    if (s->row->prob == EU_STRING)
        eu_ode_init(&s->o, EU_STRING,
                    clb_shrink_size(c, env_size("CLBENCH_EULER_N", q ? 16384 : (size_t)1 << 19), 1024));
    else
        eu_ode_init(&s->o, EU_BRUSS, clb_shrink_size(c, env_size("CLBENCH_EULER_GRID", q ? 32 : 256), 16));
    s->steps = env_size("CLBENCH_EULER_STEPS", q ? 24 : 64);
    if (is_host(s->row)) { /* about 4e7 updates per run: the time per update is what counts */
        size_t most = (size_t)4e7 / s->o.n;
        s->steps = s->steps < most ? s->steps : most ? most : 1;
    }
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    s->threads = np > 0 ? (unsigned)np : 1;
    s->elem = s->row->fp64 ? sizeof(double) : sizeof(float);
    /* The seed's rule (one tile work-group per compute unit) on CPUs; four on GPUs, where one
     * 256-item group per SM left the H200's diamonds at 0.42 of the one-step DRAM bound and
     * four put the H100's at 1.56x above it (docs/results/euler.md). */
    int gpu = (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_GPU) != 0;
    s->tile_groups_per_cu = env_size("CLBENCH_EULER_TILE_GROUPS_PER_CU", gpu ? 4 : 1);
    s->tile2d_points = env_size("CLBENCH_EULER_TILE2D_POINTS", 0);
    s->tol = tolerance(s->row->fp64, s->steps);
}

clb_error eu_prepare_host(clb_ctx *c, eu_state *s)
{
    double *y = malloc(s->o.n * sizeof *y);
    s->y0 = malloc(s->o.n * s->elem);
    s->out = malloc(s->o.n * s->elem);
    if (!y || !s->y0 || !s->out) {
        free(y);
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory for n = %zu", s->o.n);
    }
    eu_initial(&s->o, y);
    for (size_t i = 0; i < s->o.n; i++)
        if (s->row->fp64)
            ((double *)s->y0)[i] = y[i];
        else
            ((float *)s->y0)[i] = (float)y[i];
    free(y);
    return CLB_OK;
}

/* One host run of s->steps steps into s->out. */
static clb_error host_once(clb_ctx *c, eu_state *s, double *secs)
{
    void *tmp = malloc(s->o.n * s->elem);
    clb_error e = CLB_OK;
    if (!tmp)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
    memcpy(s->out, s->y0, s->o.n * s->elem);
    double t0 = clb_now();
    if (s->row->kind == EU_SEQ && s->row->fp64)
        eu_seq_f64(&s->o, s->out, tmp, s->steps);
    else if (s->row->kind == EU_SEQ)
        eu_seq_f32(&s->o, s->out, tmp, s->steps);
    else if (s->row->fp64)
        e = eu_pthreads_f64(&s->o, s->out, tmp, s->steps, s->threads);
    else
        e = eu_pthreads_f32(&s->o, s->out, tmp, s->steps, s->threads);
    *secs = clb_now() - t0;
    free(tmp);
    return e == CLB_OK ? CLB_OK : clb_diag_set(&c->diag, e, "could not start %u threads", s->threads);
}

static clb_error run_once(clb_ctx *c, eu_state *s, double *secs)
{
    return is_host(s->row) ? host_once(c, s, secs) : eu_cl_once(c, s, secs);
}

/* Warm-up, then repetitions; x[i]: ns per component and step. */
clb_error eu_measure(clb_ctx *c, eu_state *s, double *x, unsigned cap, unsigned *n)
{
    double secs = 0, per = 1e9 / ((double)s->o.n * (double)s->steps);
    *n = 0;
    for (unsigned i = 0; i < c->opts->warmup; i++)
        if (run_once(c, s, &secs) != CLB_OK)
            return c->diag.err;
    double started = clb_now();
    for (unsigned i = 0; i < cap && clb_more_reps(c, i, started); i++) {
        if (run_once(c, s, &secs) != CLB_OK)
            return c->diag.err;
        x[(*n)++] = secs * per;
    }
    return CLB_OK;
}

clb_error eu_validate(clb_ctx *c, void *state, clb_diag *d)
{
    eu_state *s = state;
    if (on_cl(s->row) && eu_cl_read(c, s) != CLB_OK)
        return d->err;
    if (!s->ref || s->ref_steps != s->steps) {
        free(s->ridx);
        free(s->ref);
        s->ref_steps = s->steps;
        if (eu_reference(&s->o, s->steps, s->threads, &s->ridx, &s->ref, &s->rcount) != CLB_OK)
            return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory for the reference");
    }
    s->err = eu_max_rel_error(s->out, s->row->fp64, s->ridx, s->ref, s->rcount);
    if (!(s->err <= s->tol))
        return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                            "max relative error %.3g above the tolerance %.3g (%zu components "
                            "against the double-precision sequential run)",
                            s->err, s->tol, s->rcount);
    return CLB_OK;
}

/* Validates the last run (corrupting it first under fault injection). */
clb_error eu_check_output(clb_ctx *c, eu_state *s)
{
    if (on_cl(s->row))
        return clb_validate(c, s, s->g[eu_cl_result(s)], s->o.n * s->elem);
    clb_fault_apply_host(c, s->out, s->o.n * s->elem);
    return clb_validate(c, s, NULL, 0);
}

static const char *kind_name(eu_kind k)
{
    static const char *names[] = {"seq", "pthreads", "linear", "coalesced", "vectorized",
                                  "diamond_row", "diamond_col", "honeycomb", "sweep", "cuda",
                                  "tiled_2d", "diamond_global"};
    return names[k];
}

/* Bytes of global memory per component and step: one read and one write of y untiled, the
 * counted tile traffic tiled. */
static double bytes_per_update(const eu_state *s)
{
    if (s->row->kind == EU_TILE2D)
        return eu_geom2d_traffic(&s->geom2, s->o.grid, s->steps) * (double)s->elem /
               ((double)s->o.n * (double)s->steps);
    if (!s->tiled || s->row->kind == EU_DIA_GLOBAL) /* global only: every level read and written */
        return 2.0 * (double)s->elem;
    return eu_geom_traffic(&s->geom, s->steps) * (double)s->elem /
           ((double)s->o.n * (double)s->steps);
}

void eu_record(clb_result *res, const eu_state *s, double ns)
{
    double bpu = bytes_per_update(s), fpu = eu_flops_per_component(s->o.prob);
    clb_param_str(res, "problem", s->o.prob == EU_STRING ? "STRING" : "BRUSS2D");
    clb_param_str(res, "precision", s->row->fp64 ? "f64" : "f32");
    clb_param_str(res, "variant", kind_name(s->row->kind));
    clb_param_num(res, "n", (double)s->o.n);
    if (s->o.grid)
        clb_param_num(res, "grid", (double)s->o.grid);
    clb_param_num(res, "access_distance", (double)s->o.dist);
    clb_param_num(res, "steps", (double)s->steps);
    clb_param_num(res, "h", s->o.h);
    clb_param_num(res, "time_per_component_step_ns", ns);
    clb_param_num(res, "rate_gupdates_per_s", 1.0 / ns);
    clb_param_num(res, "bytes_per_component_step", bpu);
    clb_param_num(res, "flops_per_component_step", fpu);
    clb_param_num(res, "effective_bandwidth_gbs", bpu / ns);
    clb_param_num(res, "gflops", fpu / ns);
    /* The roofline's point (docs/roofline.md): one run's counted flops and global bytes; the
     * working set is the two device arrays of n values. */
    clb_param_num(res, "flops", fpu * (double)s->o.n * (double)s->steps);
    clb_param_num(res, "bytes", bpu * (double)s->o.n * (double)s->steps);
    clb_param_num(res, "working_set_bytes", 2.0 * (double)s->o.n * (double)s->elem);
    clb_param_num(res, "max_rel_error", s->err);
    clb_param_num(res, "tolerance", s->tol);
    clb_param_num(res, "validated_components", (double)s->rcount);
    if (is_host(s->row)) {
        clb_param_num(res, "threads", s->row->kind == EU_SEQ ? 1 : s->threads);
        clb_param_str(res, "runs_on", "host CPU (not the OpenCL device)");
    }
    else if (on_cl(s->row) && s->row->kind != EU_SWEEP) /* a sweep's: its best point */
        eu_cl_params(res, s);
}

void eu_state_free(eu_state *s)
{
    eu_cl_release(s);
    free(s->y0);
    free(s->out);
    free(s->ridx);
    free(s->ref);
}

clb_error eu_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    eu_state s = {.row = c->bench->arg};
    unsigned cap = clb_reps(c) < 1000 ? clb_reps(c) : 1000, n = 0;
    double *x = malloc(cap * sizeof *x);
    if (!x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    eu_choose_sizes(c, &s);
    if (eu_prepare_host(c, &s) != CLB_OK)
        goto cleanup;
    if (s.row->kind == EU_SWEEP) {
        eu_sweep(c, &s, res);
        goto cleanup;
    }
    if (!is_host(s.row) &&
        eu_cl_setup(c, &s, env_size("CLBENCH_EULER_LOCAL", 0), env_size("CLBENCH_EULER_GROUPS", 0),
                    s.row->kind == EU_HONEYCOMB ? eu_cached_tile_steps(c, &s)
                    : s.row->kind == EU_TILE2D  ? env_size("CLBENCH_EULER_TILE2D_STEPS", 0)
                                                : 0) != CLB_OK)
        goto cleanup;
    double setup_s = c->started > 0 ? clb_now() - c->started : -1; /* sizes, host data, build, upload */
    if (eu_measure(c, &s, x, cap, &n) != CLB_OK || eu_check_output(c, &s) != CLB_OK)
        goto cleanup;
    if (clb_result_set_samples(res, x, n, "ns", 0,
                               is_host(s.row) ? "wall_clock_monotonic per run"
                                                    : "cl_event_profiling first START->last END, wall-clock checked") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    eu_record(res, &s, res->value);
    app_total_time(c, setup_s, res->value * 1e-9 * (double)s.o.n * (double)s.steps,
                   on_cl(s.row) ? s.g[eu_cl_result(&s)] : NULL, on_cl(s.row) ? s.o.n * s.elem : 0);
cleanup:
    if (d->err != CLB_OK && s.row->kind != EU_SWEEP) /* the configuration that failed */
        clb_param_num(res, "n", (double)s.o.n);
    free(x);
    eu_state_free(&s);
    return d->err;
}

/* The registry (lib/bench/groups.h: CLB_GROUP(euler)); arg: an eu_row {problem, fp64, kind,
 * strategy, sweep, vectorized, volatile}. Rows 15-21 are seed 003's remaining variants. */
#define EU_ARGS(p, f)                                                                                  \
    {{p, f, EU_SEQ, EU_MULT, 0, 0, 0},       {p, f, EU_PTHREADS, EU_MULT, 0, 0, 0},                      \
     {p, f, EU_LINEAR, EU_MULT, 0, 0, 0},    {p, f, EU_COALESCED, EU_MULT, 0, 0, 0},                     \
     {p, f, EU_VECTOR, EU_MULT, 0, 0, 0},    {p, f, EU_DIA_ROW, EU_MULT, 0, 0, 0},                       \
     {p, f, EU_DIA_ROW, EU_ADD, 0, 0, 0},    {p, f, EU_DIA_ROW, EU_KORR, 0, 0, 0},                       \
     {p, f, EU_DIA_COL, EU_KORR, 0, 0, 0},   {p, f, EU_HONEYCOMB, EU_KORR, 0, 0, 0},                     \
     {p, f, EU_SWEEP, EU_KORR, 0, 0, 0},     {p, f, EU_SWEEP, EU_KORR, 1, 0, 0},                         \
     {p, f, EU_SWEEP, EU_KORR, 2, 0, 0},     {p, f, EU_SWEEP, EU_KORR, 3, 0, 0},                         \
     {p, f, EU_TILE2D, EU_MULT, 0, 0, 0},    {p, f, EU_DIA_GLOBAL, EU_KORR, 0, 0, 0},                    \
     {p, f, EU_DIA_ROW, EU_KORR, 0, 1, 0},   {p, f, EU_COALESCED, EU_MULT, 0, 0, 1},                     \
     {p, f, EU_VECTOR, EU_MULT, 0, 0, 1},    {p, f, EU_DIA_ROW, EU_KORR, 0, 0, 1},                       \
     {p, f, EU_DIA_ROW, EU_KORR, 0, 1, 1},   {p, f, EU_SWEEP, EU_KORR, 4, 0, 0},                         \
     {p, f, EU_SWEEP, EU_KORR, 5, 0, 0}}
static const eu_row eu_args[2][2][23] = {{EU_ARGS(EU_STRING, 0), EU_ARGS(EU_STRING, 1)},
                                         {EU_ARGS(EU_BRUSS, 0), EU_ARGS(EU_BRUSS, 1)}};

#define EU_ROW(p, pn, PD, f, fn, req, v, vn, VD)                                                \
    {"app.euler." pn "." fn "." vn, "app.euler", PD " " fn ", " VD " (ns per component and step)", \
     (req) | CLB_REQ_APP, eu_run, eu_validate, &eu_args[p][f][v]}
#define EU_ROWS(p, pn, PD, f, fn, req)                                                           \
    EU_ROW(p, pn, PD, f, fn, 0, 0, "seq", "sequential C"),                                         \
    EU_ROW(p, pn, PD, f, fn, 0, 1, "pthreads", "pthreads, one barrier per step"),                  \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 2, "linear", "OpenCL, contiguous range per work-item"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 3, "coalesced", "OpenCL, 4 components per work-item, stride 4 x work-items"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 4, "vectorized", "OpenCL, vectorized problem function"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 5, "diamond_row_mult", "row-wise diamond tiling, multStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 6, "diamond_row_add", "row-wise diamond tiling, addStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 7, "diamond_row_korr", "row-wise diamond tiling, korrStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 8, "diamond_col", "column-wise (in-place) diamond tiling, korrStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 9, "honeycomb", "honeycomb tiling, korrStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 10, "sweep_groups", "coalesced and row-diamond time against the work-group count (curves; headline: best point)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 11, "sweep_local", "coalesced and row-diamond time against the work-group size (curves; headline: best point)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 12, "sweep_honeycomb", "honeycomb time against its step count (curve; headline: best point)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 15, "diamond_global", "row-wise diamonds in global memory only (no local memory), korrStrat"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 16, "diamond_row_vectorized", "row-wise diamond tiling, korrStrat, vectorized problem function"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 17, "coalesced_volatile", "coalesced, global vectors volatile (no cache reuse)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 18, "vectorized_volatile", "vectorized problem function, global vectors volatile (no cache reuse)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 19, "diamond_row_volatile", "row-wise diamond tiling, korrStrat, global vectors volatile (no cache reuse)"), \
    EU_ROW(p, pn, PD, f, fn, (req) | CLB_REQ_COMPILER, 20, "diamond_row_vectorized_volatile", "row-wise diamonds, korrStrat, vectorized problem function, global vectors volatile"), \
    EU_ROW(p, pn, PD, f, fn, 0, 21, "sweep_threads", "pthreads time against the thread count 1 .. cores (curve; headline: best point)")

#define EU_STRATEGY_SWEEP(f, fn, req)                                                           \
    EU_ROW(EU_STRING, "string", "explicit Euler, STRING", f, fn, (req) | CLB_REQ_COMPILER, 13,    \
           "sweep_strategies", "multStrat/addStrat/korrStrat row diamonds against n around the local-memory limit (curves; headline: best point)"), \
    EU_ROW(EU_STRING, "string", "explicit Euler, STRING", f, fn, (req) | CLB_REQ_COMPILER, 22,    \
           "sweep_n", "linear (coalesced), row diamonds and honeycomb against n = 1/16 .. 2 x the row's n (curves; headline: best point)")

#define EU_TILE2D_ROW(f, fn, req)                                                               \
    EU_ROW(EU_BRUSS, "bruss2d", "explicit Euler, BRUSS2D", f, fn, (req) | CLB_REQ_COMPILER, 14,   \
           "tiled_2d", "2-D overlapped tiles, s steps per launch in local memory")

const clb_bench clb_euler_rows[] = {
    EU_ROWS(EU_STRING, "string", "explicit Euler, STRING", 0, "f32", 0),
    EU_STRATEGY_SWEEP(0, "f32", 0),
    EU_ROWS(EU_STRING, "string", "explicit Euler, STRING", 1, "f64", CLB_REQ_FP64),
    EU_STRATEGY_SWEEP(1, "f64", CLB_REQ_FP64),
    EU_ROWS(EU_BRUSS, "bruss2d", "explicit Euler, BRUSS2D", 0, "f32", 0),
    EU_TILE2D_ROW(0, "f32", 0),
    EU_ROWS(EU_BRUSS, "bruss2d", "explicit Euler, BRUSS2D", 1, "f64", CLB_REQ_FP64),
    EU_TILE2D_ROW(1, "f64", CLB_REQ_FP64),
};
const size_t clb_euler_row_count = sizeof clb_euler_rows / sizeof clb_euler_rows[0];
