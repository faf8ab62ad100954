/* native_stream: a native C (OpenMP) STREAM-style probe of the host's memory bandwidth, the
 * peer of memory.triad / memory.read_linear on CPU OpenCL devices (peers/memory.sh).
 *
 * usage: native_stream [MiB per array]   (default: 4x the largest cache in sysfs, >= 512 MiB,
 *        as memory.* uses on CPU devices; peers/memory.sh passes memory.triad's size)
 * Prints "read_gbs", "write_gbs", "copy_gbs", "scale_gbs", "add_gbs" and "triad_gbs" lines
 * (write: c = q, a constant double 3.0, which is no byte pattern a compiler could turn into a
 * memset (glibc's uses non-temporal stores for large sizes), and CPUs do not compress DRAM
 * traffic; scale b = q c, add c = a + b): the median of 11 timed repetitions
 * (the first discarded), bytes counted as read + written (STREAM's convention). Arrays are
 * doubles filled with non-zero data and first touched by the threads that use them. */
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define REPS 11

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long largest_cache(void)
{
    unsigned long long best = 0;
    for (int i = 0; i < 8; i++) {
        char path[96], line[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(line, sizeof line, f)) {
            char *end = NULL;
            unsigned long long v = strtoull(line, &end, 10);
            v <<= end && *end == 'K' ? 10 : end && *end == 'M' ? 20 : 0;
            best = v > best ? v : best;
        }
        fclose(f);
    }
    return best;
}

/* 2 MiB aligned and marked for transparent huge pages, as OpenCL runtimes often get for
 * large buffers: with 4 KiB pages the hardware prefetchers stop at every page boundary
 * (and, in a VM, each TLB miss costs a nested page walk), which would make this peer slow
 * for reasons that have nothing to do with the memory system. */
static double *alloc_array(size_t n)
{
    size_t bytes = (n * sizeof(double) + (2u << 20) - 1) / (2u << 20) * (2u << 20);
    double *p = aligned_alloc(2u << 20, bytes);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

int main(int argc, char **argv)
{
    unsigned long long mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
    if (!mib) {
        mib = 512;
        while ((mib << 20) < 4 * largest_cache())
            mib *= 2;
    }
    size_t n = (size_t)(mib << 20) / sizeof(double);
    double *a = alloc_array(n), *b = alloc_array(n), *c = alloc_array(n);
    if (!a || !b || !c) {
        fprintf(stderr, "native_stream: out of memory for 3 x %llu MiB\n", mib);
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0 + (double)(i % 1021);
        b[i] = 2.0 + (double)(i % 977);
        c[i] = 0.5;
    }
    double tr[REPS], tw[REPS], tc[REPS], ts[REPS], ta[REPS], tt[REPS], sum = 0, q = 3.0;
    for (int r = 0; r < REPS; r++) {
        double s = 0, t0 = now();
        /* simd: the reduction may be reassociated into vector lanes, so the loop is bound
         * by loads, not by the latency of one chain of dependent adds. */
#pragma omp parallel for simd schedule(static) reduction(+ : s)
        for (size_t i = 0; i < n; i++)
            s += a[i];
        double t1 = now();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            c[i] = q;
        double tw0 = now();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            c[i] = a[i];
        double t2 = now();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            b[i] = q * c[i];
        double ts0 = now();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        double ta0 = now();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + q * c[i];
        double t3 = now();
        tr[r] = t1 - t0;
        tw[r] = tw0 - t1;
        tc[r] = t2 - tw0;
        ts[r] = ts0 - t2;
        ta[r] = ta0 - ts0;
        tt[r] = t3 - ta0;
        sum += s;
    }
    double bytes = (double)n * sizeof(double);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    printf("array_mib %llu\nthreads %d\n", mib, threads);
    printf("read_gbs %.3f\n", bytes / median(tr + 1, REPS - 1) * 1e-9);
    printf("write_gbs %.3f\n", bytes / median(tw + 1, REPS - 1) * 1e-9);
    printf("copy_gbs %.3f\n", 2 * bytes / median(tc + 1, REPS - 1) * 1e-9);
    printf("scale_gbs %.3f\n", 2 * bytes / median(ts + 1, REPS - 1) * 1e-9);
    printf("add_gbs %.3f\n", 3 * bytes / median(ta + 1, REPS - 1) * 1e-9);
    printf("triad_gbs %.3f\n", 3 * bytes / median(tt + 1, REPS - 1) * 1e-9);
    printf("checksum %.6e %.6e\n", sum, a[n / 2]); /* keeps every loop's result live */
    free(a);
    free(b);
    free(c);
    return 0;
}
