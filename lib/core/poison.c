/* Poisoned outputs and the faults tests plant in them: a validator must see every element a
 * kernel was to write, so each output starts as values no correct kernel produces. */
#include "core/internal.h"

#include <string.h>

/* A quiet NaN as float (0x7FF8xxxx) and, two words side by side, as double. */
#define POISON_HIGH 0x7FF80000u
#define POISON_DEFAULT 0x7FF8DEADu
#define FAULT_BYTE 0xA5

uint32_t clb_poison_word(const clb_ctx *c)
{
    return c && c->poison ? c->poison : POISON_DEFAULT;
}

/* The poison of a new run: its payload (16 bits, never 0) differs from run to run. */
uint32_t clb_poison_draw(void)
{
    uint64_t s = (uint64_t)(clb_now() * 1e9) ^ (uint64_t)(uintptr_t)&s;
    uint32_t payload = (uint32_t)(clb_rand64(&s) & 0xFFFFu);
    return POISON_HIGH | (payload ? payload : 0xDEADu);
}

clb_error clb_poison(clb_ctx *c, cl_mem buf, size_t bytes)
{
    clb_diag *d = &c->diag;
    cl_command_queue q = clb_device_queue(c->dev);
    uint32_t w = clb_poison_word(c);
    size_t whole = bytes / 4 * 4;
    if (whole)
        CLB_CL(d, clEnqueueFillBuffer(q, buf, &w, 4, 0, whole, 0, NULL, NULL));
    if (bytes > whole)
        CLB_CL(d, clEnqueueWriteBuffer(q, buf, CL_FALSE, whole, bytes - whole, &w, 0, NULL, NULL));
    CLB_CL(d, clFinish(q));
cleanup:
    return d->err;
}

void clb_poison_host(const clb_ctx *c, void *buf, size_t bytes)
{
    uint32_t w = clb_poison_word(c);
    unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i += 4)
        memcpy(p + i, &w, bytes - i < 4 ? bytes - i : 4);
}

clb_error clb_check_untouched(const clb_ctx *c, const uint32_t *out, size_t from, size_t to,
                              clb_diag *d)
{
    uint32_t p = clb_poison_word(c);
    for (size_t i = from; i < to; i++)
        if (out[i] != p)
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "word %zu: 0x%08x where no launch wrote (poison 0x%08x)", i,
                                (unsigned)out[i], (unsigned)p);
    return CLB_OK;
}

/* Where a partial or skip fault falls: [*off, *off + *len), 4-byte aligned, inside bytes. */
static void fault_span(const clb_ctx *c, size_t bytes, size_t *off, size_t *len)
{
    size_t words = bytes / 4 ? bytes / 4 : 1;
    uint64_t s = 0x5EEDFA17ull ^ clb_poison_word(c);
    size_t n = c->opts->inject_fault == CLB_FAULT_SKIP ? (words + 15) / 16 : 1;
    size_t at = (size_t)(clb_rand64(&s) % (uint64_t)(words - n + 1));
    *off = at * 4;
    *len = n * 4 < bytes - *off ? n * 4 : bytes - *off;
}

clb_error clb_fault_apply(clb_ctx *c, cl_mem buf, size_t bytes)
{
    clb_diag *d = &c->diag;
    cl_command_queue q = clb_device_queue(c->dev);
    const cl_uchar junk = FAULT_BYTE;
    size_t off = 0, len = bytes;
    uint32_t w = clb_poison_word(c);
    if (!c->opts->inject_fault || !buf || !bytes)
        return CLB_OK;
    if (c->opts->inject_fault != CLB_FAULT_WRONG)
        fault_span(c, bytes, &off, &len);
    if (c->opts->inject_fault == CLB_FAULT_SKIP && len % 4 == 0)
        CLB_CL(d, clEnqueueFillBuffer(q, buf, &w, 4, off, len, 0, NULL, NULL));
    else
        CLB_CL(d, clEnqueueFillBuffer(q, buf, &junk, 1, off, len, 0, NULL, NULL));
    CLB_CL(d, clFinish(q));
cleanup:
    return d->err;
}

void clb_fault_apply_host(const clb_ctx *c, void *buf, size_t bytes)
{
    size_t off = 0, len = bytes;
    if (!c->opts->inject_fault || !buf || !bytes)
        return;
    if (c->opts->inject_fault != CLB_FAULT_WRONG)
        fault_span(c, bytes, &off, &len);
    if (c->opts->inject_fault == CLB_FAULT_SKIP)
        clb_poison_host(c, (unsigned char *)buf + off, len);
    else
        memset((unsigned char *)buf + off, FAULT_BYTE, len);
}
