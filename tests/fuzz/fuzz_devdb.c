/* libFuzzer harness: the device database through tests/fuzz/devdb_shim.c, which says
 * what it feeds today and how to retarget it to the JSON database's parser. Any crash, leak, UB
 * or hang is a bug, and so is a row with a missing name or a non-finite figure. */
#include "devdb_shim.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return devdb_shim_feed((const char *)data, size);
}
