/* Error names, OpenCL error names and the diagnostic record behind CLB_CL. */
#include "clbench.h"

#include <stdarg.h>
#include <string.h>

#define CLB_NAME_ITEM_(name, text) #name,
#define CLB_TEXT_ITEM_(name, text) text,
static const char *const error_names[] = {CLB_ERROR_LIST(CLB_NAME_ITEM_)};
static const char *const error_texts[] = {CLB_ERROR_LIST(CLB_TEXT_ITEM_)};

const char *clb_error_name(clb_error e)
{
    return (unsigned)e < CLB_ERR_COUNT_ ? error_names[e] : "CLB_ERR_UNKNOWN";
}

const char *clb_error_text(clb_error e)
{
    return (unsigned)e < CLB_ERR_COUNT_ ? error_texts[e] : "unknown error";
}

/* Codes from the OpenCL 3.0 headers and common extensions, listed by value so that the
 * library (built against 1.2) still names errors that newer drivers return. */
#define CLB_CL_ERROR_LIST(X)                                                                     \
    X(0, CL_SUCCESS) X(-1, CL_DEVICE_NOT_FOUND) X(-2, CL_DEVICE_NOT_AVAILABLE)                  \
    X(-3, CL_COMPILER_NOT_AVAILABLE) X(-4, CL_MEM_OBJECT_ALLOCATION_FAILURE)                     \
    X(-5, CL_OUT_OF_RESOURCES) X(-6, CL_OUT_OF_HOST_MEMORY)                                      \
    X(-7, CL_PROFILING_INFO_NOT_AVAILABLE) X(-8, CL_MEM_COPY_OVERLAP)                            \
    X(-9, CL_IMAGE_FORMAT_MISMATCH) X(-10, CL_IMAGE_FORMAT_NOT_SUPPORTED)                        \
    X(-11, CL_BUILD_PROGRAM_FAILURE) X(-12, CL_MAP_FAILURE)                                      \
    X(-13, CL_MISALIGNED_SUB_BUFFER_OFFSET) X(-14, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) \
    X(-15, CL_COMPILE_PROGRAM_FAILURE) X(-16, CL_LINKER_NOT_AVAILABLE)                           \
    X(-17, CL_LINK_PROGRAM_FAILURE) X(-18, CL_DEVICE_PARTITION_FAILED)                           \
    X(-19, CL_KERNEL_ARG_INFO_NOT_AVAILABLE) X(-30, CL_INVALID_VALUE)                            \
    X(-31, CL_INVALID_DEVICE_TYPE) X(-32, CL_INVALID_PLATFORM) X(-33, CL_INVALID_DEVICE)         \
    X(-34, CL_INVALID_CONTEXT) X(-35, CL_INVALID_QUEUE_PROPERTIES)                               \
    X(-36, CL_INVALID_COMMAND_QUEUE) X(-37, CL_INVALID_HOST_PTR)                                 \
    X(-38, CL_INVALID_MEM_OBJECT) X(-39, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                     \
    X(-40, CL_INVALID_IMAGE_SIZE) X(-41, CL_INVALID_SAMPLER) X(-42, CL_INVALID_BINARY)           \
    X(-43, CL_INVALID_BUILD_OPTIONS) X(-44, CL_INVALID_PROGRAM)                                  \
    X(-45, CL_INVALID_PROGRAM_EXECUTABLE) X(-46, CL_INVALID_KERNEL_NAME)                         \
    X(-47, CL_INVALID_KERNEL_DEFINITION) X(-48, CL_INVALID_KERNEL)                               \
    X(-49, CL_INVALID_ARG_INDEX) X(-50, CL_INVALID_ARG_VALUE) X(-51, CL_INVALID_ARG_SIZE)        \
    X(-52, CL_INVALID_KERNEL_ARGS) X(-53, CL_INVALID_WORK_DIMENSION)                             \
    X(-54, CL_INVALID_WORK_GROUP_SIZE) X(-55, CL_INVALID_WORK_ITEM_SIZE)                         \
    X(-56, CL_INVALID_GLOBAL_OFFSET) X(-57, CL_INVALID_EVENT_WAIT_LIST) X(-58, CL_INVALID_EVENT) \
    X(-59, CL_INVALID_OPERATION) X(-60, CL_INVALID_GL_OBJECT) X(-61, CL_INVALID_BUFFER_SIZE)     \
    X(-62, CL_INVALID_MIP_LEVEL) X(-63, CL_INVALID_GLOBAL_WORK_SIZE) X(-64, CL_INVALID_PROPERTY) \
    X(-65, CL_INVALID_IMAGE_DESCRIPTOR) X(-66, CL_INVALID_COMPILER_OPTIONS)                      \
    X(-67, CL_INVALID_LINKER_OPTIONS) X(-68, CL_INVALID_DEVICE_PARTITION_COUNT)                  \
    X(-69, CL_INVALID_PIPE_SIZE) X(-70, CL_INVALID_DEVICE_QUEUE) X(-71, CL_INVALID_SPEC_ID)      \
    X(-72, CL_MAX_SIZE_RESTRICTION_EXCEEDED) X(-1001, CL_PLATFORM_NOT_FOUND_KHR)                 \
    X(-1000, CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR) X(-1002, CL_INVALID_D3D10_DEVICE_KHR)       \
    X(-1057, CL_DEVICE_PARTITION_FAILED_EXT) X(-1058, CL_INVALID_PARTITION_COUNT_EXT)            \
    X(-1059, CL_INVALID_PARTITION_NAME_EXT) X(-1092, CL_EGL_RESOURCE_NOT_ACQUIRED_KHR)           \
    X(-1093, CL_INVALID_EGL_OBJECT_KHR) X(-1094, CL_INVALID_ACCELERATOR_INTEL)                   \
    X(-1095, CL_INVALID_ACCELERATOR_TYPE_INTEL) X(-1096, CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL) \
    X(-1097, CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL) X(-1098, CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL) \
    X(-1099, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL) X(-1100, CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL) \
    X(-1101, CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL) X(-1138, CL_INVALID_COMMAND_BUFFER_KHR)  \
    X(-1139, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR) X(-1140, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR)

const char *clb_cl_error_name(cl_int code)
{
#define CLB_CL_CASE_(value, name) \
    case value:                   \
        return #name;
    switch (code) {
        CLB_CL_ERROR_LIST(CLB_CL_CASE_)
    default:
        return "CL_UNKNOWN_ERROR_CODE";
    }
#undef CLB_CL_CASE_
}

void clb_diag_clear(clb_diag *d)
{
    if (d)
        memset(d, 0, sizeof *d);
}

clb_error clb_diag_set(clb_diag *d, clb_error err, const char *fmt, ...)
{
    if (!d)
        return err;
    clb_diag_clear(d);
    d->err = err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return err;
}

clb_error clb_diag_cl(clb_diag *d, cl_int code, const char *call, const char *file, int line)
{
    if (!d)
        return CLB_ERR_CL;
    clb_diag_clear(d);
    d->err = CLB_ERR_CL;
    d->cl_err = code;
    d->call = call;
    d->file = file;
    d->line = line;
    snprintf(d->msg, sizeof d->msg, "%s (%d)", clb_cl_error_name(code), (int)code);
    return CLB_ERR_CL;
}

char *clb_diag_format(const clb_diag *d, char *buf, size_t n)
{
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (!d)
        return buf;
    if (d->call)
        snprintf(buf, n, "%s failed: %s at %s:%d", d->call, d->msg, d->file ? d->file : "?",
                 d->line);
    else
        snprintf(buf, n, "%s", d->msg[0] ? d->msg : clb_error_text(d->err));
    return buf;
}
