/* launch.*: kernel launch overhead with a one-work-item counter kernel (lib/bench/launch/launch.cl).
 * Per-launch metrics take one sample per launch (reps x 10 launches, each waited for);
 * throughput takes one sample per batch of back-to-back enqueues closed by one clFinish. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

typedef enum { EVENT_SPAN, ROUNDTRIP, THROUGHPUT } kind;

/* Event spans index the profiling timestamps: 0 QUEUED, 1 SUBMIT, 2 START, 3 END. */
typedef struct metric {
    const char *name;
    kind k;
    int from, to;
    const char *timer;
} metric;

static const metric metrics[] = {
    {"queued_submit", EVENT_SPAN, 0, 1, "cl_event_profiling QUEUED->SUBMIT"},
    {"submit_start", EVENT_SPAN, 1, 2, "cl_event_profiling SUBMIT->START"},
    {"start_end", EVENT_SPAN, 2, 3, "cl_event_profiling START->END"},
    {"queued_end", EVENT_SPAN, 0, 3, "cl_event_profiling QUEUED->END"},
    {"queued_start", EVENT_SPAN, 0, 2, "cl_event_profiling QUEUED->START"},
    {"roundtrip", ROUNDTRIP, 0, 0, "wall_clock_monotonic enqueue->clFinish"},
    {"throughput", THROUGHPUT, 0, 0, "wall_clock_monotonic N enqueues + clFinish"},
};

typedef struct launch_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem out;
    cl_uint count; /* random start + launches so far: validation expects it in out[0] */
} launch_state;

static clb_error enqueue_counted(launch_state *s, cl_event *ev, clb_diag *d)
{
    size_t one = 1;
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &one, &one, 0, NULL, ev));
    s->count++;
cleanup:
    return d->err;
}

/* One launch, waited for; the sample in us for metric m. */
static clb_error one_launch(launch_state *s, const metric *m, double *us, clb_diag *d)
{
    cl_event ev = NULL;
    cl_ulong t[4];
    double t0 = clb_now();
    if (enqueue_counted(s, &ev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clFinish(s->q));
    double wall = clb_now() - t0;
    if (clb_event_times(ev, t, d) != CLB_OK)
        goto cleanup;
    if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING,
                 "profiling timestamps out of order: QUEUED %llu SUBMIT %llu START %llu END %llu",
                 (unsigned long long)t[0], (unsigned long long)t[1], (unsigned long long)t[2],
                 (unsigned long long)t[3]);
    if (clb_event_outlasts_wall(1e-9 * (double)(t[3] - t[0]), wall))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING,
                 "profiling QUEUED->END %.1f us exceeds the wall clock's %.1f us",
                 1e-3 * (double)(t[3] - t[0]), 1e6 * wall);
    *us = m->k == ROUNDTRIP ? 1e6 * wall : 1e-3 * (double)(t[m->to] - t[m->from]);
cleanup:
    clb_release_event(ev);
    return d->err;
}

/* Batch launches back to back, one finish; the sample in launches per second. */
static clb_error one_batch(launch_state *s, unsigned batch, double *rate, clb_diag *d)
{
    double t0 = clb_now();
    for (unsigned i = 0; i < batch; i++)
        if (enqueue_counted(s, NULL, d) != CLB_OK)
            goto cleanup;
    CLB_CL(d, clFinish(s->q));
    *rate = (double)batch / (clb_now() - t0);
cleanup:
    return d->err;
}

static clb_error sample(launch_state *s, const metric *m, unsigned batch, double *x, clb_diag *d)
{
    return m->k == THROUGHPUT ? one_batch(s, batch, x, d) : one_launch(s, m, x, d);
}

static const metric *metric_named(const char *name)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        if (strcmp(metrics[i].name, name) == 0)
            return &metrics[i];
    return NULL;
}

clb_error clb_launch_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    launch_state s = {.q = clb_device_queue(c->dev)};
    cl_program prog = NULL;
    double *x = NULL;
    const metric *m = metric_named(c->bench->arg);
    uint64_t seed = (uint64_t)(clb_now() * 1e9);
    unsigned batch = c->opts->quick ? 100 : 1000;
    unsigned cap, n = 0;
    int budget = c->opts->time_budget_s > 0;
    if (!m)
        CLB_FAIL(d, CLB_ERR_USAGE, "unknown launch metric");
    cap = budget ? 100000u : clb_reps(c) * (m->k == THROUGHPUT ? 1u : 10u);
    if (clb_build(c, "launch", NULL, NULL, &prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.k = clCreateKernel(prog, "touch", CLB_ERRP));
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, sizeof(cl_uint),
                                     NULL, CLB_ERRP));
    s.count = (cl_uint)clb_rand64(&seed);
    CLB_CL(d, clEnqueueWriteBuffer(s.q, s.out, CL_TRUE, 0, sizeof s.count, &s.count, 0, NULL, NULL));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.out, &s.out));
    x = malloc(cap * sizeof *x);
    if (!x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < 10 * (c->opts->warmup ? c->opts->warmup : 1); i++) /* warm-up */
        if (sample(&s, m, batch, &x[0], d) != CLB_OK)
            goto cleanup;
    for (double started = clb_now(); n < cap && (!budget || clb_more_reps(c, n, started)); n++)
        if (sample(&s, m, batch, &x[n], d) != CLB_OK)
            goto cleanup;
    if (clb_validate(c, &s, s.out, sizeof(cl_uint)) != CLB_OK)
        goto cleanup;
    clb_param_num(res, "global_work_size", 1);
    clb_param_num(res, "launches_per_sample", m->k == THROUGHPUT ? batch : 1);
    clb_param_num(res, "warmup_samples", 10 * (c->opts->warmup ? c->opts->warmup : 1));
    if (clb_result_set_samples(res, x, n, m->k == THROUGHPUT ? "launches/s" : "us",
                               m->k == THROUGHPUT, m->timer) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "%s", res->reason);
cleanup:
    free(x);
    clb_release_mem(s.out);
    clb_release_kernel(s.k);
    clb_release_program(prog);
    return d->err;
}

clb_error clb_launch_validate(clb_ctx *c, void *state, clb_diag *d)
{
    launch_state *s = state;
    cl_uint got = 0;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
    if (got != s->count)
        CLB_FAIL(d, CLB_ERR_INVALID_RESULT,
                 "the counter should be %u after every launch incremented it, the kernel left %u",
                 s->count, got);
    (void)c;
cleanup:
    return d->err;
}

/* lib/bench/launch/launch_clpeak.c */
clb_error clb_launch_clpeak_run(clb_ctx *c, clb_result *res);
clb_error clb_launch_clpeak_validate(clb_ctx *c, void *state, clb_diag *d);

/* The launch group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_launch_rows[] = {
    {"launch.queued_submit", "launch", "empty-kernel launch: QUEUED->SUBMIT (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "queued_submit"},
    {"launch.submit_start", "launch", "empty-kernel launch: SUBMIT->START (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "submit_start"},
    {"launch.start_end", "launch", "empty-kernel launch: START->END (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "start_end"},
    {"launch.queued_end", "launch", "empty-kernel launch: QUEUED->END (median, us): enqueue to the kernel's end",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "queued_end"},
    {"launch.queued_start", "launch", "empty-kernel launch: QUEUED->START (median, us; the interval clpeak --kernel-latency averages)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "queued_start"},
    {"launch.roundtrip", "launch", "empty-kernel enqueue->finish round trip on the host clock (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "roundtrip"},
    {"launch.throughput", "launch", "back-to-back empty kernels: N enqueues and one finish (launches/s)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "throughput"},
    {"launch.clpeak_method", "launch", "what clpeak --kernel-latency measures: its 16-float read kernel over max-WG x CUs, 20000 launches + clFinish, QUEUED->START (us; params.mean_us is clpeak's mean)",
     CLB_REQ_COMPILER, clb_launch_clpeak_run, clb_launch_clpeak_validate, NULL},
};
const size_t clb_launch_row_count = sizeof clb_launch_rows / sizeof clb_launch_rows[0];
