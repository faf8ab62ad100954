/* atomics.*: global and local atomic_add, uncontended and contended (throughput, Gop/s) and
 * a dependent chain from one work-item (latency, ns). The counters start from random values
 * and every launch's final counts are checked exactly (lib/bench/microarch/atomics.cl). */
#include "bench/microarch/microarch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct atom_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem ctr;
    cl_uint *init, *got;
    size_t nctr, gsz, lsz;
    cl_int iters;
    int local, contended, latency;
} atom_state;

/* Resets the counters to their random start values and launches once. */
static clb_error atom_enqueue(void *st, uint64_t scale, cl_event *ev, clb_diag *d)
{
    atom_state *s = st;
    s->iters = (cl_int)scale;
    CLB_CL(d, clEnqueueWriteBuffer(s->q, s->ctr, CL_FALSE, 0, s->nctr * sizeof(cl_uint), s->init, 0, NULL, NULL));
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->iters, &s->iters));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &s->gsz, &s->lsz, 0, NULL, ev));
cleanup:
    return d->err;
}

static double atom_work(const void *st, uint64_t scale)
{
    const atom_state *s = st;
    return (double)s->gsz * (double)scale;
}

/* The expected final value of counter i. */
static cl_uint expect(const atom_state *s, size_t i)
{
    cl_uint per = (cl_uint)s->iters;
    if (s->latency)
        return s->init[i] + per;
    if (s->contended)
        return s->init[i] + per * (cl_uint)(s->local ? s->lsz : s->gsz);
    return s->init[i] + per;
}

clb_error clb_atomics_validate(clb_ctx *c, void *state, clb_diag *d)
{
    atom_state *s = state;
    (void)c;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->ctr, CL_TRUE, 0, s->nctr * sizeof(cl_uint), s->got, 0, NULL, NULL));
    for (size_t i = 0; i < s->nctr; i++)
        if (s->got[i] != expect(s, i))
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "counter %zu is %u, expected %u (start %u, %d iterations)",
                     i, s->got[i], expect(s, i), s->init[i], s->iters);
cleanup:
    return d->err;
}

static const char *kernel_of(const atom_state *s)
{
    if (s->latency)
        return s->local ? "local_latency" : "global_latency";
    if (s->local)
        return s->contended ? "local_contended" : "local_uncontended";
    return s->contended ? "global_contended" : "global_uncontended";
}

/* Sizes: latency one work-item; otherwise groups of up to 256, two per compute unit. */
static clb_error atom_sizes(clb_ctx *c, atom_state *s)
{
    clb_diag *d = &c->diag;
    cl_uint cu = 1;
    size_t maxwg = 1;
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    CLB_CL(d, clGetDeviceInfo(clb_device_reference(c->dev)->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL));
    s->lsz = s->latency ? 1 : maxwg < 256 ? maxwg : 256;
    s->gsz = s->latency ? 1 : s->lsz * cu * 2;
    s->nctr = s->latency ? 1 : s->contended ? (s->local ? s->gsz / s->lsz : 1) : s->gsz;
cleanup:
    return d->err;
}

clb_error clb_atomics_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    const char *v = c->bench->arg;
    atom_state s = {.q = clb_device_queue(c->dev), .local = strncmp(v, "local", 5) == 0,
                    .contended = strstr(v, "_contended") != NULL, .latency = strstr(v, "latency") != NULL};
    cl_program prog = NULL;
    char prefix[64];
    if (atom_sizes(c, &s) != CLB_OK)
        goto cleanup;
    snprintf(prefix, sizeof prefix, "#define LSZ %zu\n", s.lsz);
    if (clb_build(c, "atomics", prefix, NULL, &prog) != CLB_OK)
        goto cleanup;
    s.init = malloc(s.nctr * sizeof *s.init);
    s.got = malloc(s.nctr * sizeof *s.got);
    if (!s.init || !s.got)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    clb_fill_random(s.init, s.nctr * sizeof *s.init, 0xA70111C5ull);
    for (size_t i = 0; i < s.nctr; i++)
        s.init[i] &= 0x3fffffffu; /* the latency chain's increment stays 1 below 2^31 */
    CLB_CL(d, s.ctr = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE, s.nctr * sizeof(cl_uint), NULL, CLB_ERRP));
    CLB_CL(d, s.k = clCreateKernel(prog, kernel_of(&s), CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.ctr, &s.ctr));
    clb_workload w = {.state = &s, .enqueue = atom_enqueue, .work = atom_work,
                      .min_scale = s.latency ? 4096 : 64, .max_scale = s.latency ? (1u << 26) : (1u << 20),
                      .output = s.ctr, .output_bytes = s.nctr * sizeof(cl_uint),
                      .unit_factor = s.latency ? 1e9 : 1e-9, .unit = s.latency ? "ns" : "Gop/s",
                      .per_work_time = s.latency};
    if (clb_measure(c, &w) != CLB_OK)
        goto cleanup;
    clb_param_num(res, "global_work_size", (double)s.gsz);
    clb_param_num(res, "local_work_size", (double)s.lsz);
    clb_param_num(res, "counters", (double)s.nctr);
    clb_param_num(res, "iterations", s.iters);
    clb_param_str(res, "kernel", kernel_of(&s));
    if (s.latency) {
        double mhz = clb_ua_clock_mhz(c);
        clb_param_num(res, "cycles", mhz > 0 ? res->value * mhz * 1e-3 : NAN);
    }
cleanup:
    free(s.init);
    free(s.got);
    clb_release_kernel(s.k);
    clb_release_mem(s.ctr);
    clb_release_program(prog);
    return d->err;
}

/* The atomics group's registry rows (listed in lib/core/groups.h). */
const clb_bench clb_atomics_rows[] = {
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
};
const size_t clb_atomics_row_count = sizeof clb_atomics_rows / sizeof clb_atomics_rows[0];
