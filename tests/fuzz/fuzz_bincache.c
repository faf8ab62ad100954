/* libFuzzer harness: the kernel binary cache's file check (lib/core/binary_cache.c). A cache file
 * may be truncated, damaged or planted, and what the check accepts goes to the driver as a
 * program binary. Input: the wanted key up to the first NUL, the file's bytes after it (or the
 * file's own key when the input has no NUL). Any crash, leak or UB is a bug, and so is an
 * accepted file that is not exactly the file clbench would write for that key and binary. */
#include "core/binary_cache.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    const char *key = nul ? (const char *)data : NULL;
    const uint8_t *file = nul ? nul + 1 : data;
    size_t len = nul ? size - (size_t)(nul + 1 - data) : size, blen = 0, again = 0;
    const unsigned char *bin = NULL;
    char why[128];
    /* the file in a buffer of its own size: reading past it is an ASan report */
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    memcpy(copy, file, len);
    if (clb_bincache_parse(copy, len, key, &bin, &blen, why, sizeof why)) {
        char *k = NULL;
        size_t klen = (size_t)copy[12] | (size_t)copy[13] << 8 | (size_t)copy[14] << 16 | (size_t)copy[15] << 24;
        if (!key && (k = malloc(klen + 1)) != NULL) {
            memcpy(k, copy + CLB_BINCACHE_HEADER, klen);
            k[klen] = '\0';
        }
        /* a key holding a NUL cannot be written back: strlen stops early */
        const char *kk = key ? key : k;
        if (kk && strlen(kk) == klen) {
            unsigned char *w = clb_bincache_format(kk, bin, blen, &again);
            if (!w || again != len || memcmp(w, copy, len) != 0)
                abort();
            free(w);
        }
        free(k);
    } else if (!why[0])
        abort(); /* a refusal always says why */
    free(copy);
    return 0;
}
