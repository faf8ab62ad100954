/* libFuzzer harness: the GEMM tuned-kernel cache loader (lib/apps/gemm/gemm_tune.c). The cache
 * lives in the user's home and may be damaged, hand-edited or written by another version; the
 * blocking it yields goes into a kernel build. Input: the key on the first line, the cache
 * file's text after it. Any crash, leak, UB or hang is a bug, and so is an accepted blocking
 * that is not a well-formed tile (the kernel builder divides by its sizes). */
#include "apps/gemm/gemm_cl.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int well_formed(const gemm_blk *b)
{
    if (b->family == 1)
        return b->rm > 0 && b->w > 0 && b->vn > 0;
    if (b->family == 2)
        return b->rm > 0 && b->w > 0 && b->vn > 0 && b->mb > 0 && b->kc > 0;
    if (b->family == 3 && b->ln && (32 % b->ln || (b->tsn / b->wptn) % b->ln))
        return 0;
    return (b->family == 0 || b->family == 3) && b->tsm && b->tsn && b->tsk && b->wptm && b->wptn && b->vw &&
           b->tsm % b->wptm == 0 && b->tsn % b->wptn == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data, *nl = memchr(text, '\n', size);
    size_t klen = nl ? (size_t)(nl - text) : 0;
    char *key = malloc(klen + 1);
    if (!key)
        return 0;
    memcpy(key, text, klen);
    key[klen] = '\0';
    size_t off = nl ? klen + 1 : 0;
    gemm_blk b;
    if (gemm_tune_cache_parse(text + off, size - off, key, &b) && !well_formed(&b))
        abort();
    free(key);
    return 0;
}
