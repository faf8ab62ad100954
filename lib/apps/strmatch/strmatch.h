/* app.strmatch.*: StringMatch of seed 004 (TORMENT OpenACC, Figs. 4-5), shared declarations.
 * Also what the CUDA twin row (app.strmatch.cuda) is wired with: the input generator, the
 * sequential reference and the validator (docs/apps/strmatch.md). */
#ifndef CLB_APP_STRMATCH_H
#define CLB_APP_STRMATCH_H

#include "apps/app.h"

#define STRMATCH_PAT_LEN 1000 /* the seed's pattern length */
#define STRMATCH_NPAT 5       /* the seed's four patterns, planted, plus one that is absent */
#define STRMATCH_ALPHABET "ACGT"
#define STRMATCH_SEED 0x5EED0004C0FFEEull /* the generator's fixed seed: inputs are deterministic */

typedef struct strmatch_input {
    char *text;     /* len bytes over STRMATCH_ALPHABET, not NUL-terminated */
    size_t len;
    char *pats;     /* npat patterns of m bytes, concatenated */
    size_t npat, m;
    long long planted[STRMATCH_NPAT]; /* where each pattern was first planted, -1: absent */
} strmatch_input;

/* The smallest text the plants fit in (64 pattern lengths). */
#define STRMATCH_MIN_LEN ((size_t)64 * STRMATCH_PAT_LEN)

/* Generates the text and patterns from STRMATCH_SEED and plants them (docs/apps/strmatch.md):
 * with u = len / 64, decoys (pattern k with its last byte changed) at (2k + 1) u, pattern 0 at
 * 16 u and again at 40 u, pattern 1 at 24 u + 7, pattern 2 at 48 u + 13, pattern 3 at
 * len - 1000; pattern 4 ends in 'N', outside the alphabet, so it never occurs. len below
 * STRMATCH_MIN_LEN is CLB_ERR_USAGE. Free with strmatch_input_free. */
clb_error strmatch_input_make(strmatch_input *in, size_t len, clb_diag *d);

/* The check texts every row also searches (docs/apps/strmatch.md, "Validation"): text v of
 * in->len bytes, fresh letters from seed, with pattern (k + v) % npat planted at place k for
 * v < STRMATCH_NPAT, so every pattern (the absent one included) occurs once at each place:
 * 0 (the start), straddling a multiple of border near len / 4, exactly at a multiple of border
 * near len / 2, a place drawn from seed, and len - m (the last start); text STRMATCH_NPAT holds
 * decoys (m - 1 bytes of a pattern) at those places and nothing else. want[k]: pattern k's
 * first occurrence (-1: none), exact by construction (a 1000-letter pattern occurs by chance
 * with probability 4^-1000 per position). border: the kernel's tile or slice of positions. */
#define STRMATCH_CHECK_TEXTS (STRMATCH_NPAT + 1)
void strmatch_check_text(const strmatch_input *in, size_t v, size_t border, uint64_t seed,
                         char *text, long long *want);
void strmatch_input_free(strmatch_input *in);

/* Text bytes of a run: env CLBENCH_STRMATCH_BYTES, else 1 MiB under --quick, else 10^7. */
size_t strmatch_bytes(const clb_ctx *c);

/* The naive search of the seed: the first start in [i0, i1) where pat (m bytes) occurs, or -1. */
long long strmatch_first(const char *text, size_t len, const char *pat, size_t m, size_t i0, size_t i1);
/* pos[k] = first occurrence of pattern k, or -1: the sequential reference. */
void strmatch_host_sequential(const strmatch_input *in, long long *pos);
/* The same on threads threads, each a contiguous slice of start positions. */
clb_error strmatch_host_pthreads(const strmatch_input *in, unsigned threads, long long *pos, clb_diag *d);

/* The validator: got[k] must equal want[k] (the sequential positions) for every pattern;
 * otherwise CLB_ERR_INVALID_RESULT with the reason in d. */
clb_error strmatch_check(const strmatch_input *in, const long long *want, const long long *got, clb_diag *d);

#endif
