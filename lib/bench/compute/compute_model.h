/* The model of lib/bench/compute/compute.cl shared by the benchmark (lib/bench/compute/compute.c) and the unit
 * tests: types, operations, operand shapes, exact operation counts, input generation and
 * the host reference that recomputes a work-item's chains in the same precision. */
#ifndef CLB_COMPUTE_MODEL_H
#define CLB_COMPUTE_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum { CM_FP32, CM_FP64, CM_FP16, CM_INT32, CM_INT24 } cm_type;
/* Values match CLB_OP in kernels/compute.cl. */
typedef enum {
    CM_ADD = 1, CM_MUL = 2, CM_MAD = 3, CM_FMA = 4, CM_MADFN = 5, CM_MAD24 = 6, CM_DOT4 = 7, CM_MUL24 = 8
} cm_op;
typedef enum { CM_REG = 0, CM_ARG = 1, CM_PINGPONG = 2 } cm_shape;

#define CM_UNROLL 24 /* steps per loop iteration, as in seed 000 §4.3.1 */
#define CM_MAX_WIDTH 16
#define CM_MAX_CHAINS 16

/* One registry row: a precision and an operation. */
typedef struct cm_row {
    cm_type type;
    cm_op op;
} cm_row;

/* One point of the search. */
typedef struct cm_config {
    unsigned width;  /* 1, 2, 4, 8, 16 */
    unsigned chains; /* independent accumulators per work-item */
    cm_shape shape;
    size_t wg;       /* work-group size */
} cm_config;

const char *cm_type_name(cm_type t);   /* "fp32", ... */
const char *cm_op_name(cm_op op);      /* "add", ... */
const char *cm_shape_name(cm_shape s); /* "reg", "arg", "pingpong" */
const char *cm_scalar_cl(cm_type t);   /* OpenCL C scalar: "float", "uint", ... */
size_t cm_elem_bytes(cm_type t);
int cm_is_int(cm_type t);

/* 1 when the kernel defines shape s for the row (pingpong needs an even chain count). */
int cm_shape_valid(cm_row r, cm_shape s, unsigned chains);
/* 1 when the kernel defines vector width w for the row (dot4: width 1 only). */
int cm_width_valid(cm_row r, unsigned w);
/* Operations per step, chain and lane: 1 for add and mul, 2 for the multiply-adds, 8 for
 * the packed 8-bit dot product with accumulate. */
unsigned cm_op_weight(cm_op op);
/* Counted operations of one loop iteration for one lane: CM_UNROLL * chains * weight. */
double cm_ops_per_iter_lane(cm_op op, unsigned chains);
/* Counted operations of one launch: global * iters * width * cm_ops_per_iter_lane. */
double cm_ops_per_launch(cm_op op, const cm_config *cfg, size_t global, uint64_t iters);

/* Inputs of one work-item (x0, a, b, d) and the uniform kernel arguments (ka, kb, kp), as
 * doubles holding values exactly representable in the type (floating types) or as uint32. */
typedef struct cm_inputs {
    double f[4];
    uint32_t u[4];
} cm_inputs;
typedef struct cm_args {
    double f[3];
    uint32_t u[3];
} cm_args;

/* Fills one work-item's inputs / the kernel arguments for row r from the generator state. */
void cm_gen_inputs(cm_row r, uint64_t *rng, cm_inputs *in);
void cm_gen_args(cm_row r, uint64_t *rng, cm_args *a);
/* Stores value i of in into buf (the device layout of the type, element index k). */
void cm_store_input(cm_type t, void *buf, size_t k, const cm_inputs *in, int i);
/* Writes the kernel argument i of a in the device's layout into out (cm_elem_bytes). */
void cm_store_arg(cm_type t, void *out, const cm_args *a, int i);
/* Reads element k of an output buffer as double (floating) or uint32 (as double). */
double cm_load_output(cm_type t, const void *buf, size_t k);

/* Recomputes the output lanes of one work-item: out[l] for l < cfg->width. *maxabs gets the
 * largest magnitude any accumulator reached (for the error bound). */
void cm_reference(cm_row r, const cm_config *cfg, const cm_inputs *in, const cm_args *a,
                  uint64_t iters, double *out, double *maxabs);
/* Allowed |device - host| for one lane: 0 for integers; for floating types
 * u * maxabs * chains * (8 + (400 when the op may or may not be fused)) with u the unit
 * roundoff (docs/results/compute.md derives it). */
double cm_tolerance(cm_row r, const cm_config *cfg, double maxabs);

/* Indices of the k largest positive rates, best first, in idx (k entries at most); NaN,
 * zero and negative rates (points that did not run) are skipped; ties keep the earlier
 * point. Returns how many were found. */
size_t cm_top_k(const double *rates, size_t n, size_t *idx, size_t k);

/* IEEE half helpers (round to nearest even). */
uint16_t cm_half_bits(double v);
double cm_half_value(uint16_t h);
double cm_round_half(double v);

#endif
