/* The files a command names, checked before anything runs (a run must not measure for an hour
 * and then find its output unwritable): every output can be written where it points, no output
 * is also an input (the same path, another path to it, a link to it; the user files clbench
 * keeps count as inputs of every command), no file is named for two
 * outputs, and at most one output goes to stdout. Refusals exit 2. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"
#include "core/internal.h"
#include "core/tune.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_INPUTS = 64 };

static const char *const out_flags[] = {"--json", "--html", "--csv", "--markdown"};

/* The directory part of path ("." when it has none) into dir. */
static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else
        snprintf(dir, n, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* 1 when a and b name the same file: the same path, the same existing device and inode, or
 * (files still to be made) the same name in the same directory. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char da[4096], db[4096];
    if (strcmp(a, b) == 0)
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    dir_of(a, da, sizeof da);
    dir_of(b, db, sizeof db);
    return strcmp(na ? na + 1 : a, nb ? nb + 1 : b) == 0 && stat(da, &sa) == 0 && stat(db, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_suite_user_reference(char *buf, size_t n)
{
    const char *xdg = cli_env_get()->xdg_data_home, *home = cli_env_get()->lib.home;
    int w = xdg && *xdg ? snprintf(buf, n, "%s/clbench/suite_reference.json", xdg)
            : home && *home ? snprintf(buf, n, "%s/.local/share/clbench/suite_reference.json", home) : -1;
    return w > 0 && (size_t)w < n;
}

int cli_binary_cache_dir(char *buf, size_t n)
{
    /* XDG: a relative $XDG_CACHE_HOME is invalid and ignored (options_env.c maps both variables). */
    const char *xdg = clb_settings_get()->xdg_cache_home, *home = clb_settings_get()->home;
    int w = xdg && xdg[0] == '/' ? snprintf(buf, n, "%s/clbench/binaries", xdg)
            : home && home[0] == '/' ? snprintf(buf, n, "%s/.cache/clbench/binaries", home) : -1;
    return w > 0 && (size_t)w < n;
}

/* The files the command reads: the documents of report, compare and fleet-check, the suite's
 * reference, the --from files, and for every command the user files clbench keeps (the
 * tuning cache, the device database's user file; the suite's user reference for suite; user[4][4096]
 * holds their paths). Returns how many (at most max). */
static int inputs_of(const cli_opts *o, const char **in, int max, char user[4][4096])
{
    int n = 0;
    clb_diag d;
    if (clb_tune_cache_file(user[0], 4096, &d) == CLB_OK)
        in[n++] = user[0];
    if (clb_devdb_user_path(user[1], 4096, 0, &d) == CLB_OK)
        in[n++] = user[1];
    const char *env = cli_env_get()->suite_reference;
    int reads_args = strcmp(o->command, "report") == 0 || strcmp(o->command, "compare") == 0 ||
                     strcmp(o->command, "fleet-check") == 0;
    for (int j = 0; reads_args && j < o->npatterns && n < max; j++)
        in[n++] = o->patterns[j];
    if (strcmp(o->command, "suite") == 0 && n < max) {
        if (o->reference)
            in[n++] = o->reference;
        else if (env && *env)
            in[n++] = env;
        else if (cli_suite_user_reference(user[2], 4096))
            in[n++] = user[2];
    }
    for (int j = 0; j < o->nfrom && n < max; j++)
        in[n++] = o->from[j];
    /* the store that store commands and fleet-check --store read (its default place too) */
    int reads_store = strcmp(o->command, "store") == 0 || (strcmp(o->command, "fleet-check") == 0 && o->store_set);
    if (reads_store && n < max && o->store)
        in[n++] = o->store;
    else if (reads_store && n < max &&
             clb_user_file(user[3], 4096, cli_env_get()->xdg_data_home, "XDG_DATA_HOME", ".local/share",
                           "store.sqlite", 0, &d) == CLB_OK)
        in[n++] = user[3];
    return n;
}

/* The directory an output will be created in must exist and take new files. */
static int dir_writable(const char *path, const char *flag)
{
    char dir[4096];
    struct stat st;
    dir_of(path, dir, sizeof dir);
    const char *why = stat(dir, &st) != 0       ? strerror(errno)
                      : !S_ISDIR(st.st_mode)    ? "not a directory"
                      : access(dir, W_OK | X_OK) ? strerror(errno)
                                                 : NULL;
    if (!why)
        return CLI_EXIT_OK;
    fprintf(stderr, "clbench: %s %s: cannot create files in %s: %s\n", flag, path, dir, why);
    return CLI_EXIT_USAGE;
}

/* One output: what is at the path may be written (clb_output_target), and where. */
static int output_usable(const char *path, const char *flag)
{
    int in_place = 0;
    clb_diag d;
    if (clb_output_target(path, &in_place, &d) != CLB_OK) {
        fprintf(stderr, "clbench: %s: %s\n", flag, d.msg);
        return CLI_EXIT_USAGE;
    }
    if (!in_place)
        return dir_writable(path, flag);
    if (access(path, W_OK) != 0) {
        fprintf(stderr, "clbench: %s %s: %s\n", flag, path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_check_paths(const cli_opts *o)
{
    const char *out[4] = {o->json, o->html, o->csv, o->markdown};
    const char *in[MAX_INPUTS];
    char user[4][4096];
    int nin = inputs_of(o, in, MAX_INPUTS, user), to_stdout = -1;
    for (int i = 0; i < 4; i++) {
        if (!out[i])
            continue;
        if (strcmp(out[i], "-") == 0) {
            if (to_stdout >= 0) {
                fprintf(stderr, "clbench: %s - and %s -: only one output may go to stdout\n",
                        out_flags[to_stdout], out_flags[i]);
                return CLI_EXIT_USAGE;
            }
            to_stdout = i;
            continue;
        }
        for (int j = 0; j < nin; j++)
            if (same_file(out[i], in[j])) {
                fprintf(stderr, "clbench: %s %s is also an input (%s); refusing to overwrite it\n",
                        out_flags[i], out[i], in[j]);
                return CLI_EXIT_USAGE;
            }
        for (int j = i + 1; j < 4; j++)
            if (out[j] && strcmp(out[j], "-") != 0 && same_file(out[i], out[j])) {
                fprintf(stderr, "clbench: %s and %s name the same file %s\n", out_flags[i], out_flags[j],
                        out[i]);
                return CLI_EXIT_USAGE;
            }
        int rc = output_usable(out[i], out_flags[i]);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}

/* 1 when the existing file path lies inside the existing directory dir (both resolved). */
static int inside(const char *path, const char *dir)
{
    char rp[4096], rd[4096];
    if (!realpath(path, rp) || !realpath(dir, rd))
        return 0;
    size_t n = strlen(rd);
    return strncmp(rp, rd, n) == 0 && (rp[n] == '/' || n == 1);
}

int cli_check_site_dir(const char *dir, const char *store)
{
    char user[4][4096];
    const char *in[MAX_INPUTS];
    cli_opts none = {.command = "store"};
    int nin = inputs_of(&none, in, MAX_INPUTS - 1, user);
    struct stat st;
    in[nin++] = store;
    if (!*dir || strcmp(dir, "-") == 0) {
        fprintf(stderr, "clbench: store site: DIR must name a folder, not '%s'\n", dir);
        return CLI_EXIT_USAGE;
    }
    for (int j = 0; j < nin; j++)
        if (same_file(dir, in[j]) || inside(in[j], dir)) {
            /* a site is replaced (or its folder removed) as a whole: what clbench reads stays out of it */
            fprintf(stderr, "clbench: store site %s: %s %s; refusing to write there\n", dir,
                    same_file(dir, in[j]) ? "is also an input" : "holds an input,", in[j]);
            return CLI_EXIT_USAGE;
        }
    if (stat(dir, &st) != 0) {
        char bare[4096];
        size_t n = (size_t)snprintf(bare, sizeof bare, "%s", dir);
        while (n > 1 && n < sizeof bare && bare[n - 1] == '/')
            bare[--n] = '\0'; /* "site/": its parent is ".", not "site" */
        return dir_writable(bare, "store site");
    }
    if (!S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "clbench: store site %s: %s\n", dir, S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}
