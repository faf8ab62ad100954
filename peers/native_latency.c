/* Native peer of latency.*: the same dependent chains as lib/bench/microarch/latency.cl, written in C and
 * run on the host CPU (the device PoCL exposes), timed with the monotonic clock. An empty asm
 * statement that claims to change x after every step keeps the compiler from folding or
 * reordering the chain (x86-64 only; elsewhere the probe says so and exits 0).
 * Usage: clb_native_latency [steps]   prints "name ns_per_op" lines. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#if defined(__x86_64__)
#define KEEP_F(x) __asm__ volatile("" : "+x"(x))
#define KEEP_I(x) __asm__ volatile("" : "+r"(x))

__attribute__((target("fma"))) static float chain_fma32(float x, float a, float b, long n)
{
    for (long i = 0; i < n; i++) {
        x = __builtin_fmaf(x, a, b);
        KEEP_F(x);
    }
    return x;
}

__attribute__((target("fma"))) static double chain_fma64(double x, double a, double b, long n)
{
    for (long i = 0; i < n; i++) {
        x = __builtin_fma(x, a, b);
        KEEP_F(x);
    }
    return x;
}

static float chain_add32(float x, float a, long n)
{
    for (long i = 0; i < n; i++) {
        x = x + a;
        KEEP_F(x);
    }
    return x;
}

static float chain_mul32(float x, float a, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * a;
        KEEP_F(x);
    }
    return x;
}

static uint32_t chain_add_i(uint32_t x, uint32_t y, long n)
{
    for (long i = 0; i < n; i++) {
        x = x + y;
        KEEP_I(x);
        y = y + x;
        KEEP_I(y);
    }
    return x;
}

static uint32_t chain_mul_i(uint32_t x, uint32_t y, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * y;
        KEEP_I(x);
        y = y * x;
        KEEP_I(y);
    }
    return x;
}

static float chain_div32(float x, float a, float b, long n)
{
    for (long i = 0; i < n; i++) {
        x = a / x + b;
        KEEP_F(x);
    }
    return x;
}

static float chain_sqrt32(float x, float a, long n)
{
    for (long i = 0; i < n; i++) {
        x = sqrtf(x) + a;
        KEEP_F(x);
    }
    return x;
}

/* Best of 50 short runs (about a millisecond each): the least disturbed by other load and
 * by the scheduler's time slices. */
#define TIME(name, ops, expr)                                     \
    do {                                                          \
        double best = 1e30;                                       \
        for (int r = 0; r < 50; r++) {                                 \
            double t0 = now();                                    \
            sink += (double)(expr);                               \
            double t = now() - t0;                                \
            best = t < best ? t : best;                           \
        }                                                         \
        printf("%-12s %.4f\n", name, 1e9 * best / (double)(ops)); \
    } while (0)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000L;
    volatile float va = 0.875f, vb = 0.3f, vm = 1.0f - 0x1p-24f, vadd = 1e-3f;
    volatile uint32_t vy = 0x9E3779B9u;
    double sink = 0;
    if (n <= 0)
        n = 1000000L;
    if (!__builtin_cpu_supports("fma")) {
        printf("# the CPU has no FMA3; fma rows omitted\n");
    } else {
        TIME("fp32_fma", n, chain_fma32(1.25f, va, vb, n));
        TIME("fp64_fma", n, chain_fma64(1.25, va, vb, n));
    }
    TIME("fp32_add", n, chain_add32(1.25f, vadd, n));
    TIME("fp32_mul", n, chain_mul32(1.25f, vm, n));
    TIME("int32_add", 2 * n, chain_add_i(12345u, vy, n));
    TIME("int32_mul", 2 * n, chain_mul_i(12345u | 1u, vy | 1u, n));
    TIME("fp32_div", n / 4, chain_div32(1.25f, va, vb, n / 4));
    TIME("fp32_sqrt", n / 4, chain_sqrt32(1.25f, va, n / 4));
    fprintf(stderr, "# checksum %g\n", sink);
    return 0;
}
#else
int main(void)
{
    printf("# native latency probe: x86-64 only\n");
    return 0;
}
#endif
