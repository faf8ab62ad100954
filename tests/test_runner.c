/* The measurement core on the first device, with synthetic benchmarks: calibration reaches
 * the target without passing the watchdog, validation gates the number, a failed build
 * yields build_failed with its log, a too-small watchdog yields invalid_timing, and a
 * missing capability yields unsupported. */
#include "core/internal.h"

#include <math.h>
#include <string.h>
#include "check.h"

#define ITEMS 64

static const char spin_src[] =
    "__kernel void spin(__global uint *o, uint n)\n"
    "{\n"
    "    uint x = (uint)get_global_id(0);\n"
    "    for (uint i = 0; i < n; i++)\n"
    "        x = x * 1664525u + 1013904223u;\n"
    "    o[get_global_id(0)] = x;\n"
    "}\n";

typedef struct spin_state {
    cl_command_queue q;
    cl_kernel k;
    cl_mem out;
    cl_uint n; /* iterations of the last launch */
    int corrupt_reference;
} spin_state;

/* Launches enqueued, and how many had been when work() was asked (once, after the warm-up). */
static struct {
    unsigned launches, at_work;
} tally;

static clb_error spin_enqueue(void *state, uint64_t scale, cl_event *ev, clb_diag *d)
{
    spin_state *s = state;
    size_t g = ITEMS;
    tally.launches++;
    s->n = (cl_uint)scale;
    CLB_CL(d, clSetKernelArg(s->k, 1, sizeof s->n, &s->n));
    CLB_CL(d, clEnqueueNDRangeKernel(s->q, s->k, 1, NULL, &g, NULL, 0, NULL, ev));
cleanup:
    return d->err;
}

static double spin_work(const void *state, uint64_t scale)
{
    (void)state;
    tally.at_work = tally.launches;
    return (double)scale * ITEMS;
}

static clb_error spin_validate(clb_ctx *c, void *state, clb_diag *d)
{
    spin_state *s = state;
    cl_uint got[ITEMS];
    (void)c;
    CLB_CL(d, clEnqueueReadBuffer(s->q, s->out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (cl_uint i = 0; i < ITEMS; i++) {
        cl_uint x = i;
        for (cl_uint j = 0; j < s->n; j++)
            x = x * 1664525u + 1013904223u;
        if (got[i] != x + (cl_uint)s->corrupt_reference)
            CLB_FAIL(d, CLB_ERR_INVALID_RESULT, "item %u differs", (unsigned)i);
    }
cleanup:
    return d->err;
}

/* arg: 0 normal, 1 host reference off by one (validation must reject), 2 broken build. */
static clb_error spin_run(clb_ctx *c, clb_result *res)
{
    clb_diag *d = &c->diag;
    int mode = *(const int *)c->bench->arg;
    spin_state s = {.q = clb_device_queue(c->dev), .corrupt_reference = mode == 1};
    cl_program prog = NULL;
    char prefix[sizeof spin_src + 64];
    snprintf(prefix, sizeof prefix, "%s%s", spin_src, mode == 2 ? "#error deliberately broken\n" : "");
    (void)res;
    if (clb_build(c, "launch", prefix, NULL, &prog) != CLB_OK)
        goto cleanup;
    CLB_CL(d, s.k = clCreateKernel(prog, "spin", CLB_ERRP));
    CLB_CL(d, s.out = clCreateBuffer(clb_device_context(c->dev), CL_MEM_READ_WRITE,
                                     ITEMS * sizeof(cl_uint), NULL, CLB_ERRP));
    CLB_CL(d, clSetKernelArg(s.k, 0, sizeof s.out, &s.out));
    clb_workload w = {.state = &s, .enqueue = spin_enqueue, .work = spin_work, .min_scale = 1000,
                      .max_scale = 1u << 30, .output = s.out, .output_bytes = ITEMS * sizeof(cl_uint),
                      .unit_factor = 1e-9, .unit = "Gop/s"};
    clb_measure(c, &w);
cleanup:
    clb_release_mem(s.out);
    clb_release_kernel(s.k);
    clb_release_program(prog);
    return d->err;
}

static const int modes[3] = {0, 1, 2};
static const clb_bench ok_bench = {"t.spin", "t", "spin", 0, spin_run, spin_validate, &modes[0]};
static const clb_bench wrong_bench = {"t.wrong", "t", "spin", 0, spin_run, spin_validate, &modes[1]};
static const clb_bench broken_bench = {"t.broken", "t", "spin", 0, spin_run, spin_validate, &modes[2]};
static const clb_bench fp16_bench = {"t.half", "t", "spin", CLB_REQ_FP16, spin_run, spin_validate, &modes[0]};

static double param(const clb_result *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r->params, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void run_checks(clb_device *dev)
{
    clb_run_opts o;
    clb_result r;
    clb_run_opts_default(&o);
    o.target_s = 0.02;
    o.reps = 5;

    clb_bench_run(dev, &ok_bench, &o, &r);
    CHECK(r.status == CLB_STATUS_OK);
    double t = param(&r, "launch_time_median_s");
    CHECK(t >= 0.3 * o.target_s && t <= o.watchdog_s); /* calibrated near the target */
    CHECK(param(&r, "scale") > 1000);                    /* it had to grow */
    CHECK(r.nsamples == 5 && r.stats.n == 5 && r.value == r.stats.median);
    clb_result_free(&r);

    o.inject_fault = 1;
    clb_bench_run(dev, &ok_bench, &o, &r);
    CHECK(r.status == CLB_STATUS_INVALID_RESULT && r.nsamples == 0);
    clb_result_free(&r);
    o.inject_fault = 0;

    clb_bench_run(dev, &wrong_bench, &o, &r);
    CHECK(r.status == CLB_STATUS_INVALID_RESULT && strstr(r.reason, "differs"));
    clb_result_free(&r);

    clb_bench_run(dev, &broken_bench, &o, &r);
    CHECK(r.status == CLB_STATUS_BUILD_FAILED);
    const cJSON *log = cJSON_GetObjectItemCaseSensitive(r.params, "build_log");
    CHECK(cJSON_IsString(log) && strstr(log->valuestring, "deliberately broken"));
    clb_result_free(&r);

    /* A watchdog below the smallest launch: no number, invalid_timing. */
    o.watchdog_s = 1e-7;
    o.target_s = 1e-7;
    clb_bench_run(dev, &ok_bench, &o, &r);
    CHECK(r.status == CLB_STATUS_INVALID_TIMING && strstr(r.reason, "watchdog"));
    clb_result_free(&r);

    clb_run_opts_default(&o);
    clb_bench_run(dev, &fp16_bench, &o, &r);
    if (!clb_device_has_fp16(dev))
        CHECK(r.status == CLB_STATUS_UNSUPPORTED && strstr(r.reason, "cl_khr_fp16"));
    clb_result_free(&r);
}

/* Warm-up launches run and are discarded, then exactly reps launches are timed. With --quick the
 * calibration is two launches at the start size, so work() (asked once, between the warm-up and
 * the timed launches) has seen 2 + warmup launches, and reps more follow. */
static void warmup_checks(clb_device *dev)
{
    for (unsigned wu = 1; wu <= 3; wu += 2) {
        clb_run_opts o;
        clb_result r;
        clb_run_opts_default(&o);
        o.quick = 1;
        o.warmup = wu;
        o.reps = 4;
        tally.launches = tally.at_work = 0;
        clb_bench_run(dev, &ok_bench, &o, &r);
        EXPECT(r.status == CLB_STATUS_OK && r.nsamples == 4 && tally.at_work == 2 + wu && tally.launches == 2 + wu + 4,
               "warm-up %u, reps 4: %u launches before the timed ones (want %u), %u in all (want %u), %zu samples",
               wu, tally.at_work, 2 + wu, tally.launches, 2 + wu + 4, (size_t)r.nsamples);
        clb_result_free(&r);
    }
}

int main(void)
{
    clb_inventory *inv = NULL;
    clb_device *dev = NULL;
    clb_diag d;
    if (clb_inventory_create(&inv, &d) != CLB_OK || clb_inventory_count(inv) == 0) {
        fprintf(stderr, "test_runner: no OpenCL device: %s\n", d.msg);
        clb_inventory_destroy(inv);
        return 1;
    }
    if (clb_device_create(clb_inventory_at(inv, 0), &dev, &d) != CLB_OK) {
        fprintf(stderr, "test_runner: %s\n", d.msg);
        failures++;
    } else {
        run_checks(dev);
        warmup_checks(dev);
    }
    clb_device_destroy(dev);
    clb_inventory_destroy(inv);
    return check_done("test_runner");
}
