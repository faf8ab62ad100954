/* The kernel binary cache's files (lib/core/binary_cache.h, docs/binary_cache.md). A file is
 * "<16 hex digits of the key's hash>.clbin": the 32-byte header (magic, format version, key
 * bytes, binary bytes, FNV-1a of the binary; integers little-endian), the key text, the binary.
 * Everything read back is checked before the driver sees a byte of it. */
#define _POSIX_C_SOURCE 200809L
#include "core/binary_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FORMAT_VERSION 1u

uint64_t clb_fnv1a64(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Appends "name=VALUE\n" of one info string; 0 when the driver did not answer. */
static int add_info(char *key, size_t n, const char *name, cl_int err, const char *value)
{
    size_t at = strlen(key);
    if (err != CL_SUCCESS)
        return 0;
    int w = snprintf(key + at, n - at, "%s=%s\n", name, value);
    return w > 0 && (size_t)w < n - at;
}

int clb_bincache_key(cl_platform_id plat, cl_device_id dev, const char *kernel, const char *options,
                     const char *prefix, const char *src, char *key, size_t n)
{
    static const cl_device_info dinfo[] = {CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DEVICE_VERSION, CL_DRIVER_VERSION};
    static const char *const dname[] = {"device", "vendor", "device_version", "driver"};
    char v[512];
    int ok = n > 0;
    if (ok)
        key[0] = '\0';
    ok = ok && add_info(key, n, "format", CL_SUCCESS, "clbench program binary 1");
    ok = ok && add_info(key, n, "kernel", CL_SUCCESS, kernel);
    ok = ok && add_info(key, n, "platform", clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof v, v, NULL), v);
    ok = ok && add_info(key, n, "platform_version",
                        clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof v, v, NULL), v);
    for (size_t i = 0; ok && i < sizeof dinfo / sizeof dinfo[0]; i++)
        ok = add_info(key, n, dname[i], clGetDeviceInfo(dev, dinfo[i], sizeof v, v, NULL), v);
    ok = ok && add_info(key, n, "options", CL_SUCCESS, options ? options : "");
    /* The source as clCreateProgramWithSource joins it: the prefix, then the text. */
    uint64_t h = clb_fnv1a64(prefix ? prefix : "", prefix ? strlen(prefix) : 0, CLB_FNV_SEED);
    h = clb_fnv1a64(src, strlen(src), h);
    snprintf(v, sizeof v, "fnv1a64:%016llx bytes:%zu", (unsigned long long)h,
             (prefix ? strlen(prefix) : 0) + strlen(src));
    return ok && add_info(key, n, "source", CL_SUCCESS, v);
}

int clb_bincache_parse(const unsigned char *buf, size_t len, const char *key, const unsigned char **bin,
                       size_t *bin_len, char *why, size_t n)
{
    uint64_t klen = len >= CLB_BINCACHE_HEADER ? get_le(buf + 12, 4) : 0;
    uint64_t blen = len >= CLB_BINCACHE_HEADER ? get_le(buf + 16, 8) : 0;
    uint64_t want = CLB_BINCACHE_HEADER + klen + blen; /* no overflow: klen < 2^32, blen checked */
    const char *e = len < CLB_BINCACHE_HEADER ? "shorter than its header (truncated)"
                    : memcmp(buf, CLB_BINCACHE_MAGIC, 8) != 0 ? "not a clbench binary (no magic)"
                    : get_le(buf + 8, 4) != FORMAT_VERSION ? "another format version"
                    : blen > CLB_BINCACHE_ENTRY_MAX ? "binary size out of range"
                    : len < want ? "truncated"
                    : len > want ? "bytes after the binary"
                    : key && (klen != strlen(key) || memcmp(buf + CLB_BINCACHE_HEADER, key, klen) != 0)
                        ? "another key (device, driver, options or source)"
                    : clb_fnv1a64(buf + CLB_BINCACHE_HEADER + klen, blen, CLB_FNV_SEED) != get_le(buf + 24, 8)
                        ? "checksum mismatch (corrupt)"
                        : NULL;
    if (e) {
        snprintf(why, n, "%s", e);
        return 0;
    }
    *bin = buf + CLB_BINCACHE_HEADER + klen;
    *bin_len = (size_t)blen;
    return 1;
}

unsigned char *clb_bincache_format(const char *key, const unsigned char *bin, size_t bin_len, size_t *len)
{
    size_t klen = strlen(key);
    unsigned char *b = malloc(CLB_BINCACHE_HEADER + klen + bin_len);
    if (!b)
        return NULL;
    memcpy(b, CLB_BINCACHE_MAGIC, 8);
    put_le(b + 8, FORMAT_VERSION, 4);
    put_le(b + 12, klen, 4);
    put_le(b + 16, bin_len, 8);
    put_le(b + 24, clb_fnv1a64(bin, bin_len, CLB_FNV_SEED), 8);
    memcpy(b + CLB_BINCACHE_HEADER, key, klen);
    memcpy(b + CLB_BINCACHE_HEADER + klen, bin, bin_len);
    *len = CLB_BINCACHE_HEADER + klen + bin_len;
    return b;
}

static void entry_path(char *buf, size_t n, const char *dir, const char *key)
{
    snprintf(buf, n, "%s/%016llx.clbin", dir, (unsigned long long)clb_fnv1a64(key, strlen(key), CLB_FNV_SEED));
}

/* Reads a regular file (no symlink followed) of at most max bytes; NULL with why (nothing in why:
 * there is no such file). touch: mark it used (eviction takes the least recently used first). */
static unsigned char *read_entry(const char *path, size_t max, int touch, size_t *len, char *why, size_t n)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    unsigned char *b = NULL;
    why[0] = '\0';
    if (fd < 0) {
        if (errno != ENOENT)
            snprintf(why, n, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0)
        snprintf(why, n, "cannot stat: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max)
        snprintf(why, n, "%s", !S_ISREG(st.st_mode) ? "not a regular file" : "larger than an entry may be");
    else if ((b = malloc((size_t)st.st_size + 1)) != NULL) {
        ssize_t r = read(fd, b, (size_t)st.st_size + 1); /* one more: a file that grew */
        *len = r < 0 ? 0 : (size_t)r;
        if (r != st.st_size) {
            snprintf(why, n, "%s", r < 0 ? strerror(errno) : "changed while read");
            free(b);
            b = NULL;
        } else if (touch)
            futimens(fd, NULL);
    } else
        snprintf(why, n, "out of memory");
    close(fd);
    return b;
}

/* 1 when dir is a directory (not a link) of this user that no one else may write. */
static int dir_private(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022);
}

clb_bincache_outcome clb_bincache_read(const char *dir, const char *key, unsigned char **bin, size_t *bin_len,
                                       char *why, size_t n)
{
    char path[4096];
    size_t len = 0;
    const unsigned char *p = NULL;
    why[0] = '\0';
    *bin = NULL;
    if (!dir_private(dir)) /* missing, or planted/shared: nothing in it is used (the write says why) */
        return CLB_BINCACHE_MISS;
    entry_path(path, sizeof path, dir, key);
    unsigned char *buf = read_entry(path, CLB_BINCACHE_ENTRY_MAX + 65536u, 1, &len, why, n);
    if (!buf)
        return why[0] ? CLB_BINCACHE_REBUILT : CLB_BINCACHE_MISS;
    if (clb_bincache_parse(buf, len, key, &p, bin_len, why, n) && (*bin = malloc(*bin_len ? *bin_len : 1)))
        memcpy(*bin, p, *bin_len);
    free(buf);
    return *bin ? CLB_BINCACHE_HIT : CLB_BINCACHE_REBUILT;
}

/* mkdir -p with mode 0700 for the levels that are missing; then dir must be a directory of
 * ours that no one else can write (a planted or shared directory is not used). */
static int make_private_dir(const char *dir, char *why, size_t n)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
        if (s)
            *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            snprintf(why, n, "cannot create %s: %s", p, strerror(errno));
            return -1;
        }
        if (!s)
            break;
        *s = '/';
    }
    if (!dir_private(dir)) {
        snprintf(why, n, "%s is not a directory of this user closed to others; not used", dir);
        return -1;
    }
    return 0;
}

int clb_bincache_write(const char *dir, const char *key, const unsigned char *bin, size_t bin_len, char *why,
                       size_t n)
{
    char path[4096], tmp[4096 + 16];
    size_t len = 0;
    if (make_private_dir(dir, why, n) != 0)
        return -1;
    entry_path(path, sizeof path, dir, key);
    const char *base = strrchr(path, '/') + 1;
    snprintf(tmp, sizeof tmp, "%.*s.%s.XXXXXX", (int)(base - path), path, base); /* dir/.NAME.XXXXXX */
    unsigned char *b = clb_bincache_format(key, bin, bin_len, &len);
    int fd = b ? mkstemp(tmp) : -1; /* mode 0600, O_EXCL: never an existing name */
    int ok = fd >= 0 && write(fd, b, len) == (ssize_t)len;
    ok = fd >= 0 && close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0; /* concurrent writers: the last whole file wins */
    if (!ok) {
        snprintf(why, n, "cannot write %s: %s", path, b ? strerror(errno) : "out of memory");
        if (fd >= 0)
            unlink(tmp);
    }
    free(b);
    if (ok)
        clb_bincache_evict(dir, CLB_BINCACHE_DIR_MAX);
    return ok ? 0 : -1;
}

void clb_bincache_remove(const char *dir, const char *key)
{
    char path[4096];
    entry_path(path, sizeof path, dir, key);
    unlink(path);
}

/* 1 for the names clbench makes there: entries and their temporary files. */
int clb_bincache_own_name(const char *name)
{
    size_t hex = strspn(name + (name[0] == '.'), "0123456789abcdef");
    const char *rest = name + (name[0] == '.') + hex;
    if (hex != 16)
        return 0;
    if (name[0] != '.')
        return strcmp(rest, ".clbin") == 0 || strcmp(rest, ".seen") == 0;
    return strncmp(rest, ".clbin.", 7) == 0 && strlen(rest + 7) == 6;
}

int clb_bincache_admit(const char *dir, const char *key)
{
    char path[4096], why[256];
    struct stat st;
    entry_path(path, sizeof path, dir, key);
    memcpy(path + strlen(path) - 6, ".seen", 6); /* "HASH.clbin" -> "HASH.seen" */
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        unlink(path);
        return 1;
    }
    if (make_private_dir(dir, why, sizeof why) == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
    return 0;
}

size_t clb_bincache_evict(const char *dir, uint64_t max)
{
    size_t removed = 0;
    for (int round = 0; round < 4096; round++) { /* one oldest entry per round */
        DIR *dp = opendir(dir);
        struct dirent *e;
        struct stat st;
        char path[4096], oldest[4096] = "";
        uint64_t total = 0;
        struct timespec t0 = {0, 0};
        if (!dp)
            break;
        while ((e = readdir(dp)) != NULL) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            /* temporary files count too: a writer killed mid-write leaves one behind */
            if (!clb_bincache_own_name(e->d_name) || strstr(e->d_name, ".seen") || lstat(path, &st) != 0 ||
                !S_ISREG(st.st_mode))
                continue;
            total += (uint64_t)st.st_size;
            if (!oldest[0] || st.st_mtim.tv_sec < t0.tv_sec ||
                (st.st_mtim.tv_sec == t0.tv_sec && st.st_mtim.tv_nsec < t0.tv_nsec)) {
                t0 = st.st_mtim;
                snprintf(oldest, sizeof oldest, "%s", path);
            }
        }
        closedir(dp);
        if (total <= max || !oldest[0] || unlink(oldest) != 0)
            break;
        removed++;
    }
    return removed;
}

/* One "name=VALUE" line of a key into buf ("" when absent). */
static void key_field(const char *key, size_t klen, const char *name, char *buf, size_t n)
{
    size_t nl = strlen(name);
    buf[0] = '\0';
    for (size_t i = 0; i < klen; i++) {
        size_t end = i;
        while (end < klen && key[end] != '\n')
            end++;
        if (end - i > nl && memcmp(key + i, name, nl) == 0 && key[i + nl] == '=') {
            size_t v = end - i - nl - 1;
            snprintf(buf, n, "%.*s", (int)(v < n ? v : n - 1), key + i + nl + 1);
            return;
        }
        i = end;
    }
}

/* The info of one file (read whole: its checksum is checked as a lookup would). */
static void describe(const char *dir, const char *name, clb_bincache_info *info)
{
    char path[4096];
    size_t len = 0, blen = 0;
    const unsigned char *bin = NULL;
    memset(info, 0, sizeof *info);
    snprintf(info->file, sizeof info->file, "%.63s", name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unsigned char *buf = read_entry(path, CLB_BINCACHE_ENTRY_MAX + 65536u, 0, &len, info->why, sizeof info->why);
    info->bytes = len;
    info->valid = buf && clb_bincache_parse(buf, len, NULL, &bin, &blen, info->why, sizeof info->why);
    if (info->valid) {
        const char *key = (const char *)buf + CLB_BINCACHE_HEADER;
        size_t klen = (size_t)get_le(buf + 12, 4);
        key_field(key, klen, "kernel", info->kernel, sizeof info->kernel);
        key_field(key, klen, "device", info->device, sizeof info->device);
        key_field(key, klen, "driver", info->driver, sizeof info->driver);
        key_field(key, klen, "options", info->options, sizeof info->options);
    }
    free(buf);
}

/* Calls each for every file of the cache's own names in dir (remove: unlinks it instead). */
static clb_error walk(const char *dir, int remove, void (*each)(const clb_bincache_info *, void *), void *arg,
                      size_t *files, uint64_t *bytes, clb_diag *d)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    struct stat st;
    char path[4096];
    clb_bincache_info info;
    *files = 0;
    *bytes = 0;
    if (!dp)
        return errno == ENOENT ? CLB_OK : clb_diag_set(d, CLB_ERR_IO, "cannot read %s: %s", dir, strerror(errno));
    while ((e = readdir(dp)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!clb_bincache_own_name(e->d_name) || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue; /* not ours: never touched */
        if (remove && unlink(path) != 0) {
            clb_diag_set(d, CLB_ERR_IO, "cannot remove %s: %s", path, strerror(errno));
            continue;
        }
        if (!remove) {
            describe(dir, e->d_name, &info);
            info.bytes = (uint64_t)st.st_size;
            each(&info, arg);
        }
        (*files)++;
        *bytes += (uint64_t)st.st_size;
    }
    closedir(dp);
    if (remove)
        rmdir(dir); /* only when nothing else is left there */
    return d ? d->err : CLB_OK;
}

clb_error clb_binary_cache_list(const char *dir, void (*each)(const clb_bincache_info *, void *), void *arg,
                                size_t *files, uint64_t *bytes, clb_diag *d)
{
    clb_diag_clear(d);
    return walk(dir, 0, each, arg, files, bytes, d);
}

clb_error clb_binary_cache_clear(const char *dir, size_t *files, uint64_t *bytes, clb_diag *d)
{
    clb_diag_clear(d);
    return walk(dir, 1, NULL, NULL, files, bytes, d);
}
