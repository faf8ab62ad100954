/* The physical-limit guard: after a benchmark produced an ok result, its value is compared
 * with the device's applicable limit (lib/device/devdb.c). One table maps result names to limits. */
#ifndef CLB_LIMITS_H
#define CLB_LIMITS_H

#include "device/devdb.h"

/* A measurement may exceed its limit by this factor (clock and datasheet rounding). */
#define CLB_LIMIT_SLACK 1.03

typedef struct clb_limit_rule {
    const char *pattern; /* glob over result names; the first matching row applies */
    clb_limit_kind kind;
    double scale;        /* limit = device limit x scale (add/mul: 0.5 of the FMA peak) */
    const char *why;     /* what the scale means, for the reason */
} clb_limit_rule;

/* The rule for a result name, or NULL (cache, local memory, latency ... : no limit). */
const clb_limit_rule *clb_limit_rule_for(const char *name);

/* Pure: checks an ok res against lim (device limit) under rule. Above lim x scale x 1.03: status
 * invalid, the limit in the reason, params.measured_value; otherwise params.limit {value, unit,
 * source} and params.efficiency (percent). Skips results in another unit or zero_copy ones.
 * Returns 1 when it checked, 0 when it skipped. */
int clb_limit_check(clb_result *res, const clb_limit_rule *rule, const clb_limit *lim);

/* The runner's hook: finds the rule, asks the device database, checks. */
void clb_limits_apply(clb_device *dev, clb_result *res);

#endif
