/* The OpenCL rungs of the GEMM ladder: rung descriptions, blocked configurations, and one
 * rung's set-up and timed run (lib/apps/gemm/gemm.c), shared with the tuner. */
#ifndef CLB_APP_GEMM_CL_H
#define CLB_APP_GEMM_CL_H

#include "apps/gemm/gemm.h"

typedef enum { RK_2D, RK_TILED, RK_ROW, RK_BLOCK, RK_VEC } rung_kind;

/* Tile configuration of the blocked kernel (macros of gemm_rungs.cl). */
typedef struct gemm_blk {
    unsigned tsm, tsn, tsk, wptm, wptn, vw, dbuf; /* families 0 (local tiles), 3 (warp tiles: GPU forms;
                                                     vw: fragment width 4 or 2, dbuf: 2 local buffers;
                                                     3, 4: stages of the cp.async ring) */
    unsigned family;                              /* 0 local tiles, 1 register vectors, 2 packed panels, 3 warp tiles */
    unsigned rm, w, vn;                           /* families 1, 2: RM rows x VN vectors of W */
    unsigned mb, kc;                              /* family 2: MB row blocks per item, K slices of KC */
    unsigned ln;                                  /* family 3: a warp's lanes along N (0: rows of items) */
    unsigned fa;                                  /* family 3: fragments read at scalar offsets cast to
                                                     the vector (1) or by vector index (0): same
                                                     addresses, but NVIDIA's compiler schedules the
                                                     8-deep SGEMM tile 1.6x faster with the first and
                                                     the 16-deep one 1.1x faster with the second */
    unsigned mr;                                  /* family 3: registers per item at most (NVIDIA's build
                                                     option -cl-nv-maxrregcount; 0: the compiler's choice) */
} gemm_blk;

typedef struct gemm_rung {
    const char *name;   /* the kernel is gemm_<name> */
    rung_kind kind;
    unsigned kvec;      /* row rungs: K padded to this multiple (vector width) */
    int local_b;        /* row rungs: a __local column of B (K elements) */
    int private_a;      /* row rungs: a private row of A (KP defined) */
    gemm_blk blk;       /* blocked rungs */
    int index;          /* position in the ladder (rung_index); -1: a variant outside the ladder */
    int seed_ladder;    /* runs at the ladder size (CLBENCH_GEMM_LADDER_N) */
    int bt;             /* B uploaded column-major (transposed), as seed 002 stores it from rung 2 */
    double seed_x_cpu;  /* seed 002's CPUTime / GPUTotalTime for this rung on its CPU (_device 0) */
    double seed_x_gpu;  /* ... and on its Radeon HD 4870 (_device 1); 0: not a seed rung */
} gemm_rung;

/* One row: precision (4 or 8 bytes) and rung (NULL for the host rows). */
typedef struct gemm_arg {
    size_t prec;
    const gemm_rung *rung;
    int loop;           /* host loop-order rows: GEMM_LOOP_* + 1; 0 for the others */
} gemm_arg;

/* A rung set up on the device at size n: padded buffers, built kernel, launch geometry. */
typedef struct gemm_dev {
    clb_ctx *c;
    const gemm_mats *m;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem a, b, cbuf;
    cl_kernel pack;     /* family 2: packs B into bp before each launch, timed with it */
    cl_mem bp;
    size_t pack_global[2];
    size_t mp, np, kp;  /* padded sizes */
    size_t global[2], local[2];
    cl_uint dims;
} gemm_dev;

/* The ladder's OpenCL rungs (lib/apps/gemm/gemm.c): the tuner screens the fixed ones'
 * configurations first. */
const gemm_rung *gemm_rung_table(size_t *count);
/* The rungs in ladder order (gemm_rungs.c); gemm_rung_table gives their count. */
extern const gemm_rung gemm_rungs[];

/* Builds rung r with configuration blk (blocked rungs) for m and uploads the padded inputs.
 * Unsupported configurations (local memory, work-group size) return CLB_ERR_UNSUPPORTED. */
clb_error gemm_dev_setup(clb_ctx *c, const gemm_rung *r, const gemm_blk *blk, const gemm_mats *m,
                         gemm_dev *g);
clb_error gemm_dev_once(void *state, double *seconds, clb_diag *d);
/* Reads C back and checks it with gemm_check. */
clb_error gemm_dev_check(gemm_dev *g, clb_diag *d);
void gemm_dev_release(gemm_dev *g);

/* Family 3 (warp tiles): work-items per group and local bytes (one or two buffers) of b. */
size_t gemm_warp_items(const gemm_blk *b);
size_t gemm_warp_local_bytes(const gemm_blk *b, size_t prec);

/* The tuned rung's search: the fastest valid configuration on this device, from the cache
 * or a new search at min(1024 on CPUs / 2048, row_n) (lib/apps/gemm/gemm_tune.c). */
clb_error gemm_tune(clb_ctx *c, const gemm_rung *r, size_t prec, size_t row_n, gemm_blk *best);
/* The tuned blocking cached under key in the cache text[0..len) (the file's contents): 1 when
 * the entry is one of the search's candidates, 0 for anything else (tests/fuzz/fuzz_tune.c). */
int gemm_tune_cache_parse(const char *text, size_t len, const char *key, gemm_blk *out);

#endif
