/* Internal to transfer.*: the variants, the run state, and the functions shared between
 * transfer.c (sweep, result), transfer_paths.c (buffers, enqueue, verification) and
 * transfer_report.c (curve, fit, zero-copy, link). */
#ifndef CLB_BENCH_TRANSFER_H
#define CLB_BENCH_TRANSFER_H

#include "core/internal.h"

typedef enum { XF_H2D, XF_D2H, XF_D2D, XF_BIDIR } xfer_dir;
typedef enum {
    XF_PAGEABLE,     /* malloc'd, 64-byte aligned */
    XF_UNALIGNED,    /* malloc'd, pointer at 64-byte alignment + 1 */
    XF_PINNED,       /* CL_MEM_ALLOC_HOST_PTR buffer mapped once: its pointer is the host side */
    XF_USE_HOST_PTR, /* page-aligned host memory wrapped as a CL_MEM_USE_HOST_PTR buffer: the
                        host side is synchronized by map/unmap, then copied (see uhp_cycle) */
    XF_MAPPED,       /* clEnqueueMapBuffer / clEnqueueUnmapMemObject of a device buffer */
    XF_DEVICE        /* no host side: clEnqueueCopyBuffer between device buffers */
} xfer_host;

typedef struct transfer_variant {
    const char *name;
    xfer_dir dir;
    xfer_host host;
    int blocking; /* CL_TRUE for the read/write/map call; else enqueue + clWaitForEvents */
} transfer_variant;

#define XF_MAX_SIZES 32
#define XF_MAX_EVENTS 3 /* commands of one transfer (map, unmap, copy) */

/* Everything one run owns. H2D: host (random) -> dev. D2H: dev (random) -> host. D2D: dev
 * (random) -> dev2. Bidirectional: host -> dev on q and dev2 (random) -> host2 on q2. */
typedef struct xfer {
    clb_ctx *c;
    const transfer_variant *v;
    cl_context ctx;
    cl_command_queue q, q2; /* q2: a second in-order queue, bidirectional only (owned) */
    cl_mem dev, dev2;       /* device buffers */
    cl_mem hbuf, hbuf2;     /* pinned (ALLOC_HOST_PTR) or USE_HOST_PTR buffers */
    void *mem;              /* malloc'd host memory behind host */
    void *uhp;              /* page-aligned memory wrapped by the USE_HOST_PTR buffer hbuf */
    unsigned char *host, *host2;
    unsigned char *scratch; /* chunk for reading a device buffer back */
    size_t max;             /* largest size */
    char max_reason[160];   /* what bounded it */
    size_t nsizes, cur;     /* cur: size index being measured and verified */
    int headline_only;      /* the sweep is 4 B and max only (--largest-only, not --quick) */
    size_t sizes[XF_MAX_SIZES];
    uint64_t sums[XF_MAX_SIZES]; /* checksum of the first sizes[i] bytes of the random data */
} xfer;

typedef struct xfer_sweep {
    size_t n;
    double bytes[XF_MAX_SIZES];   /* bytes moved per transfer (both directions: 2 x size) */
    double ev_med[XF_MAX_SIZES];  /* median profiling time, s */
    double wall_med[XF_MAX_SIZES];/* median wall time, s */
    double *last_ev;              /* profiling seconds of every rep at the largest size */
    unsigned nlast;
    int bidirectional; /* bytes count both directions */
    int wall_fallback; /* an event outlasted the wall clock: every time above is wall clock */
} xfer_sweep;

/* transfer_paths.c */
clb_error xfer_setup(clb_ctx *c, const transfer_variant *v, xfer *x);
void xfer_teardown(xfer *x);
clb_error xfer_enqueue(xfer *x, size_t s, cl_event *ev, unsigned *nev, clb_diag *d);
clb_error xfer_event_seconds(const xfer *x, cl_event *ev, unsigned nev, double *s,
                             clb_diag *d);
cl_mem xfer_fault_target(const xfer *x);
clb_error xfer_verify(xfer *x, clb_diag *d);
uint64_t xfer_checksum(const unsigned char *p, size_t n, uint64_t h);
#define XF_CHECKSUM_SEED 0xcbf29ce484222325ull

/* transfer_report.c */
const char *xfer_timer_name(const transfer_variant *v);
/* Curve, fit, reference, configuration; returns 1 when the path is zero-copy (map/unmap whose
 * time does not grow with size), whose headline is then a time, not a bandwidth. */
int xfer_report(clb_ctx *c, const xfer *x, const xfer_sweep *sw, clb_result *res);
/* The PCIe link and the efficiency of the headline (after it is set). */
void xfer_report_link(clb_ctx *c, const xfer *x, clb_result *res);

#endif
