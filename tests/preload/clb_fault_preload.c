/* Test-only preload library (LD_PRELOAD, never installed): the failures a driver can cause,
 * injected into a `clbench __worker` by interposing OpenCL entry points. With
 * CLBENCH_FAULT=NAME:KIND it fails the calls made while row NAME runs:
 *   alloc  clCreateBuffer fails with CL_MEM_OBJECT_ALLOCATION_FAILURE
 *   alloc_above=BYTES  the same for buffers larger than BYTES only (a device with less memory:
 *          the row shrinks its size and retries, docs/measurement.md)
 *   build  clBuildProgram fails with CL_BUILD_PROGRAM_FAILURE
 *   stall  clFinish and clWaitForEvents never return (a kernel that never ends)
 * Other kinds, and every process that is not a worker, pass through untouched.
 *
 * The product knows nothing of this library. The row running now follows from the worker
 * protocol (docs/cli.md): the worker's command line lists its rows after "--", it writes the
 * device line first when given --emit-device, then one result line per row, in order, each
 * with fputs. So the row after the last one named on the protocol is the one running. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ROWS 256

static char cmdline[65536];
static const char *rows[MAX_ROWS]; /* the worker's rows, in the order it runs them */
static int nrows;
static int victim = -1;            /* index of NAME in rows; -1: nothing to inject */
static const char *kind = "";      /* KIND of CLBENCH_FAULT */
static atomic_int current;         /* the row running now; -1 before the device line */

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "clb_fault_preload: no %s further down the library chain\n", name);
        _exit(4);
    }
    return f;
}

/* Splits /proc/self/cmdline; 1 when this is a worker, rows and the --emit-device flag filled. */
static int read_worker_args(int *emit_device)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return 0;
    size_t n = fread(cmdline, 1, sizeof cmdline - 1, f);
    fclose(f);
    cmdline[n] = '\0';
    int argc = 0, after_dashes = 0, worker = 0;
    for (size_t i = 0; i < n; i += strlen(cmdline + i) + 1, argc++) {
        const char *a = cmdline + i;
        if (argc == 1)
            worker = strcmp(a, "__worker") == 0;
        else if (after_dashes && nrows < MAX_ROWS)
            rows[nrows++] = a;
        else if (strcmp(a, "--") == 0)
            after_dashes = 1;
        else if (strcmp(a, "--emit-device") == 0)
            *emit_device = 1;
    }
    return worker;
}

__attribute__((constructor)) static void preload_init(void)
{
    static const char *const kinds[] = {"alloc", "alloc_above=", "build", "stall"};
    int emit_device = 0;
    const char *f = getenv("CLBENCH_FAULT");
    const char *colon = f ? strrchr(f, ':') : NULL;
    if (!colon || !read_worker_args(&emit_device))
        return;
    int ours = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        ours |= strncmp(colon + 1, kinds[i], strlen(kinds[i])) == 0;
    for (int i = 0; ours && i < nrows && victim < 0; i++)
        if (strlen(rows[i]) == (size_t)(colon - f) && strncmp(rows[i], f, (size_t)(colon - f)) == 0)
            victim = i;
    kind = colon + 1;
    atomic_store(&current, emit_device ? -1 : 0);
}

/* Follows the protocol: after the device line the first row runs, after row X's line the next. */
static void protocol_line(const char *s)
{
    static const char dev[] = "{\"device\":", name[] = "{\"name\":\"";
    if (strncmp(s, dev, sizeof dev - 1) == 0 && atomic_load(&current) < 0) {
        atomic_store(&current, 0);
        return;
    }
    if (strncmp(s, name, sizeof name - 1) != 0)
        return;
    s += sizeof name - 1;
    const char *end = strchr(s, '"');
    for (int i = atomic_load(&current) < 0 ? 0 : atomic_load(&current); end && i < nrows; i++)
        if (strlen(rows[i]) == (size_t)(end - s) && strncmp(rows[i], s, (size_t)(end - s)) == 0) {
            atomic_store(&current, i + 1);
            return;
        }
}

int fputs(const char *s, FILE *stream)
{
    int (*f)(const char *, FILE *);
    *(void **)&f = real("fputs");
    int rc = f(s, stream);
    if (victim >= 0)
        protocol_line(s);
    return rc;
}

static int is_armed(const char *k)
{
    return victim >= 0 && atomic_load(&current) == victim && strcmp(kind, k) == 0;
}

static void stall(void)
{
    for (;;)
        pause();
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host, cl_int *err)
{
    static const char above[] = "alloc_above=";
    int limited = victim >= 0 && atomic_load(&current) == victim &&
                  strncmp(kind, above, sizeof above - 1) == 0 &&
                  (double)size > strtod(kind + sizeof above - 1, NULL);
    if (is_armed("alloc") || limited) {
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
