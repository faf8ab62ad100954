/* StringMatch inputs: a text over a four-letter alphabet from a seeded generator, patterns
 * planted at documented places, and the check of a run's positions against the reference. */
#include "apps/strmatch/strmatch.h"

#include <stdlib.h>
#include <string.h>

size_t strmatch_bytes(const clb_ctx *c)
{
    return app_size(c, clb_settings_get()->strmatch_bytes, (size_t)1 << 20, 10000000, 10000000);
}

/* Uniform letters of the alphabet, 2 bits each (32 per draw). */
static uint64_t fill_letters(char *p, size_t n, uint64_t state)
{
    uint64_t r = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 32 == 0)
            r = clb_rand64(&state);
        p[i] = STRMATCH_ALPHABET[r & 3];
        r >>= 2;
    }
    return state;
}

static void plant_in(char *text, const strmatch_input *in, size_t k, size_t at)
{
    memcpy(text + at, in->pats + k * in->m, in->m);
}

static void plant(strmatch_input *in, size_t k, size_t at)
{
    plant_in(in->text, in, k, at);
}

/* Pattern k at `at` with its last byte replaced by another letter: a partial match of m - 1. */
static void decoy_in(char *text, const strmatch_input *in, size_t k, size_t at)
{
    plant_in(text, in, k, at);
    char *last = text + at + in->m - 1;
    *last = *last == 'A' ? 'C' : 'A';
}

static void plant_decoy(strmatch_input *in, size_t k, size_t at)
{
    decoy_in(in->text, in, k, at);
}

/* The largest multiple of border in [lo, hi], else lo. */
static size_t border_in(size_t lo, size_t hi, size_t border)
{
    size_t b = border ? hi / border * border : 0;
    return border && b >= lo ? b : lo;
}

void strmatch_check_text(const strmatch_input *in, size_t v, size_t border, uint64_t seed,
                         char *text, long long *want)
{
    size_t len = in->len, m = in->m, at[STRMATCH_NPAT];
    uint64_t st = seed ^ (0x9E3779B97F4A7C15ull * (v + 1));
    fill_letters(text, len, st);
    at[0] = 0;
    at[1] = border_in(len / 4 + m, 3 * len / 8, border) - m / 2;
    at[2] = border_in(len / 2, 5 * len / 8 - m, border);
    at[3] = 5 * len / 8 + m + (size_t)(clb_rand64(&st) % (uint64_t)(len / 4 - 2 * m));
    at[4] = len - m;
    for (size_t k = 0; k < in->npat; k++) {
        size_t pat = (k + v) % in->npat;
        want[k] = -1;
        if (v < in->npat)
            plant_in(text, in, pat, at[k]);
        else
            decoy_in(text, in, k, at[k]);
    }
    for (size_t k = 0; v < in->npat && k < in->npat; k++)
        want[(k + v) % in->npat] = (long long)at[k];
}

clb_error strmatch_input_make(strmatch_input *in, size_t len, clb_diag *d)
{
    size_t m = STRMATCH_PAT_LEN, u = len / 64;
    *in = (strmatch_input){.len = len, .npat = STRMATCH_NPAT, .m = m};
    clb_diag_clear(d);
    if (len < STRMATCH_MIN_LEN)
        return clb_diag_set(d, CLB_ERR_USAGE, "a text of %zu bytes is shorter than the %zu the plants need",
                            len, STRMATCH_MIN_LEN);
    in->text = malloc(len);
    in->pats = malloc(STRMATCH_NPAT * m);
    if (!in->text || !in->pats)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory for a text of %zu bytes", len);
    fill_letters(in->pats, STRMATCH_NPAT * m, fill_letters(in->text, len, STRMATCH_SEED));
    in->pats[(STRMATCH_NPAT - 1) * m + m - 1] = 'N'; /* outside the alphabet: never occurs */
    for (size_t k = 0; k < STRMATCH_NPAT; k++)
        plant_decoy(in, k, (2 * k + 1) * u);
    plant(in, 0, 16 * u);
    plant(in, 0, 40 * u); /* a second occurrence: only the first counts */
    plant(in, 1, 24 * u + 7);
    plant(in, 2, 48 * u + 13);
    plant(in, 3, len - m); /* the last start position */
    const long long at[STRMATCH_NPAT] = {(long long)(16 * u), (long long)(24 * u + 7),
                                         (long long)(48 * u + 13), (long long)(len - m), -1};
    memcpy(in->planted, at, sizeof at);
    return CLB_OK;
}

void strmatch_input_free(strmatch_input *in)
{
    free(in->text);
    free(in->pats);
    in->text = in->pats = NULL;
}

clb_error strmatch_check(const strmatch_input *in, const long long *want, const long long *got, clb_diag *d)
{
    clb_diag_clear(d);
    for (size_t k = 0; k < in->npat; k++)
        if (got[k] != want[k])
            return clb_diag_set(d, CLB_ERR_INVALID_RESULT,
                                "pattern %zu: first occurrence %lld, expected %lld (text of %zu bytes)",
                                k, got[k], want[k], in->len);
    return CLB_OK;
}
