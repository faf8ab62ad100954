/* clb_site_write: the folder checked and made, the devices ordered and grouped by model, their
 * safe file names, then the pages: devices, models, scores, and the index last. */
#include "report/site_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static clb_error make_dirs(const char *dir, clb_diag *d)
{
    static const char *const sub[] = {"device", "model"};
    char path[4096];
    if (!dir || !*dir)
        return clb_diag_set(d, CLB_ERR_USAGE, "no site folder given");
    if (make_dir(dir, 1, d) != CLB_OK)
        return d->err;
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

/* The index's headline columns: the distinct names, first seen first. */
static void index_ceilings(site_ctx *c)
{
    for (size_t i = 0; i < c->m->ndevices; i++)
        for (size_t k = 0; k < c->m->devices[i].nceilings; k++) {
            const clb_site_ceiling *x = &c->m->devices[i].ceilings[k];
            size_t j = 0;
            while (j < c->nceil && strcmp(c->ceil[j], site_s(x->name)) != 0)
                j++;
            if (j == c->nceil && c->nceil < SITE_INDEX_CEILINGS)
                c->ceil[c->nceil++] = site_s(x->name);
        }
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
    clb_error err = keys && c->dev_slug && c->dev_group && c->order && c->by_key ? CLB_OK : CLB_ERR_NOMEM;
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
    index_ceilings(c);
    free(keys);
    return err;
}

static void release(site_ctx *c)
{
    free(c->dev_slug);
    free(c->dev_group);
    free(c->order);
    free(c->by_key);
    free(c->groups);
}

clb_error clb_site_write(const char *dir, const clb_site_model *m, clb_diag *d)
{
    site_ctx c = {.m = m, .dir = dir};
    clb_diag_clear(d);
    if (!m)
        return clb_diag_set(d, CLB_ERR_USAGE, "no model to write a site from");
    if (make_dirs(dir, d) != CLB_OK)
        return d->err;
    if (build(&c) != CLB_OK)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < m->ndevices; i++)
        if (site_device_page(&c, i, d) != CLB_OK)
            goto cleanup;
    for (size_t g = 0; g < c.ngroups; g++)
        if (site_model_page(&c, g, d) != CLB_OK)
            goto cleanup;
    if (site_scores_page(&c, d) == CLB_OK)
        site_index_page(&c, d);
cleanup:
    release(&c);
    return d->err;
}
