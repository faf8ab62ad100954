/* Columns (devices) and rows (result names) of a report over several documents. Every lookup
 * goes through a per-column name index, so that a report stays O(n log n) in its results. */
#include "report/report_cols.h"

#include <stdlib.h>
#include <string.h>

/* The distinct result names over all columns, in first-seen order. */
static clb_error collect_names(rep_cols *c)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < c->n; i++)
        total += c->col[i].ix.n;
    rj_named *all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return CLB_ERR_NOMEM;
    for (size_t i = 0; i < c->n; i++) {
        const cJSON *r;
        cJSON_ArrayForEach(r, rj_arr(c->col[i].dev, "results")) {
            const char *s = rj_str(r, "name");
            if (s)
                all[k] = (rj_named){s, k, r}, k++;
        }
    }
    k = rj_named_distinct(all, k);
    c->names = malloc((k ? k : 1) * sizeof *c->names);
    for (size_t i = 0; c->names && i < k; i++)
        c->names[i] = all[i].name;
    c->nnames = c->names ? k : 0;
    free(all);
    return c->names ? CLB_OK : CLB_ERR_NOMEM;
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
            rep_col *col = &c->col[c->n++];
            col->src = i;
            col->dev = dev;
            col->name = rj_device_name(dev);
            if (rj_index_build(&col->ix, dev) != CLB_OK) {
                rep_cols_free(c);
                return CLB_ERR_NOMEM;
            }
        }
    }
    if (collect_names(c) != CLB_OK) {
        rep_cols_free(c);
        return CLB_ERR_NOMEM;
    }
    return CLB_OK;
}

const cJSON *rep_find(const rep_col *col, const char *name)
{
    return rj_index_find(&col->ix, name);
}

void rep_cols_free(rep_cols *c)
{
    for (size_t i = 0; i < c->n; i++)
        rj_index_free(&c->col[i].ix);
    free(c->col);
    free(c->names);
    memset(c, 0, sizeof *c);
}
