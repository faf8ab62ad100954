/* mcpi_forms: the generated code and the speed of a form of MonteCarloPi's cl_items kernel
 * (lib/apps/mcpi/mcpi.cl), for docs/apps/mcpi.md's instruction count. Plain OpenCL, no
 * libclbench. Builds FILE.cl (with -I DIR so that its #include "mcpi_rng.h" resolves) on the
 * device, writes the program binary (PTX on NVIDIA) to OUT when -x OUT is given, and with
 * -n N runs mcpi_cl_items over N samples on GROUPS groups of 256 per compute unit (default 8,
 * as clbench's row): WARM launches, then REPS timed by profiling events; prints the best and
 * median Gsamples/s and the count (its words read back after every launch: each launch's count
 * must equal the first's, and the caller compares it with clbench's validated row).
 *   usage: mcpi_forms FILE.cl DIR [-x OUT] [-n N] [-g GROUPS] [-r REPS] [-D OPTIONS]
 * exit 0 ok, 1 counts differ between launches, 2 usage or OpenCL error. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cl_int rc_ = (call);                                                                 \
        if (rc_ != CL_SUCCESS) {                                                             \
            fprintf(stderr, "mcpi_forms: %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(s = calloc((size_t)n + 1, 1)) || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "mcpi_forms: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    return s;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void write_binary(cl_program prog, const char *out)
{
    size_t size = 0;
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size + 1);
    FILE *f = fopen(out, "wb");
    if (!bin || !f) {
        fprintf(stderr, "mcpi_forms: cannot write %s\n", out);
        exit(2);
    }
    CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    fwrite(bin, 1, size, f);
    fclose(f);
    free(bin);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mcpi_forms FILE.cl DIR [-x OUT] [-n N] [-g GROUPS] [-r REPS] [-D OPTS]\n");
        return 2;
    }
    const char *out = NULL, *defs = "";
    unsigned long long n = 0;
    int groups = 8, reps = 5, warm = 2;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-x"))
            out = argv[i + 1];
        else if (!strcmp(argv[i], "-n"))
            n = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-g"))
            groups = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-D"))
            defs = argv[i + 1];
    }
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &plat, NULL));
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    const char *src = slurp(argv[1]);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    char opts[1024];
    snprintf(opts, sizeof opts, "-I %s %s", argv[2], defs);
    if (clBuildProgram(prog, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "mcpi_forms: build failed:\n%s\n", log);
        return 2;
    }
    if (out)
        write_binary(prog, out);
    if (!n)
        return 0;
    cl_uint cu = 0;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    size_t local = 256, global = (size_t)cu * (size_t)groups * local;
    cl_kernel k = clCreateKernel(prog, "mcpi_cl_items", &err);
    CHECK(err);
    cl_mem count = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, NULL, &err);
    CHECK(err);
    cl_ulong nn = n;
    CHECK(clSetKernelArg(k, 0, sizeof nn, &nn));
    CHECK(clSetKernelArg(k, 1, sizeof count, &count));
    CHECK(clSetKernelArg(k, 2, local * 4, NULL));
    double t[64];
    unsigned long long first = 0;
    int bad = 0;
    for (int r = -warm; r < reps; r++) {
        cl_uint w[2] = {0, 0};
        cl_event ev;
        cl_ulong t0, t1;
        CHECK(clEnqueueWriteBuffer(q, count, CL_TRUE, 0, sizeof w, w, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
        CHECK(clEnqueueReadBuffer(q, count, CL_TRUE, 0, sizeof w, w, 1, &ev, NULL));
        CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        clReleaseEvent(ev);
        unsigned long long got = (unsigned long long)w[1] << 32 | w[0];
        if (r == -warm)
            first = got;
        bad |= got != first;
        if (r >= 0)
            t[r] = 1e-9 * (double)(t1 - t0);
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp);
    printf("form %s %s\ngroups_per_cu %d\nsamples %llu\ncount %llu\nbest_gsamples %.2f\n"
           "median_gsamples %.2f\nconsistent %s\n",
           argv[1], defs, groups, n, first, (double)n / t[0] * 1e-9,
           (double)n / t[reps / 2] * 1e-9, bad ? "no" : "yes");
    return bad;
}
