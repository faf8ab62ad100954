/* The site writer: the folder checked and made, the previous manifest checked, the devices
 * ordered and grouped by model, their safe file names; then the pages: devices as they are
 * given, models, scores, the index last, and the manifest. */
#include "report/site_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path, made when absent. The site folder itself may be a link the user chose; a folder inside
 * it must be a real one, since a planted link would take the pages elsewhere. */
static clb_error make_dir(const char *path, int follow, clb_diag *d)
{
    struct stat st;
    for (int tries = 0; tries < 2; tries++) {
        if ((follow ? stat(path, &st) : lstat(path, &st)) == 0) {
            if (S_ISDIR(st.st_mode))
                return CLB_OK;
            return clb_diag_set(d, CLB_ERR_USAGE, "cannot write the site into %s: it is %s", path,
                                S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
        }
        if (errno != ENOENT)
            break;
        if (mkdir(path, 0777) == 0 || errno == EEXIST) /* EEXIST: made meanwhile, look again */
            continue;
        break;
    }
    return clb_diag_set(d, CLB_ERR_IO, "cannot make the site folder %s: %s", path, strerror(errno));
}

static clb_error make_subdirs(const char *dir, clb_diag *d)
{
    static const char *const sub[] = {"device", "model"};
    char path[4096];
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, sub[i]) >= sizeof path)
            return clb_diag_set(d, CLB_ERR_USAGE, "site folder name too long: %.200s", dir);
        if (make_dir(path, 0, d) != CLB_OK)
            return d->err;
    }
    return CLB_OK;
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(site_s(a), site_s(b));
}

static int cmp_ptr(const void *a, const void *b)
{
    return (a > b) - (a < b);
}

/* Devices by model, host and key (pointers into one array: ties by position). */
static int cmp_device(const void *a, const void *b)
{
    const clb_site_device *x = *(const clb_site_device *const *)a, *y = *(const clb_site_device *const *)b;
    int c = cmp_str(x->model, y->model);
    c = c ? c : cmp_str(x->host, y->host);
    c = c ? c : cmp_str(x->key, y->key);
    return c ? c : cmp_ptr(x, y);
}

static int cmp_key(const void *a, const void *b)
{
    const clb_site_device *x = *(const clb_site_device *const *)a, *y = *(const clb_site_device *const *)b;
    int c = cmp_str(x->key, y->key);
    return c ? c : cmp_ptr(x, y);
}

/* out[i]: the index of the i-th device in cmp's order. */
static clb_error sorted(const clb_site_model *m, int (*cmp)(const void *, const void *), size_t *out)
{
    const clb_site_device **p = malloc(m->ndevices ? m->ndevices * sizeof *p : 1);
    if (!p)
        return CLB_ERR_NOMEM;
    for (size_t i = 0; i < m->ndevices; i++)
        p[i] = &m->devices[i];
    qsort(p, m->ndevices, sizeof *p, cmp);
    for (size_t i = 0; i < m->ndevices; i++)
        out[i] = (size_t)(p[i] - m->devices);
    free(p);
    return CLB_OK;
}

/* The runs of one model in c->order, and their file names. */
static clb_error group_models(site_ctx *c)
{
    const clb_site_model *m = c->m;
    const char **names = malloc(m->ndevices ? m->ndevices * sizeof *names : 1);
    char(*slugs)[SITE_NAME_MAX] = malloc(m->ndevices ? m->ndevices * sizeof *slugs : 1);
    clb_error err = names && slugs && (c->groups = malloc(m->ndevices ? m->ndevices * sizeof *c->groups : 1))
                        ? CLB_OK : CLB_ERR_NOMEM;
    for (size_t i = 0; err == CLB_OK && i < m->ndevices; i++) {
        const clb_site_device *dv = &m->devices[c->order[i]];
        if (i == 0 || cmp_str(dv->model, m->devices[c->order[i - 1]].model) != 0)
            c->groups[c->ngroups++] = (site_group){site_s(dv->model), "", i, 0};
        c->groups[c->ngroups - 1].count++;
        c->dev_group[c->order[i]] = c->ngroups - 1;
    }
    for (size_t g = 0; err == CLB_OK && g < c->ngroups; g++)
        names[g] = c->groups[g].model;
    if (err == CLB_OK && (err = site_name_slugs(slugs, names, c->ngroups)) == CLB_OK)
        for (size_t g = 0; g < c->ngroups; g++)
            memcpy(c->groups[g].slug, slugs[g], SITE_NAME_MAX);
    free(names);
    free(slugs);
    return err;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The slugs in strcmp order (what the manifest is compared against). */
static const char **sorted_slugs(const char *first, size_t stride, size_t n)
{
    const char **v = malloc(n ? n * sizeof *v : 1);
    for (size_t i = 0; v && i < n; i++)
        v[i] = first + i * stride;
    if (v)
        qsort(v, n, sizeof *v, cmp_cstr);
    return v;
}

static clb_error build(site_ctx *c)
{
    const clb_site_model *m = c->m;
    size_t n = m->ndevices ? m->ndevices : 1;
    const char **keys = malloc(n * sizeof *keys);
    c->dev_slug = malloc(n * sizeof *c->dev_slug);
    c->dev_group = malloc(n * sizeof *c->dev_group);
    c->order = malloc(n * sizeof *c->order);
    c->by_key = malloc(n * sizeof *c->by_key);
    c->done = calloc(n, 1);
    c->ceil_first = calloc(n, sizeof *c->ceil_first);
    c->ceil_n = calloc(n, sizeof *c->ceil_n);
    c->spill_at = calloc(n, sizeof *c->spill_at);
    c->spill_n = calloc(n, sizeof *c->spill_n);
    clb_error err = keys && c->dev_slug && c->dev_group && c->order && c->by_key && c->done && c->ceil_first &&
                            c->ceil_n && c->spill_at && c->spill_n
                        ? CLB_OK : CLB_ERR_NOMEM;
    for (size_t i = 0; err == CLB_OK && i < m->ndevices; i++)
        keys[i] = m->devices[i].key;
    if (err == CLB_OK)
        err = site_name_slugs(c->dev_slug, keys, m->ndevices);
    if (err == CLB_OK)
        err = sorted(m, cmp_device, c->order);
    if (err == CLB_OK)
        err = sorted(m, cmp_key, c->by_key);
    if (err == CLB_OK)
        err = group_models(c);
    if (err == CLB_OK && (!(c->dev_sorted = sorted_slugs(c->dev_slug[0], SITE_NAME_MAX, m->ndevices)) ||
                          !(c->group_sorted = sorted_slugs(c->groups[0].slug, sizeof c->groups[0], c->ngroups))))
        err = CLB_ERR_NOMEM;
    free(keys);
    return err;
}

/* The spill file: a temporary name inside dir (the site's own disk, not a tmpfs in memory),
 * unlinked at once, so nothing of it is left, whatever happens. */
static clb_error open_spill(site_ctx *c, clb_diag *d)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/.clbench-spill.XXXXXX", c->dir) >= sizeof path)
        return clb_diag_set(d, CLB_ERR_USAGE, "site folder name too long: %.200s", c->dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return clb_diag_set(d, CLB_ERR_IO, "cannot write in %s: %s", c->dir, strerror(errno));
    unlink(path);
    if (!(c->spill = fdopen(fd, "w+b"))) {
        close(fd);
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    }
    return CLB_OK;
}

void clb_site_abort(clb_site_writer *c)
{
    if (!c)
        return;
    free(c->dev_slug), free(c->dev_group), free(c->order), free(c->by_key), free(c->groups);
    free(c->dev_sorted), free(c->group_sorted);
    clb_strtab_free(&c->strs), clb_strtab_free(&c->rows);
    free(c->row_better), free(c->done), free(c->ceil_first), free(c->ceil_n), free(c->ceils);
    free(c->spill_at), free(c->spill_n);
    if (c->spill)
        fclose(c->spill);
    free(c);
}

clb_error clb_site_begin(const char *dir, const clb_site_model *m, clb_site_writer **w, clb_diag *d)
{
    clb_diag_clear(d);
    *w = NULL;
    if (!m)
        return clb_diag_set(d, CLB_ERR_USAGE, "no model to write a site from");
    if (!dir || !*dir)
        return clb_diag_set(d, CLB_ERR_USAGE, "no site folder given");
    site_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    c->m = m, c->dir = dir;
    c->strs.copy = c->rows.copy = 1;
    if (build(c) != CLB_OK)
        clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    /* The manifest is checked before anything is written: a refused one leaves DIR as it was. */
    else if (make_dir(dir, 1, d) == CLB_OK && site_manifest_check(c, d) == CLB_OK && make_subdirs(dir, d) == CLB_OK &&
             site_manifest_begin(c, d) == CLB_OK)
        open_spill(c, d);
    if (d->err != CLB_OK) {
        clb_site_abort(c);
        return d->err;
    }
    *w = c;
    return CLB_OK;
}

static clb_error put(site_ctx *c, size_t i, const clb_site_row *rows, size_t nrows, const clb_site_ceiling *ceilings,
                     size_t nceilings, clb_diag *d)
{
    if (c->done[i])
        return CLB_OK;
    if (site_device_page(c, i, rows, nrows, ceilings, nceilings, d) != CLB_OK ||
        site_spill_device(c, i, rows, nrows, d) != CLB_OK || site_keep_ceilings(c, i, ceilings, nceilings, d) != CLB_OK)
        return d->err;
    c->done[i] = 1;
    return CLB_OK;
}

clb_error clb_site_put_device(clb_site_writer *c, size_t i, const clb_site_row *rows, size_t nrows,
                              const clb_site_ceiling *ceilings, size_t nceilings, clb_diag *d)
{
    clb_diag_clear(d);
    if (!c || i >= c->m->ndevices)
        return clb_diag_set(d, CLB_ERR_USAGE, "no device %zu in the site", i);
    return put(c, i, rows, nrows, ceilings, nceilings, d);
}

clb_error clb_site_finish(clb_site_writer *c, clb_diag *d)
{
    clb_diag_clear(d);
    if (!c)
        return clb_diag_set(d, CLB_ERR_USAGE, "no site being written");
    const clb_site_model *m = c->m;
    for (size_t i = 0; i < m->ndevices && d->err == CLB_OK; i++) {
        const clb_site_device *dv = &m->devices[i];
        put(c, i, dv->rows, dv->nrows, dv->ceilings, dv->nceilings, d);
    }
    if (d->err == CLB_OK && fflush(c->spill) != 0)
        clb_diag_set(d, CLB_ERR_IO, "cannot write the site's temporary file in %s", c->dir);
    if (d->err == CLB_OK && site_model_pages(c, d) == CLB_OK && site_scores_page(c, d) == CLB_OK &&
        site_index_page(c, d) == CLB_OK)
        site_manifest_finish(c, d);
    clb_site_abort(c);
    return d->err;
}

clb_error clb_site_write(const char *dir, const clb_site_model *m, clb_diag *d)
{
    clb_site_writer *w;
    if (clb_site_begin(dir, m, &w, d) != CLB_OK)
        return d->err;
    for (size_t i = 0; i < m->ndevices; i++) {
        const clb_site_device *dv = &m->devices[i];
        if (clb_site_put_device(w, i, dv->rows, dv->nrows, dv->ceilings, dv->nceilings, d) != CLB_OK) {
            clb_site_abort(w);
            return d->err;
        }
    }
    return clb_site_finish(w, d);
}
