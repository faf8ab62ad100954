/* The reference lines of a curve plot (docs/report.md): per device the physical limit in the
 * plot's unit (dashed) and the peer measured in the same run (dotted), so that every curve can
 * be read against what bounds it. */
#include "report/report_cols.h"

#include <math.h>
#include <string.h>

static void add_ref(rep_refs *o, double v, int dashed, const char *dev, const char *what, const char *unit)
{
    char num[32];
    if (!isfinite(v) || !(v > 0) || o->n >= REP_MAX_REFS)
        return;
    rj_fmt(num, sizeof num, v);
    snprintf(o->text[o->n], sizeof o->text[o->n], "%s%s%s %s %s", dev ? dev : "", dev ? ": " : "", what,
             num, unit);
    o->r[o->n] = (clb_plot_ref){v, o->text[o->n], dashed};
    o->n++;
}

/* The row's own limit (the guard's, scaled for add/mul and both link directions), else the
 * database's limit of the unit's kind. */
static double limit_of(const cJSON *dev, const cJSON *r, const char *name, const char *unit)
{
    const cJSON *lim = rj_obj(rj_obj(r, "params"), "limit");
    const char *lu = rj_str(lim, "unit"), *key = NULL;
    double v = NAN;
    int transfer = strncmp(name, "transfer.", 9) == 0;
    if (lu && strcmp(lu, unit) == 0 && rj_num(lim, "value", &v))
        return v;
    /* d2d copies never cross the link and read and write DRAM; bidirectional is two links */
    if (strcmp(unit, "GB/s") == 0 && (!transfer || !strstr(name, "d2d")) && !strstr(name, "bidirectional"))
        key = transfer ? "limit_link" : "limit_dram";
    else if (strcmp(unit, "GFLOP/s") == 0)
        key = strstr(name, "fp64") || strstr(name, "dgemm") ? "limit_fp64" : "limit_fp32";
    if (key)
        rj_num(rj_obj(rj_obj(dev, "derived"), key), "value", &v);
    return v;
}

/* The same-run ceiling of the roofline in this unit (DRAM for GB/s, the precision's peak for
 * operation rates); NULL when there is none or it is the plotted row itself. */
static const cJSON *peer_ceiling(const cJSON *rl, const char *name, const char *unit)
{
    const char *want = strcmp(unit, "GB/s") == 0 ? "DRAM"
                     : strcmp(unit, "GIOP/s") == 0 ? "int32 peak"
                     : strcmp(unit, "GFLOP/s") != 0 ? NULL
                     : strstr(name, "fp64") || strstr(name, "dgemm") ? "fp64 peak" : "fp32 peak";
    const cJSON *c;
    /* The link, not DRAM, bounds a transfer; compute rows are the ceilings themselves (an add
     * row against the FMA peak would mislead). */
    if (!want || strncmp(name, "transfer.", 9) == 0 || strncmp(name, "compute.", 8) == 0)
        return NULL;
    cJSON_ArrayForEach(c, rj_arr(rl, "ceilings")) {
        const char *n = rj_str(c, "name"), *row = rj_str(c, "row");
        if (n && strcmp(n, want) == 0)
            return row && strcmp(row, name) == 0 ? NULL : c;
    }
    return NULL;
}

static void device_refs(const rep_col *col, int many, const char *name, const char *unit, rep_refs *o)
{
    const cJSON *r = rep_find(col, name), *pr;
    const char *peer = rj_str(rj_obj(r, "params"), "peer_row"), *dev = many ? col->name : NULL;
    char what[96];
    add_ref(o, limit_of(col->dev, r, name, unit), 1, dev, "physical limit", unit);
    pr = peer ? rep_find(col, peer) : NULL;
    if (pr && rj_str(pr, "status") && strcmp(rj_str(pr, "status"), "ok") == 0 && rj_str(pr, "unit") &&
        strcmp(rj_str(pr, "unit"), unit) == 0) {
        double v = NAN;
        rj_num(pr, "value", &v);
        snprintf(what, sizeof what, "same run: %s", peer);
        add_ref(o, v, 0, dev, what, unit);
        return;
    }
    const cJSON *rl = rj_obj(col->dev, "roofline");
    cJSON *made = rl ? NULL : clb_roofline_model(col->dev);
    const cJSON *c = peer_ceiling(rl ? rl : made, name, unit);
    if (c) {
        double v = NAN;
        rj_num(c, "value", &v);
        snprintf(what, sizeof what, "same run: %s", rj_str(c, "row") ? rj_str(c, "row") : "?");
        add_ref(o, v, 0, dev, what, unit);
    }
    cJSON_Delete(made);
}

void rep_plot_refs(const rep_cols *c, const char *name, const char *unit, rep_refs *o)
{
    o->n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *st = rj_str(rep_find(&c->col[i], name), "status");
        if (st && strcmp(st, "ok") == 0)
            device_refs(&c->col[i], c->n > 1, name, unit, o);
    }
}
