/* Helpers shared by the microarchitecture probes (branch, latency, atomics, sustained). */
#include "bench/microarch/microarch.h"
#include "device/clock.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>

clb_error clb_ua_time(clb_ctx *c, cl_kernel k, size_t gsz, size_t lsz, double *s)
{
    return clb_launch_timed(clb_device_queue(c->dev), k, 1, &gsz, lsz ? &lsz : NULL, s, &c->diag);
}

clb_error clb_ua_kernel_sizes(clb_ctx *c, cl_kernel k, size_t *multiple, size_t *max_wg)
{
    clb_diag *d = &c->diag;
    cl_device_id id = clb_device_reference(c->dev)->device;
    clb_diag_clear(d);
    CLB_CL(d, clGetKernelWorkGroupInfo(k, id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof *multiple, multiple, NULL));
    CLB_CL(d, clGetKernelWorkGroupInfo(k, id, CL_KERNEL_WORK_GROUP_SIZE, sizeof *max_wg, max_wg,
                                       NULL));
cleanup:
    return d->err;
}

double clb_ua_clock_mhz(clb_ctx *c)
{
    clb_clock ck;
    clb_clock_get(c->dev, &ck);
    clb_clock_to_params(c->res, &ck);
    return isfinite(ck.mhz) ? ck.mhz : 0;
}

cJSON *clb_ua_params(clb_result *res)
{
    if (!res->params)
        res->params = cJSON_CreateObject();
    return res->params;
}

void clb_ua_curve(clb_result *res, const char *label, const char *x_name, const char *x_unit,
                  const char *y_name, const char *y_unit, int x_log, const double *x,
                  const double *y, size_t n)
{
    cJSON *p = clb_ua_params(res), *cv = clb_curve(x_name, x_unit, y_name, y_unit, x_log, label, x, y, n);
    if (!p || !cv) {
        cJSON_Delete(cv);
        return;
    }
    if (!label) {
        cJSON_DeleteItemFromObjectCaseSensitive(p, "curve");
        cJSON_AddItemToObject(p, "curve", cv);
        return;
    }
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(p, "curves");
    if (!arr)
        arr = cJSON_AddArrayToObject(p, "curves");
    cJSON_AddItemToArray(arr, cv);
}

void clb_ua_dump_binary(clb_ctx *c, cl_program prog, const char *name)
{
    char path[1024];
    if (clb_dump_program_binary(prog, name, path, sizeof path))
        clb_param_str(c->res, "binary_dump", path);
}

clb_error clb_ua_calibrate(clb_ctx *c, cl_kernel k, cl_uint arg, size_t gsz, size_t lsz,
                           cl_int start, cl_int max, cl_int *iters)
{
    clb_diag *d = &c->diag;
    cl_int n = start;
    double t = 0;
    clb_diag_clear(d);
    CLB_CL(d, clSetKernelArg(k, arg, sizeof n, &n));
    /* Twice: the first launch pays one-time costs. */
    if (clb_ua_time(c, k, gsz, lsz, &t) != CLB_OK || clb_ua_time(c, k, gsz, lsz, &t) != CLB_OK)
        goto cleanup;
    while (!c->opts->quick && t < 0.5 * c->opts->target_s && n <= max / 2 &&
           2 * t < 0.5 * c->opts->watchdog_s) {
        n *= 2;
        CLB_CL(d, clSetKernelArg(k, arg, sizeof n, &n));
        if (clb_ua_time(c, k, gsz, lsz, &t) != CLB_OK)
            goto cleanup;
    }
    *iters = n;
cleanup:
    return d->err;
}

float clb_ua_fma_chain(float x, float a, float b, uint64_t n)
{
    float prev = x;
    for (uint64_t i = 0; i < n; i++) {
        float nx = fmaf(x, a, b);
        if (i >= 1 && nx == prev) /* 2-cycle: x, nx, x, nx ... */
            return (n - i - 1) % 2 ? x : nx;
        if (nx == x) /* fixed point */
            return x;
        prev = x;
        x = nx;
    }
    return x;
}

clb_error clb_ua_random_floats(clb_ctx *c, size_t n, size_t classes, float lo, float hi, uint64_t seed,
                               float **host, cl_mem *buf)
{
    clb_diag *d = &c->diag;
    uint64_t st = seed;
    float *h = malloc(n * sizeof *h);
    clb_diag_clear(d);
    *buf = NULL;
    if (!h)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    clb_rand64(&st);
    for (size_t i = 0; i < n; i++)
        h[i] = i < classes ? lo + (hi - lo) * (float)((double)(clb_rand64(&st) >> 11) * 0x1p-53)
                           : h[i % classes];
    CLB_CL(d, *buf = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                    n * sizeof *h, h, CLB_ERRP));
cleanup:
    if (d->err != CLB_OK) {
        free(h);
        h = NULL;
    }
    *host = h;
    return d->err;
}
