/* Output files that appear whole or not at all: written under a fresh temporary name in the
 * same directory and renamed into place, so an interrupted run or two clbench processes writing
 * the same path never leave a torn file. Only an absent target or a regular file is replaced
 * that way: renaming over a FIFO or a device node would replace the node itself (as root,
 * --json /dev/null), so those are written in place, and anything else is refused. */
#define _POSIX_C_SOURCE 200809L
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct clb_output {
    FILE *f;
    char *path;
    char *tmp; /* NULL: stdout, or a FIFO or device written in place */
};

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "directory" : S_ISBLK(m) ? "block device" : S_ISSOCK(m) ? "socket" : "special file";
}

clb_error clb_output_target(const char *path, int *in_place, clb_diag *d)
{
    struct stat st;
    *in_place = strcmp(path, "-") == 0;
    if (*in_place)
        return CLB_OK;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? CLB_OK : clb_diag_set(d, CLB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    if (S_ISREG(st.st_mode))
        return CLB_OK;
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        *in_place = 1;
        return CLB_OK;
    }
    return clb_diag_set(d, CLB_ERR_USAGE, "cannot write %s: it is a %s", path, kind_of(st.st_mode));
}

/* A FIFO or character device, opened without creating anything; refused when the path changed
 * into something else since clb_output_target looked. */
static FILE *open_in_place(const char *path, clb_diag *d)
{
    struct stat st;
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        clb_diag_set(d, CLB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        close(fd);
        clb_diag_set(d, CLB_ERR_IO, "cannot write %s: it changed while being opened", path);
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    }
    return f;
}

/* "DIR/.NAME.XXXXXX" beside path, created by mkstemp: O_EXCL with mode 0600, so a name planted
 * in advance (a symlink, a file) is never opened; NAME cut to 200 bytes so that a name near the
 * file system's limit still has a temporary one. Caller frees *tmp. */
static FILE *open_temporary(const char *path, char **tmp, clb_diag *d)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    size_t n = strlen(path) + 16;
    if (!(*tmp = malloc(n))) {
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(*tmp, n, "%.*s.%.200s.XXXXXX", dir_len, path, path + dir_len);
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        clb_diag_set(d, CLB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        remove(*tmp);
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    }
    return f;
}

clb_error clb_output_open(const char *path, clb_output **out, FILE **f, clb_diag *d)
{
    clb_diag_clear(d);
    *out = NULL;
    *f = NULL;
    int in_place = 0;
    clb_output *o = calloc(1, sizeof *o);
    size_t n = strlen(path) + 1;
    if (!o || !(o->path = malloc(n)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    snprintf(o->path, n, "%s", path);
    if (clb_output_target(path, &in_place, d) != CLB_OK)
        goto cleanup;
    if (strcmp(path, "-") == 0)
        o->f = stdout;
    else
        o->f = in_place ? open_in_place(path, d) : open_temporary(path, &o->tmp, d);
    if (!o->f)
        goto cleanup;
    *f = o->f;
    *out = o;
    o = NULL;
cleanup:
    if (o) {
        free(o->path);
        free(o->tmp);
        free(o);
    }
    return d->err;
}

/* The mode a plain fopen would have given: 0666 less the umask (mkstemp made it 0600). */
static int widen_mode(FILE *f)
{
    mode_t mask = umask(0);
    umask(mask);
    return fchmod(fileno(f), 0666 & ~mask) == 0;
}

clb_error clb_output_close(clb_output *o, int ok, clb_diag *d)
{
    clb_diag_clear(d);
    if (!o)
        return CLB_OK;
    if (!o->tmp) {
        int bad = (o->f == stdout ? fflush(o->f) : fclose(o->f)) != 0 || !ok;
        if (bad)
            clb_diag_set(d, CLB_ERR_IO, "error writing %s", o->path);
    } else {
        int bad = fflush(o->f) != 0 || !widen_mode(o->f);
        bad = fclose(o->f) != 0 || bad || !ok;
        if (!bad && rename(o->tmp, o->path) != 0)
            clb_diag_set(d, CLB_ERR_IO, "cannot write %s: %s", o->path, strerror(errno));
        else if (bad)
            clb_diag_set(d, CLB_ERR_IO, "error writing %s", o->path);
        if (d->err != CLB_OK)
            remove(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    free(o);
    return d->err;
}
