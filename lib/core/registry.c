/* The registry: every group's const table of rows, in the order lib/core/groups.h lists the
 * groups. Adding a benchmark = one file (or folder) in its group, its kernel beside it, one row
 * in the group's own table. */
#include "core/internal.h"

#include <fnmatch.h>
#include <string.h>

typedef struct group_rows {
    const clb_bench *rows;
    const size_t *count;
} group_rows;

static const group_rows groups[] = {
#define CLB_GROUP(g) {clb_##g##_rows, &clb_##g##_row_count},
#include "core/groups.h"
#undef CLB_GROUP
};

size_t clb_bench_count(void)
{
    size_t n = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        n += *groups[g].count;
    return n;
}

const clb_bench *clb_bench_at(size_t i)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        if (i < *groups[g].count)
            return &groups[g].rows[i];
        i -= *groups[g].count;
    }
    return NULL;
}

const clb_bench *clb_bench_find(const char *name)
{
    for (size_t i = 0; i < clb_bench_count(); i++)
        if (strcmp(clb_bench_at(i)->name, name) == 0)
            return clb_bench_at(i);
    return NULL;
}

int clb_bench_match(const char *pattern, const char *name)
{
    return fnmatch(pattern, name, 0) == 0;
}
