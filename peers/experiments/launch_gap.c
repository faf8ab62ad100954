/* Experiment for docs/results/launch.md: where does the gap between clbench's
 * launch.queued_end (~12 us on H100/H200) and clpeak --kernel-latency (~7 us) come from?
 *
 * Each variant launches N times (default 20000, clpeak's count), each launch followed by
 * clFinish (or clWaitForEvents), and records QUEUED, SUBMIT, START, END. Printed per variant:
 * the medians of QUEUED->SUBMIT, SUBMIT->START, START->END, QUEUED->END over all launches;
 * QUEUED->END medians of the first 300, of launches 1000..1299, of the last 300; the mean
 * (clpeak's statistic) and clpeak's integer-microsecond mean. With -t a trace of the median
 * per 1000 launches follows each variant.
 *
 * Factors (one changed at a time against "clbench" = what launch.queued_end does):
 *   kernel/grid/buffers: clbench's counter kernel on 1 work-item and one READ_WRITE buffer
 *     written first, against clpeak's 16-float read over 256 x CUs in groups of 256 with a
 *     READ_ONLY input (never written, as in clpeak) and a WRITE_ONLY output
 *   warm-up: clbench 10 launches, clpeak 2 + clFinish; and the launch count (first/last 300)
 *   profiling queries after each launch: 4 (clbench) or 2 (QUEUED, END: clpeak)
 *   wait: clFinish or clWaitForEvents
 *   host spin: the host thread busy between launches or not (a sleep of 50 us between
 *     launches lets the CPU and the GPU's link idle, as clbench's per-repetition bookkeeping
 *     does not; included to see whether idling raises the latency)
 *
 * Build: gcc -O2 -std=c11 -o launch_gap peers/experiments/launch_gap.c -lOpenCL
 * Run:   ./launch_gap PLATFORM_INDEX [N] [-t]
 * No retries, no recovery: an experiment, not a tool; it stops at the first OpenCL error. */
#define _POSIX_C_SOURCE 199309L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                                   \
    do {                                                                           \
        cl_int rc_ = (x);                                                          \
        if (rc_ != CL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, rc_);      \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

static const char *src =
    "__kernel void touch(__global uint *c) { if (get_global_id(0) == 0) c[0] = c[0] + 1u; }\n"
    "__kernel void read16(__global float *in, __global float *out) {\n"
    "  size_t l = get_local_size(0), id = get_group_id(0) * l * 16 + get_local_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int i = 0; i < 16; i++, id += l) s += in[id];\n"
    "  out[get_global_id(0)] = s; }\n";

typedef struct variant {
    const char *name;
    int clpeak_kernel; /* read16 over 256 x CUs, else touch on 1 work-item */
    int write_input;   /* clpeak kernel: write the input first (clpeak does not) */
    int warm;          /* warm-up launches (clbench 10, clpeak 2) */
    int queries;       /* profiling values read per launch: 4 or 2 */
    int wait_event;    /* clWaitForEvents instead of clFinish */
    int sleep_us;      /* host sleep between launches */
} variant;

static const variant variants[] = {
    {"clbench", 0, 0, 10, 4, 0, 0},
    {"clpeak", 1, 0, 2, 2, 0, 0},
    {"clbench+2queries", 0, 0, 10, 2, 0, 0},
    {"clbench+clpeakwarm", 0, 0, 2, 4, 0, 0},
    {"clpeak+4queries", 1, 0, 2, 4, 0, 0},
    {"clpeak+writteninput", 1, 1, 2, 2, 0, 0},
    {"clpeak+waitevent", 1, 0, 2, 2, 1, 0},
    {"clbench+sleep50us", 0, 0, 10, 4, 0, 50},
    {"clpeak+sleep50us", 1, 0, 2, 2, 0, 50},
    {"clbench(again)", 0, 0, 10, 4, 0, 0},
};

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, size_t n)
{
    double *c = malloc(n * sizeof *c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

typedef struct ctx {
    cl_device_id dev;
    cl_context cx;
    cl_command_queue q;
    cl_program p;
    size_t cus;
} ctx;

static void run(const ctx *c, const variant *v, size_t n, int trace)
{
    cl_int e;
    cl_kernel k = clCreateKernel(c->p, v->clpeak_kernel ? "read16" : "touch", &e);
    CHECK(e);
    size_t l = v->clpeak_kernel ? 256 : 1, g = v->clpeak_kernel ? 256 * c->cus : 1;
    size_t in_bytes = v->clpeak_kernel ? g * 16 * sizeof(float) : sizeof(cl_uint);
    cl_mem in = clCreateBuffer(c->cx, v->clpeak_kernel ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE, in_bytes, NULL, &e);
    CHECK(e);
    cl_mem out = clCreateBuffer(c->cx, CL_MEM_WRITE_ONLY, g * sizeof(float), NULL, &e);
    CHECK(e);
    if (!v->clpeak_kernel || v->write_input) {
        void *h = calloc(1, in_bytes);
        CHECK(clEnqueueWriteBuffer(c->q, in, CL_TRUE, 0, in_bytes, h, 0, NULL, NULL));
        free(h);
    }
    CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    if (v->clpeak_kernel)
        CHECK(clSetKernelArg(k, 1, sizeof out, &out));
    for (int i = 0; i < v->warm; i++)
        CHECK(clEnqueueNDRangeKernel(c->q, k, 1, NULL, &g, &l, 0, NULL, NULL));
    CHECK(clFinish(c->q));
    double *qe = malloc(n * sizeof *qe), *qs = malloc(n * sizeof *qs), *ss = malloc(n * sizeof *ss),
           *se = malloc(n * sizeof *se), sum = 0, isum = 0;
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_END,
                                              CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START};
    for (size_t i = 0; i < n; i++) {
        cl_event ev;
        cl_ulong t[4] = {0, 0, 0, 0};
        CHECK(clEnqueueNDRangeKernel(c->q, k, 1, NULL, &g, &l, 0, NULL, &ev));
        if (v->wait_event)
            CHECK(clWaitForEvents(1, &ev));
        else
            CHECK(clFinish(c->q));
        for (int j = 0; j < v->queries; j++) /* t[0] QUEUED, t[1] END, t[2] SUBMIT, t[3] START */
            CHECK(clGetEventProfilingInfo(ev, what[j], sizeof t[j], &t[j], NULL));
        CHECK(clReleaseEvent(ev));
        qe[i] = 1e-3 * (double)(t[1] - t[0]);
        qs[i] = v->queries == 4 ? 1e-3 * (double)(t[2] - t[0]) : 0;
        ss[i] = v->queries == 4 ? 1e-3 * (double)(t[3] - t[2]) : 0;
        se[i] = v->queries == 4 ? 1e-3 * (double)(t[1] - t[3]) : 0;
        sum += qe[i];
        isum += (double)(int)(t[1] / 1000 - t[0] / 1000);
        if (v->sleep_us) {
            struct timespec ts = {0, 1000L * v->sleep_us};
            nanosleep(&ts, NULL);
        }
    }
    size_t k300 = n < 300 ? n : 300, mid = n >= 1300 ? 1000 : 0;
    printf("%-22s QE med %7.2f  first300 %7.2f  @1000 %7.2f  last300 %7.2f  mean %7.2f  clpeak-int-mean %7.2f",
           v->name, median(qe, n), median(qe, k300), median(qe + mid, k300), median(qe + n - k300, k300),
           sum / (double)n, isum / (double)n);
    if (v->queries == 4)
        printf("  | QS %6.2f SS %6.2f SE %6.2f", median(qs, n), median(ss, n), median(se, n));
    printf("\n");
    for (size_t b = 0; trace && b + 1000 <= n; b += 1000)
        printf("    launches %6zu..%6zu: QUEUED->END median %7.2f us\n", b, b + 999, median(qe + b, 1000));
    free(qe);
    free(qs);
    free(ss);
    free(se);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    int pidx = argc > 1 ? atoi(argv[1]) : 0, trace = 0;
    size_t n = 20000;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0)
            trace = 1;
        else
            n = (size_t)strtoul(argv[i], NULL, 10);
    }
    if (n < 300)
        n = 300;
    cl_platform_id ps[8];
    cl_uint np = 0, cus = 0;
    CHECK(clGetPlatformIDs(8, ps, &np));
    if (pidx < 0 || (cl_uint)pidx >= np)
        return fprintf(stderr, "platform %d of %u\n", pidx, np), 2;
    ctx c;
    cl_int e;
    CHECK(clGetDeviceIDs(ps[pidx], CL_DEVICE_TYPE_ALL, 1, &c.dev, NULL));
    CHECK(clGetDeviceInfo(c.dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
    c.cus = cus;
    char name[256] = "";
    CHECK(clGetDeviceInfo(c.dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL));
    c.cx = clCreateContext(NULL, 1, &c.dev, NULL, NULL, &e);
    CHECK(e);
    c.q = clCreateCommandQueue(c.cx, c.dev, CL_QUEUE_PROFILING_ENABLE, &e);
    CHECK(e);
    c.p = clCreateProgramWithSource(c.cx, 1, &src, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(c.p, 1, &c.dev, "", NULL, NULL));
    printf("device: %s, %u CUs, %zu launches per variant (us; QE = QUEUED->END, QS/SS/SE = "
           "QUEUED->SUBMIT, SUBMIT->START, START->END medians)\n", name, cus, n);
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        run(&c, &variants[i], n, trace);
    clReleaseProgram(c.p);
    clReleaseCommandQueue(c.q);
    clReleaseContext(c.cx);
    return 0;
}
