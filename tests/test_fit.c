/* The transfer benchmarks' pure logic with synthetic data: the latency + bandwidth fit
 * (exact, noisy, negative intercept, degenerate), the 4-byte reference subtraction, zero-copy
 * detection, PCIe arithmetic and sysfs reading from a fake tree. */
#include "bench/transfer/transfer_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

/* lib/bench/transfer/transfer_paths.c: the verification checksum (streams over chunks of 8k bytes). */
uint64_t xfer_checksum(const unsigned char *p, size_t n, uint64_t h);

#define NEAR_REL(got, want, rel) CHECK(fabs((got) - (want)) <= (rel) * fabs(want))

/* Sizes 4 B .. 1 GiB and times of a path with latency lat and bandwidth bw; noise: relative
 * amplitude of a deterministic pseudo-random perturbation (uniform in [-noise, noise]). */
static size_t synth(double lat, double bw, double noise, double *s, double *t)
{
    uint64_t r = 12345;
    size_t n = 0;
    for (double b = 4; b <= 1073741824.0; b *= 2, n++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* [-1, 1) */
        s[n] = b;
        t[n] = (lat + b / bw) * (1.0 + noise * u);
    }
    return n;
}

static void fit_exact(void)
{
    double s[40], t[40];
    size_t n = synth(10e-6, 25e9, 0, s, t);
    clb_linfit f;
    CHECK(n == 29);
    CHECK(clb_fit_latency_bandwidth(s, t, n, &f) == 0);
    NEAR_REL(f.latency_s, 10e-6, 1e-9);
    NEAR_REL(f.bandwidth_Bps, 25e9, 1e-9);
    CHECK(f.rel_rms < 1e-12);
    CHECK(!f.clamped);
}

static void fit_noisy(void)
{
    double s[40], t[40];
    size_t n = synth(5e-6, 50e9, 0.05, s, t);
    clb_linfit f;
    CHECK(clb_fit_latency_bandwidth(s, t, n, &f) == 0);
    NEAR_REL(f.latency_s, 5e-6, 0.10);
    NEAR_REL(f.bandwidth_Bps, 50e9, 0.10);
    CHECK(f.rel_rms > 0.005 && f.rel_rms < 0.05);
    /* An unweighted fit would be ruled by 1 GiB; this one must still see the latency when
     * the large sizes are noisier than the small ones. */
    t[n - 1] *= 1.3;
    CHECK(clb_fit_latency_bandwidth(s, t, n, &f) == 0);
    NEAR_REL(f.latency_s, 5e-6, 0.15);
}

static void fit_clamped_and_degenerate(void)
{
    /* Pure bandwidth with the small sizes a bit fast: the free intercept goes negative. */
    double s[] = {1e3, 1e6, 1e9}, t[] = {0.95e-6, 1e-3 * 0.99, 1.0};
    clb_linfit f;
    CHECK(clb_fit_latency_bandwidth(s, t, 3, &f) == 0);
    CHECK(f.latency_s == 0);
    CHECK(f.clamped);
    NEAR_REL(f.bandwidth_Bps, 1e9, 0.05);
    /* One distinct size, a zero time, time falling with size: no fit. */
    double same[] = {8, 8, 8}, tt[] = {1, 1, 1};
    CHECK(clb_fit_latency_bandwidth(same, tt, 3, &f) == -1);
    double zero[] = {1e-6, 0};
    CHECK(clb_fit_latency_bandwidth(s, zero, 2, &f) == -1);
    double falling[] = {2e-3, 1e-3, 0.5e-3};
    CHECK(clb_fit_latency_bandwidth(s, falling, 3, &f) == -1);
    CHECK(clb_fit_latency_bandwidth(s, t, 1, &f) == -1);
}

static void reference_subtraction(void)
{
    /* 10 us fixed cost, 20 GB/s: t(1 GiB) - t(4 B) gives the bandwidth back. */
    double big = 1073741824.0, lat = 10e-6, bw = 20e9;
    NEAR_REL(clb_reference_bandwidth(big, lat + big / bw, lat + 4 / bw), bw, 1e-6);
    CHECK(clb_reference_bandwidth(1e6, 1e-5, 2e-5) < 0);
    CHECK(clb_reference_bandwidth(1e6, 1e-5, 1e-5) < 0);
}

static void zero_copy(void)
{
    /* map of 16 MiB in 12 us vs 4 B in 10 us: size-independent; a real 10 GB/s copy is not. */
    CHECK(clb_time_size_independent(4, 10e-6, 16777216, 12e-6));
    CHECK(!clb_time_size_independent(4, 10e-6, 16777216, 10e-6 + 16777216 / 10e9));
    CHECK(!clb_time_size_independent(4, 10e-6, 1024, 10e-6)); /* range too small to tell */
    CHECK(!clb_time_size_independent(4, 0, 16777216, 1e-6));
    /* Noisy sub-microsecond maps: 0.7 us vs 3.4 us is 4.6x, but 16 MiB in 2.7 us more is
     * 6 TB/s: no copy. A 16 MiB copy at 100 GB/s (cached host memcpy) is not zero-copy. */
    CHECK(clb_time_size_independent(4, 0.7e-6, 16777216, 3.4e-6));
    CHECK(!clb_time_size_independent(4, 0.7e-6, 16777216, 0.7e-6 + 16777216 / 100e9));
    CHECK(clb_time_size_independent(4, 2e-6, 1073741824, 1e-6)); /* faster at the top */
}

static void pcie(void)
{
    CHECK(clb_pcie_gts("32.0 GT/s PCIe") == 32.0);
    CHECK(clb_pcie_gts("2.5 GT/s") == 2.5);
    CHECK(clb_pcie_gts("8 GT/s") == 8.0);
    CHECK(clb_pcie_gts("Unknown") == 0);
    CHECK(clb_pcie_gts("16.0 MB/s") == 0);
    CHECK(clb_pcie_gts(NULL) == 0);
    NEAR_REL(clb_pcie_bandwidth_Bps(32.0, 16), 32e9 * 128 / 130 * 2, 1e-12); /* 63.0 GB/s */
    NEAR_REL(clb_pcie_bandwidth_Bps(16.0, 16), 31.5077e9, 1e-4);
    NEAR_REL(clb_pcie_bandwidth_Bps(8.0, 16), 15.7538e9, 1e-4);
    NEAR_REL(clb_pcie_bandwidth_Bps(5.0, 16), 8e9, 1e-12);   /* 8b/10b */
    NEAR_REL(clb_pcie_bandwidth_Bps(2.5, 1), 0.25e9, 1e-12);
    CHECK(clb_pcie_bandwidth_Bps(0, 16) == 0);
    CHECK(clb_pcie_bandwidth_Bps(32.0, 0) == 0);
    CHECK(clb_pcie_generation(32.0) == 5);
    CHECK(clb_pcie_generation(2.5) == 1);
    CHECK(clb_pcie_generation(3.0) == 0);
}

static void pci_address(void)
{
    char buf[32];
    clb_pci_addr a = clb_pci_from_nv(0, 0x1b, 0x08); /* device 1, function 0 */
    CHECK(a.device == 1 && a.function == 0);
    a = clb_pci_from_nv(0, 0x1b, 0x0b);
    CHECK(a.device == 1 && a.function == 3);
    clb_pci_format(&a, buf, sizeof buf);
    CHECK(strcmp(buf, "0000:1b:01.3") == 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void sysfs_tree(void)
{
    char root[] = "/tmp/clb_fit_XXXXXX", dir[400];
    CHECK(mkdtemp(root) != NULL);
    snprintf(dir, sizeof dir, "%s/bus", root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/bus/pci", root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/bus/pci/devices", root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/bus/pci/devices/0000:1b:00.0", root);
    mkdir(dir, 0700);
    write_file(dir, "current_link_speed", "32.0 GT/s PCIe\n");
    write_file(dir, "max_link_speed", "32.0 GT/s PCIe\n");
    write_file(dir, "current_link_width", "16\n");
    write_file(dir, "max_link_width", "16\n");
    clb_pci_addr a = {0, 0x1b, 0, 0}, missing = {0, 0x1c, 0, 0};
    clb_pci_link l;
    CHECK(clb_pci_read_link(root, &a, &l) == 0);
    CHECK(strcmp(l.current_speed, "32.0 GT/s PCIe") == 0);
    CHECK(strcmp(l.max_speed, "32.0 GT/s PCIe") == 0);
    CHECK(l.current_width == 16 && l.max_width == 16);
    CHECK(clb_pci_read_link(root, &missing, &l) == -1);
    const char *names[] = {"current_link_speed", "max_link_speed", "current_link_width",
                           "max_link_width"};
    for (int i = 0; i < 4; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    for (int i = 0; i < 4; i++) { /* remove dir, devices, pci, bus */
        rmdir(dir);
        *strrchr(dir, '/') = '\0';
    }
    rmdir(root);
}

static void checksum_streams(void)
{
    enum { N = 4099 }; /* a tail that is not a multiple of 8 */
    static unsigned char buf[N];
    const uint64_t seed = 0xcbf29ce484222325ull;
    for (int i = 0; i < N; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    uint64_t whole = xfer_checksum(buf, N, seed);
    uint64_t h = xfer_checksum(buf, 1024, seed);
    h = xfer_checksum(buf + 1024, 2048, h);
    h = xfer_checksum(buf + 3072, N - 3072, h);
    CHECK(h == whole);
    buf[4000] ^= 1; /* one flipped bit changes it */
    CHECK(xfer_checksum(buf, N, seed) != whole);
    buf[4000] ^= 1;
    unsigned char swapped[16], orig[16];
    memcpy(orig, buf, 16);
    memcpy(swapped, buf + 8, 8); /* word order matters */
    memcpy(swapped + 8, buf, 8);
    CHECK(xfer_checksum(swapped, 16, seed) != xfer_checksum(orig, 16, seed));
}

int main(void)
{
    checksum_streams();
    fit_exact();
    fit_noisy();
    fit_clamped_and_degenerate();
    reference_subtraction();
    zero_copy();
    pcie();
    pci_address();
    sysfs_tree();
    return check_done("test_fit");
}
