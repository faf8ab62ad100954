/* stream_simple: the straightforward OpenCL STREAM (BabelStream style), an independent peer of
 * clbench's memory.* rows (peers/memory_pairs.sh). It does not link libclbench: plain OpenCL
 * and its own timing. float4 arrays, one element per work-item, global size = elements / 4,
 * local size chosen by the driver; arrays initialized to a = 0.1, b = 0.2, c = 0.0 (and
 * d = 0.3 for write) as BabelStream does. Each repetition runs, in this order: copy c = a,
 * scale b = s c, add c = a + b, triad a = b + s c, read (each work-item sums its float4 and
 * writes the sum out: only the reads are counted), write d = 0.3. One warm-up repetition,
 * then REPS timed ones; each kernel timed by its profiling event (START->END); the median
 * per operation is printed as "OP_gbs VALUE" (10^9 bytes/s, STREAM's byte counts:
 * copy/scale 2, add/triad 3, read/write 1 array). The results are checked against the
 * scalars recomputed on the host (BabelStream's check); exit 1 when they do not match.
 * -o OP (copy, scale, add, triad, read or write) runs only that operation (warm-up + REPS, the
 * same kernel and timing; peers/memory_ab.sh pairs it with clbench's row): every array is
 * checked against one application of OP to the initial values (each op is idempotent).
 *   usage: stream_simple [-p PLATFORM] [-d DEVICE] [-b BYTES_PER_ARRAY] [-r REPS] [-o OP]
 * Default size: 4x the device's global cache, >= 256 MiB on GPUs and >= 512 MiB otherwise,
 * a power of two within max alloc and global memory / 5 (clbench's rule); memory_pairs.sh
 * passes clbench's array_bytes. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cl_int rc_ = (call);                                                              \
        if (rc_ != CL_SUCCESS) {                                                          \
            fprintf(stderr, "stream_simple: %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
            exit(2);                                                                      \
        }                                                                                 \
    } while (0)

static const char *src =
    "#define S 0.4f\n"
    "kernel void copy(global const float4 *a, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i]; }\n"
    "kernel void scale(global float4 *b, global const float4 *c) { size_t i = get_global_id(0); b[i] = S * c[i]; }\n"
    "kernel void add(global const float4 *a, global const float4 *b, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void triad(global float4 *a, global const float4 *b, global const float4 *c) { size_t i = get_global_id(0); a[i] = b[i] + S * c[i]; }\n"
    "kernel void read(global const float4 *a, global float *out) { size_t i = get_global_id(0); float4 v = a[i]; out[i] = v.x + v.y + v.z + v.w; }\n"
    "kernel void write(global float4 *d) { size_t i = get_global_id(0); d[i] = (float4)(0.3f); }\n";

enum { COPY, SCALE, ADD, TRIAD, READ, WRITE, NOPS };
static const char *names[NOPS] = {"copy", "scale", "add", "triad", "read", "write"};
static const double arrays_per_op[NOPS] = {2, 2, 3, 3, 1, 1};

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static cl_ulong ulong_info(cl_device_id d, cl_device_info what, size_t size)
{
    cl_ulong v = 0;
    CHECK(clGetDeviceInfo(d, what, size, &v, NULL));
    return v;
}

static size_t default_bytes(cl_device_id d)
{
    cl_device_type type = (cl_device_type)ulong_info(d, CL_DEVICE_TYPE, sizeof(cl_device_type));
    cl_ulong cache = ulong_info(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong));
    cl_ulong cap = ulong_info(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)) / 5;
    cl_ulong max_alloc = ulong_info(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong));
    cl_ulong want = (type & CL_DEVICE_TYPE_GPU) ? 256u << 20 : 512u << 20;
    while (want < 4 * cache)
        want *= 2;
    cap = cap < max_alloc ? cap : max_alloc;
    while (want > cap && want > (1u << 20))
        want /= 2;
    return (size_t)want;
}

static cl_device_id pick_device(unsigned p, unsigned dv)
{
    cl_platform_id plats[16];
    cl_device_id devs[16];
    cl_uint np = 0, nd = 0;
    CHECK(clGetPlatformIDs(16, plats, &np));
    if (p >= np) {
        fprintf(stderr, "stream_simple: no platform %u\n", p);
        exit(2);
    }
    CHECK(clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd));
    if (dv >= nd) {
        fprintf(stderr, "stream_simple: no device %u on platform %u\n", dv, p);
        exit(2);
    }
    return devs[dv];
}

static double event_seconds(cl_event ev)
{
    cl_ulong t0 = 0, t1 = 0;
    CHECK(clWaitForEvents(1, &ev));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    CHECK(clReleaseEvent(ev));
    return 1e-9 * (double)(t1 - t0);
}

/* Host's expected values after `iters` repetitions (BabelStream's check). */
static void gold(int iters, float *ga, float *gb, float *gc)
{
    float a = 0.1f, b = 0.2f, c = 0.0f;
    for (int i = 0; i < iters; i++) {
        c = a;
        b = 0.4f * c;
        c = a + b;
        a = b + 0.4f * c;
    }
    *ga = a;
    *gb = b;
    *gc = c;
}

static int check(cl_command_queue q, cl_mem buf, size_t n, float want, const char *what)
{
    float *h = malloc(n * sizeof *h);
    double err = 0;
    if (!h)
        return 1;
    CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * sizeof *h, h, 0, NULL, NULL));
    for (size_t i = 0; i < n; i++)
        err += fabs((double)h[i] - want);
    free(h);
    err /= (double)n;
    if (err > 1e-6 * fabs(want) + 1e-8) {
        fprintf(stderr, "stream_simple: %s: mean error %g against %g\n", what, err, (double)want);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned p = 0, dv = 0;
    size_t bytes = 0;
    int reps = 20, only = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-p"))
            p = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-d"))
            dv = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-b"))
            bytes = (size_t)strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-o")) {
            for (int o = 0; o < NOPS; o++)
                if (!strcmp(argv[i + 1], names[o]))
                    only = o;
            if (only < 0) {
                fprintf(stderr, "stream_simple: unknown operation %s\n", argv[i + 1]);
                return 2;
            }
        }
    }
    reps = reps < 1 ? 1 : reps;
    cl_device_id dev = pick_device(p, dv);
    bytes = bytes ? bytes : default_bytes(dev);
    size_t n4 = bytes / 16, nf = n4 * 4;
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
    cl_mem buf[5]; /* a, b, c, d, read's output */
    const float init[4] = {0.1f, 0.2f, 0.0f, 0.0f};
    for (int i = 0; i < 5; i++) {
        size_t sz = i < 4 ? n4 * 16 : n4 * 4;
        buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sz, NULL, &err);
        CHECK(err);
        float v = i < 4 ? init[i] : 0.0f;
        CHECK(clEnqueueFillBuffer(q, buf[i], &v, sizeof v, 0, sz, 0, NULL, NULL));
    }
    CHECK(clFinish(q));
    cl_kernel k[NOPS];
    const int args[NOPS][3] = {{0, 2, -1}, {1, 2, -1}, {0, 1, 2}, {0, 1, 2}, {0, 4, -1}, {3, -1, -1}};
    for (int o = 0; o < NOPS; o++) {
        k[o] = clCreateKernel(prog, names[o], &err);
        CHECK(err);
        for (int a = 0; a < 3 && args[o][a] >= 0; a++)
            CHECK(clSetKernelArg(k[o], (cl_uint)a, sizeof(cl_mem), &buf[args[o][a]]));
    }
    double *t = malloc((size_t)NOPS * (size_t)reps * sizeof *t);
    if (!t)
        return 2;
    for (int r = -1; r < reps; r++) /* r = -1: the warm-up repetition */
        for (int o = 0; o < NOPS; o++) {
            if (only >= 0 && o != only)
                continue;
            cl_event ev;
            CHECK(clEnqueueNDRangeKernel(q, k[o], 1, NULL, &n4, NULL, 0, NULL, &ev));
            double s = event_seconds(ev);
            if (r >= 0)
                t[o * reps + r] = s;
        }
    float ga = 0.1f, gb = 0.2f, gc = 0.0f;
    if (only < 0)
        gold(reps + 1, &ga, &gb, &gc);
    else if (only == COPY)
        gc = ga;
    else if (only == SCALE)
        gb = 0.4f * gc;
    else if (only == ADD)
        gc = ga + gb;
    else if (only == TRIAD)
        ga = gb + 0.4f * gc;
    float gd = only < 0 || only == WRITE ? 0.3f : 0.0f;
    float gr = only < 0 || only == READ ? 4 * ga : 0.0f;
    int bad = check(q, buf[0], nf, ga, "a") + check(q, buf[1], nf, gb, "b") +
              check(q, buf[2], nf, gc, "c") + check(q, buf[3], nf, gd, "d (write)") +
              check(q, buf[4], n4, gr, "read sums");
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device %s\narray_bytes %zu\nreps %d\n", name, n4 * 16, reps);
    for (int o = 0; o < NOPS; o++)
        if (only < 0 || o == only)
            printf("%s_gbs %.3f\n", names[o],
               arrays_per_op[o] * (double)n4 * 16 / median(t + o * reps, reps) * 1e-9);
    printf("validation %s\n", bad ? "FAILED" : "ok");
    free(t);
    for (int o = 0; o < NOPS; o++)
        clReleaseKernel(k[o]);
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(buf[i]);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad ? 1 : 0;
}
