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
