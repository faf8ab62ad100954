/* Physical limits of a device: the database rows (data/devdb.json via devdb_table.c), the derived figures
 * for devices without a row, and the theoretical arithmetic peak compute.* reports.
 *
 * peak [GOP/s] = compute units x lanes per unit x ops per lane per clock x clock [GHz]
 *
 * GPUs with a product row: the datasheet figure (scaled down when the device reports fewer
 * compute units than the product: one GCD, one stack, a partition), or the derived figure
 * with the maximum clock (NVML's maximum SM clock, else CL_DEVICE_MAX_CLOCK_FREQUENCY) when
 * that is larger: boards boost beyond the clock the datasheet assumes. GPUs with only an
 * architecture row: the derived figure. CLBENCH_CLOCK_MHZ, when set, replaces the clock.
 *
 * CPUs (the OpenCL CPU device is assumed to be the host CPU, as with PoCL): FP32 lanes per
 * core per clock from the CPU's SIMD width and FMA units: AVX-512 with two FMA units (Intel
 * server cores, AMD Zen 5) 32; AVX-512 on Zen 4 (two 256-bit pipes) 16; AVX2+FMA (Haswell
 * and later, Zen 2/3) 16; FP64 half of that. Cores = compute units / SMT threads per core
 * (/proc/cpuinfo siblings / cpu cores). Clock = the highest per-core clock the measured clock
 * service (lib/device/clock.c) finds right now; never CL_DEVICE_MAX_CLOCK_FREQUENCY. Host DRAM
 * bandwidth is not known without root (SMBIOS), and a CPU device has no host link: no limit.
 * A measurement may exceed a limit by 3% (clock and datasheet rounding) before it is invalid
 * (lib/judge/limits.c). */
#include "device/devdb.h"

#include "device/clock.h"
#include "core/internal.h"
#include "device/nvml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLB_DEVICE_BOARD_NAME_AMD 0x4038

const clb_devdb_row *clb_devdb_find(const char *vendor, const char *name)
{
    for (size_t i = 0; i < clb_devdb_count(); i++) {
        const clb_devdb_row *r = clb_devdb_at(i);
        if (clb_contains_nocase(vendor, r->vendor) && clb_contains_nocase(name, r->name) &&
            !(r->exclude && clb_contains_nocase(name, r->exclude)))
            return r;
    }
    return NULL;
}

double clb_devdb_formula(unsigned units, unsigned lanes, unsigned ops, double mhz)
{
    return (double)units * lanes * ops * mhz / 1000.0;
}

const clb_devdb_row *clb_devdb_match(clb_device *dev, char *name, size_t n)
{
    char vendor[256] = "";
    cl_device_id id = clb_device_reference(dev)->device;
    name[0] = '\0';
    clGetDeviceInfo(id, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    /* AMD's device name is the gfx target (gfx90a is MI210, MI250 and MI250X): the board name
     * tells the product. */
    if (!clb_device_has_extension(dev, "cl_amd_device_attribute_query") ||
        clGetDeviceInfo(id, CLB_DEVICE_BOARD_NAME_AMD, n - 1, name, NULL) != CL_SUCCESS || !name[0])
        clGetDeviceInfo(id, CL_DEVICE_NAME, n - 1, name, NULL);
    name[n - 1] = '\0';
    return clb_devdb_find(vendor, name);
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

static double env_mhz(void)
{
    double mhz = clb_settings_get()->clock_mhz;
    return mhz > 0 ? mhz : NAN;
}

static cl_uint device_uint(clb_device *dev, cl_device_info what)
{
    cl_uint v = 0;
    clGetDeviceInfo(clb_device_reference(dev)->device, what, sizeof v, &v, NULL);
    return v;
}

/* FMA peak (2 ops per lane and clock) of the host CPU in GFLOP/s. */
static void cpu_fp(clb_device *dev, unsigned precision, clb_limit *lim)
{
    cl_uint cus = device_uint(dev, CL_DEVICE_MAX_COMPUTE_UNITS);
    const char *why = "";
    unsigned lanes = cpu_fp32_lanes(&why);
    if (!lanes || cus == 0) {
        snprintf(lim->source, sizeof lim->source, "%s", lanes ? "no compute units reported" : why);
        return;
    }
    lanes = precision == 64 ? lanes / 2 : lanes;
    double siblings = cpuinfo_max("siblings"), cores = cpuinfo_max("cpu cores");
    unsigned smt = siblings > 0 && cores > 0 && siblings >= cores ? (unsigned)(siblings / cores) : 1;
    unsigned phys = cus / smt ? cus / smt : 1;
    clb_clock ck;
    double mhz = env_mhz();
    if (isfinite(mhz))
        snprintf(ck.source, sizeof ck.source, "CLBENCH_CLOCK_MHZ");
    else
        clb_clock_get(dev, &ck), mhz = ck.peak_mhz;
    if (!isfinite(mhz)) {
        snprintf(lim->source, sizeof lim->source, "CPU clock unknown: %s", ck.source);
        return;
    }
    lim->value = clb_devdb_formula(phys, lanes, 2, mhz);
    snprintf(lim->source, sizeof lim->source,
             "derived: %u cores (%u compute units / %u SMT) x %u FP%u lanes x 2 (FMA) x %.0f MHz "
             "(%s, highest core); %s", phys, cus, smt, lanes, precision, mhz, ck.source, why);
}

/* Maximum GPU clock for derived figures, and where it comes from. */
static double gpu_max_mhz(clb_device *dev, const char **how)
{
    double mhz = env_mhz();
    *how = "CLBENCH_CLOCK_MHZ";
    if (isfinite(mhz))
        return mhz;
    clb_clock ck;
    clb_clock_get(dev, &ck);
    *how = strncmp(ck.source, "nvml", 4) == 0 ? "NVML maximum SM clock" : "CL_DEVICE_MAX_CLOCK_FREQUENCY";
    return ck.peak_mhz;
}

/* FMA peak of a GPU: the row's datasheet figure (scaled to the reported compute units when
 * fewer) or the derived figure, whichever is larger. */
static void gpu_fp(clb_device *dev, unsigned precision, clb_limit *lim)
{
    char name[256];
    const clb_devdb_row *r = clb_devdb_match(dev, name, sizeof name);
    if (!r) {
        snprintf(lim->source, sizeof lim->source, "device '%s' is not in the database (data/devdb.json)", name);
        return;
    }
    unsigned cus = device_uint(dev, CL_DEVICE_MAX_COMPUTE_UNITS), lanes = precision == 64 ? r->fp64_lanes : r->fp32_lanes;
    const char *how = "";
    double mhz = gpu_max_mhz(dev, &how), derived = clb_devdb_formula(cus, lanes, 2, mhz);
    double sheet = precision == 64 ? r->fp64_gflops : r->fp32_gflops;
    double share = r->units && cus < r->units ? (double)cus / r->units : 1.0;
    char d[200];
    snprintf(d, sizeof d, "%u compute units x %u FP%u lanes x 2 x %.0f MHz (%s) = %.0f GFLOP/s", cus,
             lanes, precision, mhz, how, derived);
    if (sheet > 0 && !(derived > sheet * share)) {
        lim->value = sheet * share;
        snprintf(lim->source, sizeof lim->source, "%s: %.0f GFLOP/s%s (%s); derived %s",
                 r->product, sheet, share < 1 ? " x reported/product compute units" : "", r->src_fp, d);
    } else if (isfinite(derived) && derived > 0) {
        lim->value = derived;
        snprintf(lim->source, sizeof lim->source, "derived: %s; %s%s", d, r->src_fp,
                 sheet > 0 ? " (datasheet figure lower: clock above the datasheet's)" : "");
    } else {
        snprintf(lim->source, sizeof lim->source, "no clock known for %s", r->product);
    }
}

/* DRAM or host link figure of the matched row. */
static void gpu_bw(clb_device *dev, clb_limit_kind kind, clb_limit *lim)
{
    char name[256];
    const clb_devdb_row *r = clb_devdb_match(dev, name, sizeof name);
    double v = !r ? 0 : kind == CLB_LIMIT_DRAM ? r->dram_gbps : r->link_gbps;
    if (!(v > 0)) {
        snprintf(lim->source, sizeof lim->source, "device '%s': no %s figure in the database", name,
                 kind == CLB_LIMIT_DRAM ? "DRAM bandwidth" : "host link");
        return;
    }
    unsigned cus = device_uint(dev, CL_DEVICE_MAX_COMPUTE_UNITS);
    double share = kind == CLB_LIMIT_DRAM && r->units && cus < r->units ? (double)cus / r->units : 1.0;
    lim->value = v * share;
    snprintf(lim->source, sizeof lim->source, "%s: %.1f GB/s%s (%s)", r->product, v,
             share < 1 ? " x reported/product compute units" : "",
             kind == CLB_LIMIT_DRAM ? r->src_dram : r->src_link);
}

void clb_devdb_limit(clb_device *dev, clb_limit_kind kind, clb_limit *out)
{
    int cpu = (clb_device_reference(dev)->type & CL_DEVICE_TYPE_CPU) != 0;
    memset(out, 0, sizeof *out);
    out->value = NAN;
    out->unit = kind == CLB_LIMIT_FP32 || kind == CLB_LIMIT_FP64 ? "GFLOP/s" : "GB/s";
    if (kind == CLB_LIMIT_FP32 || kind == CLB_LIMIT_FP64) {
        (cpu ? cpu_fp : gpu_fp)(dev, kind == CLB_LIMIT_FP64 ? 64 : 32, out);
    } else if (!cpu) {
        gpu_bw(dev, kind, out);
    } else {
        snprintf(out->source, sizeof out->source, "%s",
                 kind == CLB_LIMIT_DRAM ? "host DRAM bandwidth is not known without root (SMBIOS memory speed and channels): no limit"
                                        : "not applicable: a CPU device has no host link");
    }
}

double clb_devdb_peak(clb_device *dev, unsigned precision, unsigned ops, char *how, size_t how_n,
                      double *slack)
{
    clb_limit lim;
    *slack = 1.03;
    if (precision != 32 && precision != 64) {
        snprintf(how, how_n, "no op rate for this precision in the database");
        return NAN;
    }
    clb_devdb_limit(dev, precision == 64 ? CLB_LIMIT_FP64 : CLB_LIMIT_FP32, &lim);
    snprintf(how, how_n, "%s%s", lim.source, ops == 1 ? "; x 1/2: one op per lane and clock" : "");
    return lim.value * ops / 2.0;
}

/* {"value", "unit", "how"} of one limit kind (value null when unknown). */
static void add_limit(cJSON *o, const char *key, clb_device *dev, clb_limit_kind kind)
{
    clb_limit lim;
    clb_devdb_limit(dev, kind, &lim);
    cJSON *e = cJSON_AddObjectToObject(o, key);
    clb_json_number(e, "value", lim.value);
    cJSON_AddStringToObject(e, "unit", lim.unit);
    cJSON_AddStringToObject(e, "how", lim.source);
}

void clb_devdb_derived(cJSON *o, clb_device *dev)
{
    char name[256], how[512];
    const clb_devdb_row *r = clb_devdb_match(dev, name, sizeof name);
    cJSON *e = cJSON_AddObjectToObject(o, "device_database");
    if (r)
        snprintf(how, sizeof how, "'%s' matched row %s: %s (%s)", name, r->key, r->product,
                 r->units ? "datasheet figures" : "architecture lanes only, figures derived");
    else
        snprintf(how, sizeof how, "'%s' matches no entry of data/devdb.json%s", name,
                 clb_device_reference(dev)->type & CL_DEVICE_TYPE_CPU ? " (CPU: limits derived from the host CPU)" : "");
    if (r)
        cJSON_AddStringToObject(e, "value", r->key);
    else
        cJSON_AddNullToObject(e, "value");
    cJSON_AddStringToObject(e, "how", how);
    add_limit(o, "limit_fp32", dev, CLB_LIMIT_FP32);
    add_limit(o, "limit_fp64", dev, CLB_LIMIT_FP64);
    add_limit(o, "limit_dram", dev, CLB_LIMIT_DRAM);
    add_limit(o, "limit_link", dev, CLB_LIMIT_LINK);
}
