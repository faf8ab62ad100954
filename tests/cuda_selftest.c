/* The CUDA twin module's check on a GPU machine (not a CTest test: CI has no GPU). Loads
 * libclbench_cuda.so through clbench's loader and runs every entry point at small, awkward sizes
 * against host references; prints PASS/FAIL per entry point and exits 1 on any failure.
 *   build/cuda_selftest            (CLBENCH_CUDA_MODULE=path overrides where the module is) */
#include "apps/cuda/cuda_twins.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 3 };

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void) /* [-1, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

static char letter(void) /* one of a 4-letter alphabet: naive matching does real work */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return "acgt"[rng >> 62];
}

/* PASS when rc is 0, every time positive and ok (the comparison) holds. */
static int report(const char *what, int rc, const char *err, const double *t, int ok, const char *detail)
{
    int timed = 1;
    for (int i = 0; rc == 0 && i < REPS; i++)
        timed &= t[i] > 0;
    int pass = rc == 0 && timed && ok;
    printf("%-14s %s  %s\n", what, pass ? "PASS" : "FAIL",
           rc ? err : !timed ? "a run without measurable time" : detail);
    return pass;
}

static int check_saxpy(const clbcu_api *api)
{
    size_t n = (1u << 20) + 3;
    float a = 0.75f, *x = malloc(n * sizeof *x), *y0 = malloc(n * sizeof *y0), *y = malloc(n * sizeof *y);
    double t[REPS], worst = 0;
    char err[512] = "", detail[128];
    int ok = x && y0 && y, rc = 1;
    for (size_t i = 0; ok && i < n; i++)
        x[i] = (float)uniform(), y0[i] = y[i] = (float)uniform();
    if (ok)
        rc = api->saxpy(n, a, x, y, REPS, t, err, sizeof err);
    for (size_t i = 0; ok && rc == 0 && i < n; i++) { /* REPS + 1 passes, warm-up included */
        double want = y0[i] + (REPS + 1) * (double)a * x[i];
        double e = fabs(y[i] - want) / (fabs(y0[i]) + (REPS + 2) * fabs((double)a * x[i]) + 1e-30);
        worst = e > worst ? e : worst;
    }
    snprintf(detail, sizeof detail, "n %zu, relative error %.2g (bound %.2g)", n, worst, 2.0 * (REPS + 1) * 0x1p-24);
    ok = report("saxpy", rc, err, t, ok && worst <= 2.0 * (REPS + 1) * 0x1p-24, detail);
    /* the call's phases (ABI 4): an upload of 8 MiB and a copy back of 4 MiB take measurable time */
    double setup = -1, back = -1;
    int phases = rc == 0 && api->last_phases(&setup, &back) == 0 && setup > 0 && back > 0;
    printf("last_phases    %s  setup %.3g s, readback %.3g s\n", phases ? "PASS" : "FAIL", setup, back);
    ok &= phases;
    free(x), free(y0), free(y);
    return ok;
}

/* Every element of C against A B in double, within 4 sqrt(n) u sum |a b| (docs/apps/gemm.md). */
static int check_gemm(const clbcu_api *api, int dbl, int variant)
{
    size_t n = 257, e = dbl ? 8 : 4;
    void *a = malloc(n * n * e), *b = malloc(n * n * e), *c = malloc(n * n * e);
    double t[REPS], worst = 0, u = dbl ? 0x1p-53 : 0x1p-24;
    char err[512] = "", detail[128], what[32];
    int ok = a && b && c, rc = 1;
    for (size_t i = 0; ok && i < n * n; i++) {
        double va = uniform(), vb = uniform();
        if (dbl)
            ((double *)a)[i] = va, ((double *)b)[i] = vb;
        else
            ((float *)a)[i] = (float)va, ((float *)b)[i] = (float)vb;
    }
    if (ok)
        rc = dbl ? api->dgemm(variant, n, a, b, c, REPS, t, err, sizeof err)
                 : api->sgemm(variant, n, a, b, c, REPS, t, err, sizeof err);
#define AT(p, i) (dbl ? ((double *)(p))[i] : (double)((float *)(p))[i])
    for (size_t i = 0; ok && rc == 0 && i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0, s = 0;
            for (size_t k = 0; k < n; k++)
                v += AT(a, i * n + k) * AT(b, k * n + j), s += fabs(AT(a, i * n + k) * AT(b, k * n + j));
            double r = fabs(AT(c, i * n + j) - v) / (4 * sqrt((double)n) * u * s + 1e-300);
            worst = r > worst ? r : worst;
        }
#undef AT
    snprintf(what, sizeof what, "%s.%s%.0d", dbl ? "dgemm" : "sgemm", variant == 1 ? "cublas" : "cuda", variant > 1 ? variant - 2 : 0);
    snprintf(detail, sizeof detail, "n %zu, worst error %.2g of the bound", n, worst);
    ok = report(what, rc, err, t, ok && worst <= 1, detail);
    free(a), free(b), free(c);
    return ok;
}

/* Seed 004's getRandom with a 32-bit state; x, y in float, no contraction (separate statements). */
static unsigned get_random(uint32_t *seed)
{
    uint32_t next = *seed;
    unsigned r;
    next = next * 1103515245u + 12345u;
    r = (next / 65536u) % 2048u;
    next = next * 1103515245u + 12345u;
    r = (r << 10) ^ ((next / 65536u) % 1024u);
    next = next * 1103515245u + 12345u;
    r = (r << 10) ^ ((next / 65536u) % 1024u);
    *seed = next;
    return r;
}

static int check_mcpi(const clbcu_api *api)
{
    unsigned long long samples = (1ull << 22) + 5, want = 0, got = 0;
    double t[REPS];
    char err[512] = "", detail[160];
    for (unsigned long long i = 0; i < samples; i++) {
        uint32_t seed = 1987u ^ (uint32_t)(i * 27u);
        float x = (float)get_random(&seed) / (float)2147483647;
        float y = (float)get_random(&seed) / (float)2147483647;
        float xx = x * x;
        float yy = y * y;
        float s = xx + yy;
        want += sqrtf(s) <= 1.0f;
    }
    int rc = api->mcpi(samples, REPS, t, &got, err, sizeof err);
    snprintf(detail, sizeof detail, "%llu samples, %llu inside (host %llu), pi ~ %.6f", samples, got,
             want, 4.0 * (double)got / (double)samples);
    return report("mcpi", rc, err, t, got == want, detail);
}

static long long find(const char *text, size_t tn, const char *p, size_t pn)
{
    for (size_t s = 0; s + pn <= tn; s++)
        if (memcmp(text + s, p, pn) == 0)
            return (long long)s;
    return -1;
}

/* Five 100-char patterns over a 4-letter text: planted once, twice (the first counts), near the
 * end, at 0, and one random (absent in practice; the host reference decides). */
static int check_strmatch(const clbcu_api *api)
{
    enum { NP = 5, PL = 100 };
    size_t tn = 300007, at[NP] = {123457, 4096 * 3 - 50, tn - PL, 0, 0}; /* 1: across a 4096-start tile border */
    char *text = malloc(tn), pats[NP * PL], detail[256];
    long long pos[NP] = {-2, -2, -2, -2, -2}, want[NP] = {-2, -2, -2, -2, -2};
    double t[REPS];
    char err[512] = "";
    int ok = text != NULL, rc = 1;
    for (size_t i = 0; ok && i < tn; i++)
        text[i] = letter();
    for (size_t k = 0; ok && k < NP; k++)
        for (size_t j = 0; j < PL; j++)
            pats[k * PL + j] = letter();
    for (size_t k = 0; ok && k < NP - 1; k++)
        memcpy(text + at[k], pats + k * PL, PL);
    if (ok)
        memcpy(text + 200000, pats + 1 * PL, PL); /* pattern 1 again, after its first place */
    for (size_t k = 0; ok && k < NP; k++)
        want[k] = find(text, tn, pats + k * PL, PL);
    if (ok)
        rc = api->strmatch(text, tn, pats, NP, PL, REPS, t, pos, err, sizeof err);
    for (size_t k = 0; ok && rc == 0 && k < NP; k++)
        ok &= pos[k] == want[k];
    snprintf(detail, sizeof detail, "text %zu, positions %lld %lld %lld %lld %lld (host %lld %lld %lld %lld %lld)",
             tn, pos[0], pos[1], pos[2], pos[3], pos[4], want[0], want[1], want[2], want[3], want[4]);
    ok = report("strmatch", rc, err, t, ok, detail);
    free(text);
    return ok;
}

/* One double Euler step of STRING (docs/apps/euler.md) from y into yn, k2 and h as given. */
static void euler_step(size_t n, double k2, double h, const double *y, double *yn)
{
    for (size_t j = 0; j < n; j++) {
        double l = j >= 3 ? y[j - 3] : 0, r = j + 1 < n ? y[j + 1] : 0;
        double f = j & 1 ? k2 * (l - 2 * y[j - 1] + r) : y[j + 1];
        yn[j] = y[j] + h * f;
    }
}

/* STRING f32 at an odd step count (result in the second buffer) and a partial last block,
 * against the double run: the error relative to max |y| of each parity within the OpenCL
 * rows' bound 8 max(steps, 16) u. */
/* n = 4 * 25013: diamonds taller than the 37 steps (2 launches); n = 4 * 601: diamonds of 6 blocks,
 * 13 launches, so levels cross rows of diamonds (the tiled twin's seams). */
static int check_euler(const clbcu_api *api, size_t n)
{
    enum { STEPS = 37 };
    size_t pts = n / 2 + 1;
    double k2 = (double)pts * (double)pts, h = 0.01 / (double)pts, t[REPS], worst = 0, big[2] = {0, 0};
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), bound = 8.0 * STEPS * 0x1p-23;
    float *y0 = malloc(n * sizeof *y0), *y = malloc(n * sizeof *y);
    char err[512] = "", detail[200];
    int ok = a && b && y0 && y, rc = 1;
    for (size_t j = 0; ok && j < n; j++) /* positions a sine plus noise, small random velocities */
        y0[j] = (float)(j & 1 ? 0.1 * uniform() : sin(3.14159265358979 * (double)(j / 2 + 1) / (double)pts) + 0.1 * uniform());
    for (size_t j = 0; ok && j < n; j++)
        a[j] = y0[j];
    for (int s = 0; ok && s < STEPS; s++) {
        euler_step(n, (float)k2, (float)h, a, b);
        double *tmp = a;
        a = b, b = tmp;
    }
    if (ok)
        rc = api->euler_string(n, STEPS, (float)k2, (float)h, y0, y, REPS, t, err, sizeof err);
    for (size_t j = 0; ok && j < n; j++)
        big[j & 1] = fmax(big[j & 1], fabs(a[j]));
    for (size_t j = 0; ok && rc == 0 && j < n; j++) {
        double e = fabs(y[j] - a[j]) / big[j & 1];
        worst = e > worst || isnan(e) ? e : worst;
    }
    snprintf(detail, sizeof detail, "n %zu, %d steps, %.24s, relative error %.2g (bound %.2g)", n, STEPS,
             rc == 0 && err[0] ? err : "-", worst, bound);
    ok = report("euler_string", rc, err, t, ok && worst <= bound, detail);
    free(a), free(b), free(y0), free(y);
    return ok;
}

int main(void)
{
    char why[4096], name[512], err[512];
    const clbcu_api *api = clb_cuda_api(why, sizeof why);
    if (!api) {
        printf("module         FAIL  %s\n", why);
        return 1;
    }
    int ok = api->device_name(name, sizeof name, err, sizeof err) == 0;
    printf("device_name    %s  %s\n", ok ? "PASS" : "FAIL", ok ? name : err);
    ok &= check_saxpy(api);
    for (int dbl = 0; dbl < 2; dbl++) /* own, cuBLAS, then every shape of the own kernel */
        for (int v = 0; v < 2 + (dbl ? CLBCU_DGEMM_SHAPES : CLBCU_SGEMM_SHAPES); v++)
            ok &= check_gemm(api, dbl, v);
    ok &= check_mcpi(api);
    ok &= check_strmatch(api);
    static const int tilings[] = {CLBCU_TILING_DIAMOND, CLBCU_TILING_HONEYCOMB, CLBCU_TILING_SCREEN};
    for (int k = 0; k < 3; k++) {
        ok &= api->configure(NULL, tilings[k]) == 0;
        ok &= check_euler(api, 4 * 25013);
        ok &= check_euler(api, 4 * 601);
    }
    printf("%s\n", ok ? "ALL PASS" : "SOME FAILED");
    return ok ? 0 : 1;
}
