/* Experiment behind docs/results/launch.md: QUEUED->END and START->END medians of 300
 * launches for a counter kernel and an empty kernel, grid 1 or CUs x max-WG, with and
 * without clSetKernelArg before each launch, waiting with clFinish or clWaitForEvents.
 * Build: gcc -O2 -o launch_variants peers/experiments/launch_variants.c -lOpenCL
 * Run:   ./launch_variants PLATFORM_INDEX   (no error checking: an experiment, not a tool) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *src =
"__kernel void touch(__global uint *out, uint tag) { if (get_global_id(0) == 0) out[0] = tag; }\n"
"__kernel void empty(__global uint *out, uint tag) { }\n";
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
  int pidx = argc > 1 ? atoi(argv[1]) : 0;
  cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np);
  cl_device_id dev; clGetDeviceIDs(ps[pidx], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
  cl_int e; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  clBuildProgram(p, 1, &dev, "", NULL, NULL);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 << 20, NULL, &e);
  cl_uint cus; size_t wg; clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, 4, &cus, NULL); clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  const char *kn[2] = {"touch", "empty"};
  for (int k = 0; k < 2; k++) for (int big = 0; big < 2; big++) for (int change = 0; change < 2; change++) for (int wait = 0; wait < 2; wait++) {
    cl_kernel ker = clCreateKernel(p, kn[k], &e);
    clSetKernelArg(ker, 0, sizeof out, &out); cl_uint tag = 1; clSetKernelArg(ker, 1, 4, &tag);
    size_t g = big ? (size_t)cus * wg : 1, l = big ? wg : 1;
    double qe[300], se[300];
    for (int i = -20; i < 300; i++) {
      cl_event ev; if (change) { tag++; clSetKernelArg(ker, 1, 4, &tag); }
      clEnqueueNDRangeKernel(q, ker, 1, NULL, &g, &l, 0, NULL, &ev);
      if (wait) clWaitForEvents(1, &ev); else clFinish(q);
      cl_ulong t[4]; cl_profiling_info w[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
      for (int j = 0; j < 4; j++) clGetEventProfilingInfo(ev, w[j], 8, &t[j], NULL);
      if (i >= 0) { qe[i] = (double)(t[3] - t[0]) / 1e3; se[i] = (double)(t[3] - t[2]) / 1e3; }
      clReleaseEvent(ev);
    }
    qsort(qe, 300, 8, cmp); qsort(se, 300, 8, cmp);
    printf("%-5s grid=%-7zu argchange=%d %-12s QUEUED->END median %7.2f us  START->END median %6.2f us\n", kn[k], g, change, wait ? "waitforevt" : "clFinish", qe[150], se[150]);
    clReleaseKernel(ker);
  }
  return 0;
}
