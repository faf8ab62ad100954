/* One OpenCL rung of the GEMM ladder on the device: padded buffers, the build with the
 * rung's macros, the launch geometry, a timed launch and the check of its output. */
#include "apps/gemm/gemm_cl.h"

#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* The source prefix: the element type and the rung's compile-time sizes. */
static void prefix(const gemm_rung *r, const gemm_blk *b, size_t prec, size_t kp, char *buf,
                   size_t len)
{
    int o = snprintf(buf, len, "%s#define REAL %s\n#define REAL4 %s4\n#define REAL8 %s8\n",
                     prec == 8 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "",
                     prec == 8 ? "double" : "float", prec == 8 ? "double" : "float",
                     prec == 8 ? "double" : "float");
    if (o > 0 && (size_t)o < len && r->private_a)
        o += snprintf(buf + o, len - (size_t)o, "#define KP %zu\n", kp);
    if (o > 0 && (size_t)o < len && (r->kind == RK_BLOCK || r->kind == RK_VEC))
        o += snprintf(buf + o, len - (size_t)o, "#define FAMILY %u\n", b->family);
    if (o > 0 && (size_t)o < len && b->family == 3 && r->kind == RK_BLOCK)
        snprintf(buf + o, len - (size_t)o,
                 "#define WBM %u\n#define WBN %u\n#define WBK %u\n#define WTM %u\n#define WTN %u\n"
                 "#define WLN %u\n#define WFV %u\n#define WDB %u\n#define WFA %u\n", b->tsm, b->tsn,
                 b->tsk, b->wptm, b->wptn, b->ln, b->vw, b->dbuf, b->fa);
    else if (o > 0 && (size_t)o < len && b->family == 0 && r->kind == RK_BLOCK)
        snprintf(buf + o, len - (size_t)o,
                 "#define TSM %u\n#define TSN %u\n#define TSK %u\n#define WPTM %u\n"
                 "#define WPTN %u\n#define VW %u\n#define DBUF %u\n",
                 b->tsm, b->tsn, b->tsk, b->wptm, b->wptn, b->vw, b->dbuf);
    else if (o > 0 && (size_t)o < len && (b->family >= 1 || r->kind == RK_VEC))
        snprintf(buf + o, len - (size_t)o, "#define RM %u\n#define W %u\n#define VN %u\n"
                 "#define MB %u\n#define KC %u\n", b->rm, b->w, b->vn, b->mb, b->kc);
}

size_t gemm_warp_items(const gemm_blk *b)
{
    return (size_t)(b->tsm / b->wptm) * (b->tsn / b->wptn);
}

size_t gemm_warp_local_bytes(const gemm_blk *b, size_t prec)
{
    return (b->dbuf >= 3 ? b->dbuf : b->dbuf ? 2u : 1u) * b->tsk * (b->tsm + 4u + b->tsn) * prec;
}

/* Family 3's kernel assumes fragments of vw = 4 (or 2) rows and columns, 1, 2 or 4 of each per
 * item, at most 8 x 8 outputs, one or two local buffers (dbuf 2: two, B copied asynchronously;
 * 3, 4: a ring of that many stages, A and B copied asynchronously), K slices of whole 4-vectors and, with
 * lanes along N, whole warps of 32 that tile the items' grid. */
static int warp_ok(const gemm_blk *b)
{
    unsigned rm = b->wptm ? b->tsm / b->wptm : 0, rn = b->wptn ? b->tsn / b->wptn : 0;
    unsigned gm = b->vw ? b->wptm / b->vw : 0, gn = b->vw ? b->wptn / b->vw : 0;
    return (b->vw == 4 || b->vw == 2) && b->dbuf <= 4 && b->wptm % b->vw == 0 &&
           b->wptn % b->vw == 0 && (gm == 1 || gm == 2 || gm == 4) && (gn == 1 || gn == 2 || gn == 4) &&
           b->wptm <= 8 && b->wptn <= 8 && b->tsk && b->tsk % 4 == 0 && b->tsn % 4 == 0 &&
           b->tsm % b->wptm == 0 && b->tsn % b->wptn == 0 &&
           (!b->ln || (32 % b->ln == 0 && rn % b->ln == 0 && rm % (32 / b->ln) == 0));
}

/* Padded sizes, work-group and global sizes of rung r; local bytes it needs in *lbytes. */
static clb_error geometry(gemm_dev *g, const gemm_rung *r, const gemm_blk *b, size_t prec,
                          size_t *lbytes, clb_diag *d)
{
    size_t n = g->m->n;
    *lbytes = 0;
    g->dims = 2;
    if (r->kind == RK_2D || r->kind == RK_TILED) {
        g->mp = g->np = round_up(n, 16);
        g->kp = r->kind == RK_TILED ? round_up(n, 16) : n;
        g->local[0] = g->local[1] = 16;
        g->global[0] = g->global[1] = g->mp;
    } else if (r->kind == RK_ROW) {
        g->dims = 1;
        g->local[0] = 64;
        g->mp = round_up(n, 64);
        g->np = n;
        g->kp = round_up(n, r->kvec);
        g->global[0] = g->mp;
        *lbytes = r->local_b ? g->kp * prec : 0;
    } else if (b->family == 2 && r->kind == RK_BLOCK) {
        if (!b->rm || !b->vn || !b->mb || !b->kc || (b->w != 8 && b->w != 16))
            return clb_diag_set(d, CLB_ERR_USAGE, "inconsistent packed-panel configuration");
        g->mp = round_up(n, (size_t)b->rm * b->mb);
        g->np = round_up(n, (size_t)b->vn * b->w);
        g->kp = n;
        g->local[0] = g->local[1] = 1; /* one item per group: PoCL runs it as one loop nest */
        g->global[0] = g->mp / ((size_t)b->rm * b->mb);
        g->global[1] = g->np / ((size_t)b->vn * b->w);
        g->pack_global[0] = g->kp;
        g->pack_global[1] = g->global[1];
    } else if (b->family == 3 && r->kind == RK_BLOCK) {
        if (!warp_ok(b))
            return clb_diag_set(d, CLB_ERR_USAGE, "inconsistent warp-tile configuration");
        g->mp = round_up(n, b->tsm);
        g->np = round_up(n, b->tsn);
        g->kp = round_up(n, b->tsk);
        g->local[0] = gemm_warp_items(b);
        g->local[1] = 1;
        g->global[0] = g->local[0] * (g->np / b->tsn);
        g->global[1] = g->mp / b->tsm;
        *lbytes = gemm_warp_local_bytes(b, prec);
    } else if (b->family == 1 || r->kind == RK_VEC) {
        if (!b->rm || !b->vn || (b->w != 2 && b->w != 4 && b->w != 8 && b->w != 16))
            return clb_diag_set(d, CLB_ERR_USAGE, "inconsistent register-vector configuration");
        g->mp = round_up(n, b->rm);
        g->np = round_up(n, (size_t)b->vn * b->w);
        g->kp = n;
        g->local[0] = 0; /* the implementation chooses */
        g->global[0] = g->mp / b->rm;
        g->global[1] = g->np / ((size_t)b->vn * b->w);
    } else {
        if (!b->wptm || !b->wptn || b->tsm % b->wptm || b->tsn % b->wptn || b->tsk % b->vw ||
            b->tsn % b->vw)
            return clb_diag_set(d, CLB_ERR_USAGE, "inconsistent tile configuration");
        g->mp = round_up(n, b->tsm);
        g->np = round_up(n, b->tsn);
        g->kp = round_up(n, b->tsk);
        g->local[0] = b->tsn / b->wptn;
        g->local[1] = b->tsm / b->wptm;
        g->global[0] = g->np / b->wptn;
        g->global[1] = g->mp / b->wptm;
        *lbytes = (1 + b->dbuf) * b->tsk * (b->tsm + b->tsn) * prec;
    }
    return CLB_OK;
}

/* Zero-padded rows x cols copy of the n x n matrix src. Caller frees. */
static void *padded(const void *src, size_t n, size_t rows, size_t cols, size_t prec)
{
    char *p = calloc(rows * cols, prec);
    if (p)
        for (size_t i = 0; i < n; i++)
            memcpy(p + i * cols * prec, (const char *)src + i * n * prec, n * prec);
    return p;
}

/* Zero-padded cols x rows copy of the transpose of the n x n matrix src: B column-major, as
 * seed 002 lays it out from its rung 2 on (its generation, like this copy, is not timed). */
static void *padded_transposed(const void *src, size_t n, size_t rows, size_t cols, size_t prec)
{
    char *p = calloc(rows * cols, prec);
    if (p)
        for (size_t k = 0; k < n; k++)
            for (size_t j = 0; j < n; j++)
                memcpy(p + (j * rows + k) * prec, (const char *)src + (k * n + j) * prec, prec);
    return p;
}

static clb_error check_limits(gemm_dev *g, size_t lbytes, clb_diag *d)
{
    cl_device_id dev = clb_device_reference(g->c->dev)->device;
    cl_ulong lmem = 0;
    size_t wg = 0, want = g->local[0] ? g->local[0] * (g->dims == 2 ? g->local[1] : 1) : 1;
    CLB_CL(d, clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
    CLB_CL(d, clGetKernelWorkGroupInfo(g->k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    if (lbytes > lmem)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "the rung needs %zu bytes of local memory, the device has %llu",
                 lbytes, (unsigned long long)lmem);
    if (want > wg)
        CLB_FAIL(d, CLB_ERR_UNSUPPORTED, "the rung needs work-groups of %zu, the kernel allows %zu",
                 want, wg);
cleanup:
    return d->err;
}

static clb_error upload(gemm_dev *g, int bt, size_t prec, clb_diag *d)
{
    cl_context ctx = clb_device_context(g->c->dev);
    void *ap = padded(g->m->a, g->m->n, g->mp, g->kp, prec);
    void *bp = bt ? padded_transposed(g->m->b, g->m->n, g->kp, g->np, prec)
                  : padded(g->m->b, g->m->n, g->kp, g->np, prec);
    if (!ap || !bp)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory for the padded inputs");
    CLB_CL(d, g->a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, g->mp * g->kp * prec, ap, CLB_ERRP));
    CLB_CL(d, g->b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, g->kp * g->np * prec, bp, CLB_ERRP));
    CLB_CL(d, g->cbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, g->mp * g->np * prec, NULL, CLB_ERRP));
    /* Stale output must not pass the check: C (padding included) starts as this run's poison,
     * per variant (every screened candidate sets up its own). */
    clb_poison(g->c, g->cbuf, g->mp * g->np * prec);
cleanup:
    free(ap);
    free(bp);
    return d->err;
}

static clb_error set_args(gemm_dev *g, size_t lbytes, clb_diag *d)
{
    cl_int mi = (cl_int)g->mp, ni = (cl_int)g->np, ki = (cl_int)g->kp;
    CLB_CL(d, clSetKernelArg(g->k, 0, sizeof mi, &mi));
    CLB_CL(d, clSetKernelArg(g->k, 1, sizeof ni, &ni));
    CLB_CL(d, clSetKernelArg(g->k, 2, sizeof ki, &ki));
    CLB_CL(d, clSetKernelArg(g->k, 3, sizeof g->a, &g->a));
    CLB_CL(d, clSetKernelArg(g->k, 4, sizeof g->b, &g->b));
    CLB_CL(d, clSetKernelArg(g->k, 5, sizeof g->cbuf, &g->cbuf));
    if (lbytes && g->dims == 1)
        CLB_CL(d, clSetKernelArg(g->k, 6, lbytes, NULL));
cleanup:
    return d->err;
}

/* Family 2: the packing kernel and the packed copy of B, which the GEMM reads instead of B. */
static clb_error pack_setup(gemm_dev *g, clb_diag *d)
{
    cl_int ni = (cl_int)g->np, ki = (cl_int)g->kp;
    CLB_CL(d, g->pack = clCreateKernel(g->prog, "gemm_pack_b", CLB_ERRP));
    CLB_CL(d, g->bp = clCreateBuffer(clb_device_context(g->c->dev), CL_MEM_READ_WRITE,
                                     g->kp * g->np * g->m->prec, NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(g->pack, 0, sizeof ni, &ni));
    CLB_CL(d, clSetKernelArg(g->pack, 1, sizeof ki, &ki));
    CLB_CL(d, clSetKernelArg(g->pack, 2, sizeof g->b, &g->b));
    CLB_CL(d, clSetKernelArg(g->pack, 3, sizeof g->bp, &g->bp));
    CLB_CL(d, clSetKernelArg(g->k, 4, sizeof g->bp, &g->bp));
cleanup:
    return d->err;
}

/* With CLBENCH_DUMP_DIR set: the program of every configuration built (rows and the tuned
 * rung's screened candidates), named by rung, precision and configuration, for the machine code
 * behind a figure (NVIDIA: PTX, for ptxas and cuobjdump). */
static void dump_binary(cl_program prog, const gemm_rung *r, const gemm_blk *b, size_t prec)
{
    char name[160], path[1024];
    snprintf(name, sizeof name, "gemm_%s_%s_f%u_%ux%ux%u_%ux%u_vw%u_db%u_ln%u_fa%u%s%.0u", r->name,
             prec == 4 ? "s" : "d", b->family, b->tsm, b->tsn, b->tsk, b->wptm, b->wptn, b->vw, b->dbuf,
             b->ln, b->fa, b->mr ? "_mr" : "", b->mr);
    clb_dump_program_binary(prog, name, path, sizeof path);
}

clb_error gemm_dev_setup(clb_ctx *c, const gemm_rung *r, const gemm_blk *blk, const gemm_mats *m,
                         gemm_dev *g)
{
    clb_diag *d = &c->diag;
    char pre[512], kname[64], opts[64] = "";
    size_t lbytes = 0;
    /* NVIDIA's own driver, not only its hardware (clb_device_is_nvidia): its compiler takes the
     * inline PTX and -cl-nv-* options these forms use; PoCL's CUDA driver does not. */
    int nvidia = strstr(clb_device_reference(c->dev)->platform_name, "NVIDIA") != NULL;
    *g = (gemm_dev){.c = c, .m = m, .q = clb_device_queue(c->dev)};
    if (geometry(g, r, blk, m->prec, &lbytes, d) != CLB_OK)
        return d->err;
    if (m->n > 0x7fffffff / m->n)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "n = %zu overflows the kernels' int indices", m->n);
    prefix(r, blk, m->prec, g->kp, pre, sizeof pre);
    if (nvidia) /* inline PTX (cp.async) */
        snprintf(pre + strlen(pre), sizeof pre - strlen(pre), "#define WCP_ASM 1\n");
    if (blk->mr && !nvidia)
        return clb_diag_set(d, CLB_ERR_UNSUPPORTED, "a register cap (max_regs %u) is a build option of "
                            "NVIDIA's OpenCL compiler only", blk->mr);
    if (blk->mr) {
        snprintf(opts, sizeof opts, "-cl-nv-maxrregcount=%u", blk->mr);
        snprintf(pre + strlen(pre), sizeof pre - strlen(pre), "#define WMR 1\n");
    }
    snprintf(kname, sizeof kname, "gemm_%s", r->name);
    if (clb_build(c, "gemm_rungs", pre, opts, &g->prog) != CLB_OK)
        return d->err;
    CLB_CL(d, g->k = clCreateKernel(g->prog, kname, CLB_ERRP));
    dump_binary(g->prog, r, blk, m->prec);
    if (check_limits(g, lbytes, d) != CLB_OK || upload(g, r->bt, m->prec, d) != CLB_OK)
        goto cleanup;
    if (set_args(g, lbytes, d) == CLB_OK && blk->family == 2 && r->kind == RK_BLOCK)
        pack_setup(g, d);
cleanup:
    return d->err;
}

clb_error gemm_dev_once(void *state, double *seconds, clb_diag *d)
{
    gemm_dev *g = state;
    double pack_s = 0;
    /* Family 2: the packing is part of the GEMM's time (both kernels' START->END). */
    if (g->pack && app_launch(g->q, g->pack, 2, g->pack_global, NULL, &pack_s, d) != CLB_OK)
        return d->err;
    if (app_launch(g->q, g->k, g->dims, g->global, g->local[0] ? g->local : NULL, seconds, d) == CLB_OK)
        *seconds += pack_s;
    return d->err;
}

/* The padded rows and columns of C are products of the zero padding of A and B: exactly 0.
 * Checked, so that every byte of the buffer the kernel wrote (and a fault can hit) counts. */
static clb_error padding_check(const gemm_dev *g, const void *c, clb_diag *d)
{
    size_t n = g->m->n, prec = g->m->prec;
    for (size_t i = 0; i < g->mp; i++)
        for (size_t j = i < n ? n : 0; j < g->np; j++) {
            double v = prec == 4 ? (double)((const float *)c)[i * g->np + j] : ((const double *)c)[i * g->np + j];
            if (v != 0)
                return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                    "padding C[%zu][%zu] = %.9g, expected 0 (n = %zu, padded %zu x %zu)",
                                    i, j, v, n, g->mp, g->np);
        }
    return CLB_OK;
}

clb_error gemm_dev_check(gemm_dev *g, clb_diag *d)
{
    size_t bytes = g->mp * g->np * g->m->prec;
    void *host = malloc(bytes);
    clb_diag_clear(d);
    if (!host)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clEnqueueReadBuffer(g->q, g->cbuf, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    if (padding_check(g, host, d) == CLB_OK)
        gemm_check(g->m, host, g->np, (uint64_t)(uintptr_t)g ^ (uint64_t)(clb_now() * 1e6), d);
cleanup:
    free(host);
    return d->err;
}

void gemm_dev_release(gemm_dev *g)
{
    clb_release_mem(g->a);
    clb_release_mem(g->b);
    clb_release_mem(g->cbuf);
    clb_release_mem(g->bp);
    clb_release_kernel(g->pack);
    clb_release_kernel(g->k);
    clb_release_program(g->prog);
    g->a = g->b = g->cbuf = g->bp = NULL;
    g->k = g->pack = NULL;
    g->prog = NULL;
}
