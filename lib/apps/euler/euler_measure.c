/* app.euler's measurement of one row, shared by the rows (euler_rows.c) and the sweeps
 * (euler_sweep.c): the host state, one run on the host or the device, warm-up and repetitions,
 * the check of the last run's output, the row's params, the state's release. */
#include "apps/euler/euler.h"

#include <stdlib.h>
#include <string.h>

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
    return eu_is_host(s->row) ? host_once(c, s, secs) : eu_cl_once(c, s, secs);
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

/* Validates the last run (corrupting it first under fault injection). */
clb_error eu_check_output(clb_ctx *c, eu_state *s)
{
    if (eu_on_cl(s->row))
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
        return (s->geom2.one_d ? eu_geom1d_traffic(&s->geom2, s->o.n / 2, s->steps)
                               : eu_geom2d_traffic(&s->geom2, s->o.grid, s->steps)) * (double)s->elem /
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
    clb_param_str(res, "variant", s->row->kind == EU_TILE2D && s->o.prob == EU_STRING ? "tiled_1d" : kind_name(s->row->kind));
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
    if (eu_is_host(s->row)) {
        clb_param_num(res, "threads", s->row->kind == EU_SEQ ? 1 : s->threads);
        clb_param_str(res, "runs_on", "host CPU (not the OpenCL device)");
    }
    else if (eu_on_cl(s->row) && s->row->kind != EU_SWEEP) /* a sweep's: its best point */
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
