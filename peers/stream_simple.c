/* stream_simple: the straightforward OpenCL STREAM (BabelStream style), an independent peer of
 * clbench's memory.* rows (peers/memory_pairs.sh). It does not link libclbench: plain OpenCL
 * and its own timing. float4 arrays, one element per work-item, global size = elements / 4;
 * arrays initialized to a = 0.1, b = 0.2, c = 0.0 (and d = 0.3 for write) as BabelStream does.
 * Each repetition runs, in this order: copy c = a, scale b = s c, add c = a + b, triad
 * a = b + s c, read (each work-item compares its float4 with the value the host expects a to
 * hold then and counts a mismatch in one global word: no output traffic, and every element
 * checked; a last launch with a wrong expected value must count every vector, which shows the
 * compare ran), write d = 0.3. The work-group sizes of -l (default 0,64,128,256,1024; 0 = the
 * driver's choice; sizes above the device's limit are skipped) are tried in turn: for each,
 * WARM warm-up repetitions (default 2), then REPS timed ones (default 10); each kernel timed by
 * its profiling event (START->END). Per operation it prints "OP_gbs VALUE", the best
 * repetition over every size (10^9 bytes/s, STREAM's byte counts: copy/scale 2, add/triad 3,
 * read/write 1 array), "OP_median_gbs" (the median at the best size) and "OP_local" (that
 * size). The results are checked against the scalars recomputed on the host (BabelStream's
 * check); exit 1 when they do not match.
 * -o OP (copy, scale, add, triad, read or write) runs only that operation (the same kernel,
 * sweep and timing; peers/memory_ab.sh pairs it with clbench's row): every array is checked
 * against one application of OP to the initial values (each op is idempotent).
 *   usage: stream_simple [-p PLATFORM] [-d DEVICE] [-b BYTES_PER_ARRAY] [-r REPS] [-w WARM]
 *                        [-l L1,L2,...] [-o OP]
 * Default size: 4x the device's global cache, >= 1 GiB on GPUs (clbench's linear rows: a
 * launch's ramp-up weighs less) and >= 512 MiB otherwise, a power of two within max alloc and
 * global memory / 5; memory_pairs.sh passes clbench's array_bytes. */
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
    "#pragma OPENCL FP_CONTRACT OFF\n" /* triad as the host computes it: the read compares exactly */
    "#define S 0.4f\n"
    "kernel void copy(global const float4 *a, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i]; }\n"
    "kernel void scale(global float4 *b, global const float4 *c) { size_t i = get_global_id(0); b[i] = S * c[i]; }\n"
    "kernel void add(global const float4 *a, global const float4 *b, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void triad(global float4 *a, global const float4 *b, global const float4 *c) { size_t i = get_global_id(0); a[i] = b[i] + S * c[i]; }\n"
    "kernel void read(global const float4 *a, global uint *bad, float want) {\n"
    "  float4 v = a[get_global_id(0)];\n"
    "  if (v.x != want || v.y != want || v.z != want || v.w != want) atomic_inc(bad); }\n"
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
    cl_ulong want = (type & CL_DEVICE_TYPE_GPU) ? 1u << 30 : 512u << 20;
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

/* One STREAM operation on the host's scalars (what every element holds after it). */
static void step(int o, float *a, float *b, float *c)
{
    if (o == COPY)
        *c = *a;
    else if (o == SCALE)
        *b = 0.4f * *c;
    else if (o == ADD)
        *c = *a + *b;
    else if (o == TRIAD)
        *a = *b + 0.4f * *c;
}

static cl_uint read_bad(cl_command_queue q, cl_mem bad)
{
    cl_uint v = 0;
    CHECK(clEnqueueReadBuffer(q, bad, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    return v;
}

/* The reads' mismatch count must be 0 (none ran: still 0); then one launch expecting a value a
 * does not hold must count every vector: the compare is live. */
static int check_reads(cl_command_queue q, cl_kernel k, cl_mem bad, size_t n4, float a)
{
    cl_uint first = read_bad(q, bad), zero = 0;
    float wrong = a + 1.0f;
    CHECK(clEnqueueFillBuffer(q, bad, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL));
    CHECK(clSetKernelArg(k, 2, sizeof wrong, &wrong));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n4, NULL, 0, NULL, NULL));
    cl_uint all = read_bad(q, bad);
    if (first != 0 || all != (cl_uint)n4) {
        fprintf(stderr, "stream_simple: read: %u vectors differed from the expected a; the "
                "control launch counted %u of %zu\n", (unsigned)first, (unsigned)all, n4);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned p = 0, dv = 0;
    size_t bytes = 0;
    int reps = 10, warm = 2, only = -1, nloc = 0;
    size_t locs[16];
    const char *loc_list = "0,64,128,256,1024";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-p"))
            p = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-d"))
            dv = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-b"))
            bytes = (size_t)strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-w"))
            warm = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-l"))
            loc_list = argv[i + 1];
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
    warm = warm < 0 ? 0 : warm;
    cl_device_id dev = pick_device(p, dv);
    size_t max_wg = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL));
    for (const char *q = loc_list; *q && nloc < 16; q = strchr(q, ',') ? strchr(q, ',') + 1 : "") {
        size_t l = (size_t)strtoull(q, NULL, 10);
        if (l <= max_wg)
            locs[nloc++] = l;
    }
    if (nloc == 0) {
        fprintf(stderr, "stream_simple: no work-group size of -l fits the device\n");
        return 2;
    }
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

    float ha = 0.1f, hb = 0.2f, hc = 0.0f; /* the host's a, b, c as the launches go */
    double *t = malloc((size_t)NOPS * (size_t)reps * sizeof *t);
    double best[NOPS] = {0}, med[NOPS] = {0};
    size_t best_local[NOPS] = {0};
    if (!t)
        return 2;
    for (int li = 0; li < nloc; li++) {
        const size_t *lp = locs[li] ? &locs[li] : NULL;
        for (int r = -warm; r < reps; r++) /* r < 0: the warm-up repetitions */
            for (int o = 0; o < NOPS; o++) {
                if (only < 0)
                    step(o, &ha, &hb, &hc);
                if (only >= 0 && o != only)
                    continue;
                if (o == READ)
                    CHECK(clSetKernelArg(k[READ], 2, sizeof ha, &ha));
                cl_event ev;
                CHECK(clEnqueueNDRangeKernel(q, k[o], 1, NULL, &n4, lp, 0, NULL, &ev));
                double s = event_seconds(ev);
                if (r >= 0)
                    t[o * reps + r] = s;
            }
        for (int o = 0; o < NOPS; o++) {
            if (only >= 0 && o != only)
                continue;
            double bytes_op = arrays_per_op[o] * (double)n4 * 16 * 1e-9;
            double m = bytes_op / median(t + o * reps, reps); /* sorts: t[o * reps] is the fastest */
            double b = bytes_op / t[o * reps];
            printf("%s_local_%zu best_gbs %.3f median_gbs %.3f\n", names[o], locs[li], b, m);
            if (b > best[o]) {
                best[o] = b;
                med[o] = m;
                best_local[o] = locs[li];
            }
        }
    }
    float ga = 0.1f, gb = 0.2f, gc = 0.0f;
    if (only < 0)
        gold(nloc * (reps + warm), &ga, &gb, &gc);
    else if (only == COPY)
        gc = ga;
    else if (only == SCALE)
        gb = 0.4f * gc;
    else if (only == ADD)
        gc = ga + gb;
    else if (only == TRIAD)
        ga = gb + 0.4f * gc;
    float gd = only < 0 || only == WRITE ? 0.3f : 0.0f;
    int bad = check(q, buf[0], nf, ga, "a") + check(q, buf[1], nf, gb, "b") +
              check(q, buf[2], nf, gc, "c") + check(q, buf[3], nf, gd, "d (write)") +
              check_reads(q, k[READ], buf[4], n4, ha);
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("device %s\narray_bytes %zu\nreps %d\nwarmups %d\n", name, n4 * 16, reps, warm);
    for (int o = 0; o < NOPS; o++)
        if (only < 0 || o == only)
            printf("%s_gbs %.3f\n%s_median_gbs %.3f\n%s_local %zu\n", names[o], best[o], names[o],
                   med[o], names[o], best_local[o]);
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
