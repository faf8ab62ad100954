/* The kernel binary cache (docs/binary_cache.md): program binaries kept under the directory the
 * caller names (clb_run_opts.binary_cache_dir), one file per key. The files are untrusted input:
 * each holds a header with a magic, the full key and a checksum of the binary, and any file that
 * does not match is rejected (the caller rebuilds from source). */
#ifndef CLB_BINARY_CACHE_H
#define CLB_BINARY_CACHE_H

#include "clbench.h"

#include <stdint.h>

#define CLB_BINCACHE_MAGIC "CLBBIN1\n" /* 8 bytes */
#define CLB_BINCACHE_HEADER 32         /* magic, u32 version, u32 key bytes, u64 binary bytes, u64 checksum */
#define CLB_BINCACHE_ENTRY_MAX (64u << 20)  /* a larger file is rejected without reading it */
#define CLB_BINCACHE_DIR_MAX (256ull << 20) /* older entries are evicted above this total */

/* FNV-1a, 64 bits, continuing from h (start with CLB_FNV_SEED). */
#define CLB_FNV_SEED 14695981039346656037ull
uint64_t clb_fnv1a64(const void *p, size_t n, uint64_t h);

/* The key of one build: device (name, vendor, version), platform and driver versions, the
 * build options and a hash of the source (prefix + text), as text. Returns 0 when the driver
 * could not be asked (no caching then). */
int clb_bincache_key(cl_platform_id plat, cl_device_id dev, const char *kernel, const char *options,
                     const char *prefix, const char *src, char *key, size_t n);

/* Checks a cache file's bytes against key. Returns 1 and points *bin at the binary when it is
 * whole and for this key; else 0 with why (truncated, foreign, corrupt, another key). */
int clb_bincache_parse(const unsigned char *buf, size_t len, const char *key, const unsigned char **bin,
                       size_t *bin_len, char *why, size_t n);
/* The file's bytes for key and bin (caller frees). */
unsigned char *clb_bincache_format(const char *key, const unsigned char *bin, size_t bin_len, size_t *len);

/* What one lookup found. */
typedef enum clb_bincache_outcome {
    CLB_BINCACHE_MISS,    /* no entry: built from source (and stored) */
    CLB_BINCACHE_HIT,     /* the program was made from the cached binary */
    CLB_BINCACHE_REBUILT  /* an entry was rejected (why): built from source, entry replaced */
} clb_bincache_outcome;

/* Reads the entry for key from dir into *bin (caller frees). Returns HIT, MISS (no file) or
 * REBUILT (a file that is not a valid entry for key; why says what is wrong with it). */
clb_bincache_outcome clb_bincache_read(const char *dir, const char *key, unsigned char **bin, size_t *bin_len,
                                       char *why, size_t n);
/* Writes the entry for key atomically (temporary file, mode 0600, renamed into place; dir made
 * with mode 0700), then evicts the oldest entries while the directory holds more than
 * CLB_BINCACHE_DIR_MAX bytes. Returns 0, or -1 with why. */
int clb_bincache_write(const char *dir, const char *key, const unsigned char *bin, size_t bin_len, char *why,
                       size_t n);
/* Admission on the second build: 1 when key was built before (its marker "HASH.seen" is there:
 * removed now, the caller stores the binary); else 0, and the marker is left for next time. A
 * build seen once (a tuning candidate, a one-off run) never pays the binary's export, which on
 * PoCL compiles every kernel of the program. */
int clb_bincache_admit(const char *dir, const char *key);
/* Removes the entry for key (a rejected one). */
void clb_bincache_remove(const char *dir, const char *key);
/* 1 for the names clbench makes in the directory (entries, their temporary files). */
int clb_bincache_own_name(const char *name);
/* Evicts the oldest entries of dir until it holds at most max bytes; returns the files removed. */
size_t clb_bincache_evict(const char *dir, uint64_t max);

#endif
