/* Columns (devices) and rows (result names) of a report over several documents. */
#include "report_cols.h"

#include <stdlib.h>
#include <string.h>

static int known_name(const rep_cols *c, const char *name)
{
    for (size_t i = 0; i < c->nnames; i++)
        if (strcmp(c->names[i], name) == 0)
            return 1;
    return 0;
}

/* Adds the result names of one device not seen before. */
static clb_error add_names(rep_cols *c, const cJSON *dev)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *s = rj_str(r, "name");
        if (!s || known_name(c, s))
            continue;
        const char **grown = realloc(c->names, (c->nnames + 1) * sizeof *grown);
        if (!grown)
            return CLB_ERR_NOMEM;
        c->names = grown;
        c->names[c->nnames++] = s;
    }
    return CLB_OK;
}

clb_error rep_cols_build(rep_cols *c, const clb_report_src *src, size_t n)
{
    memset(c, 0, sizeof *c);
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)cJSON_GetArraySize(rj_devices(src[i].doc));
    c->col = calloc(total ? total : 1, sizeof *c->col);
    if (!c->col)
        return CLB_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const cJSON *dev;
        cJSON_ArrayForEach(dev, rj_devices(src[i].doc)) {
            c->col[c->n].src = i;
            c->col[c->n].dev = dev;
            c->col[c->n].name = rj_device_name(dev);
            if (add_names(c, dev) != CLB_OK) {
                rep_cols_free(c);
                return CLB_ERR_NOMEM;
            }
            c->n++;
        }
    }
    return CLB_OK;
}

void rep_cols_free(rep_cols *c)
{
    free(c->col);
    free(c->names);
    memset(c, 0, sizeof *c);
}
