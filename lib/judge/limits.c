/* The physical-limit guard (docs/measurement.md, "Physical limits"). */
#include "judge/limits.h"

#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Cache- and local-memory rows (read_reuse, local_*, constant_*, caches, latency) have no
 * row: they may legitimately beat DRAM. Transfer: d2d never crosses the link. */
static const clb_limit_rule rules[] = {
    {"compute.fp32.add", CLB_LIMIT_FP32, 0.5, "add: 1 flop per lane and clock, half the FMA peak"},
    {"compute.fp32.mul", CLB_LIMIT_FP32, 0.5, "mul: 1 flop per lane and clock, half the FMA peak"},
    {"compute.fp32.*", CLB_LIMIT_FP32, 1.0, "FMA peak"},
    {"compute.fp64.add", CLB_LIMIT_FP64, 0.5, "add: 1 flop per lane and clock, half the FMA peak"},
    {"compute.fp64.mul", CLB_LIMIT_FP64, 0.5, "mul: 1 flop per lane and clock, half the FMA peak"},
    {"compute.fp64.*", CLB_LIMIT_FP64, 1.0, "FMA peak"},
    {"memory.read_linear", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.read_strided", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.read_random", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.write", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.copy", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.scale", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.add", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"memory.triad", CLB_LIMIT_DRAM, 1.0, "DRAM bandwidth"},
    {"transfer.h2d_*", CLB_LIMIT_LINK, 1.0, "host link, one direction"},
    {"transfer.d2h_*", CLB_LIMIT_LINK, 1.0, "host link, one direction"},
    {"transfer.map_*", CLB_LIMIT_LINK, 1.0, "host link, one direction"},
    {"transfer.bidirectional", CLB_LIMIT_LINK, 2.0, "host link, both directions"},
};

const clb_limit_rule *clb_limit_rule_for(const char *name)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (clb_bench_match(rules[i].pattern, name))
            return &rules[i];
    return NULL;
}

static int is_true(const cJSON *params, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(params, key));
}

int clb_limit_check(clb_result *res, const clb_limit_rule *rule, const clb_limit *lim)
{
    if (res->status != CLB_STATUS_OK || !rule || !lim || !isfinite(lim->value) || lim->value <= 0 ||
        strcmp(res->unit, lim->unit) != 0 || is_true(res->params, "zero_copy"))
        return 0;
    double limit = lim->value * rule->scale;
    if (res->value > limit * CLB_LIMIT_SLACK) {
        char why[sizeof res->reason];
        snprintf(why, sizeof why,
                 "measured %.4g %s is %.1f%% above the physical limit %.4g %s (%s; more than %.0f%% "
                 "above it is impossible): %s",
                 res->value, res->unit, 100 * (res->value / limit - 1), limit, lim->unit, rule->why,
                 100 * (CLB_LIMIT_SLACK - 1), lim->source);
        clb_param_num(res, "measured_value", res->value);
        clb_result_fail(res, CLB_STATUS_INVALID, why);
        return 1;
    }
    cJSON *o = cJSON_CreateObject();
    clb_json_number(o, "value", limit);
    cJSON_AddStringToObject(o, "unit", lim->unit);
    cJSON_AddStringToObject(o, "source", lim->source);
    cJSON_AddStringToObject(o, "applies", rule->why);
    clb_param_num(res, "efficiency", 0); /* creates params when absent */
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "limit");
    cJSON_AddItemToObject(res->params, "limit", o);
    clb_param_num(res, "efficiency", 100 * res->value / limit);
    return 1;
}

void clb_limits_apply(clb_device *dev, clb_result *res)
{
    const clb_limit_rule *rule = res->status == CLB_STATUS_OK ? clb_limit_rule_for(res->name) : NULL;
    if (!rule)
        return;
    clb_limit lim;
    clb_devdb_limit(dev, rule->kind, &lim);
    if (!clb_limit_check(res, rule, &lim) && !isfinite(lim.value))
        clb_param_str(res, "limit_unknown", lim.source);
}
