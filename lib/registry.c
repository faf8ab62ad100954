/* The registry: one const row per benchmark; arg names the variant. Adding a benchmark = one lib/bench/NAME.c, one
 * kernels/NAME.cl and one row here (with its functions declared above the table). */
#include "internal.h"

#include <string.h>

/* lib/bench/launch.c */
clb_error clb_launch_run(clb_ctx *c, clb_result *res);
clb_error clb_launch_validate(clb_ctx *c, void *state, clb_diag *d);
/* lib/bench/compile.c */
clb_error clb_compile_run(clb_ctx *c, clb_result *res);
clb_error clb_compile_validate(clb_ctx *c, void *state, clb_diag *d);
/* lib/bench/transfer.c */
clb_error clb_transfer_run(clb_ctx *c, clb_result *res);
clb_error clb_transfer_validate(clb_ctx *c, void *state, clb_diag *d);
/* lib/bench/branch.c, latency.c, atomics.c, sustained.c (microarchitecture probes) */
clb_error clb_branch_run(clb_ctx *c, clb_result *res);
clb_error clb_branch_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_latency_run(clb_ctx *c, clb_result *res);
clb_error clb_latency_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_atomics_run(clb_ctx *c, clb_result *res);
clb_error clb_atomics_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_sustained_run(clb_ctx *c, clb_result *res);
clb_error clb_sustained_validate(clb_ctx *c, void *state, clb_diag *d);
/* lib/bench/compute.c (arg: a cm_row) */
#include "compute_model.h"
clb_error clb_compute_run(clb_ctx *c, clb_result *res);
clb_error clb_compute_validate(clb_ctx *c, void *state, clb_diag *d);
static const cm_row cm_fp32_add = {CM_FP32, CM_ADD}, cm_fp32_mul = {CM_FP32, CM_MUL},
                    cm_fp32_mad = {CM_FP32, CM_MAD}, cm_fp32_fma = {CM_FP32, CM_FMA},
                    cm_fp32_madfn = {CM_FP32, CM_MADFN}, cm_fp64_add = {CM_FP64, CM_ADD},
                    cm_fp64_mul = {CM_FP64, CM_MUL}, cm_fp64_mad = {CM_FP64, CM_MAD},
                    cm_fp64_fma = {CM_FP64, CM_FMA}, cm_fp16_add = {CM_FP16, CM_ADD},
                    cm_fp16_mul = {CM_FP16, CM_MUL}, cm_fp16_fma = {CM_FP16, CM_FMA},
                    cm_int32_add = {CM_INT32, CM_ADD}, cm_int32_mul = {CM_INT32, CM_MUL},
                    cm_int32_mad = {CM_INT32, CM_MAD}, cm_int24_mad = {CM_INT24, CM_MAD24},
                    cm_int8_dot4 = {CM_INT32, CM_DOT4}, cm_int24_mul = {CM_INT24, CM_MUL24};
/* lib/bench/memory*.c (group memory) */
clb_error clb_memory_global_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_global_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_latency_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_latency_local_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_latency_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_read_vs_size_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_caches_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_sweep_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_local_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_local_banks_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_local_validate(clb_ctx *c, void *state, clb_diag *d);

static const clb_bench registry[] = {
    {"launch.queued_submit", "launch", "empty-kernel launch: QUEUED->SUBMIT (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "queued_submit"},
    {"launch.submit_start", "launch", "empty-kernel launch: SUBMIT->START (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "submit_start"},
    {"launch.start_end", "launch", "empty-kernel launch: START->END (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "start_end"},
    {"launch.queued_end", "launch", "empty-kernel launch: QUEUED->END (median, us; what clpeak --kernel-latency averages)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "queued_end"},
    {"launch.roundtrip", "launch", "empty-kernel enqueue->finish round trip on the host clock (median, us)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "roundtrip"},
    {"launch.throughput", "launch", "back-to-back empty kernels: N enqueues and one finish (launches/s)",
     CLB_REQ_COMPILER, clb_launch_run, clb_launch_validate, "throughput"},
    {"compile.short", "compile", "build time of a minimal program, unique source per build (ms)",
     CLB_REQ_COMPILER, clb_compile_run, clb_compile_validate, "compile_short"},
    {"compile.long", "compile", "build time of a 90-function program, unique source per build (ms)",
     CLB_REQ_COMPILER, clb_compile_run, clb_compile_validate, "compile_long"},
    /* transfer.*: host<->device transfers (lib/bench/transfer*.c, issue 5) */
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
    /* ---- microarchitecture probes (issue 6): branch, latency, atomics, sustained ---- */
    {"branch.seed", "branch", "seed 000 4.3.4: time(data-dependent add-or-subtract) / time(straight adds), one work-item (ratio)",
     CLB_REQ_COMPILER, clb_branch_run, clb_branch_validate, "seed"},
    {"branch.divergence", "branch", "divergence sweep over block B: inferred SIMD/warp width (work-items), curve in params",
     CLB_REQ_COMPILER, clb_branch_run, clb_branch_validate, "divergence"},
    {"latency.fp32_add", "latency", "dependent fp32 add chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_add"},
    {"latency.fp32_mul", "latency", "dependent fp32 mul chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_mul"},
    {"latency.fp32_fma", "latency", "dependent fp32 fma chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_fma"},
    {"latency.fp64_fma", "latency", "dependent fp64 fma chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_FP64 | CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp64_fma"},
    {"latency.int32_add", "latency", "dependent int32 add chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "int32_add"},
    {"latency.int32_mul", "latency", "dependent int32 mul chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "int32_mul"},
    {"latency.fp32_div", "latency", "dependent fp32 div (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_div"},
    {"latency.fp32_native_divide", "latency", "dependent native_divide (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_divide"},
    {"latency.fp32_sqrt", "latency", "dependent sqrt (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_sqrt"},
    {"latency.fp32_native_sqrt", "latency", "dependent native_sqrt (+ add) chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_sqrt"},
    {"latency.fp32_exp", "latency", "dependent exp chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_exp"},
    {"latency.fp32_native_exp", "latency", "dependent native_exp chain, one work-item (ns/op; cycles and SIMD group in params)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "fp32_native_exp"},
    {"latency.distance", "latency", "seed 000 4.3.5: fp32 fma dependency distance 1..32, two-line knee (operations in flight)",
     CLB_REQ_COMPILER, clb_latency_run, clb_latency_validate, "distance"},
    {"atomics.global_add_uncontended", "atomics", "global atomic_add, one address per work-item (Gop/s)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "global_add_uncontended"},
    {"atomics.global_add_contended", "atomics", "global atomic_add, all work-items on one address (Gop/s)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "global_add_contended"},
    {"atomics.local_add_uncontended", "atomics", "local atomic_add, one address per work-item (Gop/s)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "local_add_uncontended"},
    {"atomics.local_add_contended", "atomics", "local atomic_add, one address per work-group (Gop/s)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "local_add_contended"},
    {"atomics.global_add_latency", "atomics", "global atomic_add dependent chain, one work-item (ns/op)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "global_add_latency"},
    {"atomics.local_add_latency", "atomics", "local atomic_add dependent chain, one work-item (ns/op)",
     CLB_REQ_COMPILER, clb_atomics_run, clb_atomics_validate, "local_add_latency"},
    {"sustained.fp32", "sustained", "fp32 fma throughput held for CLBENCH_SUSTAINED_S (60 s; --quick 2 s): steady GFLOP/s, per-second curve, clocks/temperature/power",
     CLB_REQ_COMPILER, clb_sustained_run, clb_sustained_validate, "fp32"},
    /* ---- compute: arithmetic peak, best of a width x chains x shape x work-group search ---- */
#define CLB_COMPUTE_ROW(n, req, desc, arg) \
    {"compute." n, "compute", desc, CLB_REQ_COMPILER | (req), clb_compute_run, clb_compute_validate, &(arg)}
    CLB_COMPUTE_ROW("fp32.add", 0, "FP32 add peak, best searched configuration (GFLOP/s)", cm_fp32_add),
    CLB_COMPUTE_ROW("fp32.mul", 0, "FP32 mul peak (GFLOP/s)", cm_fp32_mul),
    CLB_COMPUTE_ROW("fp32.mad", 0, "FP32 a*b+c with -cl-mad-enable, 2 flops (GFLOP/s)", cm_fp32_mad),
    CLB_COMPUTE_ROW("fp32.fma", 0, "FP32 fma(), 2 flops (GFLOP/s)", cm_fp32_fma),
    CLB_COMPUTE_ROW("fp32.mad_builtin", 0, "FP32 mad() builtin, 2 flops (GFLOP/s)", cm_fp32_madfn),
    CLB_COMPUTE_ROW("fp64.add", CLB_REQ_FP64, "FP64 add peak (GFLOP/s)", cm_fp64_add),
    CLB_COMPUTE_ROW("fp64.mul", CLB_REQ_FP64, "FP64 mul peak (GFLOP/s)", cm_fp64_mul),
    CLB_COMPUTE_ROW("fp64.mad", CLB_REQ_FP64, "FP64 a*b+c with -cl-mad-enable (GFLOP/s)", cm_fp64_mad),
    CLB_COMPUTE_ROW("fp64.fma", CLB_REQ_FP64, "FP64 fma(), 2 flops (GFLOP/s)", cm_fp64_fma),
    CLB_COMPUTE_ROW("fp16.add", CLB_REQ_FP16, "FP16 add peak, cl_khr_fp16 (GFLOP/s)", cm_fp16_add),
    CLB_COMPUTE_ROW("fp16.mul", CLB_REQ_FP16, "FP16 mul peak, cl_khr_fp16 (GFLOP/s)", cm_fp16_mul),
    CLB_COMPUTE_ROW("fp16.fma", CLB_REQ_FP16, "FP16 fma(), cl_khr_fp16 (GFLOP/s)", cm_fp16_fma),
    CLB_COMPUTE_ROW("int32.add", 0, "uint32 add/xor pingpong (GIOP/s)", cm_int32_add),
    CLB_COMPUTE_ROW("int32.mul", 0, "uint32 mul pingpong (GIOP/s)", cm_int32_mul),
    CLB_COMPUTE_ROW("int32.mad", 0, "uint32 x*a+b, 2 ops (GIOP/s)", cm_int32_mad),
    CLB_COMPUTE_ROW("int24.mad24", 0, "mad24(), 2 ops (GIOP/s)", cm_int24_mad),
    CLB_COMPUTE_ROW("int24.mul24", 0, "mul24() pingpong (GIOP/s)", cm_int24_mul),
    CLB_COMPUTE_ROW("int8.dot4", 0, "packed 8-bit dot product + accumulate, cl_khr_integer_dot_product, 8 ops (GIOP/s)", cm_int8_dot4),
#undef CLB_COMPUTE_ROW
    /* ---- group memory (lib/bench/memory*.c, kernels/memory*.cl) ---- */
    {"memory.read_linear", "memory", "global read, linear coalesced, DRAM-sized array, best vector width (GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "read_linear"},
    {"memory.read_reuse", "memory", "global read, each vector read by 32 neighbouring work-items (cache reuse, GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "read_reuse"},
    {"memory.read_strided", "memory", "global read, neighbouring work-items one cache line apart (useful GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "read_strided"},
    {"memory.read_random", "memory", "global random gather with host-prepared indices (data + index GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "read_random"},
    {"memory.write", "memory", "global write, linear coalesced, DRAM-sized array (GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "write"},
    {"memory.copy", "memory", "STREAM copy c = a (read + write GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "copy"},
    {"memory.scale", "memory", "STREAM scale c = k a (read + write GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "scale"},
    {"memory.add", "memory", "STREAM add c = a + b (read + write GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "add"},
    {"memory.triad", "memory", "STREAM triad c = a + k b (read + write GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "triad"},
    {"memory.local_read", "memory", "local memory read, no barrier in the timed loop, best vector width (GB/s)",
     CLB_REQ_COMPILER, clb_memory_local_run, clb_memory_local_validate, "local_read"},
    {"memory.local_rw", "memory", "local memory read-modify-write, no barrier in the timed loop (read + write GB/s)",
     CLB_REQ_COMPILER, clb_memory_local_run, clb_memory_local_validate, "local_rw"},
    {"memory.local_bank_conflicts", "memory", "local read bandwidth against the stride 1..32 words between work-items (curve; headline: the slowest stride, GB/s)",
     CLB_REQ_COMPILER, clb_memory_local_banks_run, clb_memory_local_validate, NULL},
    {"memory.constant_broadcast", "memory", "constant memory, all work-items read the same address (GB/s)",
     CLB_REQ_COMPILER, clb_memory_local_run, clb_memory_local_validate, "constant_broadcast"},
    {"memory.constant_divergent", "memory", "constant memory, every work-item its own address (GB/s)",
     CLB_REQ_COMPILER, clb_memory_local_run, clb_memory_local_validate, "constant_divergent"},
    {"memory.read_vs_size", "memory", "linear read bandwidth against working-set size, 4 KiB to >= 4x the largest cache (curve; headline: the highest point, GB/s)",
     CLB_REQ_COMPILER, clb_memory_read_vs_size_run, clb_memory_sweep_validate, NULL},
    {"memory.latency", "memory", "pointer-chase latency against working-set size, 4 KiB to 1 GiB (curve; headline: the largest size, ns)",
     CLB_REQ_COMPILER, clb_memory_latency_run, clb_memory_latency_validate, NULL},
    {"memory.latency_local", "memory", "pointer-chase latency in local memory (ns)",
     CLB_REQ_COMPILER, clb_memory_latency_local_run, clb_memory_latency_validate, NULL},
    {"memory.caches", "memory", "cache levels from the latency and bandwidth curves vs the API (headline: DRAM latency, ns)",
     CLB_REQ_COMPILER, clb_memory_caches_run, clb_memory_sweep_validate, NULL},
};

size_t clb_bench_count(void) { return sizeof registry / sizeof registry[0]; }

const clb_bench *clb_bench_at(size_t i) { return i < clb_bench_count() ? &registry[i] : NULL; }

const clb_bench *clb_bench_find(const char *name)
{
    for (size_t i = 0; i < clb_bench_count(); i++)
        if (strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}
