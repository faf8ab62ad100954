/* The kernel binary cache's files (lib/core/binary_cache.c): a cache file is hostile input. Every
 * truncation, a flipped byte anywhere, another magic, version or key, bytes appended: rejected,
 * never handed to the driver. Entries are written 0600 in a 0700 directory, atomically (eight
 * processes writing one entry while another reads never show a torn file), evicted oldest first
 * above the cap; a directory open to others is not used; clear removes only clbench's names. */
#define _POSIX_C_SOURCE 200809L
#include "core/binary_cache.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

static const char *KEY = "format=clbench program binary 1\nkernel=k\noptions=-DX=1\n";

static void test_parse(void)
{
    unsigned char bin[300];
    size_t len = 0, blen = 0;
    const unsigned char *got = NULL;
    char why[128];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 37u + 1u);
    unsigned char *f = clb_bincache_format(KEY, bin, sizeof bin, &len);
    CHECK(f && clb_bincache_parse(f, len, KEY, &got, &blen, why, sizeof why) == 1);
    CHECK(blen == sizeof bin && got && memcmp(got, bin, sizeof bin) == 0);
    for (size_t cut = 0; cut < len; cut++) /* every truncation */
        EXPECT(clb_bincache_parse(f, cut, KEY, &got, &blen, why, sizeof why) == 0, "cut at %zu accepted", cut);
    for (size_t i = 0; i < len; i++) { /* one flipped bit anywhere: header, key or binary */
        f[i] ^= 0x10;
        EXPECT(clb_bincache_parse(f, len, KEY, &got, &blen, why, sizeof why) == 0, "flip at %zu accepted", i);
        f[i] ^= 0x10;
    }
    CHECK(clb_bincache_parse(f, len, "format=clbench program binary 1\nkernel=k\noptions=-DX=2\n", &got, &blen, why,
                             sizeof why) == 0 && strstr(why, "another key"));
    CHECK(clb_bincache_parse(f, len, NULL, &got, &blen, why, sizeof why) == 1); /* listing: its own key */
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, f, len);
    longer[len] = 0;
    CHECK(clb_bincache_parse(longer, len + 1, KEY, &got, &blen, why, sizeof why) == 0);
    /* a header claiming a huge binary: refused from the header, nothing read past the buffer */
    f[16 + 7] = 0x7f;
    CHECK(clb_bincache_parse(f, len, KEY, &got, &blen, why, sizeof why) == 0 && strstr(why, "out of range"));
    free(longer);
    free(f);
}

static int file_mode(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (int)(st.st_mode & 0777) : -1;
}

/* The one entry file of dir into path. */
static int entry_of(const char *dir, const char *key, char *path, size_t n)
{
    snprintf(path, n, "%s/%016llx.clbin", dir, (unsigned long long)clb_fnv1a64(key, strlen(key), CLB_FNV_SEED));
    return access(path, F_OK) == 0;
}

static void test_files(const char *root)
{
    char dir[512], path[1024], why[256];
    unsigned char bin[1000], *got = NULL;
    size_t blen = 0;
    memset(bin, 0x5a, sizeof bin);
    snprintf(dir, sizeof dir, "%s/a/clbench/binaries", root);
    CHECK(clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why) == CLB_BINCACHE_MISS); /* no dir yet */
    CHECK(clb_bincache_write(dir, KEY, bin, sizeof bin, why, sizeof why) == 0);
    CHECK(entry_of(dir, KEY, path, sizeof path));
    EXPECT(file_mode(dir) == 0700 && file_mode(path) == 0600, "dir %o, entry %o", file_mode(dir), file_mode(path));
    CHECK(clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why) == CLB_BINCACHE_HIT && blen == sizeof bin &&
          memcmp(got, bin, blen) == 0);
    free(got);
    CHECK(clb_bincache_read(dir, "another key\n", &got, &blen, why, sizeof why) == CLB_BINCACHE_MISS);
    /* a truncated file: rejected with the reason */
    CHECK(truncate(path, 100) == 0);
    CHECK(clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why) == CLB_BINCACHE_REBUILT && !got &&
          strstr(why, "truncated"));
    /* a link at the entry's name is not followed */
    CHECK(unlink(path) == 0 && symlink("/etc/passwd", path) == 0);
    CHECK(clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why) == CLB_BINCACHE_REBUILT && !got);
    CHECK(clb_bincache_write(dir, KEY, bin, sizeof bin, why, sizeof why) == 0 && file_mode(path) == 0600);
    /* admission on the second build: the first leaves a marker, the second takes it */
    char seen[1100];
    snprintf(seen, sizeof seen, "%.*s.seen", (int)(strlen(path) - 6), path);
    CHECK(clb_bincache_admit(dir, KEY) == 0 && access(seen, F_OK) == 0);
    CHECK(clb_bincache_admit(dir, KEY) == 1 && access(seen, F_OK) != 0);
    CHECK(clb_bincache_admit(dir, KEY) == 0);
    /* a directory others may write is neither read nor written */
    CHECK(chmod(dir, 0777) == 0);
    CHECK(clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why) == CLB_BINCACHE_MISS);
    CHECK(clb_bincache_write(dir, KEY, bin, sizeof bin, why, sizeof why) == -1 && strstr(why, "not used"));
    CHECK(chmod(dir, 0700) == 0);
}

/* Eviction takes the least recently used first; clear takes only clbench's names. */
static void test_evict_clear(const char *root)
{
    char dir[512], path[1024], victim[1024], why[256], other[1024];
    unsigned char bin[1000], *got = NULL;
    size_t blen = 0, files = 0;
    uint64_t bytes = 0;
    const char *keys[3] = {"k0\n", "k1\n", "k2\n"};
    memset(bin, 1, sizeof bin);
    snprintf(dir, sizeof dir, "%s/e", root);
    for (int i = 0; i < 3; i++) {
        CHECK(clb_bincache_write(dir, keys[i], bin, sizeof bin, why, sizeof why) == 0);
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    CHECK(clb_bincache_read(dir, keys[0], &got, &blen, why, sizeof why) == CLB_BINCACHE_HIT); /* k0 used again */
    free(got);
    CHECK(clb_bincache_evict(dir, 2 * (sizeof bin + 64)) == 1);
    CHECK(entry_of(dir, keys[0], path, sizeof path) && !entry_of(dir, keys[1], path, sizeof path) &&
          entry_of(dir, keys[2], path, sizeof path));
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    snprintf(victim, sizeof victim, "%s/victim", root);
    FILE *f = fopen(other, "w"), *v = fopen(victim, "w");
    CHECK(f && v);
    if (f)
        fclose(f);
    if (v)
        fclose(v);
    snprintf(path, sizeof path, "%s/0123456789abcdef.clbin", dir); /* our name, but a link */
    CHECK(symlink(victim, path) == 0);
    CHECK(clb_binary_cache_clear(dir, &files, &bytes, NULL) == CLB_OK && files == 2);
    CHECK(access(other, F_OK) == 0 && access(victim, F_OK) == 0 && lstat(path, &(struct stat){0}) == 0);
    CHECK(!entry_of(dir, keys[0], path, sizeof path) && !entry_of(dir, keys[2], path, sizeof path));
    CHECK(clb_bincache_own_name("0123456789abcdef.clbin") && clb_bincache_own_name(".0123456789abcdef.clbin.Ab12Cd") &&
          clb_bincache_own_name("0123456789abcdef.seen"));
    CHECK(!clb_bincache_own_name("0123456789abcdef.clbin~") && !clb_bincache_own_name("tune.json") &&
          !clb_bincache_own_name("0123456789abcde.clbin"));
}

/* Eight writers of one entry (two binaries) and a reader: every read is whole. */
static void test_concurrent(const char *root)
{
    char dir[512], why[256];
    unsigned char a[20000], b[30000], *got = NULL;
    size_t blen = 0;
    int torn = 0, hits = 0;
    memset(a, 'a', sizeof a);
    memset(b, 'b', sizeof b);
    snprintf(dir, sizeof dir, "%s/c", root);
    CHECK(clb_bincache_write(dir, KEY, a, sizeof a, why, sizeof why) == 0); /* readers always find one */
    pid_t kids[8];
    for (int k = 0; k < 8; k++)
        if ((kids[k] = fork()) == 0) {
            for (int i = 0; i < 200; i++)
                if (clb_bincache_write(dir, KEY, k % 2 ? a : b, k % 2 ? sizeof a : sizeof b, why, sizeof why) != 0)
                    _exit(1);
            _exit(0);
        }
    for (int i = 0; i < 2000; i++) {
        clb_bincache_outcome o = clb_bincache_read(dir, KEY, &got, &blen, why, sizeof why);
        torn += o == CLB_BINCACHE_REBUILT;
        hits += o == CLB_BINCACHE_HIT;
        CHECK(o != CLB_BINCACHE_HIT || (blen == sizeof a && got[0] == 'a' && got[blen - 1] == 'a') ||
              (blen == sizeof b && got[0] == 'b' && got[blen - 1] == 'b'));
        free(got);
    }
    for (int k = 0; k < 8; k++) {
        int st = 0;
        waitpid(kids[k], &st, 0);
        EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d failed", k);
    }
    EXPECT(torn == 0, "%d of 2000 reads saw a torn entry (%s)", torn, why);
    EXPECT(hits > 0, "no read hit");
}

/* The key on a real device: another option, prefix or source text is another key. */
static void test_key(void)
{
    cl_platform_id plat;
    cl_device_id dev;
    char k[5][8192];
    if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        printf("binary_cache: no OpenCL device, key test skipped\n");
        return;
    }
    CHECK(clb_bincache_key(plat, dev, "k", "-DA=1", "", "kernel void f() {}", k[0], sizeof k[0]));
    CHECK(clb_bincache_key(plat, dev, "k", "-DA=2", "", "kernel void f() {}", k[1], sizeof k[1]));
    CHECK(clb_bincache_key(plat, dev, "k", "-DA=1", "#define N 1\n", "kernel void f() {}", k[2], sizeof k[2]));
    CHECK(clb_bincache_key(plat, dev, "k", "-DA=1", "", "kernel void g() {}", k[3], sizeof k[3]));
    CHECK(clb_bincache_key(plat, dev, "k", "-DA=1", "", "kernel void f() {}", k[4], sizeof k[4]));
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            EXPECT(strcmp(k[i], k[j]) != 0, "keys %d and %d are equal:\n%s", i, j, k[i]);
    CHECK(strcmp(k[0], k[4]) == 0);
    CHECK(strstr(k[0], "device=") && strstr(k[0], "driver=") && strstr(k[0], "device_version=") &&
          strstr(k[0], "vendor="));
    CHECK(!clb_bincache_key(plat, dev, "k", "-DA=1", "", "kernel void f() {}", k[0], 64)); /* too long: no key */
}

int main(void)
{
    char root[] = "/tmp/clb_bincache_XXXXXX";
    if (!mkdtemp(root))
        return 1;
    test_parse();
    test_key();
    test_files(root);
    test_evict_clear(root);
    test_concurrent(root);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        failures++;
    return failures != 0;
}
