/* What the streaming site writer keeps between devices: each distinct string once (row names,
 * units, statuses, headline names), the rows by (name, unit), each device's headline figures,
 * and per (device, row) its latest run in a spill file for the model pages. */
#include "report/site_int.h"

#include <stdlib.h>
#include <string.h>

uint32_t site_str_id(site_ctx *c, const char *s)
{
    if (!s)
        return 0;
    int added;
    size_t i = clb_strtab_add(&c->strs, s, strlen(s), &added);
    return i == SIZE_MAX ? UINT32_MAX : (uint32_t)(i + 1);
}

const char *site_str(const site_ctx *c, uint32_t id)
{
    return id && id <= c->strs.n ? c->strs.s[id - 1] : NULL;
}

uint32_t site_row_id(site_ctx *c, const char *name, const char *unit, int better)
{
    uint32_t key[2] = {site_str_id(c, site_s(name)), site_str_id(c, site_s(unit))};
    if (key[0] == UINT32_MAX || key[1] == UINT32_MAX)
        return UINT32_MAX;
    int added;
    size_t i = clb_strtab_add(&c->rows, key, sizeof key, &added);
    if (i == SIZE_MAX)
        return UINT32_MAX;
    if (added) { /* new: its direction */
        if (!clb_grow(&c->row_better, sizeof *c->row_better, i, &c->row_cap))
            return UINT32_MAX;
        c->row_better[i] = better;
    }
    return (uint32_t)i;
}

/* The records of one device in row order: name, then unit (what the model pages group by). */
static const site_ctx *sort_c;
static int cmp_rec(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)sort_c->rows.s[((const site_rec *)a)->row];
    const uint32_t *y = (const uint32_t *)sort_c->rows.s[((const site_rec *)b)->row];
    int r = strcmp(site_str(sort_c, x[0]), site_str(sort_c, y[0]));
    return r ? r : strcmp(site_str(sort_c, x[1]), site_str(sort_c, y[1]));
}

clb_error site_spill_device(site_ctx *c, size_t dev, const clb_site_row *rows, size_t nrows, clb_diag *d)
{
    site_rec *v = malloc(nrows ? nrows * sizeof *v : 1);
    if (!v)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t r = 0; r < nrows; r++) {
        const clb_site_row *row = &rows[r];
        const clb_site_point *last = row->npoints ? &row->points[row->npoints - 1] : NULL;
        v[r] = (site_rec){site_row_id(c, row->name, row->unit, row->better),
                          last ? site_str_id(c, last->status) : 0, last ? last->time : 0, last ? last->value : 0,
                          last != NULL, 0};
        if (v[r].row == UINT32_MAX || v[r].status == UINT32_MAX) {
            free(v);
            return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
        }
    }
    sort_c = c;
    qsort(v, nrows, sizeof *v, cmp_rec);
    c->spill_at[dev] = c->spill_end;
    c->spill_n[dev] = (uint32_t)nrows;
    int ok = nrows <= UINT32_MAX && fwrite(v, sizeof *v, nrows, c->spill) == nrows;
    c->spill_end += nrows * sizeof *v;
    free(v);
    return ok ? CLB_OK : clb_diag_set(d, CLB_ERR_IO, "cannot write the site's temporary file in %s", c->dir);
}

clb_error site_keep_ceilings(site_ctx *c, size_t dev, const clb_site_ceiling *v, size_t n, clb_diag *d)
{
    if (!clb_grow_by(&c->ceils, sizeof *c->ceils, c->nceils, n, &c->ceils_cap))
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    c->ceil_first[dev] = c->nceils;
    c->ceil_n[dev] = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        site_ceil k = {site_str_id(c, site_s(v[i].name)), site_str_id(c, site_s(v[i].unit)), v[i].value};
        if (k.name == UINT32_MAX || k.unit == UINT32_MAX)
            return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
        c->ceils[c->nceils++] = k;
    }
    return CLB_OK;
}
