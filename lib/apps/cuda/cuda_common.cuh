/* What the module's twins share: error handling in the style of CLB_CL (one cleanup label per
 * function), device selection, and the timed-run loop every twin uses. */
#ifndef CLB_CUDA_COMMON_CUH
#define CLB_CUDA_COMMON_CUH

#include "cuda_twins.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Checks a CUDA runtime call; on failure writes the call and the error's name into err, sets
 * rc and jumps to the function's cleanup label (which needs `int rc`, `char *err`, `errlen`). */
#define CU(call)                                                                            \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            snprintf(err, errlen, "%s failed: %s (%s)", #call, cudaGetErrorString(e_),      \
                     cudaGetErrorName(e_));                                                 \
            rc = 1;                                                                         \
            goto cleanup;                                                                   \
        }                                                                                   \
    } while (0)
#define CU_FAIL(...)                           \
    do {                                       \
        snprintf(err, errlen, __VA_ARGS__);    \
        rc = 1;                                \
        goto cleanup;                          \
    } while (0)

/* What configure set (cuda_twins.cu): the device's PCI bus id ("": device 0), the Euler tiling. */
extern char clbcu_bus_id[64];
extern int clbcu_euler_tiling;

static inline double cu_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The phases of the last twin call (last_phases, cuda_twins.cu): its start (cu_select, the first
 * thing every twin does), its setup (up to cu_timed's warm-up; -1 before), its copies back
 * (CU_READBACK). */
extern double clbcu_call_t0, clbcu_setup_s, clbcu_readback_s;

/* A copy of the result back to the host, timed into clbcu_readback_s. */
#define CU_READBACK(call)                             \
    do {                                              \
        double t0_ = cu_wall();                       \
        CU(call);                                     \
        clbcu_readback_s += cu_wall() - t0_;          \
    } while (0)

/* The device the module runs on: the bus id configure named (the row names the OpenCL device's),
 * else device 0. Starts the call's phases. */
static inline int cu_select(char *err, size_t errlen)
{
    int rc = 0, dev = 0;
    clbcu_call_t0 = cu_wall();
    clbcu_setup_s = -1;
    clbcu_readback_s = 0;
    if (clbcu_bus_id[0])
        CU(cudaDeviceGetByPCIBusId(&dev, clbcu_bus_id));
    CU(cudaSetDevice(dev));
cleanup:
    return rc;
}

/* One untimed warm-up, then reps runs each between two cudaEvents; times_s[i] = run i's event
 * interval, rejected when it outlasts the host's wall-clock wait for it (2% + 50 us slack, as
 * clb_event_outlasts_wall). prep (may be a no-op) runs before each run, outside the events:
 * resets that are not part of the kernel's work. The call's setup ends here (the last cu_timed of
 * a call that screens first counts the screen as setup). */
template <typename Prep, typename Run>
static int cu_timed(Prep prep, Run run, unsigned reps, double *times_s, char *err, size_t errlen)
{
    int rc = 0;
    cudaEvent_t ev[2] = {NULL, NULL};
    clbcu_setup_s = cu_wall() - clbcu_call_t0;
    CU(cudaEventCreate(&ev[0]));
    CU(cudaEventCreate(&ev[1]));
    CU(prep());
    CU(run());
    CU(cudaGetLastError());
    CU(cudaDeviceSynchronize());
    for (unsigned i = 0; i < reps; i++) {
        float ms = 0;
        CU(prep());
        CU(cudaDeviceSynchronize());
        double t0 = cu_wall();
        CU(cudaEventRecord(ev[0]));
        CU(run());
        CU(cudaGetLastError());
        CU(cudaEventRecord(ev[1]));
        CU(cudaEventSynchronize(ev[1]));
        double wall = cu_wall() - t0;
        CU(cudaEventElapsedTime(&ms, ev[0], ev[1]));
        if ((double)ms * 1e-3 > wall * 1.02 + 50e-6)
            CU_FAIL("cudaEvent interval %.6g s outlasts the wall-clock wait %.6g s", (double)ms * 1e-3, wall);
        times_s[i] = (double)ms * 1e-3;
    }
cleanup:
    if (ev[0])
        cudaEventDestroy(ev[0]);
    if (ev[1])
        cudaEventDestroy(ev[1]);
    return rc;
}

static inline cudaError_t cu_no_prep(void)
{
    return cudaSuccess;
}

/* The GEMM twins (cuda_gemm.cu). */
int clbcu_sgemm(int variant, size_t n, const float *a, const float *b, float *c, unsigned reps,
                double *times_s, char *err, size_t errlen);
int clbcu_dgemm(int variant, size_t n, const double *a, const double *b, double *c, unsigned reps,
                double *times_s, char *err, size_t errlen);
/* The Euler twin (cuda_euler.cu). */
int clbcu_euler_string(size_t n, size_t steps, float k2, float h, const float *y0, float *y_out,
                       unsigned reps, double *times_s, char *err, size_t errlen);

#endif
