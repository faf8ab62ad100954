/* The verdicts on a finished measurement, in one place: on each result in the process that
 * measured it (the physical-limit guard needs the open device), and on each device entry once
 * its rows are complete (docs/architecture.md, "The path of one number"). */
#include "judge/judge.h"

#include "core/internal.h"
#include "judge/limits.h"

clb_error clb_bench_run(clb_device *dev, const clb_bench *b, const clb_run_opts *o,
                        clb_result *res)
{
    clb_error e = clb_bench_run_unjudged(dev, b, o, res);
    if (e != CLB_OK)
        return e;
    /* An ok value above the device's physical limit is impossible: status invalid. */
    if (res->status == CLB_STATUS_OK)
        clb_limits_apply(dev, res);
    if (o && o->quick)
        clb_param_num(res, "quick", 1);
    return CLB_OK;
}

int clb_entry_finish(cJSON *entry)
{
    clb_apps_annotate(cJSON_GetObjectItemCaseSensitive(entry, "results"));
    return clb_roofline_annotate(entry);
}
