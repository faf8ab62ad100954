/* Derived parameters: each value says how it was obtained. */
#include "core/internal.h"
#include "device/devdb.h"

#include <stdlib.h>
#include <string.h>

#define CLB_DEVICE_WARP_SIZE_NV 0x4003
#define CLB_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043

static cJSON *entry(cJSON *parent, const char *key, cJSON *value, const char *how)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddItemToObject(e, "value", value ? value : cJSON_CreateNull());
    cJSON_AddStringToObject(e, "how", how);
    cJSON_AddItemToObject(parent, key, e);
    return e;
}

static cl_ulong ulong_info(cl_device_id dev, cl_device_info what, size_t size)
{
    cl_ulong v = 0; /* little-endian: a cl_uint answer fills the low half */
    if (clGetDeviceInfo(dev, what, size, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static void add_precisions(cJSON *o, clb_device *dev)
{
    cl_device_id id = clb_device_reference(dev)->device;
    char how[256];
    cl_ulong dcfg = ulong_info(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_ulong));
    snprintf(how, sizeof how, "cl_khr_fp64 %s in CL_DEVICE_EXTENSIONS; CL_DEVICE_DOUBLE_FP_CONFIG = 0x%llx",
             clb_device_has_extension(dev, "cl_khr_fp64") ? "present" : "absent",
             (unsigned long long)dcfg);
    entry(o, "fp64", cJSON_CreateBool(clb_device_has_fp64(dev)), how);
    snprintf(how, sizeof how, "cl_khr_fp16 %s in CL_DEVICE_EXTENSIONS",
             clb_device_has_fp16(dev) ? "present" : "absent");
    entry(o, "fp16", cJSON_CreateBool(clb_device_has_fp16(dev)), how);
}

/* The preferred work-group size multiple of a compiled probe kernel. */
static clb_error probe_width(clb_device *dev, size_t *width, clb_diag *d)
{
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_device_id id = clb_device_reference(dev)->device;
    const char *src = clb_kernel_source("probe");
    clb_diag_clear(d);
    CLB_CL(d, prog = clCreateProgramWithSource(clb_device_context(dev), 1, &src, NULL, CLB_ERRP));
    CLB_CL(d, clBuildProgram(prog, 1, &id, "", NULL, NULL));
    CLB_CL(d, k = clCreateKernel(prog, "probe", CLB_ERRP));
    CLB_CL(d, clGetKernelWorkGroupInfo(k, id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof *width, width, NULL));
cleanup:
    clb_release_kernel(k);
    clb_release_program(prog);
    return d->err;
}

static void add_simd_width(cJSON *o, clb_device *dev)
{
    cl_device_id id = clb_device_reference(dev)->device;
    clb_diag d;
    size_t width = 0;
    char how[512];
    if (probe_width(dev, &width, &d) != CLB_OK) {
        char why[sizeof d.msg + 256];
        snprintf(how, sizeof how, "probe kernel failed: %s", clb_diag_format(&d, why, sizeof why));
        entry(o, "simd_width", NULL, how);
        return;
    }
    cJSON *e = entry(o, "simd_width", cJSON_CreateNumber((double)width),
                     "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of lib/device/probe.cl");
    /* Cross-check with the vendor's own attribute where one exists. */
    const char *src = NULL;
    cl_ulong vendor = 0;
    if (clb_device_has_extension(dev, "cl_nv_device_attribute_query")) {
        src = "CL_DEVICE_WARP_SIZE_NV";
        vendor = ulong_info(id, CLB_DEVICE_WARP_SIZE_NV, sizeof(cl_uint));
    } else if (clb_device_has_extension(dev, "cl_amd_device_attribute_query")) {
        src = "CL_DEVICE_WAVEFRONT_WIDTH_AMD";
        vendor = ulong_info(id, CLB_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof(cl_uint));
    }
    if (src && vendor) {
        cJSON_AddStringToObject(e, "vendor_source", src);
        cJSON_AddNumberToObject(e, "vendor_value", (double)vendor);
        cJSON_AddBoolToObject(e, "agrees", vendor == width);
    }
}

static void add_memory(cJSON *o, clb_device *dev)
{
    cl_device_id id = clb_device_reference(dev)->device;
    cl_ulong ltype = ulong_info(id, CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type));
    cJSON *lm = cJSON_CreateObject();
    cJSON_AddStringToObject(lm, "type", ltype == CL_LOCAL ? "dedicated" : ltype == CL_GLOBAL
                                                                              ? "emulated in global memory"
                                                                              : "none");
    cJSON_AddNumberToObject(lm, "size_bytes", (double)ulong_info(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)));
    entry(o, "local_memory", lm, "CL_DEVICE_LOCAL_MEM_TYPE (CL_LOCAL = dedicated) and CL_DEVICE_LOCAL_MEM_SIZE");

    cl_ulong ctype = ulong_info(id, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type));
    cJSON *gc = cJSON_CreateObject();
    cJSON_AddStringToObject(gc, "type", ctype == CL_READ_WRITE_CACHE ? "read-write"
                                        : ctype == CL_READ_ONLY_CACHE ? "read-only" : "none");
    cJSON_AddNumberToObject(gc, "line_bytes",
                            (double)ulong_info(id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)));
    cJSON_AddNumberToObject(gc, "size_bytes",
                            (double)ulong_info(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)));
    entry(o, "global_cache", gc,
          "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE and "
          "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE as the driver reports them (not measured)");
}

cJSON *clb_derived_json(clb_device *dev)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_precisions(o, dev);
    add_simd_width(o, dev);
    add_memory(o, dev);
    clb_devdb_derived(o, dev); /* the device database row and physical limits */
    return o;
}
