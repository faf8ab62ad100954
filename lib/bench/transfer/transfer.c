/* transfer.*: host<->device and device<->device copies over a size sweep (4 B .. 1 GiB in
 * powers of two, bounded by the allocation limit and host memory; 4 B, 4 KiB, 1 MiB, 16 MiB
 * under --quick). Each size: warm-up, repetitions timed with the transfer command's profiling
 * event (and the host's wall clock around it), then a verification transfer compared by
 * checksum. The headline is the median bandwidth at the largest size; params carry the curve,
 * the latency + bandwidth fit (lib/bench/transfer/transfer_fit.c), the seed's 4-byte reference subtraction and the
 * PCIe link's theoretical bandwidth with the efficiency (lib/bench/transfer/transfer_report.c). No kernel: the
 * transfers are OpenCL API commands. */
#include "core/internal.h"
#include "bench/transfer/transfer_fit.h"
#include "bench/transfer/transfer.h"

#include <stdlib.h>
#include <string.h>

static const transfer_variant variants[] = {
    {"h2d_pageable", XF_H2D, XF_PAGEABLE, 1},
    {"d2h_pageable", XF_D2H, XF_PAGEABLE, 1},
    {"h2d_pageable_nb", XF_H2D, XF_PAGEABLE, 0},
    {"d2h_pageable_nb", XF_D2H, XF_PAGEABLE, 0},
    {"h2d_unaligned", XF_H2D, XF_UNALIGNED, 1},
    {"d2h_unaligned", XF_D2H, XF_UNALIGNED, 1},
    {"h2d_pinned", XF_H2D, XF_PINNED, 1},
    {"d2h_pinned", XF_D2H, XF_PINNED, 1},
    {"h2d_pinned_nb", XF_H2D, XF_PINNED, 0},
    {"d2h_pinned_nb", XF_D2H, XF_PINNED, 0},
    {"h2d_use_host_ptr", XF_H2D, XF_USE_HOST_PTR, 0},
    {"d2h_use_host_ptr", XF_D2H, XF_USE_HOST_PTR, 0},
    {"map_write", XF_H2D, XF_MAPPED, 1},
    {"map_read", XF_D2H, XF_MAPPED, 1},
    {"d2d", XF_D2D, XF_DEVICE, 0},
    {"bidirectional", XF_BIDIR, XF_PINNED, 0},
};

static const transfer_variant *variant_named(const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (name && strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

/* ---- the sweep ---- */

typedef struct tsample {
    double ev_s, wall_s;
    int over; /* the event outlasted the wall clock */
} tsample;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static clb_error transfer_once(xfer *x, size_t s, tsample *t, clb_diag *d)
{
    cl_event ev[XF_MAX_EVENTS] = {NULL, NULL, NULL};
    unsigned nev = 0;
    double t0 = clb_now();
    if (xfer_enqueue(x, s, ev, &nev, d) != CLB_OK)
        goto cleanup;
    CLB_CL(d, clWaitForEvents(nev, ev));
    t->wall_s = clb_now() - t0;
    if (xfer_event_seconds(x, ev, nev, &t->ev_s, d) != CLB_OK)
        goto cleanup;
    if (!(t->ev_s > 0))
        CLB_FAIL(d, CLB_ERR_INVALID_TIMING,
                 "profiling reports 0 ns for a %zu-byte transfer (timer too coarse)", s);
    /* An event cannot outlast the host's wait for it (2% + 50 us slack for granularity);
     * when it does, the row falls back to the wall clock (run_sweep). */
    t->over = clb_event_outlasts_wall(t->ev_s, t->wall_s);
cleanup:
    for (unsigned i = 0; i < XF_MAX_EVENTS; i++)
        clb_release_event(ev[i]);
    return d->err;
}

/* Warm-up, reps timed transfers of size index i (event seconds into ev, wall into wall),
 * then the verification. */
static clb_error measure_size(clb_ctx *c, xfer *x, size_t i, double *ev, double *wall,
                              unsigned reps, char *why, size_t whyn)
{
    clb_diag *d = &c->diag;
    tsample t;
    size_t s = x->sizes[i];
    unsigned warm = c->opts->warmup ? c->opts->warmup : 1;
    clb_diag_clear(d);
    x->cur = i;
    for (unsigned r = 0; r < warm; r++)
        if (transfer_once(x, s, &t, d) != CLB_OK)
            return d->err;
    for (unsigned r = 0; r < reps; r++) {
        if (transfer_once(x, s, &t, d) != CLB_OK)
            return d->err;
        ev[r] = t.ev_s;
        wall[r] = t.wall_s;
        if (t.over && !why[0])
            snprintf(why, whyn, "profiling reported %.6f s for a %zu-byte transfer, the wall "
                     "clock only %.6f s: every time of this row is the wall clock", t.ev_s, s,
                     t.wall_s);
    }
    return clb_validate(c, x, xfer_fault_target(x), s);
}

static clb_error run_sweep(clb_ctx *c, xfer *x, xfer_sweep *sw)
{
    clb_diag *d = &c->diag;
    unsigned reps = clb_reps(c);
    char why[256] = "";
    double *ev = malloc(reps * sizeof *ev), *wall = malloc(reps * sizeof *wall),
           *last_wall = malloc(reps * sizeof *last_wall);
    if (!ev || !wall || !last_wall)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < x->nsizes; i++) {
        if (measure_size(c, x, i, ev, wall, reps, why, sizeof why) != CLB_OK)
            goto cleanup;
        if (i + 1 == x->nsizes) { /* the largest size: its samples are the headline's */
            memcpy(sw->last_ev, ev, reps * sizeof *ev);
            memcpy(last_wall, wall, reps * sizeof *wall);
        }
        sw->bytes[i] = (double)x->sizes[i] * (x->v->dir == XF_BIDIR ? 2.0 : 1.0);
        sw->ev_med[i] = median_of(ev, reps);
        sw->wall_med[i] = median_of(wall, reps);
    }
    sw->n = x->nsizes;
    sw->nlast = reps;
    sw->bidirectional = x->v->dir == XF_BIDIR;
    /* One clock for the whole row: a profiling clock that is wrong once is not trusted. */
    if (why[0]) {
        sw->wall_fallback = 1;
        memcpy(sw->ev_med, sw->wall_med, sizeof sw->ev_med);
        memcpy(sw->last_ev, last_wall, reps * sizeof *last_wall);
        clb_param_str(c->res, "timing_fallback", why);
    }
cleanup:
    free(ev);
    free(wall);
    free(last_wall);
    return d->err;
}

/* ---- the result ---- */

static clb_error set_headline(clb_ctx *c, const xfer_sweep *sw, int zero_copy)
{
    clb_diag *d = &c->diag;
    double *v = malloc(sw->nlast * sizeof *v), bytes = sw->bytes[sw->n - 1];
    if (!v)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (unsigned r = 0; r < sw->nlast; r++)
        v[r] = zero_copy ? 1e6 * sw->last_ev[r] : bytes / sw->last_ev[r] / 1e9;
    const char *timer = sw->wall_fallback ? "wall_clock_monotonic enqueue->wait (fallback)"
                                          : xfer_timer_name(variant_named(c->bench->arg));
    if (clb_result_set_samples(c->res, v, sw->nlast, zero_copy ? "us" : "GB/s", !zero_copy,
                               timer) != CLB_OK)
        clb_diag_set(d, CLB_ERR_INVALID_TIMING, "%s", c->res->reason);
    free(v);
    return d->err;
}

clb_error clb_transfer_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    xfer x;
    xfer_sweep sw;
    memset(&sw, 0, sizeof sw);
    const transfer_variant *v = variant_named(c->bench->arg);
    if (!v)
        return clb_diag_set(d, CLB_ERR_USAGE, "unknown transfer variant");
    if (xfer_setup(c, v, &x) != CLB_OK)
        goto cleanup;
    sw.last_ev = malloc(clb_reps(c) * sizeof *sw.last_ev);
    if (!sw.last_ev)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    if (run_sweep(c, &x, &sw) != CLB_OK)
        goto cleanup;
    int zero_copy = xfer_report(c, &x, &sw, res);
    if (set_headline(c, &sw, zero_copy) != CLB_OK)
        goto cleanup;
    xfer_report_link(c, &x, res);
cleanup:
    free(sw.last_ev);
    xfer_teardown(&x);
    return d->err;
}

clb_error clb_transfer_validate(clb_ctx *c, void *state, clb_diag *d)
{
    (void)c;
    return xfer_verify(state, d);
}

/* The transfer group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_transfer_rows[] = {
    {"transfer.h2d_pageable", "transfer",
     "host->device clEnqueueWriteBuffer, pageable 64-byte-aligned host memory, blocking (GB/s at the largest size)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_pageable"},
    {"transfer.d2h_pageable", "transfer",
     "device->host clEnqueueReadBuffer, pageable 64-byte-aligned host memory, blocking (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_pageable"},
    {"transfer.h2d_pageable_nb", "transfer",
     "host->device clEnqueueWriteBuffer, pageable host memory, non-blocking + wait (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_pageable_nb"},
    {"transfer.d2h_pageable_nb", "transfer",
     "device->host clEnqueueReadBuffer, pageable host memory, non-blocking + wait (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_pageable_nb"},
    {"transfer.h2d_unaligned", "transfer",
     "host->device clEnqueueWriteBuffer, pageable host memory at 64-byte alignment + 1, blocking (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_unaligned"},
    {"transfer.d2h_unaligned", "transfer",
     "device->host clEnqueueReadBuffer, pageable host memory at 64-byte alignment + 1, blocking (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_unaligned"},
    {"transfer.h2d_pinned", "transfer",
     "host->device clEnqueueWriteBuffer from a mapped CL_MEM_ALLOC_HOST_PTR buffer (pinned), blocking (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_pinned"},
    {"transfer.d2h_pinned", "transfer",
     "device->host clEnqueueReadBuffer into a mapped CL_MEM_ALLOC_HOST_PTR buffer (pinned), blocking (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_pinned"},
    {"transfer.h2d_pinned_nb", "transfer",
     "host->device clEnqueueWriteBuffer from pinned memory, non-blocking + wait (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_pinned_nb"},
    {"transfer.d2h_pinned_nb", "transfer",
     "device->host clEnqueueReadBuffer into pinned memory, non-blocking + wait (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_pinned_nb"},
    {"transfer.h2d_use_host_ptr", "transfer",
     "host->device via a CL_MEM_USE_HOST_PTR buffer: map/unmap + clEnqueueCopyBuffer (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "h2d_use_host_ptr"},
    {"transfer.d2h_use_host_ptr", "transfer",
     "device->host via a CL_MEM_USE_HOST_PTR buffer: clEnqueueCopyBuffer + map/unmap (GB/s)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2h_use_host_ptr"},
    {"transfer.map_write", "transfer",
     "map (CL_MAP_WRITE_INVALIDATE_REGION) + unmap of a device buffer (GB/s, or us when zero-copy)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "map_write"},
    {"transfer.map_read", "transfer",
     "map (CL_MAP_READ) + unmap of a device buffer (GB/s, or us when zero-copy)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "map_read"},
    {"transfer.d2d", "transfer",
     "device->device clEnqueueCopyBuffer (GB/s, bytes copied)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "d2d"},
    {"transfer.bidirectional", "transfer",
     "host->device and device->host at once on two in-order queues, pinned memory (GB/s, both directions)",
     CLB_REQ_NONE, clb_transfer_run, clb_transfer_validate, "bidirectional"},
};
const size_t clb_transfer_row_count = sizeof clb_transfer_rows / sizeof clb_transfer_rows[0];
