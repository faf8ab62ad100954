/* Pure helpers of the transfer benchmarks: fit, reference subtraction, zero-copy detection,
 * PCIe link arithmetic and sysfs reading (see fit.h). */
#include "bench/transfer/transfer_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Weighted sums of the normal equations for t = a + b s, weights 1/t^2. */
typedef struct wsums {
    double w, ws, wss, wt, wst;
} wsums;

static wsums weighted_sums(const double *s, const double *t, size_t n)
{
    wsums z = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        double w = 1.0 / (t[i] * t[i]);
        z.w += w;
        z.ws += w * s[i];
        z.wss += w * s[i] * s[i];
        z.wt += w * t[i];
        z.wst += w * s[i] * t[i];
    }
    return z;
}

static double rel_rms(const double *s, const double *t, size_t n, double a, double b)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double r = (a + b * s[i] - t[i]) / t[i];
        sum += r * r;
    }
    return sqrt(sum / (double)n);
}

static int usable(const double *s, const double *t, size_t n)
{
    int distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s[i]) || !isfinite(t[i]) || t[i] <= 0 || s[i] < 0)
            return 0;
        if (s[i] != s[0])
            distinct = 1;
    }
    return n >= 2 && distinct;
}

int clb_fit_latency_bandwidth(const double *bytes, const double *seconds, size_t n,
                              clb_linfit *out)
{
    memset(out, 0, sizeof *out);
    if (!usable(bytes, seconds, n))
        return -1;
    wsums z = weighted_sums(bytes, seconds, n);
    double det = z.w * z.wss - z.ws * z.ws;
    double a = 0, b = 0;
    if (det > 0) {
        b = (z.w * z.wst - z.ws * z.wt) / det;
        a = (z.wt - b * z.ws) / z.w;
    }
    if (det <= 0 || a < 0) { /* through the origin: minimize sum w (t - b s)^2 */
        a = 0;
        b = z.wst / z.wss;
        out->clamped = det > 0;
    }
    if (!(b > 0) || !isfinite(b))
        return -1;
    out->latency_s = a;
    out->bandwidth_Bps = 1.0 / b;
    out->rel_rms = rel_rms(bytes, seconds, n, a, b);
    out->n = n;
    return 0;
}

double clb_reference_bandwidth(double bytes, double seconds, double ref_seconds)
{
    double dt = seconds - ref_seconds;
    return dt > 0 && isfinite(dt) ? bytes / dt : -1.0;
}

int clb_time_size_independent(double small_bytes, double small_s, double large_bytes,
                              double large_s)
{
    if (!(small_bytes > 0) || large_bytes < 1024.0 * small_bytes || !(small_s > 0) ||
        !(large_s > 0))
        return 0;
    if (large_s < 4.0 * small_s || large_s <= small_s)
        return 1;
    return (large_bytes - small_bytes) / (large_s - small_s) > CLB_ZERO_COPY_RATE_BPS;
}

double clb_pcie_gts(const char *speed)
{
    char *end = NULL;
    if (!speed)
        return 0;
    double v = strtod(speed, &end);
    if (end == speed || !(v > 0) || !isfinite(v))
        return 0;
    while (*end == ' ')
        end++;
    return strncmp(end, "GT/s", 4) == 0 ? v : 0;
}

double clb_pcie_bandwidth_Bps(double gts, unsigned lanes)
{
    if (!(gts > 0) || lanes == 0)
        return 0;
    double encoding = gts <= 5.0 ? 8.0 / 10.0 : gts < 64.0 ? 128.0 / 130.0 : 242.0 / 256.0;
    return gts * 1e9 * encoding * (double)lanes / 8.0;
}

int clb_pcie_generation(double gts)
{
    static const double rates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    for (int i = 0; i < 6; i++)
        if (fabs(gts - rates[i]) < 0.01 * rates[i])
            return i + 1;
    return 0;
}

clb_pci_addr clb_pci_from_nv(unsigned domain, unsigned bus, unsigned slot)
{
    clb_pci_addr a = {domain, bus, slot >> 3, slot & 7u};
    return a;
}

void clb_pci_format(const clb_pci_addr *a, char *buf, size_t n)
{
    snprintf(buf, n, "%04x:%02x:%02x.%x", a->domain & 0xffffu, a->bus & 0xffu, a->device & 0x1fu,
             a->function & 7u);
}

/* Reads the first line of dir/name into buf without its newline; "" when missing. */
static int read_line(const char *dir, const char *name, char *buf, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)n, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static unsigned read_width(const char *dir, const char *name)
{
    char buf[32];
    if (read_line(dir, name, buf, sizeof buf) != 0)
        return 0;
    unsigned long v = strtoul(buf, NULL, 10);
    return v < 1024 ? (unsigned)v : 0;
}

int clb_pci_read_link(const char *sysfs_root, const clb_pci_addr *a, clb_pci_link *out)
{
    char addr[32], dir[400];
    memset(out, 0, sizeof *out);
    clb_pci_format(a, addr, sizeof addr);
    snprintf(dir, sizeof dir, "%s/bus/pci/devices/%s", sysfs_root, addr);
    if (read_line(dir, "current_link_speed", out->current_speed, sizeof out->current_speed) != 0)
        return -1;
    read_line(dir, "max_link_speed", out->max_speed, sizeof out->max_speed);
    out->current_width = read_width(dir, "current_link_width");
    out->max_width = read_width(dir, "max_link_width");
    return 0;
}
