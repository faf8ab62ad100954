/* A CUDA twin module (ABI 4) that computes on the host, for testing the CUDA rows' verification
 * without a GPU (tests/cli_cuda_fake.sh, on PoCL passing for an NVIDIA GPU through the preload
 * library's CLBENCH_PRELOAD_VENDOR_ID). Right answers, unless
 * FAKE_CUDA_BUG names a defect to plant:
 *   gemm_shape0  the own kernel's shape 0 (variant 0 and 2) is wrong by one element, and fastest
 *   gemm_all     every own shape is wrong
 *   gemm_late    the own kernel is right in a run of 3 reps (the screen), wrong otherwise
 *   mcpi         the count is one too high
 *   strmatch     the last pattern found is reported absent
 *   euler        one component of the Euler result is off by 1
 * Times: 1 ms, shape i of the own kernel (1 + i) ms, a planted fast defect 0.1 ms; every call's
 * setup 2 ms and copy back 0.5 ms (last_phases), unless FAKE_CUDA_BUG=phases: no phases reported. */
#include "apps/cuda/cuda_twins.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bug(const char *what)
{
    const char *b = getenv("FAKE_CUDA_BUG");
    return b && strcmp(b, what) == 0;
}

static void times(double *t, unsigned reps, double s)
{
    for (unsigned i = 0; i < reps; i++)
        t[i] = s;
}

static int device_name(char *name, size_t len, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    snprintf(name, len, "fake CUDA device (tests/fake_cuda_twins.c)");
    return 0;
}

static int saxpy(size_t n, float a, const float *x, float *y, unsigned reps, double *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    for (unsigned r = 0; r <= reps; r++)
        for (size_t i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];
    times(t, reps, 1e-3);
    return 0;
}

/* variant 0 / 2 + i: own shape; 1: the library. */
#define GEMM_BODY(T)                                                                              \
    int shape = variant == 0 ? 0 : variant - 2;                                                   \
    int shapes = sizeof(T) == 4 ? CLBCU_SGEMM_SHAPES : CLBCU_DGEMM_SHAPES;                        \
    if (variant != 1 && (shape < 0 || shape >= shapes)) {                                         \
        snprintf(err, errlen, "fake gemm: no variant %d", variant);                               \
        return 1;                                                                                 \
    }                                                                                             \
    for (size_t i = 0; i < n; i++)                                                                \
        for (size_t j = 0; j < n; j++) {                                                          \
            T s = 0;                                                                              \
            for (size_t k = 0; k < n; k++)                                                        \
                s += a[i * n + k] * b[k * n + j];                                                 \
            c[i * n + j] = s;                                                                     \
        }                                                                                         \
    int own = variant != 1, wrong = own && ((bug("gemm_shape0") && shape == 0) || bug("gemm_all") || \
                                            (bug("gemm_late") && reps != 3));                     \
    if (wrong)                                                                                    \
        c[(n / 2) * n + n / 3] += (T)1;                                                           \
    times(t, reps, wrong ? 1e-4 : own ? 1e-3 * (1 + shape) : 1e-3);                               \
    return 0;

static int sgemm(int variant, size_t n, const float *a, const float *b, float *c, unsigned reps, double *t,
                 char *err, size_t errlen)
{
    GEMM_BODY(float)
}

static int dgemm(int variant, size_t n, const double *a, const double *b, double *c, unsigned reps,
                 double *t, char *err, size_t errlen)
{
    GEMM_BODY(double)
}

/* Seed 004's sample i (lib/apps/mcpi/mcpi.cl): x x + y y <= 1 + 2^-23 in float; getRandom and
 * the seed from their one definition. */
#include "../lib/apps/mcpi/mcpi_rng.h"

static int mcpi(unsigned long long n, unsigned reps, double *t, unsigned long long *inside, char *err,
                size_t errlen)
{
    (void)err, (void)errlen;
    unsigned long long count = 0;
    for (unsigned long long i = 0; i < n; i++) {
        uint32_t seed = MCPI_SEED((uint32_t)(i * 27u));
        float x = (float)mcpi_get_random(&seed) * 0x1p-31f;
        float y = (float)mcpi_get_random(&seed) * 0x1p-31f;
        float xx = x * x, yy = y * y, s = xx + yy;
        count += s <= 0x1.000002p0f;
    }
    *inside = count + (bug("mcpi") ? 1 : 0);
    times(t, reps, 1e-3);
    return 0;
}

static int strmatch(const char *text, size_t len, const char *pats, size_t npat, size_t m, unsigned reps,
                    double *t, long long *pos, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    long long last = -1;
    for (size_t k = 0; k < npat; k++) {
        pos[k] = -1;
        for (size_t s = 0; s + m <= len && pos[k] < 0; s++)
            if (memcmp(text + s, pats + k * m, m) == 0)
                pos[k] = (long long)s;
        if (pos[k] >= 0)
            last = (long long)k;
    }
    if (bug("strmatch") && last >= 0)
        pos[last] = -1;
    times(t, reps, 1e-3);
    return 0;
}

/* STRING's explicit Euler step in float (docs/apps/euler.md), outside the ends 0. */
static void euler_step(size_t n, float k2, float h, const float *y, float *yn)
{
    for (size_t j = 0; j < n; j++) {
        float f;
        if (j & 1)
            f = k2 * ((j >= 3 ? y[j - 3] : 0.0f) - 2.0f * y[j - 1] + (j + 1 < n ? y[j + 1] : 0.0f));
        else
            f = y[j + 1];
        yn[j] = y[j] + h * f;
    }
}

/* All steps on the host; on success the note of the tiling (diamonds of 4 blocks), as the
 * module's, from which the row counts the traffic. */
static int euler_string(size_t n, size_t steps, float k2, float h, const float *y0, float *y, unsigned reps,
                        double *t, char *err, size_t errlen)
{
    float *b = malloc(n * sizeof *b), *cur = y, *nxt = b;
    if (!b || n < 8 || n % 4) {
        free(b);
        snprintf(err, errlen, "fake euler_string: n %zu", n);
        return 1;
    }
    memcpy(y, y0, n * sizeof *y);
    for (size_t s = 0; s < steps; s++) {
        euler_step(n, k2, h, cur, nxt);
        float *sw = cur;
        cur = nxt, nxt = sw;
    }
    if (cur != y)
        memcpy(y, cur, n * sizeof *y);
    free(b);
    if (bug("euler"))
        y[n / 2] += 1.0f;
    times(t, reps, 1e-3);
    snprintf(err, errlen, "diamond: dia_blocks 4, hs 2, m 0, period 4, %zu diamonds (korrStrat), 0 B shared (fake)",
             (n / 4 + 3) / 4);
    return 0;
}

/* The host stand-in runs on no CUDA device and has one tiling: configure only checks its input. */
static int configure(const char *pci_bus_id, int euler_tiling)
{
    return (pci_bus_id && strlen(pci_bus_id) >= 64) || euler_tiling < CLBCU_TILING_SCREEN ||
           euler_tiling > CLBCU_TILING_HONEYCOMB;
}

/* The phases of the last call: fixed, as the fake's run times are. */
static int last_phases(double *setup_s, double *readback_s)
{
    if (bug("phases"))
        return 1;
    *setup_s = 2e-3;
    *readback_s = 5e-4;
    return 0;
}

static const clbcu_api api = {CLBCU_ABI_VERSION, device_name, saxpy, sgemm, dgemm, mcpi, strmatch, euler_string,
                              configure, last_phases};

const clbcu_api *clbcu_get_api(void)
{
    return &api;
}
