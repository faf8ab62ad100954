/* Shim of tests/fuzz/fuzz_devdb.c: the user's device-database file (untrusted input) through
 * its one parser, clb_devdb_parse (lib/device/devdb.c). Whatever it accepts must be the shape
 * the database's users walk: an object with an "entries" array of objects, each with a string
 * key and numbers that are finite (JSON has no NaN; a parser that let one through would feed
 * the limits guard). */
#include "devdb_shim.h"

#include "clbench.h"

#include <math.h>
#include <stdlib.h>

/* Every number in the accepted document is finite. */
static void check_numbers(const cJSON *j)
{
    const cJSON *it;
    if (cJSON_IsNumber(j) && !isfinite(j->valuedouble))
        abort();
    cJSON_ArrayForEach(it, j)
        check_numbers(it);
}

int devdb_shim_feed(const char *buf, size_t len)
{
    clb_diag d;
    cJSON *db = clb_devdb_parse(buf, len, &d);
    if (!db)
        return 0;
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(db, "entries"), *e;
    if (!cJSON_IsArray(entries))
        abort();
    cJSON_ArrayForEach(e, entries)
        if (!cJSON_IsObject(e) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "key")))
            abort();
    check_numbers(db);
    cJSON_Delete(db);
    return 0;
}
