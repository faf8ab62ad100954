/* The CUDA twin ABI (fixed: docs/apps/cuda.md). CUDA twins live in a separately
 * built and separately loaded module libclbench_cuda.so (the .cu files of lib/apps/cuda/), opened with dlopen
 * at run time so clbench runs without CUDA. Plain C, no CUDA types. */
#ifndef CLB_CUDA_TWINS_H
#define CLB_CUDA_TWINS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: euler_string appended (app.euler.cuda); 3: configure appended (the device and the Euler tiling
 * as arguments: the module reads no environment); 4: last_phases appended (the rows' total time).
 * A module of another version is refused (cuda_load.c). */
#define CLBCU_ABI_VERSION 4
/* Every twin: untimed warm-up, then `reps` timed runs; times_s[reps] receives each run's kernel time in seconds
 * (cudaEvent, kernels only, inputs already on the device); the result of the LAST run is copied back.
 * Returns 0 on success, else nonzero with a reason in err (NUL-terminated, errlen bytes).
 * saxpy updates y in place on the device, warm-up included: y_inout returns y0 + (reps + 1) a x.
 * The module runs on the CUDA device configure named (its PCI bus id), else on device 0. */
/* The own GEMM kernel's shapes (lib/apps/cuda/cuda_gemm.cu), screened by the rows: block M x N x K-deep
 * slices, outputs per thread, fragment width, buffers, blocks per SM its registers allow. */
#define CLBCU_SGEMM_SHAPES 7
#define CLBCU_SGEMM_SHAPE_NAMES                                                                                 \
    {"128x128x16 8x8 float4 2buf 2/SM", "128x128x8 8x8 float4 2buf 2/SM", "128x64x16 8x8 float4 2buf 3/SM",    \
     "128x64x8 8x8 float4 2buf 3/SM", "128x128x16 8x8 float4 2buf 1/SM", "128x128x16 8x8 float4 2buf cp.async-B 2/SM", \
     "128x128x8 8x8 float4 2buf cp.async-B 2/SM"}
#define CLBCU_DGEMM_SHAPES 4
#define CLBCU_DGEMM_SHAPE_NAMES                                                                                 \
    {"64x128x8 8x8 double2 2buf", "64x128x16 8x8 double2 1buf", "128x128x8 8x8 double2 2buf",                  \
     "64x128x8 8x8 double2 2buf cp.async-B"}
typedef struct clbcu_api {
    int abi_version;                              /* CLBCU_ABI_VERSION */
    int (*device_name)(char *name, size_t len, char *err, size_t errlen);
    int (*saxpy)(size_t n, float a, const float *x, float *y_inout, unsigned reps, double *times_s, char *err, size_t errlen);
    /* C = A B, row-major n x n; variant 0 = own warp-tile kernel (shape 0), 1 = cuBLAS (cuBLAS loaded by the
     * module with dlopen; a missing cuBLAS returns nonzero with the reason), 2 + i = own kernel of shape i
     * (CLBCU_SGEMM_SHAPE_NAMES / CLBCU_DGEMM_SHAPE_NAMES below) */
    int (*sgemm)(int variant, size_t n, const float *a, const float *b, float *c, unsigned reps, double *times_s, char *err, size_t errlen);
    int (*dgemm)(int variant, size_t n, const double *a, const double *b, double *c, unsigned reps, double *times_s, char *err, size_t errlen);
    /* MonteCarloPi of seed 004: sample i uses seed 1987 ^ (i*27) and the seed's getRandom LCG; *inside = count */
    int (*mcpi)(unsigned long long samples, unsigned reps, double *times_s, unsigned long long *inside, char *err, size_t errlen);
    /* StringMatch: first occurrence (naive) of each of npat patterns of pat_len chars; pos[k] = index or -1 */
    int (*strmatch)(const char *text, size_t text_len, const char *patterns /* npat*pat_len, concatenated */,
                    size_t npat, size_t pat_len, unsigned reps, double *times_s, long long *pos, char *err, size_t errlen);
    /* ABI 2. Explicit Euler on STRING in float (docs/apps/euler.md): n components (a multiple of 4), steps
     * steps of y += h f(y) with f_j = y[j+1] (j even), k2 (y[j-3] - 2 y[j-1] + y[j+1]) (j odd, 0 outside),
     * from y0; one run = all steps (timed together), each run from y0; y_out = the last run's result.
     * On success err may hold a note (the tiling the twin chose), else it is left as it was. */
    int (*euler_string)(size_t n, size_t steps, float k2, float h, const float *y0, float *y_out, unsigned reps,
                        double *times_s, char *err, size_t errlen);
    /* ABI 3. The module's inputs besides the twins' arguments, kept until the next call: the CUDA
     * device by its PCI bus id ("DDDD:BB:SS.0", cudaDeviceGetByPCIBusId; NULL or "": device 0) and
     * euler_string's tiling (CLBCU_TILING_*). Returns 0, or nonzero for a bus id too long or an
     * unknown tiling (nothing changed). */
    int (*configure)(const char *pci_bus_id, int euler_tiling);
    /* ABI 4. The phases of the last twin call besides its timed runs, host wall clock, for the rows'
     * params.total_s: setup_s from the call's start to its warm-up run (device selection, library
     * loading, allocations, uploads; a screen of tilings or shapes inside the call), readback_s
     * the copy of the result back to the host. Returns 0, or nonzero when no twin has run yet. */
    int (*last_phases)(double *setup_s, double *readback_s);
} clbcu_api;
/* euler_string's tiling: both screened on the run's problem (the faster wins), or one forced. */
enum { CLBCU_TILING_SCREEN = 0, CLBCU_TILING_DIAMOND = 1, CLBCU_TILING_HONEYCOMB = 2 };
/* The module exports exactly one symbol: */
const clbcu_api *clbcu_get_api(void);

/* The loader (cuda_load.c, in libclbench): finds the module (clb_settings.cuda_module, else next
 * to the running executable, else the build and install directories), dlopens it and checks
 * abi_version. NULL with the reason in why otherwise. The module stays loaded. */
const clbcu_api *clb_cuda_api(char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
