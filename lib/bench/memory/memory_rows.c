/* The memory group's registry: one row per benchmark, each naming its run and validate
 * functions in the files beside this one (memory.c: the chunked global kernels; memory_stream.c:
 * the families; memory_local.c; memory_latency.c). The table sits apart from them so that no
 * file of the group both lists the rows and serves another file's row. */
#include "bench/memory/memory.h"

/* The memory group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_memory_rows[] = {
    {"memory.read_linear", "memory", "global read, DRAM-sized array: best of a family: one vector per work-item (widths 1-16), 16 per work-item, per-work-item sums, chunked (bytes read, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "read_linear"},
    {"memory.read_reuse", "memory", "global read, each vector read by 32 neighbouring work-items (cache reuse, GB/s)",
     CLB_REQ_COMPILER, clb_memory_global_run, clb_memory_global_validate, "read_reuse"},
    {"memory.read_strided", "memory", "global read of one vector per cache line, every line once per pass (one fetch unit per line: 64 B line on CPUs, 32 B sector on NVIDIA, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "read_strided"},
    {"memory.read_random", "memory", "global gather of one vector per line in random order, every line once per pass (one fetch unit per line + 4-byte index, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "read_random"},
    {"memory.write", "memory", "global write, DRAM-sized array: best of one-vector-per-work-item and chunked kernels (bytes written, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "write"},
    {"memory.copy", "memory", "STREAM copy c = a, best kernel of the family (bytes read + written, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "copy"},
    {"memory.scale", "memory", "STREAM scale c = k a, best kernel of the family (bytes read + written, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "scale"},
    {"memory.add", "memory", "STREAM add c = a + b, best kernel of the family (bytes read + written, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "add"},
    {"memory.triad", "memory", "STREAM triad c = a + k b, best kernel of the family (bytes read + written, GB/s)",
     CLB_REQ_COMPILER, clb_memory_family_run, clb_memory_family_validate, "triad"},
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
    {"memory.chase_roundtrip", "memory", "the latency workload whole: one launch of 1024 dependent loads through memory.latency's largest random cycle, enqueue to clFinish (us)",
     CLB_REQ_COMPILER, clb_memory_chase_roundtrip_run, clb_memory_latency_validate, NULL},
    {"memory.latency_local", "memory", "pointer-chase latency in local memory (ns)",
     CLB_REQ_COMPILER, clb_memory_latency_local_run, clb_memory_latency_validate, NULL},
    {"memory.caches", "memory", "cache levels from the latency and bandwidth curves vs the API (headline: DRAM latency, ns)",
     CLB_REQ_COMPILER, clb_memory_caches_run, clb_memory_sweep_validate, NULL},
};
const size_t clb_memory_row_count = sizeof clb_memory_rows / sizeof clb_memory_rows[0];
