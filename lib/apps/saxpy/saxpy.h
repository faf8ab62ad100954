/* app.saxpy.*: shared declarations (lib/apps/saxpy/). */
#ifndef CLB_APP_SAXPY_H
#define CLB_APP_SAXPY_H

#include "../app.h"

void saxpy_host_sequential(float a, const float *x, float *y, size_t n);
clb_error saxpy_host_pthreads(float a, const float *x, float *y, size_t n, unsigned threads,
                              clb_diag *d);

#endif
