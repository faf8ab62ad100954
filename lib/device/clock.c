/* The measured clock service.
 *
 * CPU devices (assumed to be the host CPU, as with PoCL): CL_DEVICE_MAX_CLOCK_FREQUENCY is
 * often the base or a virtual machine's nominal clock (PoCL on a Zen 5 host says 2096 MHz
 * while the cores run ~3.4 GHz), so the clock is measured: a chain of dependent `imul r64`
 * (3 cycles latency on every x86-64 core since Nehalem and Zen; dependent immediate adds do
 * not work, Golden Cove and Zen 5 eliminate or fuse them), in many short trials of which the
 * fastest counts, so that a trial the scheduler interrupted does not lower the figure. It runs
 * on the calling thread (the figure for cycles: one busy core, like a single work-item) and on
 * every core of the affinity mask at once (the highest is the figure for limits). cpufreq's
 * scaling_cur_freq and cpuinfo_max_freq cross-check it where present; a chain faster than
 * cpuinfo_max_freq + 15% means the latency assumption broke, and cpufreq's figure is used. */
#define _GNU_SOURCE
#include "device/clock.h"

#include "core/internal.h"
#include "device/nvml.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_ITERS 20000 /* x 8 imul x 3 cycles: ~0.13 ms per trial at 3.7 GHz */

double clb_clock_chain_mhz(int trials)
{
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned long x = 1, m = 3;
    double best = 0;
    for (int r = 0; r < trials; r++) {
        double t0 = clb_now();
        for (unsigned long i = 0; i < CHAIN_ITERS; i++)
            __asm__ volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                             "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                             : "+r"(x)
                             : "r"(m));
        double mhz = 3.0 * 8.0 * CHAIN_ITERS / (clb_now() - t0) / 1e6;
        best = mhz > best ? mhz : best;
    }
    return best > 0 ? best : NAN;
#else
    (void)trials;
    return NAN;
#endif
}

/* ---- every core at once ---- */

typedef struct core_probe {
    pthread_t th;
    size_t cpu;
    int started;
    double mhz;
} core_probe;

static void *probe_main(void *arg)
{
    core_probe *p = arg;
    p->mhz = clb_clock_chain_mhz(32);
    return NULL;
}

/* Highest and lowest per-core clock over the affinity mask; NaN when threads fail. */
static void all_cores(double *hi, double *lo, int *ncores)
{
    cpu_set_t mask;
    core_probe *p = NULL;
    int n = 0;
    *hi = *lo = NAN;
    *ncores = 0;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0 || !(p = calloc(CPU_SETSIZE, sizeof *p)))
        goto cleanup;
    for (size_t cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &mask))
            continue;
        pthread_attr_t a;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        p[n].cpu = cpu;
        p[n].mhz = NAN;
        if (pthread_attr_init(&a) == 0) {
            pthread_attr_setaffinity_np(&a, sizeof one, &one);
            p[n].started = pthread_create(&p[n].th, &a, probe_main, &p[n]) == 0;
            pthread_attr_destroy(&a);
        }
        n++;
    }
    for (int i = 0; i < n; i++) {
        if (p[i].started)
            pthread_join(p[i].th, NULL);
        if (isfinite(p[i].mhz)) {
            *hi = isfinite(*hi) ? fmax(*hi, p[i].mhz) : p[i].mhz;
            *lo = isfinite(*lo) ? fmin(*lo, p[i].mhz) : p[i].mhz;
            (*ncores)++;
        }
    }
cleanup:
    free(p);
}

/* Highest value of /sys/devices/system/cpu/cpuN/cpufreq/FILE over all N, in MHz; NaN if none. */
static double cpufreq_mhz(const char *file)
{
    double best = NAN;
    for (int cpu = 0; cpu < 4096; cpu++) {
        char path[128];
        double khz = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, file);
        FILE *f = fopen(path, "r");
        if (!f) {
            if (cpu > 0)
                break;
            continue;
        }
        if (fscanf(f, "%lf", &khz) == 1 && khz > 0)
            best = isfinite(best) ? fmax(best, khz / 1000) : khz / 1000;
        fclose(f);
    }
    return best;
}

static void cpu_clock(clb_clock *ck)
{
    double one = clb_clock_chain_mhz(64), hi = NAN, lo = NAN;
    int ncores = 0;
    all_cores(&hi, &lo, &ncores);
    double cur = cpufreq_mhz("scaling_cur_freq"), fmax_ = cpufreq_mhz("cpuinfo_max_freq");
    snprintf(ck->detail, sizeof ck->detail,
             "imul chain: calling thread %.0f MHz, %d cores at once %.0f..%.0f MHz; cpufreq "
             "scaling_cur_freq %.0f MHz, cpuinfo_max_freq %.0f MHz (nan: not present)",
             one, ncores, lo, hi, cur, fmax_);
    int broken = isfinite(fmax_) && isfinite(one) && one > 1.15 * fmax_;
    if (isfinite(one) && one > 100 && one < 10000 && !broken) {
        ck->mhz = one;
        ck->peak_mhz = isfinite(hi) ? fmax(one, hi) : one;
        snprintf(ck->source, sizeof ck->source, "measured: dependent imul chain, 3 cycles latency");
        return;
    }
    ck->mhz = isfinite(cur) ? cur : fmax_;
    ck->peak_mhz = isfinite(fmax_) ? fmax_ : cur;
    snprintf(ck->source, sizeof ck->source, "%s",
             isfinite(cur) ? "cpufreq scaling_cur_freq (max over cores)"
             : isfinite(fmax_) ? "cpufreq cpuinfo_max_freq"
             : "unknown: no x86-64 imul chain and no cpufreq (CL_DEVICE_MAX_CLOCK_FREQUENCY is not used on CPUs)");
    if (broken)
        snprintf(ck->source + strlen(ck->source), sizeof ck->source - strlen(ck->source),
                 "; the imul chain ran faster than cpuinfo_max_freq, its latency assumption broke");
}

static void gpu_clock(clb_device *dev, clb_clock *ck)
{
    cl_uint cl_mhz = 0;
    char why[160] = "";
    double cur = NAN, max = NAN;
    clGetDeviceInfo(clb_device_reference(dev)->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof cl_mhz,
                    &cl_mhz, NULL);
    clb_nvml *m = clb_nvml_open(dev, why, sizeof why);
    clb_nvml_sm_clock(m, &cur, &max);
    if (isfinite(cur) && cur > 0) {
        ck->mhz = cur;
        ck->peak_mhz = isfinite(max) ? fmax(max, cur) : cur;
        snprintf(ck->source, sizeof ck->source, "nvml: current SM clock");
        snprintf(ck->detail, sizeof ck->detail, "%s; max SM clock %.0f MHz; CL_DEVICE_MAX_CLOCK_FREQUENCY %u MHz",
                 clb_nvml_match(m), max, cl_mhz);
    } else {
        ck->mhz = ck->peak_mhz = cl_mhz > 0 ? (double)cl_mhz : NAN;
        snprintf(ck->source, sizeof ck->source, "CL_DEVICE_MAX_CLOCK_FREQUENCY (GPU, assumed locked at it)");
        snprintf(ck->detail, sizeof ck->detail, "%s", m ? "NVML gave no SM clock" : why);
    }
    clb_nvml_close(m);
}

void clb_clock_get(clb_device *dev, clb_clock *ck)
{
    memset(ck, 0, sizeof *ck);
    ck->mhz = ck->peak_mhz = NAN;
    if (clb_device_reference(dev)->type & CL_DEVICE_TYPE_CPU)
        cpu_clock(ck);
    else
        gpu_clock(dev, ck);
}

void clb_clock_to_params(clb_result *res, const clb_clock *ck)
{
    clb_param_num(res, "clock_mhz", ck->mhz);
    clb_param_str(res, "clock_source", ck->source);
    clb_param_str(res, "clock_detail", ck->detail);
}
