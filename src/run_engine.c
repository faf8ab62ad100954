/* The run engine below run, suite and run --mpi (and tune, recommend, db, info): the parent
 * picks devices and benchmarks and never opens an OpenCL context; each benchmark group runs on
 * its device in a worker process (`clbench __worker`, src/cmd_worker.c) that streams one JSON
 * result per line. A worker that dies or hangs costs the benchmark it was running (status
 * crashed / timeout) and the run goes on in a fresh worker; SIGINT/SIGTERM/SIGHUP stop the run
 * and the results finished so far are still written (src/stop.c). Several devices run
 * concurrently, a thread each, then the rows that share the host run again alone. */
#include "run_engine.h"

#include "judge/judge.h"
#include "core/child.h"
#include "device/nvml.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORKER_ARGS 64

int cli_selected(const cli_opts *o, const clb_bench *b)
{
    if (o->npatterns == 0)
        return !(b->requires & CLB_REQ_APP); /* app rows run only when named */
    for (int i = 0; i < o->npatterns; i++)
        if (clb_bench_match(o->patterns[i], b->name))
            return 1;
    return 0;
}

/* The arguments of a worker for benchmarks names[0..n) on device ref: the run options by the
 * table the worker parses them with (cli_run_opts_to_argv). */
typedef struct worker_args {
    char *argv[MAX_WORKER_ARGS + CLI_RUN_ARGV_MAX + 8];
    char exe[4096], dev[32];
    cli_run_argv run;
} worker_args;

static void push(worker_args *w, int *k, char *s) { w->argv[(*k)++] = s; }

static void build_worker_args(const cli_opts *o, const clb_device_ref *r, int emit_device,
                              const char **names, size_t n, worker_args *w)
{
    int k = 0;
    /* /proc/self/exe is this very binary even when its file was replaced (a rebuild during a
     * long run); argv[0] only where there is no /proc. */
    snprintf(w->exe, sizeof w->exe, "%s", access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : o->argv[0]);
    snprintf(w->dev, sizeof w->dev, "%u:%u", r->platform_index, r->device_index);
    push(w, &k, w->exe);
    push(w, &k, "__worker");
    push(w, &k, "-d");
    push(w, &k, w->dev);
    cli_run_opts_to_argv(o, &w->run);
    for (int i = 0; i < w->run.argc; i++)
        push(w, &k, w->run.argv[i]);
    if (emit_device)
        push(w, &k, "--emit-device");
    push(w, &k, "--");
    for (size_t i = 0; i < n && i < MAX_WORKER_ARGS; i++)
        push(w, &k, (char *)names[i]);
    w->argv[k] = NULL;
}

/* Records one result: printed for people, appended to the results, counted. */
static void record(cli_device_run *dr, clb_result *res)
{
    const cJSON *warn = cJSON_GetObjectItemCaseSensitive(res->params, "binary_cache_warning");
    if (cJSON_IsString(warn))
        fprintf(stderr, "clbench: warning: %s: %s\n", res->name, warn->valuestring);
    if (dr->human) {
        cli_print_result(dr->out, res);
        fflush(dr->out);
    }
    cJSON_AddItemToArray(dr->results, clb_result_to_json(res));
    dr->failed |= cli_result_counts_as_failure(res->status);
}

/* A result the worker could not give: crashed, timeout or interrupted, with the reason. */
static void record_lost(cli_device_run *dr, const clb_bench *b, clb_status st, const char *why)
{
    clb_result res;
    if (clb_result_init(&res, b->name, b->group) != CLB_OK)
        return;
    clb_result_fail(&res, st, why);
    record(dr, &res);
    clb_result_free(&res);
}

/* 1 when a result says the device was lost (a reset, a dead context): worth one retry in a
 * fresh worker, since every later call in the old one fails too. */
static int device_lost(const clb_result *res)
{
    return res->status == CLB_STATUS_ERROR &&
           (strstr(res->reason, "CL_DEVICE_NOT_AVAILABLE") || strstr(res->reason, "CL_OUT_OF_RESOURCES"));
}

/* One line from a worker, for benchmark `expect` (NULL: none is running): the device entry is
 * kept; 1 when it is that benchmark's result (*res), 0 when the worker may go on, -1 when it
 * broke the protocol (why says how). */
static int take_line(cli_device_run *dr, clb_child *c, const char *line, const char *expect,
                     clb_result *res, char *why, size_t n)
{
    cJSON *dev = NULL;
    cli_wline kind = cli_worker_line(line, clb_child_line_length(c), expect, &dev, res, why, n);
    if (kind == CLI_WLINE_DEVICE) {
        if (!dr->entry)
            dr->entry = dev;
        else
            cJSON_Delete(dev);
        return 0;
    }
    return kind == CLI_WLINE_RESULT ? 1 : -1;
}

/* Deadline for one benchmark without a result: --bench-timeout, else generous enough for the
 * longest row (the full memory sweep on a slow CPU, sustained's minute) under its budget. */
static double bench_deadline(const cli_opts *o)
{
    if (o->bench_timeout_s > 0)
        return o->bench_timeout_s;
    double t = 600.0;
    if (o->run.time_budget_s * 20.0 > t)
        t = o->run.time_budget_s * 20.0;
    return t;
}

/* Runs names[0..n) (one group) in workers until each has a result or the run is stopped. */
static void run_batch(cli_device_run *dr, const clb_bench **b, size_t n)
{
    size_t done = 0, retried = (size_t)-1;
    while (done < n && !cli_stop_signal()) {
        const char *names[MAX_WORKER_ARGS];
        size_t k = 0, first = done; /* this worker runs b[first .. first + k) */
        for (; k < n - done && k < MAX_WORKER_ARGS; k++)
            names[k] = b[done + k]->name;
        worker_args w;
        build_worker_args(dr->o, dr->ref, dr->want_entry && !dr->entry, names, k, &w);
        clb_child *c = NULL;
        clb_diag d;
        if (clb_child_start(w.argv, &c, &d) != CLB_OK) {
            record_lost(dr, b[done], CLB_STATUS_ERROR, d.msg);
            done++;
            continue;
        }
        for (;;) {
            char *line = NULL;
            clb_child_event ev = clb_child_next_line(c, bench_deadline(dr->o), cli_stop_flag(), &line);
            if (ev == CLB_CHILD_LINE) {
                clb_result res;
                char bad[600], msg[900];
                int got = take_line(dr, c, line, done < n ? b[done]->name : NULL, &res, bad, sizeof bad);
                free(line);
                if (got < 0) { /* a worker that breaks the protocol is not trusted any further */
                    clb_child_kill(c);
                    if (done >= n) {
                        fprintf(stderr, "clbench: a worker sent %s after its last result\n", bad);
                        break;
                    }
                    snprintf(msg, sizeof msg, "worker broke the protocol while running %s: it sent %s",
                             b[done]->name, bad);
                    record_lost(dr, b[done++], CLB_STATUS_ERROR, msg);
                    break;
                }
                if (got && device_lost(&res) && retried != done) {
                    retried = done; /* once, in a fresh worker: this one's context is gone */
                    clb_result_free(&res);
                    clb_child_kill(c);
                    break;
                }
                if (got) {
                    if (retried == done && res.params)
                        cJSON_AddTrueToObject(res.params, "retried_in_fresh_worker");
                    record(dr, &res);
                    clb_result_free(&res);
                    done++;
                }
                continue;
            }
            char why[512], how[200];
            if (ev == CLB_CHILD_STOPPED) {
                clb_child_kill(c);
                snprintf(why, sizeof why, "the run was stopped by signal %d", cli_stop_signal());
                record_lost(dr, b[done++], CLB_STATUS_INTERRUPTED, why);
            } else if (done < first + k) { /* ended before its last name: b[done] is lost */
                int sig = clb_child_describe_end(c, how, sizeof how);
                snprintf(why, sizeof why, "%s while running %s", how, b[done]->name);
                record_lost(dr, b[done++], ev == CLB_CHILD_TIMEOUT || sig < 0 ? CLB_STATUS_TIMEOUT
                                                                           : CLB_STATUS_CRASHED, why);
            }
            break;
        }
        clb_child_destroy(c);
        if (k == 0)
            break;
    }
}

static cJSON *fallback_entry(const clb_device_ref *r);

/* CLBENCH_ISOLATION=off (measurement of the isolation's cost only, docs/measurement.md): every
 * row in this process, on one device opened once; a crash ends the whole run. */
static int isolation_off(void)
{
    return cli_env_get()->isolation_off;
}

static void run_in_process(cli_device_run *dr, const clb_bench **rows, size_t n)
{
    clb_device *dev = NULL;
    if (cli_open_device(dr->ref, &dev) != CLI_EXIT_OK) {
        for (size_t i = 0; i < n; i++)
            record_lost(dr, rows[i], CLB_STATUS_ERROR, "the device could not be opened");
        return;
    }
    if (dr->want_entry && !dr->entry) {
        cJSON *doc = clb_doc_create(0, NULL);
        cJSON *e = doc ? clb_doc_add_device(doc, dev, clb_derived_json(dev)) : NULL;
        dr->entry = e ? cJSON_Duplicate(e, 1) : NULL;
        cJSON_Delete(doc);
    }
    clb_nvml_watch *nvml = clb_nvml_watch_open(dev); /* as the worker does */
    for (size_t i = 0; i < n && !cli_stop_signal(); i++) {
        clb_result res;
        clb_nvml_watch_before(nvml);
        if (clb_bench_run(dev, rows[i], &dr->o->run, &res) != CLB_OK)
            continue;
        clb_nvml_watch_after(nvml, &res);
        record(dr, &res);
        clb_result_free(&res);
    }
    clb_nvml_watch_close(nvml);
    clb_device_destroy(dev);
}

/* Runs the benchmarks rows[0..n) on one device, one worker per group. */
static void run_rows(cli_device_run *dr, const clb_bench **rows, size_t n)
{
    if (isolation_off()) {
        run_in_process(dr, rows, n);
        return;
    }
    size_t start = 0, seen = 0;
    for (size_t i = 1; i <= n && !cli_stop_signal(); i++) {
        if (i < n && strcmp(rows[i]->group, rows[start]->group) == 0)
            continue;
        if (dr->progress)
            fprintf(stderr, "\r[%zu/%zu] %-40s", seen, dr->total, rows[start]->group);
        run_batch(dr, rows + start, i - start);
        if (dr->progress)
            fprintf(stderr, "\r%60s\r", "");
        seen += i - start;
        start = i;
    }
}

/* The selected rows, in registry order; with `shared`, only those whose figure depends most on
 * what the other devices do at the same time: transfers share the host link and memory, and,
 * when a CPU device runs beside the others, launches share the host CPU. (The CPU device's own
 * compute and memory rows share it too; re-running them would double the run, so they keep
 * their concurrent figure and the entry says ran_concurrently.) */
static size_t select_rows(const cli_opts *o, int shared, int cpu_busy,
                          const clb_bench **rows, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < clb_bench_count() && n < cap; i++) {
        const clb_bench *b = clb_bench_at(i);
        if (!cli_selected(o, b))
            continue;
        int is_shared = strcmp(b->group, "transfer") == 0 || (cpu_busy && strcmp(b->group, "launch") == 0);
        if (!shared || is_shared)
            rows[n++] = b;
    }
    return n;
}

/* Runs every selected benchmark on one device (the body of a device's thread). */
static void *run_device(void *arg)
{
    cli_device_run *dr = arg;
    const clb_bench *rows[1024];
    size_t n = select_rows(dr->o, 0, 0, rows, 1024);
    dr->total = n;
    if (dr->human) {
        cli_print_device_header(dr->out, dr->ref);
        cli_print_result_header(dr->out);
    }
    run_rows(dr, rows, n);
    return NULL;
}

/* The options of a concurrent pass: sweeps measure their headline size only, since the shared
 * rows are measured again alone with their whole curve (this keeps the extra time per device
 * to the alone pass). */
static cli_opts concurrent_opts(const cli_opts *o)
{
    cli_opts c = *o;
    c.run.largest_only = 1;
    return c;
}

/* After a concurrent run: the shared rows of one device again, alone, with the options `alone`;
 * the alone figure becomes the result and the concurrent one is kept in params.concurrent, so
 * both are reported. */
static void rerun_alone(cli_device_run *dr, const cli_opts *alone, int cpu_busy, size_t ndev)
{
    dr->o = alone;
    const clb_bench *rows[1024];
    size_t n = select_rows(dr->o, 1, cpu_busy, rows, 1024);
    if (n == 0 || cli_stop_signal())
        return;
    cJSON *concurrent = dr->results;
    dr->results = cJSON_CreateArray();
    if (dr->human)
        fprintf(dr->out, "-- %s, alone: the rows that share the host with the other devices\n",
                dr->ref->device_name);
    run_rows(dr, rows, n);
    cJSON *alone_results = dr->results, *r;
    dr->results = concurrent;
    cJSON_ArrayForEach(r, alone_results)
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name"));
        for (int i = 0; name && i < cJSON_GetArraySize(concurrent); i++) {
            cJSON *c = cJSON_GetArrayItem(concurrent, i);
            if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name")), name) != 0)
                continue;
            cJSON *conc = cJSON_CreateObject();
            cJSON_AddItemToObject(conc, "status", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, "status"), 1));
            cJSON_AddItemToObject(conc, "value", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(c, "value"), 1));
            cJSON_AddItemToObject(conc, "with_devices", cJSON_CreateNumber((double)ndev));
            cJSON *sweep = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "params"), "sweep");
            if (sweep) /* the concurrent pass measured the headline size only */
                cJSON_AddItemToObject(conc, "sweep", cJSON_Duplicate(sweep, 1));
            cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(r, "params"), "concurrent", conc);
            cJSON_ReplaceItemInArray(concurrent, i, cJSON_Duplicate(r, 1));
            break;
        }
    }
    cJSON_Delete(alone_results);
}

cJSON *cli_worker_device_entry(const cli_opts *o, const clb_device_ref *r, clb_diag *d)
{
    worker_args w;
    clb_child *c = NULL;
    cJSON *entry = NULL;
    char *line = NULL;
    build_worker_args(o, r, 1, NULL, 0, &w);
    if (clb_child_start(w.argv, &c, d) != CLB_OK)
        return NULL;
    char how[600] = "";
    if (clb_child_next_line(c, bench_deadline(o), NULL, &line) == CLB_CHILD_LINE) {
        clb_result res;
        if (cli_worker_line(line, clb_child_line_length(c), NULL, &entry, &res, how, sizeof how) !=
            CLI_WLINE_DEVICE)
            clb_child_kill(c);
    }
    if (!entry) {
        if (!how[0])
            clb_child_describe_end(c, how, sizeof how);
        clb_diag_set(d, CLB_ERR_CL, "describing %s: %s", r->device_name, how);
    }
    free(line);
    clb_child_destroy(c);
    return entry;
}

cJSON *cli_run_one_device(const cli_opts *o, const clb_device_ref *ref, int *failed)
{
    return cli_run_one_device_shared(o, ref, NULL, failed);
}

cJSON *cli_run_one_device_shared(const cli_opts *o, const clb_device_ref *ref, const cli_shared_host *host,
                                 int *failed)
{
    int human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    cli_opts conc = concurrent_opts(o);
    cli_device_run dr = {host ? &conc : o, ref, 1, NULL, cJSON_CreateArray(), stdout, human, 0, 0, 0};
    run_device(&dr);
    if (host) {
        host->wait_turn(host->arg);
        rerun_alone(&dr, o, host->cpu_busy, host->devices);
        host->pass_turn(host->arg);
    }
    *failed = dr.failed;
    return cli_device_entry(&dr, host && host->devices > 1, failed);
}

cJSON *cli_device_entry(cli_device_run *dr, int concurrently, int *failed)
{
    cJSON *entry = dr->entry ? dr->entry : fallback_entry(dr->ref);
    dr->entry = NULL;
    cJSON_DeleteItemFromObjectCaseSensitive(entry, "results");
    cJSON_AddItemToObject(entry, "results", dr->results);
    dr->results = NULL;
    if (concurrently)
        cJSON_AddBoolToObject(entry, "ran_concurrently", 1);
    /* needs the device's complete rows and its derived limits; a point above its roof fails --strict */
    *failed |= clb_entry_finish(entry) > 0;
    return entry;
}

/* A device entry from the inventory alone, when no worker could describe the device. */
static cJSON *fallback_entry(const clb_device_ref *r)
{
    cJSON *e = cJSON_CreateObject();
    cJSON *p = cJSON_AddObjectToObject(e, "platform");
    cJSON_AddStringToObject(p, "CL_PLATFORM_NAME", r->platform_name);
    cJSON *d = cJSON_AddObjectToObject(e, "device");
    cJSON_AddStringToObject(d, "CL_DEVICE_NAME", r->device_name);
    return e;
}

/* Runs the devices: one alone, several concurrently (a thread each, each with its own workers,
 * so a driver fault on one device does not touch the others), then the shared rows alone. */
void cli_run_devices(cli_device_run *runs, size_t n)
{
    if (n == 1) {
        run_device(&runs[0]);
        return;
    }
    pthread_t tid[CLI_MAX_DEVICES];
    int started[CLI_MAX_DEVICES] = {0}, cpu_busy = 0;
    const cli_opts *alone = runs[0].o;
    cli_opts conc = concurrent_opts(alone);
    for (size_t i = 0; i < n; i++)
        runs[i].o = &conc;
    for (size_t i = 0; i < n; i++) {
        started[i] = pthread_create(&tid[i], NULL, run_device, &runs[i]) == 0;
        if (!started[i])
            run_device(&runs[i]);
        cpu_busy |= (runs[i].ref->type & CL_DEVICE_TYPE_CPU) != 0;
    }
    for (size_t i = 0; i < n; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    for (size_t i = 0; i < n; i++)
        rerun_alone(&runs[i], alone, cpu_busy, n);
}
