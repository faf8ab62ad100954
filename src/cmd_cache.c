/* clbench cache list|clear: the kernel binary cache (docs/binary_cache.md) in
 * $XDG_CACHE_HOME/clbench/binaries (else ~/.cache/clbench/binaries). Only the names clbench
 * makes there are listed or removed; no device is opened. */
#include "cli.h"

#include <string.h>

/* A string from a cache file, for the terminal: controls become '?'. */
static const char *plain(const char *s, char *buf, size_t n)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    buf[i] = '\0';
    return buf;
}

static void print_entry(const clb_bincache_info *e, void *arg)
{
    char a[256], b[256], c[256], o[512];
    (void)arg;
    if (!e->valid)
        printf("%-24s %10llu  invalid: %s\n", e->file, (unsigned long long)e->bytes, plain(e->why, a, sizeof a));
    else
        printf("%-24s %10llu  %s on %s (driver %s) options '%s'\n", e->file, (unsigned long long)e->bytes,
               plain(e->kernel, a, sizeof a), plain(e->device, b, sizeof b), plain(e->driver, c, sizeof c),
               plain(e->options, o, sizeof o));
}

int cmd_cache(const cli_opts *o)
{
    char dir[4096];
    size_t files = 0;
    uint64_t bytes = 0;
    clb_diag d;
    const char *sub = o->npatterns == 1 ? o->patterns[0] : "";
    if (strcmp(sub, "list") != 0 && strcmp(sub, "clear") != 0) {
        fprintf(stderr, "clbench: cache takes one of: list, clear\n");
        return CLI_EXIT_USAGE;
    }
    if (!cli_binary_cache_dir(dir, sizeof dir)) {
        fprintf(stderr, "clbench: no cache directory: neither XDG_CACHE_HOME nor HOME names an absolute path\n");
        return CLI_EXIT_USAGE;
    }
    clb_error e = strcmp(sub, "list") == 0 ? clb_binary_cache_list(dir, print_entry, NULL, &files, &bytes, &d)
                                           : clb_binary_cache_clear(dir, &files, &bytes, &d);
    if (e != CLB_OK) {
        fprintf(stderr, "clbench: cache %s: %s\n", sub, d.msg);
        return CLI_EXIT_RUNTIME;
    }
    printf("%s %zu file%s, %llu bytes, in %s\n", strcmp(sub, "list") == 0 ? "binary cache:" : "removed", files,
           files == 1 ? "" : "s", (unsigned long long)bytes, dir);
    return CLI_EXIT_OK;
}
