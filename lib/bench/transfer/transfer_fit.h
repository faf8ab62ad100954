/* Pure helpers of the transfer benchmarks (no OpenCL): the latency + bandwidth fit, the
 * seed's 4-byte reference subtraction, zero-copy detection, and PCIe link arithmetic. */
#ifndef CLB_FIT_H
#define CLB_FIT_H

#include <stddef.h>
#include <stdint.h>

/* time = latency + bytes / bandwidth, fitted to (bytes[i], seconds[i]). */
typedef struct clb_linfit {
    double latency_s;     /* intercept, >= 0 (clamped: see clb_fit_latency_bandwidth) */
    double bandwidth_Bps; /* 1 / slope, bytes per second */
    double rel_rms;       /* RMS of the relative residuals (t_fit - t) / t */
    int clamped;          /* 1 when the free fit's intercept was negative and was refitted at 0 */
    size_t n;
} clb_linfit;

/* Weighted least squares with weights 1 / t_i^2, i.e. it minimizes the sum of squared
 * relative residuals, so the small sizes (which carry the latency) weigh as much as the large
 * ones (which carry the bandwidth); an ordinary least squares fit would let the largest size
 * decide everything. A negative intercept (noise) is clamped to 0 and the slope refitted.
 * Returns 0 on success; -1 when fewer than two distinct sizes, a non-positive or non-finite
 * time, or a slope <= 0 (time not growing with size) make the fit meaningless. */
int clb_fit_latency_bandwidth(const double *bytes, const double *seconds, size_t n,
                              clb_linfit *out);

/* The seed's method (000 §4.3.3): bandwidth = bytes / (t(bytes) - t(4 B)). Returns a
 * negative value when t(bytes) <= t_ref (the difference is not measurable). */
double clb_reference_bandwidth(double bytes, double seconds, double ref_seconds);

/* 1 when the time does not grow with size, so no data moves (zero-copy): the sizes must span
 * at least 1024x, and either the largest size takes less than 4x the smallest size's time,
 * or the extra time buys the extra bytes at more than CLB_ZERO_COPY_RATE_BPS (1 TB/s), which
 * no host link or host memcpy reaches (sub-microsecond map times are noisy, so the ratio
 * alone misjudges them). Returns 0 when the sizes do not span 1024x. */
#define CLB_ZERO_COPY_RATE_BPS 1e12
int clb_time_size_independent(double small_bytes, double small_s, double large_bytes,
                              double large_s);

/* PCIe: the per-lane rate of a sysfs link speed string ("32.0 GT/s PCIe", "8 GT/s",
 * "2.5 GT/s"); 0 when it cannot be parsed ("Unknown"). */
double clb_pcie_gts(const char *speed);
/* Payload bandwidth of a link in bytes per second before protocol overhead: GT/s per lane
 * times the line encoding (8b/10b up to 5 GT/s, 128b/130b from 8 GT/s; 242/256 FLIT for 64
 * GT/s) times lanes, / 8 bits. 0 for an unknown speed or no lanes. */
double clb_pcie_bandwidth_Bps(double gts, unsigned lanes);
/* The PCIe generation of a per-lane rate (1..6), 0 when unknown. */
int clb_pcie_generation(double gts);

/* A PCI address. */
typedef struct clb_pci_addr {
    unsigned domain, bus, device, function;
} clb_pci_addr;
/* NVIDIA's CL_DEVICE_PCI_SLOT_ID_NV encodes device << 3 | function. */
clb_pci_addr clb_pci_from_nv(unsigned domain, unsigned bus, unsigned slot);
/* "DDDD:BB:DD.F" (lower-case hex, as sysfs names devices). */
void clb_pci_format(const clb_pci_addr *a, char *buf, size_t n);

/* The link attributes of a PCI device read from sysfs_root/bus/pci/devices/ADDR/ (pass
 * "/sys"; tests pass a fake tree). Strings are "" when a file is missing. */
typedef struct clb_pci_link {
    char current_speed[64], max_speed[64];
    unsigned current_width, max_width;
} clb_pci_link;
/* Returns 0 when the device directory and its current_link_speed exist, -1 otherwise. */
int clb_pci_read_link(const char *sysfs_root, const clb_pci_addr *a, clb_pci_link *out);

#endif
