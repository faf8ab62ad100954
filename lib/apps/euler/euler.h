/* app.euler: explicit Euler y_new[j] = y[j] + h f_j(y) for ODE systems of limited access
 * distance (BRUSS2D, STRING), after seed 003 (docs/apps/euler.md). Host reference code,
 * tiling geometry and the OpenCL variants share these declarations. */
#ifndef CLB_APP_EULER_H
#define CLB_APP_EULER_H

#include "core/internal.h"

typedef enum { EU_STRING, EU_BRUSS } eu_problem;
typedef enum {
    EU_SEQ, EU_PTHREADS, EU_LINEAR, EU_COALESCED, EU_VECTOR, EU_DIA_ROW, EU_DIA_COL,
    EU_HONEYCOMB, EU_SWEEP,
    EU_CUDA, /* the CUDA twin (lib/apps/cuda/cuda_rows.c): runs outside OpenCL, validated here */
    EU_TILE2D, /* overlapped temporal blocking: BRUSS2D 2-D (euler_tile2d.cl), STRING 1-D in
                  registers (euler_tile1d.cl, the row tiled_1d) */
    EU_DIA_GLOBAL /* the row diamonds in global memory only (seed 003, 7.3) */
} eu_kind;
/* How the number of diamonds grows when one per compute unit does not fit local memory
 * (seed 003, 7.1.1): D = mult*CU, D = CU + add, D = mult*CU - 1. */
typedef enum { EU_MULT, EU_ADD, EU_KORR } eu_strategy;

/* A registry row's variant. */
typedef struct eu_row {
    eu_problem prob;
    int fp64;
    eu_kind kind;
    eu_strategy strat;
    int sweep; /* EU_SWEEP: 0 work-group count, 1 work-group size, 2 honeycomb steps, 3 strategies,
                  4 host threads (pthreads, 1 .. cores) */
    int vec;   /* EU_DIA_ROW: the vectorized problem function (seed 003, 7.3) */
    int vol;   /* global vectors declared volatile: no cache serves them (seed 003, figure 7.14) */
} eu_row;

/* Rows that run on the host only (no OpenCL): seq, pthreads and the thread-count sweep. */
static inline int eu_host_row(const eu_row *r)
{
    return r->kind == EU_SEQ || r->kind == EU_PTHREADS || (r->kind == EU_SWEEP && r->sweep == 4);
}

/* One problem instance (docs/apps/euler.md defines both). */
typedef struct eu_ode {
    eu_problem prob;
    size_t n;     /* components */
    size_t grid;  /* BRUSS2D: N (n = 2 N^2); STRING: 0 */
    size_t dist;  /* access distance d: f_j reads y[j-d] .. y[j+d] */
    double h;     /* step size */
    double k2;    /* STRING: K^2 */
    double alpha; /* BRUSS2D: a (N-1)^2 */
} eu_ode;

/* Sets up the problem with n components (STRING; rounded down to a multiple of 4) or an
 * N x N grid (BRUSS2D). */
void eu_ode_init(eu_ode *o, eu_problem p, size_t n_or_grid);
/* The documented initial state (deterministic, with a seeded random perturbation). */
void eu_initial(const eu_ode *o, double *y);
/* Counted flops per component and step (f and the update). */
double eu_flops_per_component(eu_problem p);

/* Host Euler in double and float: steps steps from y (overwritten with the result). tmp
 * holds n values. Sequential, and pthreads with a barrier per step (threads >= 1). */
void eu_seq_f64(const eu_ode *o, double *y, double *tmp, size_t steps);
void eu_seq_f32(const eu_ode *o, float *y, float *tmp, size_t steps);
clb_error eu_pthreads_f64(const eu_ode *o, double *y, double *tmp, size_t steps, unsigned threads);
clb_error eu_pthreads_f32(const eu_ode *o, float *y, float *tmp, size_t steps, unsigned threads);
/* The double-precision reference of every component after steps steps, on threads host
 * threads (bit for bit the sequential run): ref[0..*count = n); *idx = NULL (every component:
 * a kernel that skips a tile anywhere fails). The caller frees *ref with free. */
clb_error eu_reference(const eu_ode *o, size_t steps, unsigned threads, size_t **idx,
                       double **ref, size_t *count);
/* Largest |got - ref| over max |ref|, even and odd components apart (their scales differ),
 * for got in double (f64) or float; NaN when got holds one. */
double eu_max_rel_error(const void *got, int fp64, const size_t *idx, const double *ref,
                        size_t count);

/* Tiling geometry (docs/apps/euler.md): blocks of bs components, K = n / bs blocks; tiles
 * of at most `wide` = 2 (m + hs) blocks, hexagons of half-height hs and flat half-width m
 * (m = 0: diamonds). Row r of tiles starts at level r * hs and holds tiles centred at
 * c0 + j X, X = 4 m + 2 hs; row -1 .. launches - 2 cover levels 1 .. steps. */
typedef struct eu_geom {
    size_t bs, blocks;     /* block size (components), K */
    size_t diamonds;       /* D from the strategy */
    size_t dia_blocks;     /* W = 2 (m + hs), even */
    size_t m, hs, period;  /* flat half-width, half-height, X */
    size_t local_bytes;    /* local memory one work-group uses */
    size_t launches;       /* for `steps` steps */
    int column;            /* in-place sweep: (W + 5) blocks instead of 2 (W + 2) */
} eu_geom;

/* Chooses dia_blocks from the strategy: D = the strategy's count, W = K / D rounded up to
 * even, until the tile's local memory fits local_mem. CLB_ERR_UNSUPPORTED (reason in d) when
 * W would fall below 4 blocks. hs = W / 2 (diamond) or honeycomb_steps (cut, >= 1). */
clb_error eu_geom_plan(eu_geom *g, size_t n, size_t bs, size_t elem, size_t local_mem,
                       size_t cu, eu_strategy s, int column, size_t honeycomb_steps,
                       clb_diag *d);
/* Launch count for steps steps, and, for launch l (row l - 1), its first level T0, the
 * centre of its first tile and its tile count. */
size_t eu_geom_launches(const eu_geom *g, size_t steps);
void eu_geom_row(const eu_geom *g, size_t launch, long *t0, long *c0, size_t *tiles);
/* Half-width (blocks) of a tile at level s (1 .. 2 hs). */
long eu_geom_width(const eu_geom *g, long s);
/* Global-memory components moved (loaded + stored) by all launches of a run, counted as
 * the kernels do; with the untiled 2 n per step it gives bytes per component and step. */
double eu_geom_traffic(const eu_geom *g, size_t steps);
/* Checks the schedule on the host: every (block, level) computed exactly once, every input
 * present when used (from the same tile, or stored by an earlier launch). 0 when sound. */
int eu_geom_check(const eu_geom *g, size_t steps, char *why, size_t n);

/* 2-D overlapped ("ghost-zone") tiling of BRUSS2D (docs/apps/euler.md, "2-D tiling"): a
 * work-group of lx x ly items owns a tx x ty tile of grid points, loads it with a halo of s
 * points per side (the pw x ph patch, pw = tx + 2 s = rx lx, ph = ty + 2 s = ry ly: each item
 * rx x ry points) and advances s steps in local memory per launch. */
typedef struct eu_geom2d {
    size_t lx, ly, rx, ry; /* work-group shape, points per work-item along x and y */
    size_t pw, ph, tx, ty; /* patch and tile (points) */
    size_t s;              /* halo = steps per launch */
    size_t tiles_x, tiles_y;
    size_t local_bytes;    /* the patch: pw ph 2 sizeof(T); 1-D: the ends traded, 4 lx sizeof(T) */
    int one_d;             /* STRING's 1-D tiles: ly = ry = ph = ty = tiles_y = 1, points not cells */
} eu_geom2d;

/* The geometry for an N x N grid (grid), elements of elem bytes, local_mem bytes of local
 * memory and work-groups of at most wg items: lx = 16 (or wg), ly = min(16, wg / lx); of the
 * patches of at most `points` (0: 128 / (2 elem)) points per item that fit local_mem, the one
 * whose rule halo (the largest s whose redundancy stays <= 1.25) moves the fewest global bytes
 * per update (then the wider); s = s_want (0: the rule) clipped to the patch and to steps.
 * CLB_ERR_UNSUPPORTED (reason in d) when not even 3 x 3 fits. */
clb_error eu_geom2d_plan(eu_geom2d *g, size_t grid, size_t elem, size_t local_mem, size_t wg,
                         size_t points, size_t steps, size_t s_want, clb_diag *d);
/* STRING's 1-D tiles in registers (tiled_1d) for np points: wg (0: 256) work-items of points
 * (0: 16) consecutive points each, the patch pw = wg points; halo s = s_want (0: pw / 34, the
 * largest whose redundancy pw / (pw - 2 s) stays <= 1.0625) clipped to (pw - 1) / 2 and to steps.
 * CLB_ERR_UNSUPPORTED (reason in d) when the patch has fewer than 3 points. */
clb_error eu_geom1d_plan(eu_geom2d *g, size_t np, size_t wg, size_t points, size_t steps, size_t s_want,
                         size_t elem, clb_diag *d);
/* Launches for steps steps (the last one does steps % s when that is not 0). */
size_t eu_geom2d_launches(const eu_geom2d *g, size_t steps);
/* Point updates computed over point updates kept, for a launch of k <= s steps. */
double eu_geom2d_redundancy(const eu_geom2d *g, size_t k);
/* Global-memory components moved by all launches of a run, as the kernel does it: every tile
 * loads its patch (less the margin a short launch does not need; cells outside the grid
 * included), every grid point is stored once per launch. */
double eu_geom2d_traffic(const eu_geom2d *g, size_t grid, size_t steps);
/* tiled_1d, as eu_tile1d does it (every patch loaded whole, every point stored once a launch),
 * for np points. */
static inline double eu_geom1d_traffic(const eu_geom2d *g, size_t np, size_t steps)
{
    return eu_geom2d_traffic(g, np, steps);
}

/* One row's run: the problem, its result buffers and, for OpenCL variants, the kernel. */
typedef struct eu_state {
    const eu_row *row;
    eu_ode o;
    size_t steps, elem; /* steps of one run; sizeof(T) */
    unsigned threads;   /* host threads (pthreads rows, reference) */
    void *y0, *out;     /* initial state and result of the last run, in T (host) */
    size_t *ridx;       /* reference: components (NULL: all) and values */
    double *ref;
    size_t rcount, ref_steps;
    double err, tol;    /* max relative error of the last validation, its bound */
    /* OpenCL */
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem g[2], init;
    size_t lsize, groups, cu, local_mem, kernel_local;
    size_t built_bs; /* the block size BS the program was built with */
    size_t tile_groups_per_cu; /* default work-groups of the tiled kernels per compute unit */
    size_t tile2d_points;      /* tiled_2d: most points per work-item (0: the default) */
    int tile2d_reg;            /* tiled_2d: each item's block in registers (eu_tile2d_reg) */
    int tile2d_all;            /* tiled_2d: the local form with every cell computed (eu_tile2d_all) */
    int tile2d_form_bad;       /* CLBENCH_EULER_TILE2D_FORM is none of local, local_all, registers */
    size_t tile2d_steps;       /* tiled_2d: steps per launch asked for (0: the rule's) */
    eu_geom geom;
    int tiled;       /* the 1-D tiled kinds (diamonds, honeycomb) */
    int arg_volatile; /* the built kernel's first argument is volatile (1), not (0), unknown (-1) */
    eu_geom2d geom2; /* EU_TILE2D */
    double setup_s;  /* sweeps: this state's setup (host data, build, buffers, upload), seconds */
} eu_state;

/* OpenCL variants (euler_cl.c): builds the kernel and buffers for s->row->kind with work-group
 * size lsize (0: default) and groups work-groups (0: default), once per state. */
clb_error eu_cl_setup(clb_ctx *c, eu_state *s, size_t lsize, size_t groups, size_t hc_steps);
/* Re-plans geometry and sizes on a built state (sweeps). */
clb_error eu_cl_configure(clb_ctx *c, eu_state *s, size_t lsize, size_t groups, size_t hc_steps);
/* One run of s->steps steps from the initial state; *secs: first launch START to last END. */
clb_error eu_cl_once(clb_ctx *c, eu_state *s, double *secs);
/* Which of g[0], g[1] holds the result of a run. */
size_t eu_cl_result(const eu_state *s);
/* Reads the result into s->out. */
clb_error eu_cl_read(clb_ctx *c, eu_state *s);
void eu_cl_release(eu_state *s);
/* Records the configuration (sizes, geometry) in params. */
void eu_cl_params(clb_result *res, const eu_state *s);

/* Rows that run on the host CPU; rows whose result is in the OpenCL buffers (the CUDA twin
 * leaves its own in s->out). */
static inline int eu_is_host(const eu_row *r) { return eu_host_row(r); }
static inline int eu_on_cl(const eu_row *r) { return !eu_host_row(r) && r->kind != EU_CUDA; }

/* Host side of a row: sizes from opts and the environment (euler_rows.c); the initial state,
 * warm-up + repetitions into x (ns per component and step), the check of the last run's output
 * (corrupted first under fault injection), the state's release (euler_measure.c). */
void eu_choose_sizes(const clb_ctx *c, eu_state *s);
clb_error eu_prepare_host(clb_ctx *c, eu_state *s);
clb_error eu_measure(clb_ctx *c, eu_state *s, double *x, unsigned cap, unsigned *n);
clb_error eu_check_output(clb_ctx *c, eu_state *s);
void eu_state_free(eu_state *s);
/* Headline-independent params: problem, sizes, per-update bytes/flops, rate, error. */
void eu_record(clb_result *res, const eu_state *s, double ns);
/* The honeycomb row's tile height from the tuning cache (written by sweep_honeycomb), 0 when
 * none (or --retune, --quick): then the seed's rule. Records tune_key and tune_source. */
size_t eu_cached_tile_steps(clb_ctx *c, const eu_state *s);
/* The sweep rows (euler_sweep.c): curves in params, headline the best point. */
clb_error eu_sweep(clb_ctx *c, eu_state *s, clb_result *res);

/* Registry entry points (lib/apps/euler/euler_rows.c, euler_cl.c). */
clb_error eu_run(clb_ctx *c, clb_result *res);
clb_error eu_validate(clb_ctx *c, void *state, clb_diag *d);

#endif
