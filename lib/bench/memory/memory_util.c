/* Shared pieces of the memory.* benchmarks: device facts, grid and size choice, the vector
 * width search, curves. */
#include "bench/memory/memory.h"
#include "device/clock.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

static cl_ulong info_ulong(cl_device_id d, cl_device_info what, size_t size)
{
    cl_ulong v = 0; /* little-endian: a narrower answer fills the low bytes */
    if (clGetDeviceInfo(d, what, size, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

/* The largest cache of cpu0 in sysfs (the host's L3 on most machines), 0 when unknown. */
static cl_ulong host_largest_cache(void)
{
    clb_host_cache hc[8];
    size_t n = clb_host_caches(hc, 8);
    cl_ulong best = 0;
    for (size_t i = 0; i < n; i++)
        best = hc[i].bytes > best ? hc[i].bytes : best;
    return best;
}

clb_error mem_device_query(clb_ctx *c, mem_device *m)
{
    cl_device_id d = clb_device_reference(c->dev)->device;
    memset(m, 0, sizeof *m);
    m->type = clb_device_reference(c->dev)->type;
    m->compute_units = (cl_uint)info_ulong(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint));
    m->clock_mhz = NAN;
    m->line_bytes = (cl_uint)info_ulong(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint));
    m->max_wg = (size_t)info_ulong(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t));
    m->cache_bytes = info_ulong(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong));
    m->max_alloc = info_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong));
    m->global_mem = info_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong));
    m->local_mem = info_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong));
    m->const_buffer = info_ulong(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong));
    m->local_type = (cl_device_local_mem_type)info_ulong(d, CL_DEVICE_LOCAL_MEM_TYPE,
                                                         sizeof(cl_device_local_mem_type));
    if (m->type & CL_DEVICE_TYPE_CPU)
        m->host_l3_bytes = host_largest_cache();
    m->largest_cache = m->cache_bytes > m->host_l3_bytes ? m->cache_bytes : m->host_l3_bytes;
    if (m->line_bytes < 16 || m->line_bytes > 1024)
        m->line_bytes = 64;
    m->fetch_bytes = m->line_bytes;
    m->fetch_rule = "whole cache lines (CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE)";
    /* NVIDIA's L2 fetches DRAM in 32-byte sectors, not in the 128-byte lines it reports. */
    if (clb_device_is_nvidia(c->dev) && m->line_bytes >= 32) {
        m->fetch_bytes = 32;
        m->fetch_rule = "NVIDIA GPU: 32-byte L2 sectors (the unit fetched from DRAM)";
    }
    if (!m->compute_units || !m->max_wg || !m->max_alloc || !m->global_mem)
        return clb_diag_set(&c->diag, CLB_ERR_CL, "the device reports no compute units, "
                                                  "work-group size or memory size");
    return CLB_OK;
}

void mem_grid(const mem_device *m, size_t *local, size_t *groups)
{
    size_t l = 1;
    while (l * 2 <= 256 && l * 2 <= m->max_wg)
        l *= 2;
    *local = l;
    if (m->type & CL_DEVICE_TYPE_GPU)
        *groups = (size_t)m->compute_units * (2048 / l ? 2048 / l : 1);
    else /* one group per thread: the groups run concurrently, so the rotation of chunks
          * from pass to pass keeps one whole array between two reads of the same chunk */
        *groups = (size_t)m->compute_units;
}

cl_ulong mem_dram_bytes(const clb_ctx *c, const mem_device *m, unsigned nbuf)
{
    /* --quick on CPU devices and simulators (the smoke tests): 1 MiB, a cache figure. A GPU streams a DRAM
     * array in milliseconds, and its last-level cache (50 MiB on an H100) would serve a small
     * one at several times the HBM limit, which the limit guard rightly calls invalid. */
    int gpu = (m->type & CL_DEVICE_TYPE_GPU) && !(m->type & CL_DEVICE_TYPE_CPU); /* oclgrind: both */
    if (c->opts->quick && !gpu) {
        /* testing hook CLBENCH_QUICK_BYTES (docs/cli.md): 256 KiB or 512 KiB, for simulators */
        size_t q = clb_settings_get()->quick_bytes;
        size_t want = q == (256u << 10) || q == (512u << 10) ? q : 1u << 20;
        return clb_shrink_size(c, want, 256u << 10);
    }
    /* Floors: GPUs' last-level caches reach 50-100 MiB and a driver may report a smaller
     * cache (an L1) as CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; a virtual machine may hide its CPU's
     * real L3 (this project's development VM reports 32 MiB, but arrays up to 64-96 MiB
     * stay cache-resident), and CPU L3s with adaptive replacement keep part of a cyclic
     * working set a few times their size. */
    cl_ulong want = (m->type & CL_DEVICE_TYPE_GPU) ? 256u << 20 : 512u << 20;
    cl_ulong cap = m->global_mem / (nbuf + 1);
    while (want < 4 * m->largest_cache)
        want *= 2;
    cap = cap < m->max_alloc ? cap : m->max_alloc;
    while (want > cap && want > (1u << 20))
        want /= 2;
    /* Allocation failures halve it (clb_shrink_size), to 256 KiB at the least: the chunked
     * layout needs a few tiles (at 128 KiB a buffer of the read kernels comes out empty). */
    return clb_shrink_size(c, (size_t)want, 256u << 10);
}

static const unsigned all_widths[] = {1, 2, 4, 8, 16};
static const unsigned some_widths[] = {1, 4, 16};
static const unsigned quick_widths[] = {4};

size_t mem_widths(const clb_ctx *c, int full, const unsigned **w)
{
    if (c->opts->quick) {
        *w = quick_widths;
        return 1;
    }
    if (!full) {
        *w = some_widths;
        return sizeof some_widths / sizeof some_widths[0];
    }
    *w = all_widths;
    return sizeof all_widths / sizeof all_widths[0];
}

void mem_vec_options(char *buf, size_t n, unsigned vw, const char *extra)
{
    if (vw == 1)
        snprintf(buf, n, "-DVW=1 -DVT=uint %s", extra ? extra : "");
    else
        snprintf(buf, n, "-DVW=%u -DVT=uint%u %s", vw, vw, extra ? extra : "");
}

void mem_sweep_opts(const clb_ctx *c, unsigned reps, clb_run_opts *o)
{
    *o = *c->opts;
    o->reps = o->reps < reps ? o->reps : reps;
    o->time_budget_s = 0;
    o->target_s = o->target_s < 0.01 ? o->target_s : 0.01;
}

void mem_adopt(clb_ctx *c, clb_result *src)
{
    clb_result_free(c->res);
    *c->res = *src;
    src->samples = NULL;
    src->params = NULL;
    src->nsamples = 0;
}

clb_error mem_measure_scratch(clb_ctx *c, mem_variant_fn fn, const void *cfg, unsigned vw,
                              const clb_run_opts *opts, mem_validate_fn validate,
                              clb_result *out)
{
    clb_result scratch;
    clb_result *keep = c->res;
    const clb_run_opts *keep_opts = c->opts;
    const clb_bench *keep_bench = c->bench;
    clb_bench swapped = *c->bench;
    if (clb_result_init(&scratch, keep->name, keep->group) != CLB_OK)
        return clb_diag_set(&c->diag, CLB_ERR_NOMEM, "out of memory");
    c->res = &scratch;
    if (opts)
        c->opts = opts;
    if (validate) {
        swapped.validate = validate;
        c->bench = &swapped;
    }
    clb_error e = fn(c, cfg, vw);
    c->res = keep;
    c->opts = keep_opts;
    c->bench = keep_bench;
    if (e == CLB_OK && scratch.status != CLB_STATUS_OK)
        e = clb_diag_set(&c->diag, CLB_ERR_INVALID_TIMING, "%s", scratch.reason);
    /* A failed build leaves its log in the scratch params: keep it. */
    cJSON *log = cJSON_GetObjectItemCaseSensitive(scratch.params, "build_log");
    if (e != CLB_OK && cJSON_IsString(log))
        clb_param_str(keep, "build_log", log->valuestring);
    if (e == CLB_OK && out)
        *out = scratch;
    else
        clb_result_free(&scratch);
    return e;
}

clb_error mem_search_widths(clb_ctx *c, int full, mem_variant_fn fn, const void *cfg)
{
    const unsigned *w;
    size_t nw = mem_widths(c, full, &w);
    clb_result best;
    int have = 0;
    unsigned best_w = 0;
    cJSON *table = cJSON_CreateArray();
    clb_error e = CLB_OK;
    for (size_t i = 0; i < nw; i++) {
        clb_result r;
        e = mem_measure_scratch(c, fn, cfg, w[i], NULL, NULL, &r);
        if (e != CLB_OK)
            break; /* a width that fails validation is a broken kernel: report it */
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "width", w[i]);
        clb_json_number(row, "value", r.value);
        cJSON_AddItemToArray(table, row);
        if (!have || r.value > best.value) {
            if (have)
                clb_result_free(&best);
            best = r;
            best_w = w[i];
            have = 1;
        } else {
            clb_result_free(&r);
        }
    }
    if (e == CLB_OK) {
        mem_adopt(c, &best); /* name and group are the same; the best's params and samples */
        cJSON_AddItemToObject(c->res->params, "vector_widths", table);
        clb_param_num(c->res, "best_vector_width", best_w);
        return CLB_OK;
    }
    if (have)
        clb_result_free(&best);
    cJSON_Delete(table);
    return e;
}

cl_uint mem_sum_words(const cl_uint *v, size_t n)
{
    cl_uint s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

void mem_measured_clock(clb_ctx *c, mem_device *m)
{
    clb_clock ck;
    clb_clock_get(c->dev, &ck);
    m->clock_mhz = ck.mhz;
    clb_clock_to_params(c->res, &ck);
}
