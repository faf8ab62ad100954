/* A CUDA twin module of ABI version 1 (before euler_string was appended): test_cuda_load checks
 * that the loader refuses it with a reason instead of reading its table past the end. */
#include <stddef.h>

typedef struct old_api {
    int abi_version;
    void (*entries[6])(void); /* device_name .. strmatch: never called */
} old_api;

static const old_api api = {1, {NULL}};

const old_api *clbcu_get_api(void);
const old_api *clbcu_get_api(void)
{
    return &api;
}
