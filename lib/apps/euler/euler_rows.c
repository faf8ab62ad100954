/* app.euler rows: sizes, the measurement loop (host wall clock or the span of a run's
 * launches), validation against the double-precision sequential reference, params, and the
 * registry table. Headline: time per component and step (seed 003, eq. 7.5), in ns. */
#include "apps/euler/euler.h"
#include "apps/app.h"

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

/* A size of clb_settings when given (positive), else the row's default. */
static size_t given_or(size_t given, size_t dflt)
{
    return given > 0 ? given : dflt;
}

/* Problem size and steps: --quick tiny, defaults sized for a CPU device, clb_settings for GPUs. */
void eu_choose_sizes(const clb_ctx *c, eu_state *s)
{
    int q = c->opts->quick;
    /* Sizes are halved after an allocation failure (clb_shrink_size). */
    if (s->row->prob == EU_STRING)
        eu_ode_init(&s->o, EU_STRING,
                    clb_shrink_size(c, given_or(clb_settings_get()->euler_n, q ? 16384 : (size_t)1 << 19), 1024));
    else
        eu_ode_init(&s->o, EU_BRUSS, clb_shrink_size(c, given_or(clb_settings_get()->euler_grid, q ? 32 : 256), 16));
    s->steps = given_or(clb_settings_get()->euler_steps, q ? 24 : 64);
    if (eu_is_host(s->row)) { /* about 4e7 updates per run: the time per update is what counts */
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
    s->tile_groups_per_cu = given_or(clb_settings_get()->euler_tile_groups_per_cu, gpu ? 4 : 1);
    s->tile2d_points = given_or(clb_settings_get()->euler_tile2d_points, 0);
    const char *form = clb_settings_get()->euler_tile2d_form;
    /* BRUSS2D on GPUs: local_all at 4 steps a launch unless asked otherwise. On the H200 its step
     * loop has 353 instructions per 16 point-steps against local's 487 (no per-point test of the
     * still-valid region), and at N = 4096 it ran 2.51x `vectorized` where local at the rule's 6
     * steps ran 2.23x (docs/results/closer-2026-11-25-h200.md). CPUs keep local. */
    int gpu_bruss = gpu && s->row->prob == EU_BRUSS && !(form && *form);
    form = gpu_bruss ? "local_all" : form;
    s->tile2d_steps = given_or(clb_settings_get()->euler_tile2d_steps, gpu_bruss ? 4 : 0);
    s->tile2d_reg = form && strcmp(form, "registers") == 0;
    s->tile2d_all = form && strcmp(form, "local_all") == 0;
    s->tile2d_form_bad = form && *form && !s->tile2d_reg && !s->tile2d_all && strcmp(form, "local") != 0;
    s->tol = tolerance(s->row->fp64, s->steps);
}

clb_error eu_validate(clb_ctx *c, void *state, clb_diag *d)
{
    eu_state *s = state;
    if (eu_on_cl(s->row) && eu_cl_read(c, s) != CLB_OK)
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
    if (!eu_is_host(s.row) &&
        eu_cl_setup(c, &s, given_or(clb_settings_get()->euler_local, 0), given_or(clb_settings_get()->euler_groups, 0),
                    s.row->kind == EU_HONEYCOMB ? eu_cached_tile_steps(c, &s)
                    : s.row->kind == EU_TILE2D  ? s.tile2d_steps
                                                : 0) != CLB_OK)
        goto cleanup;
    double setup_s = c->started > 0 ? clb_now() - c->started : -1; /* sizes, host data, build, upload */
    if (eu_measure(c, &s, x, cap, &n) != CLB_OK || eu_check_output(c, &s) != CLB_OK)
        goto cleanup;
    if (clb_result_set_samples(res, x, n, "ns", 0,
                               eu_is_host(s.row) ? "wall_clock_monotonic per run"
                                                    : "cl_event_profiling first START->last END, wall-clock checked") != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
    eu_record(res, &s, res->value);
    app_total_time(c, setup_s, res->value * 1e-9 * (double)s.o.n * (double)s.steps,
                   eu_on_cl(s.row) ? s.g[eu_cl_result(&s)] : NULL, eu_on_cl(s.row) ? s.o.n * s.elem : 0);
cleanup:
    if (d->err != CLB_OK && s.row->kind != EU_SWEEP) /* the configuration that failed */
        clb_param_num(res, "n", (double)s.o.n);
    free(x);
    eu_state_free(&s);
    return d->err;
}

/* The registry (lib/core/groups.h: CLB_GROUP(euler)); arg: an eu_row {problem, fp64, kind,
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
#define EU_TILE1D_ROW(f, fn, req)                                                               \
    EU_ROW(EU_STRING, "string", "explicit Euler, STRING", f, fn, (req) | CLB_REQ_COMPILER, 14,   \
           "tiled_1d", "1-D overlapped tiles in registers, s steps per launch")

const clb_bench clb_euler_rows[] = {
    EU_ROWS(EU_STRING, "string", "explicit Euler, STRING", 0, "f32", 0),
    EU_STRATEGY_SWEEP(0, "f32", 0),
    EU_TILE1D_ROW(0, "f32", 0),
    EU_ROWS(EU_STRING, "string", "explicit Euler, STRING", 1, "f64", CLB_REQ_FP64),
    EU_STRATEGY_SWEEP(1, "f64", CLB_REQ_FP64),
    EU_TILE1D_ROW(1, "f64", CLB_REQ_FP64),
    EU_ROWS(EU_BRUSS, "bruss2d", "explicit Euler, BRUSS2D", 0, "f32", 0),
    EU_TILE2D_ROW(0, "f32", 0),
    EU_ROWS(EU_BRUSS, "bruss2d", "explicit Euler, BRUSS2D", 1, "f64", CLB_REQ_FP64),
    EU_TILE2D_ROW(1, "f64", CLB_REQ_FP64),
};
const size_t clb_euler_row_count = sizeof clb_euler_rows / sizeof clb_euler_rows[0];
