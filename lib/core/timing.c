/* Host-side timing: the monotonic wall clock and the profiling timestamps of an event. */
#include "core/internal.h"

#include <time.h>

double clb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

clb_error clb_event_times(cl_event ev, cl_ulong t[4], clb_diag *d)
{
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED,
                                              CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    clb_diag_clear(d);
    for (int i = 0; i < 4; i++)
        CLB_CL(d, clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL));
cleanup:
    return d->err;
}

int clb_event_outlasts_wall(double event_s, double wall_s)
{
    /* 2% and 50 us of slack for the clocks' granularity and the host's wake-up. */
    return event_s > 1.02 * wall_s + 50e-6;
}

clb_error clb_launch_timed(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *global,
                           const size_t *local, double *seconds, clb_diag *d)
{
    cl_event ev = NULL;
    cl_ulong t[4];
    clb_diag_clear(d);
    double t0 = clb_now();
    CLB_CL(d, clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev));
    CLB_CL(d, clWaitForEvents(1, &ev));
    double wall = clb_now() - t0;
    if (clb_event_times(ev, t, d) != CLB_OK)
        goto cleanup;
    if (t[3] <= t[2])
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING, "profiling END is not after START");
    *seconds = 1e-9 * (double)(t[3] - t[2]);
    if (clb_event_outlasts_wall(*seconds, wall))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING,
                 "profiling event reports %.6f s but the wall clock only %.6f s", *seconds, wall);
cleanup:
    clb_release_event(ev);
    return d->err;
}
