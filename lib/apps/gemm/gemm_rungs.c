/* The GEMM ladder's rungs, one table read by the rows (gemm.c) and by the tuned search
 * (gemm_tune.c, which screens the fixed rungs' configurations first); apart from both so that
 * neither calls the other back. */
#include "apps/gemm/gemm_cl.h"

#define BLK(m, n, k, wm, wn, v, db) {m, n, k, wm, wn, v, db, 0, 0, 0, 0, 0, 0, 0, 0, 0}
#define VEC(rm, w, vn) {0, 0, 0, 0, 0, 0, 0, 1, rm, w, vn, 0, 0, 0, 0, 0}
#define WRP(m, n, k, tm, tn, ln, fa) {m, n, k, tm, tn, 4, 1, 3, 0, 0, 0, 0, 0, ln, fa, 0}
#define NOB BLK(0, 0, 0, 0, 0, 0, 0)
/* Seed 002's nine rungs in its order, with its CPUTime / GPUTotalTime on its CPU and on the
 * HD 4870 (sections 2.2-2.8), then the blocked rungs beyond it; the two variants with the
 * work-item mapping swapped and B row-major (index -1) are clbench's, outside the ladder. */
const gemm_rung gemm_rungs[] = {
    {"naive", RK_2D, 1, 0, 0, NOB, 2, 1, 0, 12.479, 9.002},
    {"coalesced", RK_2D, 1, 0, 0, NOB, 3, 1, 1, 16.207, 7.176},
    {"private_acc", RK_2D, 1, 0, 0, NOB, 4, 1, 1, 24.863, 69.541},
    {"row", RK_ROW, 1, 0, 0, NOB, 5, 1, 1, 17.385, 55.119},
    {"row_private_a", RK_ROW, 1, 0, 1, NOB, 6, 1, 1, 18.587, 69.242},
    {"row_local_b", RK_ROW, 1, 1, 1, NOB, 7, 1, 1, 17.630, 58.069},
    {"row_float4", RK_ROW, 4, 0, 1, NOB, 8, 1, 1, 18.657, 78.079},
    {"row_float4_noconv", RK_ROW, 4, 0, 1, NOB, 9, 1, 1, 24.480, 185.605},
    {"row_float8", RK_ROW, 8, 0, 1, NOB, 10, 1, 1, 45.226, 170.115},
    {"tiled", RK_TILED, 1, 0, 0, NOB, 11, 1, 0, 0, 0},
    {"regblock", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 1, 0), 12, 0, 0, 0, 0},
    {"vectorized", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 0), 13, 0, 0, 0, 0},
    {"double_buffered", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 1), 14, 0, 0, 0, 0},
    {"register_vectors", RK_VEC, 1, 0, 0, VEC(8, 8, 2), 15, 0, 0, 0, 0},
    {"warp_tiles", RK_BLOCK, 1, 0, 0, WRP(128, 128, 8, 8, 8, 8, 1), 16, 0, 0, 0, 0},
    {"tuned", RK_BLOCK, 1, 0, 0, BLK(64, 64, 16, 4, 4, 4, 1), 17, 0, 0, 0, 0},
    {"coalesced_map", RK_2D, 1, 0, 0, NOB, -1, 1, 0, 0, 0},
    {"private_acc_map", RK_2D, 1, 0, 0, NOB, -1, 1, 0, 0, 0},
};
enum { NRUNGS = sizeof gemm_rungs / sizeof gemm_rungs[0] };

const gemm_rung *gemm_rung_table(size_t *count)
{
    *count = NRUNGS;
    return gemm_rungs;
}

