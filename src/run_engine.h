/* The run engine (src/run_engine.c): worker processes per device and group, the worker
 * protocol, devices concurrently, the concurrent/alone merge and the finished device entry.
 * run, suite, run --mpi, tune, recommend, db and info call down into it; it calls none of them. */
#ifndef CLI_RUN_ENGINE_H
#define CLI_RUN_ENGINE_H

#include "cli.h"

#include <stdio.h>

/* 1 when the benchmark matches the command's patterns (all when there are none). */
int cli_selected(const cli_opts *o, const clb_bench *b);
/* Runs the selected benchmarks on one device in workers, printing the table unless quiet; the
 * device entry with its results (caller frees with cJSON_Delete); *failed as for run's exit. */
cJSON *cli_run_one_device(const cli_opts *o, const clb_device_ref *ref, int *failed);
/* Other devices run at the same time as this one, outside this process (the MPI ranks of one
 * node). After the device's rows, wait_turn blocks until this device may run alone; the rows
 * that share the host run again (the alone figure is the result, the concurrent one is kept in
 * params.concurrent, as `run` does for several devices); then pass_turn lets the next go. The
 * entry says ran_concurrently. Every party calls wait_turn and pass_turn once each. */
typedef struct cli_shared_host {
    size_t devices; /* devices running at the same time, this one included */
    int cpu_busy;   /* one of them is a CPU device: launches share the host CPU too */
    void (*wait_turn)(void *arg);
    void (*pass_turn)(void *arg);
    void *arg;
} cli_shared_host;
/* cli_run_one_device with host (NULL: the device runs alone, as cli_run_one_device). */
cJSON *cli_run_one_device_shared(const cli_opts *o, const clb_device_ref *ref, const cli_shared_host *host,
                                 int *failed);
/* The document entry of one device ({platform, device, derived, results: []}) made by a worker,
 * so the caller opens no OpenCL context. Caller frees with cJSON_Delete; NULL with d filled. */
cJSON *cli_worker_device_entry(const cli_opts *o, const clb_device_ref *r, clb_diag *d);

/* What one device's run collects; owned by the thread that runs the device, so devices can
 * run concurrently (each its own workers) and the document is assembled afterwards. */
typedef struct cli_device_run {
    const cli_opts *o;
    const clb_device_ref *ref;
    int want_entry;  /* a document is written: ask the first worker for the device entry */
    cJSON *entry;    /* the device entry from a worker (owned), or NULL */
    cJSON *results;  /* the results, in order (owned) */
    FILE *out;       /* the human table: stdout, or a buffer when devices run concurrently */
    int human, progress, failed;
    size_t total;
} cli_device_run;

/* Runs every selected benchmark on runs[0..n): one device alone, several concurrently (a
 * thread each, each with its own workers), then the shared rows of each alone. */
void cli_run_devices(cli_device_run *runs, size_t n);
/* The finished entry of one device's run (dr's entry and results are taken; the inventory's
 * names when no worker described the device): its results, ran_concurrently when concurrently,
 * then every verdict (clb_entry_finish); *failed |= a row the verdicts marked invalid. Caller
 * frees with cJSON_Delete. */
cJSON *cli_device_entry(cli_device_run *dr, int concurrently, int *failed);

#endif
