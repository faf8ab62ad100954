/* Test-only preload library (LD_PRELOAD, never installed): the failures a driver can cause,
 * injected into a `clbench __worker` by interposing OpenCL entry points. With
 * CLBENCH_FAULT=NAME:KIND it fails the calls made while row NAME runs:
 *   alloc  clCreateBuffer fails with CL_MEM_OBJECT_ALLOCATION_FAILURE
 *   alloc_above=BYTES  the same for buffers larger than BYTES only (a device with less memory:
 *          the row shrinks its size and retries, docs/measurement.md)
 *   build  clBuildProgram fails with CL_BUILD_PROGRAM_FAILURE
 *   stall  clFinish and clWaitForEvents never return (a kernel that never ends)
 * and it makes the worker itself fail just before row NAME:
 *   segv, abort, hang, exit (code 3)   a crash, an abort, a worker that never returns
 *   lost   with CLBENCH_FAULT_STATE=FILE: the first worker to meet NAME (no FILE yet) reports
 *          the device lost, as a reset GPU does; later workers run it normally
 *   garbage, bigline (10 MB of it), foreign (another row's result) before the real result;
 *   halfline (a torn line, then exit 0), silent (exit 0), flood (bytes without a newline
 *   until killed), chatter (a line on fd 1, as a driver may print: it must not reach the
 *   protocol)  (tests/hostile/proc_protocol.sh)
 * wrong, partial and skip are the product's own (--inject-fault for one row: src/cmd_worker.c).
 * CLBENCH_SLOWDOWN=F (0 < F < 1) makes the worker's results those of a device slower by F:
 * rates times F, times divided by F, marked params.artificial_slowdown (the fleet tests of a
 * slow card, docs/fleet.md). Every process that is not a worker passes through untouched, but
 * for one switch that describes the device rather than a fault:
 * CLBENCH_PRELOAD_VENDOR_ID=ID (e.g. 0x10de) makes clGetDeviceInfo(CL_DEVICE_VENDOR_ID) answer
 * ID, so PoCL passes for an NVIDIA GPU: the CUDA rows run the tests' host-side module
 * (tests/cli_cuda_fake.sh) and NVML is read around rows (tests/cli_nvml_throttle.sh, also with
 * CLBENCH_ISOLATION=off, where the rows run in the run process). Other queries pass through.
 *
 * The product knows nothing of this library. The row running now follows from the worker
 * protocol (docs/cli.md): the worker's command line lists its rows after "--", it writes the
 * device line first when given --emit-device, then one result line per row, in order, each
 * with fputs. So the row after the last one named on the protocol is the one running. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cjson/cJSON.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
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
static atomic_int fired;           /* a process fault went off */
static int proto_fd = -1;          /* the protocol stream (the worker's stdout at start) */
static int is_worker;
static double slowdown;            /* CLBENCH_SLOWDOWN; 0: none */
static cl_uint vendor_id;          /* CLBENCH_PRELOAD_VENDOR_ID, when have_vendor */
static int have_vendor;

static void stall(void)
{
    for (;;)
        pause();
}

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

static const char *const process_kinds[] = {"segv", "abort", "hang", "exit", "lost", "garbage",
                                            "bigline", "foreign", "halfline", "silent", "flood",
                                            "chatter"};
#define NPROCESS (sizeof process_kinds / sizeof process_kinds[0])

static int is_process_kind(const char *k)
{
    for (size_t i = 0; i < NPROCESS; i++)
        if (strcmp(k, process_kinds[i]) == 0)
            return 1;
    return 0;
}

/* CLBENCH_PRELOAD_VENDOR_ID: a number (0x for hex); anything else leaves the answer alone. */
static void read_vendor_switch(void)
{
    const char *v = getenv("CLBENCH_PRELOAD_VENDOR_ID");
    char *end = NULL;
    unsigned long id = v && *v ? strtoul(v, &end, 0) : 0;
    have_vendor = end && !*end && id <= 0xfffffffful;
    vendor_id = (cl_uint)id;
}

__attribute__((constructor)) static void preload_init(void)
{
    static const char *const kinds[] = {"alloc", "alloc_above=", "build", "stall"};
    int emit_device = 0;
    read_vendor_switch();
    if (!(is_worker = read_worker_args(&emit_device)))
        return;
    const char *sl = getenv("CLBENCH_SLOWDOWN");
    slowdown = sl ? strtod(sl, NULL) : 0;
    const char *f = getenv("CLBENCH_FAULT");
    const char *colon = f ? strrchr(f, ':') : NULL;
    if (!colon)
        return;
    int ours = is_process_kind(colon + 1);
    if (ours) /* before main: fd 1 is still the protocol (the worker moves it to a fd of its own) */
        proto_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
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

/* CLBENCH_SLOWDOWN: a result line with a value, scaled; NULL to leave the line as it is. */
static char *slowed(const char *line)
{
    static const char name[] = "{\"name\":\"";
    if (!(slowdown > 0 && slowdown < 1) || strncmp(line, name, sizeof name - 1) != 0)
        return NULL;
    cJSON *j = cJSON_Parse(line);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
    const cJSON *better = cJSON_GetObjectItemCaseSensitive(j, "better");
    cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
    if (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") != 0 && strcmp(st->valuestring, "throttled") != 0) ||
        !cJSON_IsObject(params)) {
        cJSON_Delete(j);
        return NULL;
    }
    double k = cJSON_IsString(better) && strcmp(better->valuestring, "higher") == 0 ? slowdown : 1.0 / slowdown;
    static const char *const keys[] = {"min", "max", "median", "mean", "stddev", "mad"};
    cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "value"), *x;
    if (cJSON_IsNumber(v))
        cJSON_SetNumberValue(v, v->valuedouble * k);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (cJSON_IsNumber(v = cJSON_GetObjectItemCaseSensitive(stats, keys[i])))
            cJSON_SetNumberValue(v, v->valuedouble * k);
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(stats, "ci95"))
        if (cJSON_IsNumber(x))
            cJSON_SetNumberValue(x, x->valuedouble * k);
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(j, "samples"))
        if (cJSON_IsNumber(x))
            cJSON_SetNumberValue(x, x->valuedouble * k);
    cJSON_AddNumberToObject(params, "artificial_slowdown", slowdown);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text;
}

int fputs(const char *s, FILE *stream)
{
    int (*f)(const char *, FILE *);
    *(void **)&f = real("fputs");
    char *other = is_worker ? slowed(s) : NULL;
    int rc = f(other ? other : s, stream);
    free(other);
    if (victim >= 0)
        protocol_line(s);
    return rc;
}

static void put(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(proto_fd, s, n);
        if (w <= 0)
            return;
        s += w, n -= (size_t)w;
    }
}

/* The lost fault: the first worker (no CLBENCH_FAULT_STATE file yet) reports the row's device
 * lost and waits to be killed, as the parent does with a worker whose context is gone. */
static void device_lost_once(const char *name)
{
    const char *state = getenv("CLBENCH_FAULT_STATE");
    FILE *f = state ? fopen(state, "wx") : NULL;
    if (!f)
        return;
    fclose(f);
    char line[1024];
    const char *dot = strchr(name, '.');
    int n = snprintf(line, sizeof line,
                     "{\"name\":\"%s\",\"group\":\"%.*s\",\"status\":\"error\",\"reason\":"
                     "\"injected: clFinish failed [CL_DEVICE_NOT_AVAILABLE]\",\"value\":null,\"unit\":\"\","
                     "\"stats\":null,\"params\":{},\"samples\":[]}\n",
                     name, dot ? (int)(dot - name) : (int)strlen(name), name);
    put(line, (size_t)n);
    stall();
}

/* The process faults, once, when row `victim` is about to run. */
static void process_fault(void)
{
    if (proto_fd < 0 || victim < 0 || atomic_load(&current) != victim || atomic_exchange(&fired, 1))
        return;
    const char *name = rows[victim];
    static char block[65536];
    if (strcmp(kind, "segv") == 0) {
        signal(SIGSEGV, SIG_DFL); /* the OpenCL runtime may have installed a handler of its own */
        raise(SIGSEGV);
    } else if (strcmp(kind, "abort") == 0)
        abort();
    else if (strcmp(kind, "hang") == 0)
        stall();
    else if (strcmp(kind, "exit") == 0)
        _exit(3);
    else if (strcmp(kind, "lost") == 0)
        device_lost_once(name);
    else if (strcmp(kind, "garbage") == 0)
        put("clbench worker says hello \x1b[31m\a\n", strlen("clbench worker says hello \x1b[31m\a\n"));
    else if (strcmp(kind, "bigline") == 0) {
        for (size_t i = 0; i < sizeof block; i++)
            block[i] = "garbage"[i % 7];
        for (size_t left = 10 * 1000 * 1000; left > 0;) {
            size_t n = left < 7 * 9000 ? left : 7 * 9000; /* whole "garbage"s, as one stream */
            put(block, n);
            left -= n;
        }
        put("\n", 1);
    } else if (strcmp(kind, "foreign") == 0) {
        const char *l = "{\"name\":\"launch.nothing\",\"group\":\"launch\",\"status\":\"ok\",\"value\":1}\n";
        put(l, strlen(l));
    } else if (strcmp(kind, "halfline") == 0) {
        int n = snprintf(block, sizeof block, "{\"name\":\"%s\",\"group\":\"x\",\"status\":\"ok\",\"val", name);
        put(block, (size_t)n);
        _exit(0);
    } else if (strcmp(kind, "silent") == 0)
        _exit(0);
    else if (strcmp(kind, "flood") == 0) {
        memset(block, 'f', sizeof block);
        for (;;) {
            put(block, sizeof block);
            nanosleep(&(struct timespec){0, 5000000}, NULL);
        }
    } else if (strcmp(kind, "chatter") == 0) {
        printf("a driver's message on stdout\n"); /* fd 1 points at stderr by now */
        fflush(stdout);
    }
}

/* After each protocol line (the worker flushes it) the next row is about to run. */
int fflush(FILE *stream)
{
    int (*f)(FILE *);
    *(void **)&f = real("fflush");
    int rc = f(stream);
    process_fault();
    return rc;
}

/* The first row of a worker without a device line: before it opens the device. */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *ids, cl_uint *got)
{
    process_fault();
    cl_int (*f)(cl_uint, cl_platform_id *, cl_uint *);
    *(void **)&f = real("clGetPlatformIDs");
    return f(n, ids, got);
}

static int is_armed(const char *k)
{
    return victim >= 0 && atomic_load(&current) == victim && strcmp(kind, k) == 0;
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

/* CLBENCH_PRELOAD_VENDOR_ID: the driver's answer, with the vendor id replaced. */
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id dev, cl_device_info what, size_t size,
                                                void *value, size_t *got)
{
    cl_int (*f)(cl_device_id, cl_device_info, size_t, void *, size_t *);
    *(void **)&f = real("clGetDeviceInfo");
    cl_int rc = f(dev, what, size, value, got);
    if (rc == CL_SUCCESS && have_vendor && what == CL_DEVICE_VENDOR_ID && value && size >= sizeof vendor_id)
        memcpy(value, &vendor_id, sizeof vendor_id);
    return rc;
}
