/* Shim of tests/fuzz/fuzz_devdb.c for the compiled device table (lib/device/devdb_table.c).
 * To retarget to the JSON device database: replace the body of devdb_shim_feed by
 *     clb_devdb *db = NULL;  clb_diag d;
 *     if (clb_devdb_parse(buf, len, &db, &d) == CLB_OK) { look up one device; check_row(row); }
 *     free db;
 * (adapting to the parser's actual signature) and the seed corpus tests/fuzz/corpus/devdb/ to
 * copies of the data file. The checks on a returned row stay. */
#include "devdb_shim.h"

#include "devdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row the limits guard may use: named, and every figure either absent (<= 0) or finite. */
static void check_row(const clb_devdb_row *r)
{
    double f[] = {r->fp32_gflops, r->fp64_gflops, r->dram_gbps, r->link_gbps};
    if (!r->key || !r->vendor || !r->name || !r->product)
        abort();
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (isnan(f[i]) || isinf(f[i]))
            abort();
}

/* Input: the vendor on the first line, the device name after it (NUL-free copies). */
int devdb_shim_feed(const char *buf, size_t len)
{
    const char *nl = memchr(buf, '\n', len);
    size_t vlen = nl ? (size_t)(nl - buf) : len, nlen = nl ? len - vlen - 1 : 0;
    char *vendor = calloc(vlen + 1, 1), *name = calloc(nlen + 1, 1);
    if (vendor && name) {
        memcpy(vendor, buf, vlen);
        if (nl)
            memcpy(name, nl + 1, nlen);
        const clb_devdb_row *r = clb_devdb_find(vendor, name);
        if (r)
            check_row(r);
    }
    free(vendor);
    free(name);
    return 0;
}
