/* Experiment behind "PoCL here, interleaved pairs" in
 * docs/results/memory.md: on a CPU device, stream_simple's float4 kernels (peers/stream_simple.c,
 * the reference), clbench's straightforward kernels as built from lib/bench/memory/memory.cl
 * (simple_write / simple_stream, uint4 / uint16, the driver's local size), and forms without
 * the launch-wrap index (`g = gid + base; g >= total ? g - total : g`). Every kernel runs one
 * launch over the whole 512 MiB array(s) (STREAM_FORMS_MIB=n: n MiB) per round, in a new
 * random order each round, so each round meets the same machine state; per round every kernel
 * is divided by stream_simple's kernel of the same operation, and the median of those ratios is printed with a bootstrap 95% CI (2000 resamples of the
 * rounds). GB/s = STREAM's bytes (write 1, copy/scale 2, add/triad 3 arrays) / (END - START).
 * Data: random words with the exponent forced into [0.5, 1) so that the float kernels see
 * normal floats (no denormal assists) and the uint kernels random bits.
 * Build: CMake target stream_forms (build/stream_forms), or
 *        gcc -O2 -o stream_forms peers/experiments/stream_forms.c -lOpenCL -lm
 * Run:   ./stream_forms [OLD.cl,]lib/bench/memory/memory.cl [ROUNDS=20] [PLATFORM=0] [OPS=wsa]
 * (OPS: letters w c s a t for write, copy, scale, add, triad; minimal error checking) */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NK = 40, MAXR = 200 };
static size_t BYTES = (size_t)512 << 20; /* STREAM_FORMS_MIB=n: n MiB per array */

static const char *ss_src =
    "#define S 0.4f\n"
    "kernel void copy(global const float4 *a, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i]; }\n"
    "kernel void scale(global float4 *b, global const float4 *c) { size_t i = get_global_id(0); b[i] = S * c[i]; }\n"
    "kernel void add(global const float4 *a, global const float4 *b, global float4 *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "kernel void triad(global float4 *a, global const float4 *b, global const float4 *c) { size_t i = get_global_id(0); a[i] = b[i] + S * c[i]; }\n"
    "kernel void write(global float4 *d) { size_t i = get_global_id(0); d[i] = (float4)(0.3f); }\n";

/* clbench's forms without the wrap: item g is vector base + g (the host keeps launches inside
 * the pass), indexed with size_t. HASH 0: memory.cl's hash ((v VW + lane) K) ^ tag; HASH 1: the same words as
 * (v VW K + lane K) ^ tag, a scalar multiply the compiler can turn into an add per item. */
static const char *nw_src =
    "#if VW == 4\n#define LANES (uint4)(0u, 1u, 2u, 3u)\n#else\n"
    "#define LANES (uint16)(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u)\n#endif\n"
    "kernel void nw_write(global VT *restrict a, uint tag, uint base) {\n"
    "  size_t i = get_global_id(0) + base; uint v = (uint)i;\n"
    "#if HASH == 0\n"
    "  a[i] = (((VT)(v * (uint)VW) + LANES) * 2654435761u) ^ (VT)(tag);\n"
    "#else\n"
    "  a[i] = ((VT)(v * ((uint)VW * 2654435761u)) + LANES * 2654435761u) ^ (VT)(tag);\n"
    "#endif\n}\n"
    "kernel void nw_stream(global const VT *restrict a, global const VT *restrict b, global VT *restrict c, uint k, uint base) {\n"
    "  size_t v = get_global_id(0) + base;\n"
    "#if OP == 0\n c[v] = a[v];\n#elif OP == 1\n c[v] = a[v] * k;\n#elif OP == 2\n c[v] = a[v] + b[v];\n"
    "#else\n c[v] = a[v] + b[v] * k;\n#endif\n }\n";

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

static double median(const double *v, int n)
{
    double t[MAXR];
    memcpy(t, v, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src, const char *opts)
{
    cl_int e;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (clBuildProgram(p, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed: %s\n%s\n", opts, log);
        exit(1);
    }
    return p;
}

typedef struct kern {
    cl_kernel k;
    size_t global;
    int op;      /* index into "wcsat" */
    double bytes;
    char label[48];
} kern;

static const char *opnames = "wcsat";
static const double arrays[] = {1, 2, 2, 3, 3};

int main(int argc, char **argv)
{
    /* FILES: one memory.cl, or two separated by a comma (e.g. the previous commit's and the
     * working tree's), each built as clbench builds it */
    char files[2][512] = {"lib/bench/memory/memory.cl", ""}, *mem_srcs[2] = {NULL, NULL};
    if (argc > 1) {
        const char *comma = strchr(argv[1], ',');
        snprintf(files[0], sizeof files[0], "%.*s", comma ? (int)(comma - argv[1]) : 511, argv[1]);
        if (comma)
            snprintf(files[1], sizeof files[1], "%s", comma + 1);
    }
    int nfiles = files[1][0] ? 2 : 1;
    for (int f = 0; f < nfiles; f++)
        mem_srcs[f] = slurp(files[f]);
    char *mem_src = mem_srcs[nfiles - 1];
    int rounds = argc > 2 ? atoi(argv[2]) : 20, pidx = argc > 3 ? atoi(argv[3]) : 0;
    const char *ops = argc > 4 ? argv[4] : "wsa";
    if (!mem_src || rounds < 1 || rounds > MAXR)
        return fprintf(stderr, "usage: stream_forms lib/bench/memory/memory.cl [ROUNDS<=200] [PLATFORM] [OPS]\n"), 2;
    const char *mib = getenv("STREAM_FORMS_MIB");
    if (mib && atoi(mib) > 0)
        BYTES = (size_t)atoi(mib) << 20;
    cl_platform_id ps[8];
    cl_uint np;
    clGetPlatformIDs(8, ps, &np);
    cl_device_id dev;
    clGetDeviceIDs(ps[pidx], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_int e;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &e);

    unsigned *h = malloc(BYTES);
    unsigned long long st = 88172645463325252ULL;
    cl_mem buf[4];
    for (int b = 0; b < 4; b++) {
        for (size_t i = 0; i < BYTES / 4; i++) {
            st ^= st << 13, st ^= st >> 7, st ^= st << 17;
            h[i] = ((unsigned)st & 0x807fffffu) | 0x3f000000u;
        }
        buf[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &e);
        clEnqueueWriteBuffer(q, buf[b], CL_TRUE, 0, BYTES, h, 0, NULL, NULL);
    }
    free(h);
    cl_mem A = buf[0], B = buf[1], C = buf[2], D = buf[3];

    kern k[NK];
    int n = 0;
    cl_program ss = build(ctx, dev, ss_src, "");
    const char *ssname[] = {"write", "copy", "scale", "add", "triad"};
    for (int o = 0; o < 5; o++) {
        if (!strchr(ops, opnames[o]))
            continue;
        /* the reference: stream_simple's kernel, float4, global = vectors, driver's local */
        kern *r = &k[n++];
        r->k = clCreateKernel(ss, ssname[o], &e);
        /* stream_simple's own argument order, reading / writing the same roles as clbench's */
        cl_mem sargs[5][3] = {{D}, {A, C}, {C, A}, {A, B, C}, {C, A, B}};
        for (cl_uint i = 0; i < 3 && sargs[o][i]; i++)
            clSetKernelArg(r->k, i, sizeof(cl_mem), &sargs[o][i]);
        r->global = BYTES / 16;
        snprintf(r->label, sizeof r->label, "%s stream_simple float4", ssname[o]);
        const unsigned widths[] = {4, 16};
        for (int w = 0; w < 2; w++)
            for (int form = -nfiles + 1; form < (o ? 2 : 3); form++) {
                unsigned vw = widths[w];
                char opt[160];
                snprintf(opt, sizeof opt, "-DVW=%u -DVT=uint%u -DOP=%d -DHASH=%d", vw, vw, o - 1, form - 1);
                kern *x = &k[n++];
                cl_uint tag = 7, kk = 3, zero = 0, total = (cl_uint)(BYTES / 4 / vw);
                if (form <= 0) { /* memory.cl as clbench builds it (its own LANES) */
                    snprintf(opt, sizeof opt, "-DVW=%u -DVT=uint%u -DOP=%d -DPATTERN=%d -DFETCH=1 -DPER_ITEM=0 -DLAYOUT=0",
                             vw, vw, o - 1, o - 1);
                    cl_program p = build(ctx, dev, mem_srcs[form + nfiles - 1], opt);
                    x->k = clCreateKernel(p, o ? "simple_stream" : "simple_write", &e);
                    if (o == 0) {
                        clSetKernelArg(x->k, 0, sizeof D, &D);
                        clSetKernelArg(x->k, 1, 4, &tag);
                        clSetKernelArg(x->k, 2, 4, &zero);
                        clSetKernelArg(x->k, 3, 4, &total);
                    } else {
                        clSetKernelArg(x->k, 0, sizeof A, &A);
                        clSetKernelArg(x->k, 1, sizeof B, &B);
                        clSetKernelArg(x->k, 2, sizeof C, &C);
                        clSetKernelArg(x->k, 3, 4, &kk);
                        clSetKernelArg(x->k, 4, 4, &zero);
                        clSetKernelArg(x->k, 5, 4, &total);
                    }
                } else {
                    cl_program p = build(ctx, dev, nw_src, opt);
                    x->k = clCreateKernel(p, o ? "nw_stream" : "nw_write", &e);
                    if (o == 0) {
                        clSetKernelArg(x->k, 0, sizeof D, &D);
                        clSetKernelArg(x->k, 1, 4, &tag);
                        clSetKernelArg(x->k, 2, 4, &zero);
                    } else {
                        clSetKernelArg(x->k, 0, sizeof A, &A);
                        clSetKernelArg(x->k, 1, sizeof B, &B);
                        clSetKernelArg(x->k, 2, sizeof C, &C);
                        clSetKernelArg(x->k, 3, 4, &kk);
                        clSetKernelArg(x->k, 4, 4, &zero);
                    }
                }
                x->global = total;
                snprintf(x->label, sizeof x->label, "%s clbench uint%u %s", ssname[o], vw,
                         form < 0 ? "memory.cl #1" : form == 0 ? "memory.cl" : form == 1 ? "no-wrap" : "no-wrap, add hash");
            }
    }
    for (int i = 0; i < n; i++) {
        int o = (int)(strchr(opnames, k[i].label[0] == 'w' ? 'w' : k[i].label[0] == 'c' ? 'c'
                                            : k[i].label[0] == 's' ? 's' : k[i].label[0] == 'a' ? 'a' : 't') - opnames);
        k[i].op = o;
        k[i].bytes = arrays[o] * (double)BYTES;
    }

    static double gbs[NK][MAXR], ratio[NK][MAXR];
    int order[NK];
    unsigned long long os = 977;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int r = -1; r < rounds; r++)
        for (int j = 0; j < n; j++) {
            if (j == 0) /* a new random order every round: no kernel always follows the same one */
                for (int x = n - 1; x > 0; x--) {
                    os ^= os << 13, os ^= os >> 7, os ^= os << 17;
                    int y = (int)(os % (unsigned long long)(x + 1)), t = order[x];
                    order[x] = order[y];
                    order[y] = t;
                }
            int i = order[j];
            cl_event ev;
            if (clEnqueueNDRangeKernel(q, k[i].k, 1, NULL, &k[i].global, NULL, 0, NULL, &ev))
                return fprintf(stderr, "enqueue failed: %s\n", k[i].label), 1;
            clWaitForEvents(1, &ev);
            cl_ulong t0, t1;
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, NULL);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, NULL);
            clReleaseEvent(ev);
            if (r >= 0)
                gbs[i][r] = k[i].bytes / (double)(t1 - t0);
        }
    int ref = 0;
    unsigned long long rs = 12345;
    printf("%d rounds (kernels in a random order each round), %zu MiB arrays, one launch per pass, driver's local size\n",
           rounds, BYTES >> 20);
    for (int i = 0; i < n; i++) {
        if (i == 0 || k[i].op != k[i - 1].op)
            ref = i;
        for (int r = 0; r < rounds; r++)
            ratio[i][r] = gbs[i][r] / gbs[ref][r];
        double boot[2000], t[MAXR];
        for (int b = 0; b < 2000; b++) {
            for (int r = 0; r < rounds; r++) {
                rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
                t[r] = ratio[i][rs % (unsigned long long)rounds];
            }
            boot[b] = median(t, rounds);
        }
        qsort(boot, 2000, sizeof(double), cmp);
        printf("%-36s median %6.2f GB/s  ratio to stream_simple: median %.3f  95%% CI [%.3f, %.3f]\n",
               k[i].label, median(gbs[i], rounds), median(ratio[i], rounds), boot[50], boot[1949]);
    }
    return 0;
}
