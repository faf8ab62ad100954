/* Output files that appear whole or not at all: written under a temporary name in the same
 * directory and renamed into place, so an interrupted run or two clbench processes writing
 * the same path never leave a torn file. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct clb_output {
    FILE *f;
    char *path;
    char *tmp; /* NULL for stdout */
};

clb_error clb_output_open(const char *path, clb_output **out, FILE **f, clb_diag *d)
{
    clb_diag_clear(d);
    *out = NULL;
    *f = NULL;
    clb_output *o = calloc(1, sizeof *o);
    size_t n = strlen(path) + 64;
    if (!o || !(o->path = malloc(n)))
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    snprintf(o->path, n, "%s", path);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
    } else {
        if (!(o->tmp = malloc(n)))
            CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
        snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
        if (!(o->f = fopen(o->tmp, "w")))
            CLB_FAIL(d, CLB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
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

clb_error clb_output_close(clb_output *o, int ok, clb_diag *d)
{
    clb_diag_clear(d);
    if (!o)
        return CLB_OK;
    if (!o->tmp) {
        if (fflush(o->f) != 0 || !ok)
            clb_diag_set(d, CLB_ERR_IO, "error writing %s", o->path);
    } else {
        int bad = fclose(o->f) != 0 || !ok;
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
