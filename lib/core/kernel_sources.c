/* Lookup of the kernels embedded at build time (generated/embedded_kernels.c). */
#include "core/internal.h"

#include <string.h>

struct clb_embedded_kernel {
    const char *name;
    const char *source;
};
extern const struct clb_embedded_kernel clb_embedded_kernels[];

size_t clb_kernel_count(void)
{
    size_t n = 0;
    while (clb_embedded_kernels[n].name)
        n++;
    return n;
}

const char *clb_kernel_name_at(size_t i)
{
    return i < clb_kernel_count() ? clb_embedded_kernels[i].name : NULL;
}

const char *clb_kernel_source(const char *name)
{
    for (size_t i = 0; clb_embedded_kernels[i].name; i++)
        if (strcmp(clb_embedded_kernels[i].name, name) == 0)
            return clb_embedded_kernels[i].source;
    return NULL;
}
