/* app.saxpy.*: shared declarations (lib/apps/saxpy/). */
#ifndef CLB_APP_SAXPY_H
#define CLB_APP_SAXPY_H

#include "apps/app.h"

void saxpy_host_sequential(float a, const float *x, float *y, size_t n);
clb_error saxpy_host_pthreads(float a, const float *x, float *y, size_t n, unsigned threads,
                              clb_diag *d);

/* Shared with the CUDA twin row (lib/apps/cuda/cuda_rows.c): the device rows' sizes, the
 * inputs (a, x, y0 from the xorshift stream rng), the check of y after runs passes, and the
 * curve object from working sets xs (bytes) and medians ys (GB/s). */
clb_error saxpy_device_sizes(clb_ctx *c, size_t *n /* room for 16 */, size_t *count, clb_diag *d);
void saxpy_fill(float *a, float *x, float *y0, size_t n, uint64_t *rng);
clb_error saxpy_check(float a, const float *x, const float *y0, const float *y, size_t n,
                      uint64_t runs, clb_diag *d);
cJSON *saxpy_curve(const double *xs, const double *ys, size_t k);

#endif
