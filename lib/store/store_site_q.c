/* One device's key by its id: what store history --html names its page by, without listing
 * every device (one primary-key lookup). */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

clb_error clb_store_device_key(clb_store *s, int64_t id, char **key, clb_diag *d)
{
    clb_diag_clear(d);
    *key = NULL;
    sqlite3_stmt *st = clb_store_prep(s, "SELECT key FROM devices WHERE id = ?1", d);
    if (!st)
        return d->err;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (!(*key = strdup(t ? (const char *)t : "")))
            clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    } else if (rc == SQLITE_DONE) {
        clb_diag_set(d, CLB_ERR_USAGE, "no device %lld in the store (clbench store list)", (long long)id);
    } else {
        clb_store_fail(s, "reading a device's key", d);
    }
    sqlite3_finalize(st);
    return d->err;
}
