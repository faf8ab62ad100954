/* Test hook (docs/cli.md, CLBENCH_FAULT): failures a driver can cause, injected into the worker
 * by interposing OpenCL entry points. The worker is linked with the static libclbench, so the
 * library's calls resolve to these definitions; each forwards to the real function (found with
 * dlsym(RTLD_NEXT)) unless the fault is armed for the benchmark now running:
 *   alloc  clCreateBuffer fails with CL_MEM_OBJECT_ALLOCATION_FAILURE
 *   alloc_above=BYTES  the same for buffers larger than BYTES only (a device with less memory:
 *          the row shrinks its size and retries, docs/measurement.md)
 *   build  clBuildProgram fails with CL_BUILD_PROGRAM_FAILURE
 *   stall  clFinish and clWaitForEvents never return (a kernel that never ends) */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The armed fault for the running benchmark, or NULL: process state of a test hook. */
static const char *armed;

void cli_fault_arm(const char *kind) { armed = kind; }

static int is_armed(const char *kind) { return armed && strcmp(armed, kind) == 0; }

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "clbench: fault hook: no %s in the OpenCL library\n", name);
        _exit(4);
    }
    return f;
}

static void stall(void)
{
    for (;;)
        pause();
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host, cl_int *err)
{
    const char *above = armed && strncmp(armed, "alloc_above=", 12) == 0 ? armed + 12 : NULL;
    if (is_armed("alloc") || (above && (double)size > strtod(above, NULL))) {
        if (err)
            *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        return NULL;
    }
    cl_mem (*f)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
    *(void **)&f = real("clCreateBuffer");
    return f(ctx, flags, size, host, err);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devs,
                                               const char *opts,
                                               void(CL_CALLBACK *notify)(cl_program, void *),
                                               void *user)
{
    if (is_armed("build"))
        return CL_BUILD_PROGRAM_FAILURE;
    cl_int (*f)(cl_program, cl_uint, const cl_device_id *, const char *,
                void(CL_CALLBACK *)(cl_program, void *), void *);
    *(void **)&f = real("clBuildProgram");
    return f(p, n, devs, opts, notify, user);
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    if (is_armed("stall"))
        stall();
    cl_int (*f)(cl_command_queue);
    *(void **)&f = real("clFinish");
    return f(q);
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *ev)
{
    if (is_armed("stall"))
        stall();
    cl_int (*f)(cl_uint, const cl_event *);
    *(void **)&f = real("clWaitForEvents");
    return f(n, ev);
}
