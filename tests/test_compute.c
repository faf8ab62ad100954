/* Unit tests of the compute.* model (lib/bench/compute/compute_model.c) and the device database
 * (lib/device/devdb.c): operation counts, half rounding, the host reference on hand-checked
 * chains, the validation bound (a perturbed result must fail it), and the peak formula. */
#include "bench/compute/compute_model.h"
#include "device/devdb.h"
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

static void test_counts(void)
{
    cm_config cfg = {4, 8, CM_REG, 64};
    CHECK(cm_op_weight(CM_ADD) == 1 && cm_op_weight(CM_MUL) == 1);
    CHECK(cm_op_weight(CM_FMA) == 2 && cm_op_weight(CM_MAD) == 2 && cm_op_weight(CM_MADFN) == 2);
    CHECK(cm_op_weight(CM_MAD24) == 2 && cm_op_weight(CM_DOT4) == 8 && cm_op_weight(CM_MUL24) == 1);
    CHECK(cm_ops_per_iter_lane(CM_FMA, 8) == 24.0 * 8 * 2);
    CHECK(cm_ops_per_iter_lane(CM_ADD, 3) == 72.0);
    /* global 4096 x 10 iterations x width 4 x 24 steps x 8 chains x 2 */
    CHECK(cm_ops_per_launch(CM_FMA, &cfg, 4096, 10) == 4096.0 * 10 * 4 * 384);
}

static void test_shapes(void)
{
    cm_row f = {CM_FP32, CM_FMA}, m = {CM_FP32, CM_MUL}, ia = {CM_INT32, CM_ADD},
           im = {CM_INT32, CM_MAD}, i24 = {CM_INT24, CM_MAD24};
    CHECK(cm_shape_valid(f, CM_REG, 1) && cm_shape_valid(f, CM_ARG, 1));
    CHECK(cm_shape_valid(f, CM_PINGPONG, 2) && !cm_shape_valid(f, CM_PINGPONG, 1));
    CHECK(!cm_shape_valid(m, CM_PINGPONG, 2));
    CHECK(!cm_shape_valid(ia, CM_REG, 2) && cm_shape_valid(ia, CM_PINGPONG, 2));
    CHECK(cm_shape_valid(im, CM_REG, 2) && cm_shape_valid(im, CM_PINGPONG, 4));
    CHECK(!cm_shape_valid(i24, CM_PINGPONG, 2));
    cm_row m24 = {CM_INT24, CM_MUL24};
    CHECK(!cm_shape_valid(m24, CM_REG, 2) && !cm_shape_valid(m24, CM_ARG, 2));
    CHECK(cm_shape_valid(m24, CM_PINGPONG, 2));
}

static void test_half(void)
{
    CHECK(cm_half_bits(1.0) == 0x3C00);
    CHECK(cm_half_bits(-2.0) == 0xC000);
    CHECK(cm_half_bits(65504.0) == 0x7BFF);
    CHECK(cm_half_bits(1e6) == 0x7C00);
    CHECK(cm_half_bits(ldexp(1, -24)) == 0x0001);
    CHECK(cm_half_value(0x3555) == cm_round_half(1.0 / 3));
    CHECK(cm_round_half(1 + ldexp(1, -11)) == 1.0);                   /* tie to even */
    CHECK(cm_round_half(1 + 3 * ldexp(1, -11)) == 1 + ldexp(1, -9));  /* tie to even, up */
    for (unsigned h = 0; h < 0x7C00; h += 7)
        CHECK(cm_half_bits(cm_half_value((uint16_t)h)) == h);
}

/* Two chains of fp32 add over one iteration, against a hand-written loop. */
static void test_reference_add(void)
{
    cm_row r = {CM_FP32, CM_ADD};
    cm_config cfg = {1, 2, CM_REG, 1};
    cm_inputs in = {{1.5, 0.25, -0.125, 0.5}, {0}};
    cm_args a = {{0}, {0}};
    double out[1], maxabs;
    cm_reference(r, &cfg, &in, &a, 1, out, &maxabs);
    float c0 = 1.5f, c1 = 2.0f; /* chain j starts at x0 + j*d */
    for (int u = 0; u < CM_UNROLL; u++) {
        c0 += (u & 1) ? -0.125f : 0.25f;
        c1 += (u & 1) ? -0.125f : 0.25f;
    }
    CHECK(out[0] == (double)(c0 + c1));
    CHECK(maxabs >= c1);
}

/* uint mad pingpong over two iterations, by hand. */
static void test_reference_int(void)
{
    cm_row r = {CM_INT32, CM_MAD};
    cm_config cfg = {2, 2, CM_PINGPONG, 1};
    cm_inputs in = {{0}, {7, 0, 0, 2}};
    cm_args a = {{0}, {0, 0, 12345}};
    double out[2], maxabs;
    cm_reference(r, &cfg, &in, &a, 2, out, &maxabs);
    for (unsigned l = 0; l < 2; l++) {
        uint32_t x = 7 + 2 * l, y = 7 + 2 * (2 + l);
        for (int s = 0; s < 2 * CM_UNROLL; s++) {
            x = x * y + 12345u;
            y = y * x + 12345u;
        }
        CHECK(out[l] == (double)(uint32_t)(x + y));
    }
}

/* The bound accepts the reference and rejects a result one part in 10^4 off (fp32 fma,
 * generated inputs, 16 chains, width 4), and is exact for integers. */
/* Packed 8-bit dot product chain over one iteration, by hand; width 1 only. */
static void test_reference_dot4(void)
{
    cm_row r = {CM_INT32, CM_DOT4};
    cm_config cfg = {1, 1, CM_REG, 1};
    cm_inputs in = {{0}, {0x01020304u, 0x05060708u, 77u, 0}};
    cm_args a = {{0}, {0}};
    double out[1], maxabs;
    cm_reference(r, &cfg, &in, &a, 1, out, &maxabs);
    uint32_t x = 0x01020304u;
    for (int s = 0; s < CM_UNROLL; s++) {
        uint32_t d = 0;
        for (int i = 0; i < 4; i++)
            d += ((x >> (8 * i)) & 255u) * ((0x05060708u >> (8 * i)) & 255u);
        x = d + 77u;
    }
    CHECK(out[0] == (double)x);
    CHECK(cm_width_valid(r, 1) && !cm_width_valid(r, 4));
    CHECK(!cm_shape_valid(r, CM_PINGPONG, 2) && cm_shape_valid(r, CM_ARG, 1));
}

static void test_bound(void)
{
    cm_row r = {CM_FP32, CM_FMA}, rm = {CM_FP32, CM_MAD}, ri = {CM_INT32, CM_MAD};
    cm_config cfg = {4, 16, CM_REG, 1};
    uint64_t rng = 42;
    cm_inputs in;
    cm_args a;
    double out[4], maxabs;
    cm_gen_args(r, &rng, &a);
    cm_gen_inputs(r, &rng, &in);
    cm_reference(r, &cfg, &in, &a, 50, out, &maxabs);
    double tol = cm_tolerance(r, &cfg, maxabs);
    CHECK(tol > 0 && tol < 1e-4 * fabs(out[0]));
    CHECK(cm_tolerance(rm, &cfg, maxabs) > tol);
    CHECK(cm_tolerance(ri, &cfg, 1e9) == 0);
    CHECK(isfinite(out[0]) && fabs(out[0]) > 1);
    for (int l = 0; l < 4; l++)
        CHECK(out[l] != out[(l + 1) % 4]); /* lanes differ */
    /* the result depends on the iteration count */
    double out51[4];
    cm_reference(r, &cfg, &in, &a, 51, out51, &maxabs);
    CHECK(fabs(out51[0] - out[0]) > tol);
    /* bounded operand patterns: after many iterations values stay in range */
    cm_reference(r, &cfg, &in, &a, 5000, out, &maxabs);
    CHECK(maxabs < 100 && isfinite(out[0]));
}

/* The search's choice from noisy screening rates: NaN (did not run) and non-positive
 * rates never win, ties keep the earlier point, order is best first. */
static void test_top_k(void)
{
    double r[] = {NAN, 10.0, 55.5, -1.0, 0.0, 55.5, 54.9, NAN, 3.0};
    size_t idx[3] = {99, 99, 99};
    CHECK(cm_top_k(r, 9, idx, 2) == 2 && idx[0] == 2 && idx[1] == 5);
    CHECK(cm_top_k(r, 9, idx, 3) == 3 && idx[2] == 6);
    double none[] = {NAN, 0.0, -5.0};
    CHECK(cm_top_k(none, 3, idx, 2) == 0);
    /* noisy: 200 points around 100 with one true maximum at 150 */
    double noisy[200];
    uint64_t st = 7;
    for (int i = 0; i < 200; i++)
        noisy[i] = 100 + (double)(clb_rand64(&st) % 2000) / 100.0 - 10.0;
    noisy[137] = 150;
    CHECK(cm_top_k(noisy, 200, idx, 1) == 1 && idx[0] == 137);
    CHECK(cm_top_k(noisy, 200, idx, 2) == 2 && noisy[idx[1]] <= 110 && noisy[idx[1]] >= noisy[0]);
}

static void test_devdb(void)
{
    CHECK(clb_devdb_find("NVIDIA Corporation", "NVIDIA H100 80GB HBM3") != NULL);
    CHECK(clb_devdb_find("NVIDIA Corporation", "NVIDIA H200")->fp64_lanes == 64);
    CHECK(clb_devdb_find("NVIDIA Corporation", "NVIDIA A100-SXM4-80GB")->fp32_lanes == 64);
    CHECK(clb_devdb_find("Intel(R) Corporation", "NVIDIA H100") == NULL);
    CHECK(clb_devdb_find("NVIDIA Corporation", "NVIDIA GeForce GTX 1080") == NULL);
    /* H100 SXM5: 132 SMs x 128 lanes x 2 x 1980 MHz = 66.9 TFLOPS */
    CHECK(fabs(clb_devdb_formula(132, 128, 2, 1980) - 66908.16) < 0.01);
}

int main(void)
{
    test_counts();
    test_shapes();
    test_half();
    test_reference_add();
    test_reference_int();
    test_reference_dot4();
    test_bound();
    test_top_k();
    test_devdb();
    printf("test_compute: %d failure(s)\n", failures);
    return failures != 0;
}
