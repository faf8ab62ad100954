/* app.mcpi and app.strmatch host logic: the pinned getRandom equals the seed's
 * code with a 64-bit `unsigned long next`; mcpi_inside counts what the seed's
 * float loop (Fig. 3, IEEE rounding) counts; sequential and pthreads agree exactly; the generator plants
 * where it says, "first" means first, and the validators reject a wrong count or position. */
#include "apps/mcpi/mcpi.h"
#include "apps/strmatch/strmatch.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RAND_MAX_SEED 2147483647 /* glibc's RAND_MAX */

/* Seed 004, Fig. 1, with the LP64 `unsigned long` width the brief warns about. */
static int seed_get_random(unsigned long *seed)
{
    unsigned long next = *seed;
    int result;
    next *= 1103515245;
    next += 12345;
    result = (int)((unsigned int)(next / 65536) % 2048);
    next *= 1103515245;
    next += 12345;
    result <<= 10;
    result ^= (int)((unsigned int)(next / 65536) % 1024);
    next *= 1103515245;
    next += 12345;
    result <<= 10;
    result ^= (int)((unsigned int)(next / 65536) % 1024);
    *seed = next;
    return result;
}

static void test_get_random(void)
{
    for (uint64_t i = 0; i < 100000; i += 7) {
        uint32_t s32 = 1987u ^ (uint32_t)(i * 27u);
        unsigned long s64 = 1987ul ^ (unsigned long)(i * 27u);
        for (int r = 0; r < 4; r++) {
            uint32_t a = mcpi_get_random(&s32);
            int b = seed_get_random(&s64);
            EXPECT(a == (uint32_t)b && a <= MCPI_RAND_MAX, "i=%llu draw %d: %u vs %d", (unsigned long long)i, r, a, b);
        }
    }
}

/* The seed's Fig. 3 body: float x, y and sqrt, each operation rounded on its own (volatile). */
static unsigned seed_inside_float(uint64_t i)
{
    uint32_t seed = 1987u ^ (uint32_t)(i * 27u);
    volatile float x = (float)mcpi_get_random(&seed) / (float)RAND_MAX_SEED;
    volatile float y = (float)mcpi_get_random(&seed) / (float)RAND_MAX_SEED;
    volatile float xx = x * x, yy = y * y, s = xx + yy;
    return sqrtf(s) <= 1.0f;
}

/* s <= MCPI_S_MAX is sqrtf(s) <= 1 for every float s in [1/4, 4). */
static void test_threshold(void)
{
    unsigned bad = 0;
    for (float s = 0.25f; s < 4.0f; s = nextafterf(s, 8.0f))
        bad += (sqrtf(s) <= 1.0f) != (s <= MCPI_S_MAX);
    EXPECT(bad == 0, "%u floats disagree", bad);
    CHECK(sqrtf(MCPI_S_MAX) == 1.0f && sqrtf(nextafterf(MCPI_S_MAX, 2.0f)) > 1.0f);
}

static void test_mcpi(void)
{
    clb_diag d;
    uint64_t n = 1000003, seq = mcpi_host_sequential(n), flt = 0, p = 0;
    for (uint64_t i = 0; i < n; i++)
        flt += seed_inside_float(i);
    EXPECT(seq == flt, "mcpi_inside %llu, the seed's float code %llu", (unsigned long long)seq, (unsigned long long)flt);
    EXPECT(fabs(mcpi_pi(n, seq) - 3.14159265) < 0.01, "pi estimate %g", mcpi_pi(n, seq));
    for (unsigned t = 1; t <= 7; t += 3) {
        CHECK(mcpi_host_pthreads(n, t, &p, &d) == CLB_OK);
        EXPECT(p == seq, "%u threads: %llu, sequential %llu", t, (unsigned long long)p, (unsigned long long)seq);
    }
    CHECK(mcpi_host_range(0, 1000) + mcpi_host_range(1000, n) == seq);
    CHECK(mcpi_check(n, seq, seq, &d) == CLB_OK);
    CHECK(mcpi_check(n, seq, seq + 1, &d) == CLB_ERR_INVALID_RESULT && strstr(d.msg, "reference"));
}

/* The check texts: every pattern (the absent one too) found where it was planted, at the
 * start, across and on a border, at a random place and at the end; decoys only: nothing. */
static void test_check_texts(size_t len, size_t border)
{
    strmatch_input in;
    clb_diag d;
    long long want[STRMATCH_NPAT], got[STRMATCH_NPAT];
    int at_start = 0, at_end = 0, straddles = 0;
    CHECK(strmatch_input_make(&in, len, &d) == CLB_OK);
    char *text = malloc(len), *main_text = in.text;
    for (size_t v = 0; text && v < STRMATCH_CHECK_TEXTS; v++) {
        strmatch_check_text(&in, v, border, 77 + v, text, want);
        in.text = text;
        strmatch_host_sequential(&in, got);
        in.text = main_text;
        for (size_t k = 0; k < STRMATCH_NPAT; k++) {
            EXPECT(got[k] == want[k], "len %zu border %zu text %zu pattern %zu: found %lld, planted %lld",
                   len, border, v, k, got[k], want[k]);
            CHECK((v < STRMATCH_NPAT) == (want[k] >= 0));
            at_start += want[k] == 0;
            at_end += want[k] == (long long)(len - STRMATCH_PAT_LEN);
            straddles += border < len && want[k] > 0 &&
                         (size_t)want[k] / border != ((size_t)want[k] + STRMATCH_PAT_LEN - 1) / border;
        }
    }
    EXPECT(at_start == STRMATCH_NPAT && at_end == STRMATCH_NPAT && (border >= len || straddles >= STRMATCH_NPAT),
           "len %zu border %zu: %d at the start, %d at the end, %d across a border", len, border,
           at_start, at_end, straddles);
    free(text);
    strmatch_input_free(&in);
}

static void test_strmatch(size_t len)
{
    strmatch_input in;
    clb_diag d;
    long long seq[STRMATCH_NPAT], par[STRMATCH_NPAT];
    CHECK(strmatch_input_make(&in, len, &d) == CLB_OK);
    for (size_t i = 0; i < in.len; i++)
        if (!strchr(STRMATCH_ALPHABET, in.text[i])) {
            EXPECT(0, "byte %zu of the text is '%c'", i, in.text[i]);
            break;
        }
    strmatch_host_sequential(&in, seq);
    for (size_t k = 0; k < STRMATCH_NPAT; k++)
        EXPECT(seq[k] == in.planted[k], "len %zu pattern %zu: at %lld, planted at %lld", len, k, seq[k], in.planted[k]);
    CHECK(seq[STRMATCH_NPAT - 1] == -1 && seq[3] == (long long)(len - STRMATCH_PAT_LEN));
    for (unsigned t = 1; t <= 9; t += 4) {
        CHECK(strmatch_host_pthreads(&in, t, par, &d) == CLB_OK);
        CHECK(memcmp(par, seq, sizeof seq) == 0);
    }
    CHECK(strmatch_check(&in, seq, par, &d) == CLB_OK);
    par[2] = seq[2] + 1;
    CHECK(strmatch_check(&in, seq, par, &d) == CLB_ERR_INVALID_RESULT && strstr(d.msg, "pattern 2"));
    /* Pattern 0 is planted twice: without its first plant the second one is the first. */
    in.text[in.planted[0] + 500] = 'N';
    CHECK(strmatch_first(in.text, in.len, in.pats, in.m, 0, in.len) == (long long)(len / 64 * 40));
    strmatch_input_free(&in);
}

int main(void)
{
    strmatch_input in;
    clb_diag d;
    test_get_random();
    test_threshold();
    test_mcpi();
    test_strmatch(STRMATCH_MIN_LEN);
    test_strmatch(200003);
    test_strmatch(10000000);
    test_check_texts(200003, 256);
    test_check_texts(200003, 4096);
    test_check_texts(STRMATCH_MIN_LEN, 100000); /* a border beyond the text: places still hold */
    CHECK(strmatch_input_make(&in, STRMATCH_MIN_LEN - 1, &d) == CLB_ERR_USAGE);
    strmatch_input_free(&in);
    return failures != 0;
}
