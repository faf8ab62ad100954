/* A small device database for the theoretical arithmetic peak.
 *
 * peak [GOP/s] = compute units x lanes per unit x ops per lane per clock x clock [GHz]
 *
 * GPUs: lanes per SM from the vendors' architecture whitepapers (table below); compute units
 * and clock from CL_DEVICE_MAX_COMPUTE_UNITS and CL_DEVICE_MAX_CLOCK_FREQUENCY (NVIDIA
 * reports the maximum boost clock there), or CLBENCH_CLOCK_MHZ when set (e.g. the clock
 * nvidia-smi reports under load). H100 SXM5: 132 SMs x 128 x 2 x 1.98 GHz = 66.9 TFLOPS.
 *
 * CPUs (the OpenCL CPU device is assumed to be the host CPU, as with PoCL): FP32 lanes per
 * core per clock from the CPU's SIMD width and FMA units: AVX-512 with two FMA units
 * (Intel server cores, AMD Zen 5) 32; AVX-512 on Zen 4 (two 256-bit pipes) 16; AVX2+FMA
 * (Haswell and later, Zen 2/3) 16; FP64 half of that. Cores = compute units / SMT threads
 * per core (/proc/cpuinfo siblings / cpu cores). Clock = the highest of the OpenCL clock,
 * /proc/cpuinfo "cpu MHz", cpufreq's cpuinfo_max_freq and a measured dependent-imul chain
 * (x86-64), because virtual machines often report only the base clock; CLBENCH_CLOCK_MHZ, when set, replaces all of them.
 * A measurement may exceed the GPU figure by 2% (clock rounding) and the CPU figure by 50%
 * (turbo beyond every clock we can see) before it counts as implausible. */
#include "devdb.h"

#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const clb_devdb_row gpu_rows[] = {
    {"NVIDIA", "H100", 128, 64, "NVIDIA H100 whitepaper: 128 FP32 and 64 FP64 lanes per SM"},
    {"NVIDIA", "H200", 128, 64, "NVIDIA H200 (Hopper GH100 SM): 128 FP32, 64 FP64 lanes per SM"},
    {"NVIDIA", "H800", 128, 64, "Hopper GH100 SM: 128 FP32, 64 FP64 lanes per SM"},
    {"NVIDIA", "GH200", 128, 64, "Hopper GH100 SM: 128 FP32, 64 FP64 lanes per SM"},
    {"NVIDIA", "A100", 64, 32, "NVIDIA A100 whitepaper: 64 FP32 and 32 FP64 lanes per SM"},
    {"NVIDIA", "A800", 64, 32, "Ampere GA100 SM: 64 FP32, 32 FP64 lanes per SM"},
    {"NVIDIA", "V100", 64, 32, "NVIDIA V100 whitepaper: 64 FP32 and 32 FP64 lanes per SM"},
    {"NVIDIA", "L40", 128, 2, "Ada AD102 SM: 128 FP32, 2 FP64 lanes per SM"},
    {"NVIDIA", "RTX 4090", 128, 2, "Ada AD102 SM: 128 FP32, 2 FP64 lanes per SM"},
    {"NVIDIA", "A10", 128, 2, "Ampere GA102 SM: 128 FP32, 2 FP64 lanes per SM"},
};

const clb_devdb_row *clb_devdb_find(const char *vendor, const char *name)
{
    for (size_t i = 0; i < sizeof gpu_rows / sizeof gpu_rows[0]; i++)
        if (clb_contains_nocase(vendor, gpu_rows[i].vendor) && clb_contains_nocase(name, gpu_rows[i].name))
            return &gpu_rows[i];
    return NULL;
}

double clb_devdb_formula(unsigned units, unsigned lanes, unsigned ops, double mhz)
{
    return (double)units * lanes * ops * mhz / 1000.0;
}

/* ---- host CPU facts ---- */

/* Largest value of a "key : value" line in /proc/cpuinfo, or 0. */
static double cpuinfo_max(const char *key)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    double best = 0;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, key, n) == 0 && colon && (line[n] == ' ' || line[n] == '\t')) {
            double v = strtod(colon + 1, NULL);
            best = v > best ? v : best;
        }
    }
    if (f)
        fclose(f);
    return best;
}

static int cpu_has_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        char *save = NULL;
        for (char *tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save);
             tok; tok = strtok_r(NULL, " \t\n", &save))
            if (strcmp(tok, flag) == 0)
                found = 1;
        break;
    }
    if (f)
        fclose(f);
    return found;
}

/* Clock from a chain of dependent integer multiplies: imul r64 has a latency of 3 cycles
 * on every x86 core of the last decade (Intel since Nehalem, AMD since Zen). A chain of
 * immediate adds does not work: Golden Cove and later cores execute dependent `add $imm`
 * without latency (a Sapphire Rapids VM measured "12.7 GHz"). */
static double measured_mhz(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    const unsigned long n = 5000000ul;
    unsigned long x = 1, m = 3;
    double best = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = clb_now();
        for (unsigned long i = 0; i < n; i++)
            __asm__ volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                             "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                             : "+r"(x)
                             : "r"(m));
        double mhz = 3.0 * 8.0 * (double)n / (clb_now() - t0) / 1e6;
        best = mhz > best ? mhz : best;
    }
    return best;
#else
    return 0;
#endif
}

static double cpufreq_max_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    double khz = 0;
    if (f) {
        if (fscanf(f, "%lf", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    return khz / 1000;
}

/* FP32 lanes per core per clock of the host CPU, 0 when unknown; why names the rule. */
static unsigned cpu_fp32_lanes(const char **why)
{
    int amd = cpu_has_flag("sse4a"); /* an AMD-only flag */
    double family = cpuinfo_max("cpu family");
    if (cpu_has_flag("avx512f")) {
        if (amd && family < 26) {
            *why = "AVX-512 on AMD Zen 4 (two 256-bit FMA pipes): 16 FP32 FMA lanes per core";
            return 16;
        }
        *why = "AVX-512 with two FMA units: 32 FP32 FMA lanes per core (one-unit SKUs reach half)";
        return 32;
    }
    if (cpu_has_flag("avx2") && cpu_has_flag("fma")) {
        *why = "AVX2 with two FMA units: 16 FP32 FMA lanes per core";
        return 16;
    }
    *why = "no AVX2/FMA or AVX-512 flag in /proc/cpuinfo: lanes unknown";
    return 0;
}

static double cpu_peak(clb_device *dev, unsigned precision, unsigned ops, char *how, size_t n)
{
    cl_uint cus = 0, mhz_cl = 0;
    cl_device_id id = clb_device_reference(dev)->device;
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz_cl, &mhz_cl, NULL);
    const char *why = "";
    unsigned lanes = cpu_fp32_lanes(&why);
    if (!lanes || cus == 0) {
        snprintf(how, n, "%s", lanes ? "no compute units reported" : why);
        return NAN;
    }
    if (precision == 64)
        lanes /= 2;
    double siblings = cpuinfo_max("siblings"), cores = cpuinfo_max("cpu cores");
    unsigned smt = siblings > 0 && cores > 0 && siblings >= cores ? (unsigned)(siblings / cores) : 1;
    unsigned phys = cus / smt ? cus / smt : 1;
    const char *env = getenv("CLBENCH_CLOCK_MHZ");
    if (env && atof(env) > 0) {
        snprintf(how, n, "%u cores (%u compute units / %u SMT) x %u lanes x %u ops x %.0f MHz "
                 "(CLBENCH_CLOCK_MHZ); %s", phys, cus, smt, lanes, ops, atof(env), why);
        return clb_devdb_formula(phys, lanes, ops, atof(env));
    }
    double m_info = cpuinfo_max("cpu MHz"), m_freq = cpufreq_max_mhz(), m_meas = measured_mhz();
    double mhz = fmax(fmax((double)mhz_cl, m_info), fmax(m_freq, m_meas));
    snprintf(how, n,
             "%u cores (%u compute units / %u SMT) x %u lanes x %u ops x %.0f MHz; %s; clock = max "
             "of OpenCL %u, /proc/cpuinfo %.0f, cpufreq max %.0f, measured imul chain %.0f MHz",
             phys, cus, smt, lanes, ops, mhz, why, mhz_cl, m_info, m_freq, m_meas);
    return clb_devdb_formula(phys, lanes, ops, mhz);
}

static double gpu_peak(clb_device *dev, unsigned precision, unsigned ops, char *how, size_t n)
{
    char vendor[256] = "", name[256] = "";
    cl_uint cus = 0, mhz_cl = 0;
    cl_device_id id = clb_device_reference(dev)->device;
    clGetDeviceInfo(id, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    clGetDeviceInfo(id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz_cl, &mhz_cl, NULL);
    const clb_devdb_row *r = clb_devdb_find(vendor, name);
    if (!r) {
        snprintf(how, n, "device '%s' (%s) is not in the database (lib/devdb.c)", name, vendor);
        return NAN;
    }
    unsigned lanes = precision == 64 ? r->fp64_lanes : r->fp32_lanes;
    const char *env = getenv("CLBENCH_CLOCK_MHZ");
    double mhz = env && atof(env) > 0 ? atof(env) : (double)mhz_cl;
    snprintf(how, n, "%u SMs x %u lanes x %u ops x %.0f MHz (%s); %s", cus, lanes, ops, mhz,
             env && atof(env) > 0 ? "CLBENCH_CLOCK_MHZ" : "CL_DEVICE_MAX_CLOCK_FREQUENCY",
             r->source);
    return clb_devdb_formula(cus, lanes, ops, mhz);
}

double clb_devdb_peak(clb_device *dev, unsigned precision, unsigned ops, char *how, size_t how_n,
                      double *slack)
{
    cl_device_type type = clb_device_reference(dev)->type;
    *slack = 1.02;
    if (precision != 32 && precision != 64) {
        snprintf(how, how_n, "no op rate for this precision in the database");
        return NAN;
    }
    if (type & CL_DEVICE_TYPE_CPU) {
        *slack = 1.5;
        return cpu_peak(dev, precision, ops, how, how_n);
    }
    return gpu_peak(dev, precision, ops, how, how_n);
}
