/* Host-side timing: the monotonic wall clock and the profiling timestamps of an event. */
#include "internal.h"

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
