/* The GEMM tuning cache reader (lib/apps/gemm/gemm_tune.c, on the service's format
 * {"version": 2, "entries": {...}}, lib/core/tune_cache.c): a cached blocking is used only when
 * it is one of the search's candidates; anything else (hand-edited, another version, damaged)
 * is refused, so the search runs again instead of building a kernel from it. */
#include "apps/gemm/gemm_cl.h"

#include <string.h>
#include "check.h"

static int parse(const char *text, const char *key, gemm_blk *b)
{
    return gemm_tune_cache_parse(text, strlen(text), key, b);
}

int main(void)
{
    gemm_blk b;
    memset(&b, 0, sizeof b);
    const char *good = "{\"version\": 2, \"entries\": {\"k\": {\"family\": 0, \"tsm\": 64, \"tsn\": 64, \"tsk\": 16, \"wptm\": 4, "
                       "\"wptn\": 4, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0}}}";
    CHECK(parse(good, "k", &b) == 1 && b.tsm == 64 && b.tsk == 16 && b.dbuf == 1);
    CHECK(parse(good, "other", &b) == 0);
    const char *vec = "{\"version\": 2, \"entries\": {\"k\": {\"family\": 1, \"tsm\": 0, \"tsn\": 0, \"tsk\": 0, \"wptm\": 0, "
                      "\"wptn\": 0, \"vw\": 0, \"dbuf\": 0, \"rm\": 8, \"w\": 8, \"vn\": 2}}}";
    CHECK(parse(vec, "k", &b) == 1 && b.family == 1 && b.rm == 8 && b.vn == 2);
    /* packed panels (family 2) carry mb and kc; a K slice that no candidate has is refused */
    const char *pan = "{\"version\": 2, \"entries\": {\"k\": {\"family\": 2, \"tsm\": 0, \"tsn\": 0, \"tsk\": 0, \"wptm\": 0, "
                      "\"wptn\": 0, \"vw\": 0, \"dbuf\": 0, \"rm\": 8, \"w\": 16, \"vn\": 3, \"mb\": 8, \"kc\": 512}}}";
    CHECK(parse(pan, "k", &b) == 1 && b.family == 2 && b.mb == 8 && b.kc == 512);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 2, \"tsm\": 0, \"tsn\": 0, \"tsk\": 0, \"wptm\": 0, "
                "\"wptn\": 0, \"vw\": 0, \"dbuf\": 0, \"rm\": 8, \"w\": 16, \"vn\": 3, \"mb\": 8, \"kc\": 7}}}", "k", &b) == 0);
    /* warp tiles (family 3): lanes_n round-trips; without it (read as 0) the other candidate of
     * the same tiles is meant; a lane count no candidate has is refused */
    const char *wrp = "{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 8, \"wptm\": 8, "
                      "\"wptn\": 8, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0, \"mb\": 0, \"kc\": 0, \"lanes_n\": 8}}}";
    CHECK(parse(wrp, "k", &b) == 1 && b.family == 3 && b.tsm == 128 && b.wptn == 8 && b.ln == 8);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 8, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0}}}", "k", &b) == 1 && b.family == 3 && b.ln == 0);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 8, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0, \"lanes_n\": 16}}}", "k", &b) == 0);
    /* frag_addr round-trips on the 8-deep tile that has both forms; the 16-deep tile has none */
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 8, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0, \"lanes_n\": 8, \"frag_addr\": 1}}}", "k", &b) == 1 &&
          b.tsk == 8 && b.ln == 8 && b.fa == 1);
    CHECK(parse(wrp, "k", &b) == 1 && b.fa == 0);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 16, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0, \"lanes_n\": 8, \"frag_addr\": 1}}}", "k", &b) == 0);
    /* DGEMM's warp tiles: fragment width (vw 2) and one buffer (dbuf 0) round-trip; the same
     * tiles with two buffers are no candidate (66 KB of doubles) */
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 16, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 2, \"dbuf\": 0, \"rm\": 0, \"w\": 0, \"vn\": 0, \"mb\": 0, \"kc\": 0, \"lanes_n\": 8}}}", "k", &b) == 1 &&
          b.family == 3 && b.vw == 2 && b.dbuf == 0 && b.tsk == 16 && b.ln == 8);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 3, \"tsm\": 128, \"tsn\": 128, \"tsk\": 16, \"wptm\": 8, "
                "\"wptn\": 8, \"vw\": 2, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0, \"mb\": 0, \"kc\": 0, \"lanes_n\": 8}}}", "k", &b) == 0);
    /* a zero tile (division by zero in the builder), a fraction, a missing field, not JSON */
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 0, \"tsm\": 0, \"tsn\": 64, \"tsk\": 16, \"wptm\": 0, \"wptn\": 4, "
                "\"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0}}}", "k", &b) == 0);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 0, \"tsm\": 64.5, \"tsn\": 64, \"tsk\": 16, \"wptm\": 4, \"wptn\": 4, "
                "\"vw\": 4, \"dbuf\": 1, \"rm\": 0, \"w\": 0, \"vn\": 0}}}", "k", &b) == 0);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 0, \"tsm\": 64}}}", "k", &b) == 0);
    CHECK(parse("{\"version\": 2, \"entries\": {\"k\": {\"family\": 0, \"tsm\": 64", "k", &b) == 0);
    CHECK(parse("", "k", &b) == 0);
    return failures != 0;
}
