/* The verdict layer (docs/architecture.md): every judgement on a finished measurement. Per
 * result, in the process that measured it: the physical-limit guard (limits.h), run by
 * clb_bench_run. Per device entry, once its rows are complete: clb_entry_finish. */
#ifndef CLB_JUDGE_H
#define CLB_JUDGE_H

#include "clbench.h"

/* Every verdict on one device entry whose results are complete, in one order: the apps'
 * annotations over entry.results (speedups, % of peak: clb_apps_annotate), then the roofline
 * verdict (entry.roofline; a point above its roof marks its row invalid:
 * clb_roofline_annotate). run, suite and run --mpi all finish an entry here. Returns the
 * number of rows marked invalid (a failure under --strict). */
int clb_entry_finish(cJSON *entry);

/* Bytes the memory moved per byte a DRAM row counts: on a CPU device (entry's CL_DEVICE_TYPE)
 * stores fetch their lines first (write-allocate): memory.triad 4/3, memory.copy 3/2; else 1. */
double clb_write_allocate_factor(const cJSON *entry, const char *row);

#endif
