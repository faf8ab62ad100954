/* Shrink-and-retry on allocation failure (docs/measurement.md "Allocation failures"). */
#include "core/internal.h"

int clb_alloc_failed(const clb_diag *d)
{
    if (d->err == CLB_ERR_NOMEM)
        return 1;
    return d->err == CLB_ERR_CL &&
           (d->cl_err == CL_MEM_OBJECT_ALLOCATION_FAILURE || d->cl_err == CL_OUT_OF_RESOURCES ||
            d->cl_err == CL_OUT_OF_HOST_MEMORY || d->cl_err == CL_INVALID_BUFFER_SIZE);
}

size_t clb_shrink_size(const clb_ctx *c, size_t planned, size_t floor)
{
    clb_shrink *sh = c->shrink;
    if (!sh)
        return planned;
    size_t lowest = planned >> CLB_SHRINK_MAX, s = planned;
    floor = floor > lowest ? floor : lowest;
    unsigned h = 0;
    while (h < sh->halvings && s / 2 >= floor) {
        s /= 2;
        h++;
    }
    sh->more = h == sh->halvings && s / 2 >= floor;
    sh->from = planned;
    sh->to = s;
    return s;
}
