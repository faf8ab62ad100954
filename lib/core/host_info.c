/* The host system as seed 004's result page (its Fig. 6) lists it: user, CPU model and clock,
 * L1/L2/L3 sizes, memory size, OS (results_doc.c), compiler and flags. Read from sysfs, procfs
 * and the password database; nothing from the environment. */
#include "core/internal.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CLB_C_FLAGS
#define CLB_C_FLAGS "unknown"
#endif
#ifndef CLB_HOST_FLAGS
#define CLB_HOST_FLAGS "unknown"
#endif

/* Parses sysfs cache sizes such as "32K", "32768K" or "1M". */
static cl_ulong parse_size(const char *s)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (end && (*end == 'K' || *end == 'k'))
        v <<= 10;
    else if (end && (*end == 'M' || *end == 'm'))
        v <<= 20;
    return (cl_ulong)v;
}

/* One line of a sysfs file into buf (newline stripped); 0 when unreadable. */
static int read_line(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    int ok = f && fgets(buf, (int)cap, f);
    if (f)
        fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

size_t clb_host_caches(clb_host_cache *out, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < 8 && n < cap; i++) {
        char path[96], level[16], type[32], size[32];
        int len = snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/", i);
        char *leaf = path + len;
        size_t room = sizeof path - (size_t)len;
        snprintf(leaf, room, "level");
        int ok = read_line(path, level, sizeof level);
        snprintf(leaf, room, "type");
        ok = ok && read_line(path, type, sizeof type);
        snprintf(leaf, room, "size");
        ok = ok && read_line(path, size, sizeof size);
        if (!ok || strcmp(type, "Instruction") == 0)
            continue;
        out[n].bytes = parse_size(size);
        snprintf(out[n].name, sizeof out[n].name, "L%.2s%s", level, strcmp(type, "Data") == 0 ? "d" : "");
        n += out[n].bytes > 0;
    }
    return n;
}

/* "cpu MHz" of the first CPU in /proc/cpuinfo (the clock now), 0 when absent. */
static double cpu_mhz_now(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    double mhz = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "cpu MHz", 7) == 0 && colon) {
            mhz = strtod(colon + 1, NULL);
            break;
        }
    }
    if (f)
        fclose(f);
    return mhz;
}

/* cpufreq's limit in MHz (file in kHz), 0 when the kernel has no cpufreq (virtual machines). */
static double cpufreq_mhz(const char *file)
{
    char path[128], line[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cpufreq/%s", file);
    return read_line(path, line, sizeof line) ? strtod(line, NULL) / 1000.0 : 0;
}

static void add_positive(cJSON *h, const char *key, double v)
{
    if (v > 0)
        cJSON_AddNumberToObject(h, key, v);
}

void clb_host_system(cJSON *h)
{
    struct passwd pw, *res = NULL;
    char buf[4096];
    if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &res) == 0 && res)
        cJSON_AddStringToObject(h, "user", pw.pw_name);
    add_positive(h, "cpu_mhz", cpu_mhz_now());
    add_positive(h, "cpu_max_mhz", cpufreq_mhz("cpuinfo_max_freq"));
    add_positive(h, "cpu_min_mhz", cpufreq_mhz("cpuinfo_min_freq"));
    clb_host_cache hc[8];
    size_t n = clb_host_caches(hc, 8);
    cJSON *caches = cJSON_AddObjectToObject(h, "caches");
    for (size_t i = 0; i < n; i++)
        cJSON_AddNumberToObject(caches, hc[i].name, (double)hc[i].bytes);
    double pages = (double)sysconf(_SC_PHYS_PAGES), page = (double)sysconf(_SC_PAGESIZE);
    add_positive(h, "memory_bytes", pages > 0 && page > 0 ? pages * page : 0);
#if defined(__clang__) || !defined(__GNUC__)
    cJSON_AddStringToObject(h, "compiler", __VERSION__);
#else
    cJSON_AddStringToObject(h, "compiler", "gcc " __VERSION__);
#endif
    const char *flags = CLB_C_FLAGS;
    cJSON_AddStringToObject(h, "compiler_flags", flags + strspn(flags, " "));
    cJSON_AddStringToObject(h, "host_rows_flags", CLB_HOST_FLAGS);
}
