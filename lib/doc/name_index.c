/* Results of a device by name in O(log n): reports and compare look up every name of one
 * document in another, and a linear search per name made them quadratic in the results. */
#include "doc/doc.h"

#include <stdlib.h>
#include <string.h>

/* By name, then by position: the first of equal names is what rj_find_result answers. */
static int by_name(const void *a, const void *b)
{
    const rj_named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

clb_error rj_index_build(rj_index *ix, const cJSON *dev)
{
    const cJSON *r;
    size_t n = 0;
    memset(ix, 0, sizeof *ix);
    cJSON_ArrayForEach(r, rj_arr(dev, "results"))
        n++;
    ix->e = malloc((n ? n : 1) * sizeof *ix->e);
    if (!ix->e)
        return CLB_ERR_NOMEM;
    cJSON_ArrayForEach(r, rj_arr(dev, "results")) {
        const char *s = rj_str(r, "name");
        if (s)
            ix->e[ix->n] = (rj_named){s, ix->n, r}, ix->n++;
    }
    qsort(ix->e, ix->n, sizeof *ix->e, by_name);
    return CLB_OK;
}

const cJSON *rj_index_find(const rj_index *ix, const char *name)
{
    size_t lo = 0, hi = ix->n; /* the first entry whose name is >= name */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(ix->e[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->n && strcmp(ix->e[lo].name, name) == 0 ? ix->e[lo].r : NULL;
}

void rj_index_free(rj_index *ix)
{
    free(ix->e);
    memset(ix, 0, sizeof *ix);
}

static int by_pos(const void *a, const void *b)
{
    const rj_named *x = a, *y = b;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

size_t rj_named_distinct(rj_named *e, size_t n)
{
    size_t k = 0;
    qsort(e, n, sizeof *e, by_name);
    for (size_t i = 0; i < n; i++)
        if (k == 0 || strcmp(e[k - 1].name, e[i].name) != 0)
            e[k++] = e[i];
    qsort(e, k, sizeof *e, by_pos);
    return k;
}
