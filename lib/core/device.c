/* An open device: context plus one in-order queue with profiling, and capability checks. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

struct clb_device {
    clb_device_ref ref;
    cl_context context;
    cl_command_queue queue;
    char *extensions; /* CL_DEVICE_EXTENSIONS, for capability checks */
    cl_ulong double_fp_config;
    cl_uint vendor_id; /* CL_DEVICE_VENDOR_ID, 0 when refused */
};

void clb_device_destroy(clb_device *dev)
{
    if (!dev)
        return;
    if (dev->queue)
        clReleaseCommandQueue(dev->queue);
    if (dev->context)
        clReleaseContext(dev->context);
    free(dev->extensions);
    free(dev);
}

clb_error clb_device_create(const clb_device_ref *ref, clb_device **out, clb_diag *d)
{
    clb_diag local;
    if (!d)
        d = &local;
    clb_diag_clear(d);
    size_t n = 0;
    clb_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    dev->ref = *ref;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ref->platform, 0};
    CLB_CL(d, dev->context = clCreateContext(props, 1, &ref->device, NULL, NULL, CLB_ERRP));
    CLB_CL(d, dev->queue = clCreateCommandQueue(dev->context, ref->device,
                                                CL_QUEUE_PROFILING_ENABLE, CLB_ERRP));
    CLB_CL(d, clGetDeviceInfo(ref->device, CL_DEVICE_EXTENSIONS, 0, NULL, &n));
    dev->extensions = calloc(n + 1, 1);
    if (!dev->extensions)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clGetDeviceInfo(ref->device, CL_DEVICE_EXTENSIONS, n, dev->extensions, NULL));
    /* Only 1.2+ devices (or cl_khr_fp64 ones) answer this; a refusal means no fp64. */
    if (clGetDeviceInfo(ref->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dev->double_fp_config,
                        &dev->double_fp_config, NULL) != CL_SUCCESS)
        dev->double_fp_config = 0;
    if (clGetDeviceInfo(ref->device, CL_DEVICE_VENDOR_ID, sizeof dev->vendor_id, &dev->vendor_id,
                        NULL) != CL_SUCCESS)
        dev->vendor_id = 0;
cleanup:
    if (d->err != CLB_OK) {
        clb_device_destroy(dev);
        dev = NULL;
    }
    *out = dev;
    return d->err;
}

const clb_device_ref *clb_device_reference(const clb_device *dev) { return &dev->ref; }
cl_context clb_device_context(const clb_device *dev) { return dev->context; }
cl_command_queue clb_device_queue(const clb_device *dev) { return dev->queue; }

/* Whole-word match in the space-separated extension list. */
int clb_device_has_extension(const clb_device *dev, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *p = dev->extensions; (p = strstr(p, ext)) != NULL; p += n) {
        int starts = p == dev->extensions || p[-1] == ' ';
        int ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

int clb_device_has_fp64(const clb_device *dev)
{
    return clb_device_has_extension(dev, "cl_khr_fp64") || dev->double_fp_config != 0;
}

/* By the PCI vendor id, not the platform's name: PoCL's CUDA driver runs NVIDIA GPUs under a
 * platform of its own name and reports 0x10de as NVIDIA's driver does. */
int clb_device_is_nvidia(const clb_device *dev)
{
    return dev->vendor_id == CLB_VENDOR_ID_NVIDIA;
}

int clb_device_has_fp16(const clb_device *dev)
{
    return clb_device_has_extension(dev, "cl_khr_fp16");
}
