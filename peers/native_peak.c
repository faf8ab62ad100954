/* native_peak: the host CPU's FP32 and FP64 FMA throughput with intrinsics, on all online
 * CPUs, as the comparison point for the compute.* benchmarks on CPU OpenCL devices.
 *
 * Each thread runs ACC independent FMA chains (acc = acc * m + a) in vector registers:
 * enough independent chains to cover the FMA latency on every unit (2 units x 5 cycles on
 * Zen 3, 2 x 4 on Intel). AVX-512 (16/8 lanes) or AVX2+FMA (8/4 lanes) is chosen at run time
 * (function-level target attributes, so the file builds without -march). Each FMA counts as
 * 2 FLOP. Prints JSON: {"fp32_gflops", "fp64_gflops", "isa", "threads", "seconds"}.
 * Usage: native_peak [seconds per precision, default 1] */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NATIVE_X86 1
#endif

#define ACC 12
#define INNER 1000

typedef struct job {
    int isa;    /* 2 = AVX2+FMA, 3 = AVX-512F */
    int fp64;
    long iters; /* outer iterations of INNER steps */
    double sink;
} job;

#if NATIVE_X86
/* Twelve named accumulators (not an array) so every chain stays in a register at any -O. */
#define STEP12(F)                                                                        \
    a0 = F(a0, m, c); a1 = F(a1, m, c); a2 = F(a2, m, c); a3 = F(a3, m, c);            \
    a4 = F(a4, m, c); a5 = F(a5, m, c); a6 = F(a6, m, c); a7 = F(a7, m, c);            \
    a8 = F(a8, m, c); a9 = F(a9, m, c); a10 = F(a10, m, c); a11 = F(a11, m, c)
#define KERNEL(NAME, TARGET, V, SET1, FMA, ADD, T, REDUCE)                                \
    __attribute__((target(TARGET))) static double NAME(long iters)                      \
    {                                                                                    \
        V m = SET1((T)0.999), c = SET1((T)0.001);                                        \
        V a0 = SET1((T)1.00), a1 = SET1((T)1.01), a2 = SET1((T)1.02), a3 = SET1((T)1.03); \
        V a4 = SET1((T)1.04), a5 = SET1((T)1.05), a6 = SET1((T)1.06), a7 = SET1((T)1.07); \
        V a8 = SET1((T)1.08), a9 = SET1((T)1.09), a10 = SET1((T)1.1), a11 = SET1((T)1.11); \
        for (long i = 0; i < iters; i++)                                                 \
            for (int k = 0; k < INNER; k++) {                                            \
                STEP12(FMA);                                                             \
            }                                                                            \
        V s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));          \
        s = ADD(s, ADD(ADD(a8, a9), ADD(a10, a11)));                                     \
        return (double)REDUCE(s);                                                        \
    }
#define FIRST256PS(v) _mm256_cvtss_f32(v)
#define FIRST256PD(v) _mm256_cvtsd_f64(v)
KERNEL(run_avx2_ps, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, float, FIRST256PS)
KERNEL(run_avx2_pd, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, double, FIRST256PD)
KERNEL(run_avx512_ps, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, float, _mm512_reduce_add_ps)
KERNEL(run_avx512_pd, "avx512f", __m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, double, _mm512_reduce_add_pd)
#endif

/* FLOP of one thread's run: iters x INNER x ACC vector FMAs x lanes x 2. */
static double flops(const job *j)
{
    int lanes = (j->isa == 3 ? 16 : 8) / (j->fp64 ? 2 : 1);
    return (double)j->iters * INNER * ACC * lanes * 2.0;
}

static void *worker(void *arg)
{
    job *j = arg;
#if NATIVE_X86
    if (j->isa == 3)
        j->sink = j->fp64 ? run_avx512_pd(j->iters) : run_avx512_ps(j->iters);
    else
        j->sink = j->fp64 ? run_avx2_pd(j->iters) : run_avx2_ps(j->iters);
#endif
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs n threads of iters each; returns GFLOP/s over the slowest thread (wall clock). */
static double run_threads(int n, int isa, int fp64, long iters, double *seconds)
{
    pthread_t th[1024];
    job jobs[1024];
    double t0 = now();
    int started = 0;
    for (int i = 0; i < n && i < 1024; i++, started++) {
        jobs[i] = (job){isa, fp64, iters, 0};
        if (pthread_create(&th[i], NULL, worker, &jobs[i]) != 0)
            break;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    *seconds = now() - t0;
    return started ? flops(&jobs[0]) * started / *seconds * 1e-9 : 0;
}

/* Calibrates iterations to about `target` seconds, then keeps the best of three runs. */
static double measure(int n, int isa, int fp64, double target)
{
    long iters = 10;
    double s = 0, best = 0;
    run_threads(n, isa, fp64, iters, &s);
    while (s < 0.2 * target && iters < (1L << 40)) {
        iters *= s > 0 ? (long)(0.3 * target / s) + 2 : 10;
        run_threads(n, isa, fp64, iters, &s);
    }
    iters = (long)((double)iters * target / 3 / s) + 1;
    for (int r = 0; r < 3; r++) {
        double g = run_threads(n, isa, fp64, iters, &s);
        best = g > best ? g : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    double target = argc > 1 ? atof(argv[1]) : 1.0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cpus > 0 ? (int)cpus : 1, isa = 0;
#if NATIVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        isa = 3;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        isa = 2;
#endif
    if (!isa) {
        printf("{\"error\": \"no AVX2+FMA or AVX-512F on this CPU\", \"fp32_gflops\": null, "
               "\"fp64_gflops\": null}\n");
        return 2;
    }
    if (target <= 0)
        target = 1.0;
    double sp = measure(n, isa, 0, target), dp = measure(n, isa, 1, target);
    printf("{\"tool\": \"native_peak\", \"isa\": \"%s\", \"threads\": %d, \"accumulators\": %d, "
           "\"fp32_gflops\": %.3f, \"fp64_gflops\": %.3f, \"seconds\": %.2f}\n",
           isa == 3 ? "avx512f" : "avx2+fma", n, ACC, sp, dp, target);
    return 0;
}
