/* The 32-bit atomics the counting apps (mcpi, strmatch) use: atomic_add, atomic_inc and
 * atomic_min on global uint, core in OpenCL C 1.1. A 1.0 device has them only through
 * cl_khr_global_int32_*_atomics under other names (atom_*), which these kernels do not use. */
#include "apps/app.h"

#include <stdlib.h>
#include <string.h>

clb_error app_need_int32_atomics(clb_ctx *c)
{
    cl_device_id dev = clb_device_reference(c->dev)->device;
    char ver[128] = "";
    unsigned long major = 0, minor = 0;
    clb_diag *d = &c->diag;
    clb_diag_clear(d);
    /* CL_DEVICE_OPENCL_C_VERSION itself is new in 1.1: a failing query means 1.0. */
    if (clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof ver - 1, ver, NULL) == CL_SUCCESS &&
        strncmp(ver, "OpenCL C ", 9) == 0) {
        char *end = NULL;
        major = strtoul(ver + 9, &end, 10);
        minor = end && *end == '.' ? strtoul(end + 1, NULL, 10) : 0;
    }
    if (major * 10 + minor < 11)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED,
                            "32-bit global atomics need OpenCL C 1.1, the device offers '%s'",
                            ver[0] ? ver : "OpenCL C 1.0");
    clb_param_str(c->res, "atomics", "32-bit global atomic_add/atomic_inc/atomic_min (core since OpenCL C 1.1)");
    clb_param_str(c->res, "opencl_c_version", ver);
    return CLB_OK;
}
