/* The device-database entry the fuzz harness drives (tests/fuzz/fuzz_devdb.c), behind a shim so
 * that the harness outlives the move of the database to a JSON data file. Today the database
 * is a compiled table and the untrusted input is the device's own strings (vendor, name), so
 * the shim looks them up; after the move, devdb_shim.c calls clb_devdb_parse on the input and
 * looks a fixed device up in the result (see the comment there). */
#ifndef CLB_DEVDB_SHIM_H
#define CLB_DEVDB_SHIM_H

#include <stddef.h>

/* Feeds buf[0..len) to the database; returns 0, or aborts on an inconsistent answer. */
int devdb_shim_feed(const char *buf, size_t len);

#endif
