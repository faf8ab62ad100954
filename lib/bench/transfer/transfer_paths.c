/* transfer.*: the buffers of each path, one transfer, and its verification by checksum. */
#include "bench/transfer/transfer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MiB ((size_t)1 << 20)
#define XF_CHUNK (16 * MiB) /* read-back chunk: a multiple of 8, so checksums stream */
static const cl_uchar JUNK = 0x3C;  /* device destinations before the first transfer */
static const cl_uchar TOUCH = 0x5A; /* host destinations: pages touched, old data not passing */

/* FNV-1a over 64-bit words, then bytes for the tail. Streaming: a call continues h when
 * every earlier chunk's length was a multiple of 8. */
uint64_t xfer_checksum(const unsigned char *p, size_t n, uint64_t h)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* ---- sizes ---- */

/* MemAvailable from /proc/meminfo in bytes; 0 when unknown. */
static double host_available_bytes(void)
{
    char line[256];
    double kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024.0;
}

static void bound(double *limit, double v, const char *why, xfer *x)
{
    if (v > 0 && v < *limit) {
        *limit = v;
        snprintf(x->max_reason, sizeof x->max_reason, "%s", why);
    }
}

static clb_error choose_max(clb_ctx *c, xfer *x)
{
    clb_diag *d = &c->diag;
    cl_ulong alloc = 0, global = 0;
    cl_device_id dev = clb_device_reference(c->dev)->device;
    double limit = c->opts->quick ? 16.0 * (double)MiB : 1024.0 * (double)MiB;
    snprintf(x->max_reason, sizeof x->max_reason, "%s",
             c->opts->quick ? "--quick: 4 B, 4 KiB, 1 MiB, 16 MiB" : "the sweep's 1 GiB cap");
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL));
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
    bound(&limit, (double)alloc, "CL_DEVICE_MAX_MEM_ALLOC_SIZE", x);
    bound(&limit, (double)global / 4, "CL_DEVICE_GLOBAL_MEM_SIZE / 4 (two buffers, headroom)", x);
    bound(&limit, host_available_bytes() / 4,
          "MemAvailable / 4 (host source, destination, driver staging)", x);
    /* A smaller sweep on request (recorded in provenance.environment like every CLBENCH_*). */
    bound(&limit, clb_settings_get()->transfer_max_bytes, "CLBENCH_TRANSFER_MAX_BYTES", x);
    x->max = 4;
    while ((double)x->max * 2 <= limit)
        x->max *= 2;
    if ((double)x->max > limit)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "not even 4 bytes can be allocated (%s)", x->max_reason);
    x->max = clb_shrink_size(c, x->max, 4096); /* halved after an allocation failure */
cleanup:
    return d->err;
}

static void make_sizes(xfer *x, int quick, int largest_only)
{
    static const size_t quick_sizes[] = {4, 4096, MiB, 16 * MiB};
    x->nsizes = 0;
    x->headline_only = largest_only && !quick;
    if (x->headline_only) { /* the headline and the 4-byte reference, nothing between */
        x->sizes[x->nsizes++] = 4;
        if (x->max > 4)
            x->sizes[x->nsizes++] = x->max;
        return;
    }
    if (quick) {
        for (size_t i = 0; i < 4; i++)
            if (quick_sizes[i] <= x->max)
                x->sizes[x->nsizes++] = quick_sizes[i];
        return;
    }
    for (size_t s = 4; s <= x->max && x->nsizes < XF_MAX_SIZES; s *= 2)
        x->sizes[x->nsizes++] = s;
}

/* Checksums of every prefix in one pass (sizes ascend; all but 4 B are multiples of 8). */
static void compute_sums(xfer *x)
{
    uint64_t h = XF_CHECKSUM_SEED;
    size_t done = 0;
    for (size_t i = 0; i < x->nsizes; i++) {
        size_t s = x->sizes[i];
        if (s % 8) {
            x->sums[i] = xfer_checksum(x->host, s, XF_CHECKSUM_SEED);
            continue;
        }
        h = xfer_checksum(x->host + done, s - done, h);
        done = s;
        x->sums[i] = h;
    }
}

/* ---- buffers ---- */

static clb_error host_alloc(xfer *x, size_t align, size_t offset, clb_diag *d)
{
    size_t n = (x->max + offset + align - 1) / align * align;
    x->mem = aligned_alloc(align, n);
    if (!x->mem)
        return clb_diag_set(d, CLB_ERR_NOMEM, "cannot allocate %zu bytes of host memory", n);
    x->host = (unsigned char *)x->mem + offset;
    return CLB_OK;
}

/* An ALLOC_HOST_PTR buffer mapped once; its pointer stays mapped for the whole run. */
static clb_error pinned_alloc(xfer *x, cl_mem *buf, unsigned char **host, clb_diag *d)
{
    void *p = NULL;
    CLB_CL(d, *buf = clCreateBuffer(x->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, x->max,
                                    NULL, CLB_ERRP));
    CLB_CL(d, p = clEnqueueMapBuffer(x->q, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, x->max,
                                     0, NULL, NULL, CLB_ERRP));
    *host = p;
cleanup:
    return d->err;
}

static clb_error host_side(xfer *x, clb_diag *d)
{
    switch (x->v->host) {
    case XF_PINNED:
        if (pinned_alloc(x, &x->hbuf, &x->host, d) != CLB_OK)
            return d->err;
        return x->v->dir == XF_BIDIR ? pinned_alloc(x, &x->hbuf2, &x->host2, d) : CLB_OK;
    case XF_UNALIGNED:
        return host_alloc(x, 64, 1, d);
    case XF_USE_HOST_PTR: /* page-aligned: what zero-copy wrapping needs on Intel and AMD */
        x->uhp = aligned_alloc(4096, (x->max + 4095) / 4096 * 4096);
        if (!x->uhp)
            return clb_diag_set(d, CLB_ERR_NOMEM, "cannot allocate %zu bytes", x->max);
        memset(x->uhp, TOUCH, x->max);
        return host_alloc(x, 64, 0, d);
    default:
        return host_alloc(x, 64, 0, d);
    }
}

static clb_error device_side(xfer *x, clb_diag *d)
{
    cl_device_id dev = clb_device_reference(x->c->dev)->device;
    if (x->v->host == XF_USE_HOST_PTR)
        CLB_CL(d, x->hbuf = clCreateBuffer(x->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                           x->max, x->uhp, CLB_ERRP));
    CLB_CL(d, x->dev = clCreateBuffer(x->ctx, CL_MEM_READ_WRITE, x->max, NULL, CLB_ERRP));
    if (x->v->dir == XF_D2D || x->v->dir == XF_BIDIR)
        CLB_CL(d, x->dev2 = clCreateBuffer(x->ctx, CL_MEM_READ_WRITE, x->max, NULL, CLB_ERRP));
    if (x->v->dir == XF_BIDIR)
        CLB_CL(d, x->q2 = clCreateCommandQueue(x->ctx, dev, CL_QUEUE_PROFILING_ENABLE, CLB_ERRP));
cleanup:
    return d->err;
}

/* Random data where the transfer reads, junk or a touch pattern where it writes; every page
 * touched before timing. */
static clb_error init_data(xfer *x, clb_diag *d)
{
    xfer_dir dir = x->v->dir;
    cl_mem src = dir == XF_BIDIR ? x->dev2 : x->dev;
    cl_mem dst = dir == XF_H2D || dir == XF_BIDIR ? x->dev : dir == XF_D2D ? x->dev2 : NULL;
    if (dir != XF_H2D)
        CLB_CL(d, clEnqueueWriteBuffer(x->q, src, CL_TRUE, 0, x->max, x->host, 0, NULL, NULL));
    if (dst)
        CLB_CL(d, clEnqueueFillBuffer(x->q, dst, &JUNK, 1, 0, x->max, 0, NULL, NULL));
    if (dir == XF_D2H && x->v->host != XF_MAPPED && x->v->host != XF_USE_HOST_PTR)
        memset(x->host, TOUCH, x->max);
    if (dir == XF_BIDIR)
        memset(x->host2, TOUCH, x->max);
    CLB_CL(d, clFinish(x->q));
cleanup:
    return d->err;
}

clb_error xfer_setup(clb_ctx *c, const transfer_variant *v, xfer *x)
{
    clb_diag *d = &c->diag;
    memset(x, 0, sizeof *x);
    x->c = c;
    x->v = v;
    x->ctx = clb_device_context(c->dev);
    x->q = clb_device_queue(c->dev);
    if (choose_max(c, x) != CLB_OK)
        return d->err;
    make_sizes(x, c->opts->quick, c->opts->largest_only);
    x->scratch = malloc(x->max < XF_CHUNK ? x->max : XF_CHUNK);
    if (!x->scratch)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    if (host_side(x, d) != CLB_OK)
        return d->err;
    clb_fill_random(x->host, x->max, (uint64_t)(clb_now() * 1e9) | 1u);
    compute_sums(x);
    if (device_side(x, d) != CLB_OK)
        return d->err;
    return init_data(x, d);
}

void xfer_teardown(xfer *x)
{
    if (x->hbuf && x->v->host == XF_PINNED && x->host)
        clEnqueueUnmapMemObject(x->q, x->hbuf, x->host, 0, NULL, NULL);
    if (x->hbuf2 && x->host2)
        clEnqueueUnmapMemObject(x->q, x->hbuf2, x->host2, 0, NULL, NULL);
    if (x->q)
        clFinish(x->q);
    cl_mem bufs[] = {x->dev, x->dev2, x->hbuf, x->hbuf2};
    for (size_t i = 0; i < 4; i++)
        clb_release_mem(bufs[i]);
    if (x->q2)
        clReleaseCommandQueue(x->q2);
    free(x->mem);
    free(x->uhp); /* after the USE_HOST_PTR buffer that wrapped it is released */
    free(x->scratch);
    memset(x, 0, sizeof *x);
}

/* ---- one transfer ---- */

/* Map, (for writing: fill the mapped region from the random source), unmap. */
static clb_error map_cycle(xfer *x, size_t s, cl_event ev[2], clb_diag *d)
{
    void *p = NULL;
    int write = x->v->dir == XF_H2D;
    cl_map_flags f = write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ;
    CLB_CL(d, p = clEnqueueMapBuffer(x->q, x->dev, CL_TRUE, f, 0, s, 0, NULL, &ev[0], CLB_ERRP));
    if (write)
        memcpy(p, x->host, s);
    CLB_CL(d, clEnqueueUnmapMemObject(x->q, x->dev, p, 0, NULL, &ev[1]));
cleanup:
    return d->err;
}

/* CL_MEM_USE_HOST_PTR: the driver may keep a device-side copy of the host memory (NVIDIA
 * does), so a copy from or to the buffer alone need not cross the link. Each transfer
 * therefore includes the synchronization with the host memory: H2D = map for writing + the
 * host's data into it + unmap + copy to the device buffer; D2H = copy into the buffer + map
 * for reading + unmap. Whichever way the driver implements it, the data crosses once. */
static clb_error uhp_cycle(xfer *x, size_t s, cl_event ev[3], clb_diag *d)
{
    void *p = NULL;
    if (x->v->dir == XF_H2D) {
        CLB_CL(d, p = clEnqueueMapBuffer(x->q, x->hbuf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                         s, 0, NULL, &ev[0], CLB_ERRP));
        memcpy(p, x->host, s);
        CLB_CL(d, clEnqueueUnmapMemObject(x->q, x->hbuf, p, 0, NULL, &ev[1]));
        CLB_CL(d, clEnqueueCopyBuffer(x->q, x->hbuf, x->dev, 0, 0, s, 0, NULL, &ev[2]));
    } else {
        CLB_CL(d, clEnqueueCopyBuffer(x->q, x->dev, x->hbuf, 0, 0, s, 0, NULL, &ev[0]));
        CLB_CL(d, p = clEnqueueMapBuffer(x->q, x->hbuf, CL_TRUE, CL_MAP_READ, 0, s, 0, NULL,
                                         &ev[1], CLB_ERRP));
        CLB_CL(d, clEnqueueUnmapMemObject(x->q, x->hbuf, p, 0, NULL, &ev[2]));
    }
cleanup:
    return d->err;
}

static clb_error bidirectional(xfer *x, size_t s, cl_event ev[2], clb_diag *d)
{
    CLB_CL(d, clEnqueueWriteBuffer(x->q, x->dev, CL_FALSE, 0, s, x->host, 0, NULL, &ev[0]));
    CLB_CL(d, clEnqueueReadBuffer(x->q2, x->dev2, CL_FALSE, 0, s, x->host2, 0, NULL, &ev[1]));
    CLB_CL(d, clFlush(x->q));
    CLB_CL(d, clFlush(x->q2));
cleanup:
    return d->err;
}

clb_error xfer_enqueue(xfer *x, size_t s, cl_event *ev, unsigned *nev, clb_diag *d)
{
    cl_bool b = x->v->blocking ? CL_TRUE : CL_FALSE;
    int h2d = x->v->dir == XF_H2D;
    clb_diag_clear(d);
    *nev = x->v->host == XF_USE_HOST_PTR ? 3 : x->v->host == XF_MAPPED || x->v->dir == XF_BIDIR ? 2 : 1;
    if (x->v->host == XF_MAPPED)
        return map_cycle(x, s, ev, d);
    if (x->v->host == XF_USE_HOST_PTR)
        return uhp_cycle(x, s, ev, d);
    if (x->v->dir == XF_BIDIR)
        return bidirectional(x, s, ev, d);
    if (x->v->dir == XF_D2D)
        CLB_CL(d, clEnqueueCopyBuffer(x->q, x->dev, x->dev2, 0, 0, s, 0, NULL, &ev[0]));
    else if (h2d)
        CLB_CL(d, clEnqueueWriteBuffer(x->q, x->dev, b, 0, s, x->host, 0, NULL, &ev[0]));
    else
        CLB_CL(d, clEnqueueReadBuffer(x->q, x->dev, b, 0, s, x->host, 0, NULL, &ev[0]));
cleanup:
    return d->err;
}

/* Map/unmap (and the USE_HOST_PTR cycle): the commands' START->END summed (the host's work
 * between them is not the transfer's). Bidirectional: first START to last END over both
 * queues. Else START->END. */
clb_error xfer_event_seconds(const xfer *x, cl_event *ev, unsigned nev, double *s, clb_diag *d)
{
    cl_ulong t[4], lo = ~(cl_ulong)0, hi = 0, sum = 0;
    for (unsigned i = 0; i < nev; i++) {
        if (clb_event_times(ev[i], t, d) != CLB_OK)
            return d->err;
        if (t[3] < t[2])
            return clb_diag_set(d, CLB_ERR_INVALID_TIMING,
                                "profiling END (%llu) before START (%llu)",
                                (unsigned long long)t[3], (unsigned long long)t[2]);
        sum += t[3] - t[2];
        lo = t[2] < lo ? t[2] : lo;
        hi = t[3] > hi ? t[3] : hi;
    }
    int summed = x->v->host == XF_MAPPED || x->v->host == XF_USE_HOST_PTR;
    *s = 1e-9 * (double)(summed ? sum : hi - lo);
    return CLB_OK;
}

/* ---- verification ---- */

cl_mem xfer_fault_target(const xfer *x)
{
    /* What the fault injection corrupts: the H2D destination (read back), the D2H source (a
     * fresh transfer through the same path must then bring the corruption), the D2D target. */
    return x->v->dir == XF_D2D ? x->dev2 : x->dev;
}

static clb_error readback(xfer *x, cl_command_queue q, cl_mem buf, size_t s, uint64_t *sum,
                          clb_diag *d)
{
    uint64_t h = XF_CHECKSUM_SEED;
    for (size_t off = 0; off < s; off += XF_CHUNK) {
        size_t n = s - off < XF_CHUNK ? s - off : XF_CHUNK;
        CLB_CL(d, clEnqueueReadBuffer(q, buf, CL_TRUE, off, n, x->scratch, 0, NULL, NULL));
        h = xfer_checksum(x->scratch, n, h);
    }
    *sum = h;
cleanup:
    return d->err;
}

/* Checksum of s bytes mapped for reading from buf. */
static clb_error mapped_sum(xfer *x, cl_mem buf, size_t s, uint64_t *sum, clb_diag *d)
{
    void *p = NULL;
    CLB_CL(d, p = clEnqueueMapBuffer(x->q, buf, CL_TRUE, CL_MAP_READ, 0, s, 0, NULL, NULL,
                                     CLB_ERRP));
    *sum = xfer_checksum(p, s, XF_CHECKSUM_SEED);
    CLB_CL(d, clEnqueueUnmapMemObject(x->q, buf, p, 0, NULL, NULL));
    CLB_CL(d, clFinish(x->q));
cleanup:
    return d->err;
}

/* One more device-to-host transfer through the measured path into a touched destination. */
static clb_error verify_d2h(xfer *x, size_t s, uint64_t *sum, clb_diag *d)
{
    cl_event ev[XF_MAX_EVENTS] = {NULL, NULL, NULL};
    unsigned nev = 0;
    if (x->v->host == XF_MAPPED)
        return mapped_sum(x, x->dev, s, sum, d);
    if (x->v->host == XF_USE_HOST_PTR) {
        CLB_CL(d, clEnqueueFillBuffer(x->q, x->hbuf, &TOUCH, 1, 0, s, 0, NULL, NULL));
        CLB_CL(d, clEnqueueCopyBuffer(x->q, x->dev, x->hbuf, 0, 0, s, 0, NULL, NULL));
        return mapped_sum(x, x->hbuf, s, sum, d);
    }
    memset(x->host, TOUCH, s);
    if (xfer_enqueue(x, s, ev, &nev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clWaitForEvents(nev, ev));
    *sum = xfer_checksum(x->host, s, XF_CHECKSUM_SEED);
cleanup:
    for (unsigned i = 0; i < XF_MAX_EVENTS; i++)
        clb_release_event(ev[i]);
    return d->err;
}

static clb_error compare(const xfer *x, const char *what, uint64_t got, clb_diag *d)
{
    size_t s = x->sizes[x->cur];
    if (got == x->sums[x->cur])
        return CLB_OK;
    return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                        "%s: %s of %zu bytes has checksum 0x%016llx, the data sent 0x%016llx",
                        x->v->name, what, s, (unsigned long long)got,
                        (unsigned long long)x->sums[x->cur]);
}

clb_error xfer_verify(xfer *x, clb_diag *d)
{
    size_t s = x->sizes[x->cur];
    uint64_t got = 0;
    clb_diag_clear(d);
    switch (x->v->dir) {
    case XF_D2H:
        if (verify_d2h(x, s, &got, d) != CLB_OK)
            return d->err;
        return compare(x, "the host copy", got, d);
    case XF_D2D:
        if (readback(x, x->q, x->dev2, s, &got, d) != CLB_OK)
            return d->err;
        return compare(x, "the destination buffer read back", got, d);
    case XF_BIDIR:
        memset(x->host2, TOUCH, s);
        CLB_CL(d, clEnqueueReadBuffer(x->q2, x->dev2, CL_TRUE, 0, s, x->host2, 0, NULL, NULL));
        if (compare(x, "the device-to-host half", xfer_checksum(x->host2, s, XF_CHECKSUM_SEED),
                    d) != CLB_OK)
            return d->err;
        break;
    case XF_H2D:
        break;
    }
    if (readback(x, x->q, x->dev, s, &got, d) != CLB_OK)
        return d->err;
    return compare(x, "the device buffer read back", got, d);
cleanup:
    return d->err;
}
