/* The application layer's shared pieces: fixed-size timing, sizes, the host's threads. (The
 * post-pass relating app rows to each other and to the device's peaks is a verdict:
 * lib/judge/annotate.c.) */
#include "apps/app.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

clb_error app_launch(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                     const size_t *local, double *seconds, clb_diag *d)
{
    return clb_launch_timed(q, k, dims, global, local, seconds, d);
}

clb_error app_parallel(unsigned n, void *jobs, size_t job_size, void *(*fn)(void *), clb_diag *d)
{
    pthread_t *tid = calloc(n, sizeof *tid);
    unsigned started = 0;
    clb_diag_clear(d);
    if (!tid)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (; started < n; started++)
        if (pthread_create(&tid[started], NULL, fn, (char *)jobs + started * job_size) != 0)
            CLB_FAIL(d, CLB_ERR_NOMEM, "pthread_create failed after %u threads", started);
cleanup:
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    return d->err;
}

clb_error app_total_time(clb_ctx *c, double setup_s, double kernel_s, cl_mem out, size_t out_bytes)
{
    clb_diag *d = &c->diag;
    double read_s = 0;
    void *host = NULL;
    if (!(setup_s >= 0))
        return CLB_OK;
    if (out && out_bytes) {
        host = malloc(out_bytes);
        if (!host)
            CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
        double t0 = clb_now();
        CLB_CL(d, clEnqueueReadBuffer(clb_device_queue(c->dev), out, CL_TRUE, 0, out_bytes, host, 0, NULL, NULL));
        read_s = clb_now() - t0;
    }
    app_total_parts(c, setup_s, kernel_s, read_s);
cleanup:
    free(host);
    return d->err;
}

void app_total_parts(clb_ctx *c, double setup_s, double kernel_s, double read_s)
{
    if (!(setup_s >= 0))
        return;
    clb_param_num(c->res, "setup_s", setup_s);
    clb_param_num(c->res, "kernel_s", kernel_s);
    clb_param_num(c->res, "readback_s", read_s);
    clb_param_num(c->res, "total_s", setup_s + kernel_s + read_s);
}

clb_error app_measure(clb_ctx *c, const app_timing *t)
{
    clb_diag *d = &c->diag;
    unsigned cap = clb_reps(c) < 3 ? 3 : clb_reps(c), n = 0;
    double *x = malloc(2 * cap * sizeof *x), s = 0, wall_sum = 0, *secs = x ? x + cap : NULL;
    double setup_s = c->started > 0 ? clb_now() - c->started : -1;
    clb_stats st;
    clb_diag_clear(d);
    if (!x)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; i < c->opts->warmup; i++)
        if (t->once(t->state, &s, d) != CLB_OK)
            goto cleanup;
    double started = clb_now();
    while (app_more_reps(c, n, clb_reps(c), started)) {
        if (t->once(t->state, &s, d) != CLB_OK)
            goto cleanup;
        if (!(s > 0))
            CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "a run took no measurable time");
        secs[n] = s;
        x[n++] = t->work / s * t->factor;
        wall_sum += s;
    }
    if (clb_validate(c, t->state, t->output, t->output_bytes) != CLB_OK)
        goto cleanup;
    if (clb_stats_compute(secs, n, &st) == CLB_OK &&
        app_total_time(c, setup_s, st.median, t->output, t->output_bytes) != CLB_OK)
        goto cleanup;
    clb_param_num(c->res, "reps_taken", n);
    clb_param_num(c->res, "work_per_run", t->work);
    clb_param_num(c->res, "mean_run_s", wall_sum / n);
    if (clb_result_set_samples(c->res, x, n, t->unit, 1, t->timer) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "samples are not finite");
cleanup:
    free(x);
    return d->err;
}

int app_more_reps(const clb_ctx *c, unsigned n, unsigned cap, double started)
{
    if (n >= cap)
        return 0;
    return c->opts->all_reps || n < 3 || clb_now() - started <= APP_REP_BUDGET_S;
}

double app_rep_budget_s(void)
{
    double s = clb_settings_get()->app_rep_budget_s;
    return s >= 1 && s <= 86400 ? s : 3.0;
}

size_t app_size(const clb_ctx *c, size_t given, size_t quick_n, size_t cpu_n, size_t gpu_n)
{
    if (given > 0)
        return clb_shrink_size(c, given, 16);
    size_t n = c->opts->quick ? quick_n
               : (clb_device_reference(c->dev)->type & CL_DEVICE_TYPE_CPU) ? cpu_n : gpu_n;
    return clb_shrink_size(c, n, 16); /* halved after an allocation failure */
}

unsigned app_host_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

double app_uniform(uint64_t *state)
{
    return (double)(clb_rand64(state) >> 11) * 0x1p-52 - 1.0;
}
