/* Experiment behind the tile layout of docs/results/memory.md: on a CPU device, clbench's
 * mem_read kernel (lib/bench/memory/memory.cl, tiles of 256 KiB, BLOCKED=1) at STREAMS = 1, 2, 4, 8
 * and widths uint4 / uint16, against clpeak's two global-bandwidth access patterns written
 * here from its description (float16 loads, 16 per work-item, work-groups of the device's
 * maximum size; "lo": a work-item's loads are the group size apart, "go": the global size
 * apart). All kernels read the same 512 MiB random array once per launch, round-robin, so
 * each round meets the same machine state; per round every kernel is divided by the better
 * clpeak pattern of that round, and the median of those ratios is printed.
 * Build: gcc -O2 -o cpu_read_streams peers/experiments/cpu_read_streams.c -lOpenCL
 * Run:   ./cpu_read_streams lib/bench/memory/memory.cl [ROUNDS=30] [PLATFORM=0]
 * (minimal error checking: an experiment, not a tool) */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *peer_src =
    "#define H4(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)\n"
    "#define H16(v) (H4((v).lo.lo) + H4((v).lo.hi) + H4((v).hi.lo) + H4((v).hi.hi))\n"
    "kernel void lo(global const uint16 *a, global uint *out) {\n"
    "  uint id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0); uint16 s = 0;\n"
    "  for (int i = 0; i < 16; i++) { s += a[id]; id += get_local_size(0); }\n"
    "  out[get_global_id(0)] = H16(s); }\n"
    "kernel void go(global const uint16 *a, global uint *out) {\n"
    "  uint id = get_global_id(0); uint16 s = 0;\n"
    "  for (int i = 0; i < 16; i++) { s += a[id]; id += get_global_size(0); }\n"
    "  out[get_global_id(0)] = H16(s); }\n";

enum { NK = 10, MAXR = 100 };
#define BYTES ((size_t)512 << 20)
#define TILE ((cl_uint)(256u << 10))

static char *slurp(const char *f)
{
    FILE *p = fopen(f, "rb");
    if (!p)
        return NULL;
    fseek(p, 0, SEEK_END);
    long n = ftell(p);
    rewind(p);
    char *b = malloc((size_t)n + 1);
    b[fread(b, 1, (size_t)n, p)] = 0;
    fclose(p);
    return b;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src, const char *opts)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (clBuildProgram(p, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "build failed: %s\n", opts);
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    char *mem_src = slurp(argc > 1 ? argv[1] : "lib/bench/memory/memory.cl");
    int rounds = argc > 2 ? atoi(argv[2]) : 30, pidx = argc > 3 ? atoi(argv[3]) : 0;
    if (!mem_src || rounds < 1 || rounds > MAXR)
        return fprintf(stderr, "usage: cpu_read_streams lib/bench/memory/memory.cl [ROUNDS<=100] [PLATFORM]\n"), 2;
    cl_platform_id ps[8];
    cl_uint np;
    clGetPlatformIDs(8, ps, &np);
    cl_device_id dev;
    clGetDeviceIDs(ps[pidx], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &e);
    size_t maxwg;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);

    unsigned *h = malloc(BYTES);
    unsigned long long st = 88172645463325252ULL;
    for (size_t i = 0; i < BYTES / 4; i++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        h[i] = (unsigned)st;
    }
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY, BYTES, NULL, &e);
    clEnqueueWriteBuffer(q, a, CL_TRUE, 0, BYTES, h, 0, NULL, NULL);
    cl_mem o = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, BYTES / 16, NULL, &e);

    cl_kernel k[NK];
    size_t global[NK], local[NK];
    char label[NK][40];
    cl_program peer = build(ctx, dev, peer_src, "");
    for (int i = 0; i < 2; i++) {
        k[i] = clCreateKernel(peer, i ? "go" : "lo", &e);
        clSetKernelArg(k[i], 0, sizeof a, &a);
        clSetKernelArg(k[i], 1, sizeof o, &o);
        local[i] = maxwg;
        global[i] = BYTES / 64 / 16;
        snprintf(label[i], sizeof label[i], "clpeak pattern %s", i ? "go" : "lo");
    }
    const unsigned widths[] = {4, 16}, streams[] = {1, 2, 4, 8};
    int n = 2;
    for (int w = 0; w < 2; w++)
        for (int s = 0; s < 4; s++, n++) {
            char opts[128];
            snprintf(opts, sizeof opts, "-DVW=%u -DVT=uint%u -DPATTERN=0 -DOP=0 -DBLOCKED=1 -DSTREAMS=%uu",
                     widths[w], widths[w], streams[s]);
            k[n] = clCreateKernel(build(ctx, dev, mem_src, opts), "mem_read", &e);
            cl_uint chunk = TILE / (4 * widths[w]), nch = (cl_uint)(BYTES / TILE), one = 1, zero = 0;
            cl_uint rows = (cl_uint)(BYTES / (4 * widths[w]));
            cl_mem args[3] = {a, a, o};
            for (cl_uint i = 0; i < 3; i++)
                clSetKernelArg(k[n], i, sizeof(cl_mem), &args[i]);
            cl_uint u[8] = {chunk, nch, one, one, rows, zero, nch, one};
            for (cl_uint i = 0; i < 8; i++)
                clSetKernelArg(k[n], 3 + i, sizeof(cl_uint), &u[i]);
            local[n] = 256;
            global[n] = (size_t)nch * 256;
            snprintf(label[n], sizeof label[n], "clbench uint%u STREAMS=%u", widths[w], streams[s]);
        }

    static double gbs[NK][MAXR], ratio[NK][MAXR];
    for (int r = -2; r < rounds; r++)
        for (int i = 0; i < NK; i++) {
            cl_event ev;
            if (clEnqueueNDRangeKernel(q, k[i], 1, NULL, &global[i], &local[i], 0, NULL, &ev))
                return fprintf(stderr, "enqueue failed: %s\n", label[i]), 1;
            clWaitForEvents(1, &ev);
            cl_ulong t0, t1;
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL);
            clReleaseEvent(ev);
            if (r >= 0)
                gbs[i][r] = (double)BYTES / (double)(t1 - t0);
        }
    for (int i = 0; i < NK; i++)
        for (int r = 0; r < rounds; r++)
            ratio[i][r] = gbs[i][r] / (gbs[0][r] > gbs[1][r] ? gbs[0][r] : gbs[1][r]);
    printf("%d rounds, 512 MiB per launch, GB/s = bytes read / (END - START)\n", rounds);
    for (int i = 0; i < NK; i++) {
        qsort(gbs[i], (size_t)rounds, sizeof(double), cmp);
        qsort(ratio[i], (size_t)rounds, sizeof(double), cmp);
        printf("%-28s median %6.2f GB/s  min %6.2f  max %6.2f  per-round ratio to the better clpeak pattern: median %.3f\n",
               label[i], gbs[i][rounds / 2], gbs[i][0], gbs[i][rounds - 1], ratio[i][rounds / 2]);
    }
    return 0;
}
