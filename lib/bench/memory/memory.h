/* Shared pieces of the memory.* benchmarks (lib/bench/memory*.c). */
#ifndef CLB_BENCH_MEMORY_H
#define CLB_BENCH_MEMORY_H

#include "core/internal.h"

/* What the driver (and, on CPUs, sysfs) says about the memory system. */
typedef struct mem_device {
    cl_device_type type;
    cl_uint compute_units;
    double clock_mhz; /* NaN until mem_measured_clock: cycles never from the API's clock */
    cl_uint line_bytes;         /* CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, 64 when unreported */
    cl_uint fetch_bytes;        /* the unit DRAM is read in: 32 (sector) on NVIDIA GPUs, else line_bytes */
    const char *fetch_rule;     /* how fetch_bytes was chosen (static text) */
    size_t max_wg;
    cl_ulong cache_bytes;       /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE */
    cl_ulong host_l3_bytes;     /* CPU devices: largest cache level in sysfs, else 0 */
    cl_ulong largest_cache;     /* max of the two */
    cl_ulong max_alloc;
    cl_ulong global_mem;
    cl_ulong local_mem;
    cl_ulong const_buffer;      /* CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE */
    cl_device_local_mem_type local_type;
} mem_device;

clb_error mem_device_query(clb_ctx *c, mem_device *m);

/* Work-group size (a power of two <= 256 and <= the device's limit) and number of groups
 * that run concurrently (GPUs: 2048 resident work-items per compute unit; CPUs: one
 * group per compute unit). */
void mem_grid(const mem_device *m, size_t *local, size_t *groups);

/* Bytes of one DRAM-sized array: >= 4x the largest cache (STREAM's rule), >= 256 MiB on
 * GPUs and >= 512 MiB on other devices, a power of two, at most max alloc and global memory /
 * (nbuf + 1). --quick: 1 MiB. */
cl_ulong mem_dram_bytes(const clb_ctx *c, const mem_device *m, unsigned nbuf);

/* Vector widths to search: full 1, 2, 4, 8, 16, else 1, 4, 16 (--quick: 4 only). */
size_t mem_widths(const clb_ctx *c, int full, const unsigned **w);

/* Build options naming the vector type, plus extra. */
void mem_vec_options(char *buf, size_t n, unsigned vw, const char *extra);

/* A run of one configuration, measured into a scratch result. */
typedef clb_error (*mem_variant_fn)(clb_ctx *c, const void *cfg, unsigned vw);

/* Measures fn at every width into scratch results, moves the best (highest value) into
 * c->res and records params.vector_widths = [{"width", "value"}] and best_vector_width. */
clb_error mem_search_widths(clb_ctx *c, int full, mem_variant_fn fn, const void *cfg);

typedef clb_error (*mem_validate_fn)(clb_ctx *c, void *state, clb_diag *d);

/* Measures fn into a fresh scratch result (for searches and sweeps), returned in *out when
 * out is not NULL (caller frees with clb_result_free). While it runs, c->opts is replaced by
 * opts and the benchmark's validate by validate, where these are not NULL. */
clb_error mem_measure_scratch(clb_ctx *c, mem_variant_fn fn, const void *cfg, unsigned vw,
                              const clb_run_opts *opts, mem_validate_fn validate,
                              clb_result *out);

/* Options for the points of a sweep: at most reps repetitions of about 10 ms launches. */
void mem_sweep_opts(const clb_ctx *c, unsigned reps, clb_run_opts *o);

/* memory.c: linear read bandwidth of an array of `bytes` at vector width vw, measured
 * with opts into *out (as mem_measure_scratch). */
clb_error mem_read_at_size(clb_ctx *c, cl_ulong bytes, unsigned vw, const clb_run_opts *opts,
                           clb_result *out);

/* memory_buffers.c: helpers shared by memory.c and memory_stream.c. Random words (caller frees), a random
 * permutation of 0..n-1 (caller frees), a buffer created (and written from host, if not NULL). */
cl_uint *mem_host_random(size_t words, uint64_t seed);
cl_uint *mem_random_permutation(size_t n, uint64_t seed);
clb_error mem_upload(clb_ctx *c, cl_mem *buf, const void *host, size_t bytes, cl_mem_flags fl);
/* memory.c's chunked/tile layout of the row `name` (its variant, NULL if none) and one
 * measurement of it at width vw (a mem_variant_fn; validate: clb_memory_global_validate). */
const void *mem_chunked_variant(const char *name);
clb_error mem_chunked_run(clb_ctx *c, const void *cfg, unsigned vw);

/* Moves src into c->res (keeping nothing of the old result) and clears src. */
void mem_adopt(clb_ctx *c, clb_result *src);

/* Sum of the 32-bit words of v[0..n-1] (wrapping), the host side of every checksum. */
cl_uint mem_sum_words(const cl_uint *v, size_t n);

/* The rows' entry points (the group's table is in memory.c). */
clb_error clb_memory_global_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_global_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_family_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_family_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_latency_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_chase_roundtrip_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_latency_local_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_latency_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_read_vs_size_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_caches_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_sweep_validate(clb_ctx *c, void *state, clb_diag *d);
clb_error clb_memory_local_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_local_banks_run(clb_ctx *c, clb_result *res);
clb_error clb_memory_local_validate(clb_ctx *c, void *state, clb_diag *d);

/* The device's running clock (lib/device/clock.c: measured on CPUs, NVML on NVIDIA) into
 * m->clock_mhz, and its source into the params of the row being measured. */
void mem_measured_clock(clb_ctx *c, mem_device *m);

#endif
