/* clbench run: the parent picks devices and benchmarks and never opens an OpenCL context; each
 * benchmark group runs on its device in a worker process (`clbench __worker`, below) that
 * streams one JSON result per line. A worker that dies or hangs costs the benchmark it was
 * running (status crashed / timeout) and the run goes on in a fresh worker; SIGINT/SIGTERM
 * stop the run and the results finished so far are still written. */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORKER_ARGS 64

/* The signal that asked the run to stop (0: none). The one piece of global state: a signal
 * handler can reach nothing else. */
static volatile int stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_selected(const cli_opts *o, const clb_bench *b)
{
    if (o->npatterns == 0)
        return 1;
    for (int i = 0; i < o->npatterns; i++)
        if (clb_bench_match(o->patterns[i], b->name))
            return 1;
    return 0;
}

static int cmd_list_benchmarks(void)
{
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        printf("%-24s %-10s %s\n", b->name, b->group, b->description);
    }
    return CLI_EXIT_OK;
}

/* The arguments of a worker for benchmarks names[0..n) on device ref; text holds the numbers. */
typedef struct worker_args {
    char *argv[MAX_WORKER_ARGS + 64];
    char exe[4096], dev[32], num[6][40];
} worker_args;

static void push(worker_args *w, int *k, char *s) { w->argv[(*k)++] = s; }

static void build_worker_args(const cli_opts *o, const clb_device_ref *r, int emit_device,
                              const char **names, size_t n, worker_args *w)
{
    int k = 0;
    ssize_t len = readlink("/proc/self/exe", w->exe, sizeof w->exe - 1);
    snprintf(w->exe + (len > 0 ? len : 0), sizeof w->exe - (size_t)(len > 0 ? len : 0), "%s",
             len > 0 ? "" : o->argv[0]);
    snprintf(w->dev, sizeof w->dev, "%u:%u", r->platform_index, r->device_index);
    snprintf(w->num[0], sizeof w->num[0], "%u", o->run.reps);
    snprintf(w->num[1], sizeof w->num[1], "%u", o->run.warmup);
    snprintf(w->num[2], sizeof w->num[2], "%.17g", o->run.target_s * 1e3);
    snprintf(w->num[3], sizeof w->num[3], "%.17g", o->run.watchdog_s * 1e3);
    snprintf(w->num[4], sizeof w->num[4], "%.17g", o->run.time_budget_s);
    push(w, &k, w->exe);
    push(w, &k, "__worker");
    push(w, &k, "-d");
    push(w, &k, w->dev);
    push(w, &k, "--reps");
    push(w, &k, w->num[0]);
    push(w, &k, "--warmup");
    push(w, &k, w->num[1]);
    push(w, &k, "--target-ms");
    push(w, &k, w->num[2]);
    push(w, &k, "--watchdog-ms");
    push(w, &k, w->num[3]);
    if (o->run.time_budget_s > 0) {
        push(w, &k, "--time-budget");
        push(w, &k, w->num[4]);
    }
    if (o->run.quick)
        push(w, &k, "--quick");
    if (o->run.inject_fault)
        push(w, &k, "--inject-fault");
    if (emit_device)
        push(w, &k, "--emit-device");
    push(w, &k, "--");
    for (size_t i = 0; i < n && i < MAX_WORKER_ARGS; i++)
        push(w, &k, (char *)names[i]);
    w->argv[k] = NULL;
}

/* What one device's run collects. */
typedef struct device_run {
    const cli_opts *o;
    const clb_device_ref *ref;
    cJSON *entry;    /* the document's device entry (set by the first worker), or NULL */
    cJSON *results;  /* borrowed from entry, or a private array when no document is wanted */
    int failed;
    int human;
} device_run;

/* Records one result: printed for people, appended to the document, counted. */
static void record(device_run *dr, clb_result *res)
{
    if (dr->human)
        cli_print_result(stdout, res);
    fflush(stdout);
    if (dr->results)
        cJSON_AddItemToArray(dr->results, clb_result_to_json(res));
    dr->failed |= cli_result_counts_as_failure(res->status);
}

/* A result the worker could not give: crashed, timeout or interrupted, with the reason. */
static void record_lost(device_run *dr, const clb_bench *b, clb_status st, const char *why)
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

/* One line from a worker: the device entry (kept), or a result (parsed into *res: returns 1). */
static int take_line(device_run *dr, cJSON *doc, const char *line, clb_result *res)
{
    cJSON *j = cJSON_Parse(line);
    if (!j)
        return 0;
    cJSON *dev = cJSON_DetachItemFromObjectCaseSensitive(j, "device");
    if (dev) {
        if (doc && !dr->entry) {
            dr->entry = dev;
            cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "devices"), dev);
            dr->results = cJSON_GetObjectItemCaseSensitive(dev, "results");
        } else {
            cJSON_Delete(dev);
        }
        cJSON_Delete(j);
        return 0;
    }
    int ok = clb_result_from_json(j, res) == CLB_OK;
    if (!ok)
        clb_result_free(res);
    cJSON_Delete(j);
    return ok;
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
static void run_batch(device_run *dr, cJSON *doc, const clb_bench **b, size_t n)
{
    size_t done = 0, retried = (size_t)-1;
    while (done < n && !stop_signal) {
        const char *names[MAX_WORKER_ARGS];
        size_t k = 0;
        for (; k < n - done && k < MAX_WORKER_ARGS; k++)
            names[k] = b[done + k]->name;
        worker_args w;
        build_worker_args(dr->o, dr->ref, doc && !dr->entry, names, k, &w);
        clb_child *c = NULL;
        clb_diag d;
        if (clb_child_start(w.argv, &c, &d) != CLB_OK) {
            record_lost(dr, b[done], CLB_STATUS_ERROR, d.msg);
            done++;
            continue;
        }
        for (;;) {
            char *line = NULL;
            clb_child_event ev = clb_child_next_line(c, bench_deadline(dr->o), &stop_signal, &line);
            if (ev == CLB_CHILD_LINE) {
                clb_result res;
                int got = take_line(dr, doc, line, &res);
                free(line);
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
                snprintf(why, sizeof why, "the run was stopped by signal %d", stop_signal);
                record_lost(dr, b[done++], CLB_STATUS_INTERRUPTED, why);
            } else if (done < n) {
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

/* Runs every selected benchmark on one device, one worker per group. */
static void run_device(device_run *dr, cJSON *doc, size_t total)
{
    const clb_bench *batch[512];
    size_t n = 0, seen = 0;
    int progress = !dr->o->quiet && isatty(STDERR_FILENO);
    if (dr->human) {
        cli_print_device_header(stdout, dr->ref);
        cli_print_result_header(stdout);
    }
    for (size_t i = 0; i <= clb_bench_count() && !stop_signal; i++) {
        const clb_bench *b = clb_bench_at(i);
        if (b && !cli_selected(dr->o, b))
            continue;
        if (n > 0 && (!b || strcmp(b->group, batch[0]->group) != 0 || n == 512)) {
            if (progress)
                fprintf(stderr, "\r[%zu/%zu] %-40s", seen, total, batch[0]->group);
            run_batch(dr, doc, batch, n);
            if (progress)
                fprintf(stderr, "\r%60s\r", "");
            n = 0;
        }
        if (b) {
            batch[n++] = b;
            seen++;
        }
    }
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
    if (clb_child_next_line(c, bench_deadline(o), NULL, &line) == CLB_CHILD_LINE) {
        cJSON *j = cJSON_Parse(line);
        entry = cJSON_DetachItemFromObjectCaseSensitive(j, "device");
        cJSON_Delete(j);
    }
    if (!entry) {
        char how[200];
        clb_child_describe_end(c, how, sizeof how);
        clb_diag_set(d, CLB_ERR_CL, "describing %s: %s", r->device_name, how);
    }
    free(line);
    clb_child_destroy(c);
    return entry;
}

/* A device entry from the inventory alone, when no worker could describe the device. */
static cJSON *fallback_entry(cJSON *doc, const clb_device_ref *r)
{
    cJSON *e = cJSON_CreateObject();
    cJSON *p = cJSON_AddObjectToObject(e, "platform");
    cJSON_AddStringToObject(p, "CL_PLATFORM_NAME", r->platform_name);
    cJSON *d = cJSON_AddObjectToObject(e, "device");
    cJSON_AddStringToObject(d, "CL_DEVICE_NAME", r->device_name);
    cJSON_AddArrayToObject(e, "results");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "devices"), e);
    return e;
}

int cmd_run(const cli_opts *o)
{
    if (o->list_benchmarks)
        return cmd_list_benchmarks();
    size_t total = 0;
    for (size_t i = 0; i < clb_bench_count(); i++)
        total += (size_t)cli_selected(o, clb_bench_at(i));
    if (total == 0) {
        fprintf(stderr, "clbench: no benchmark matches the patterns (see clbench run --list)\n");
        return CLI_EXIT_USAGE;
    }
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    int rc = cli_discover(o, &inv, idx, &n), failed = 0;
    int want_doc = o->json || o->html || o->csv || o->markdown;
    cJSON *doc = rc == CLI_EXIT_OK && want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    catch_stop_signals();
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n && !stop_signal; i++) {
        device_run dr = {o, clb_inventory_at(inv, idx[i]), NULL, NULL, 0,
                         !o->quiet && !(o->json && strcmp(o->json, "-") == 0)};
        if (doc) /* the first worker replaces it with the full entry */
            dr.results = cJSON_CreateArray();
        cJSON *scratch = dr.results;
        run_device(&dr, doc, total);
        if (doc && !dr.entry) {
            cJSON *e = fallback_entry(doc, dr.ref);
            cJSON_ReplaceItemInObjectCaseSensitive(e, "results", scratch);
            scratch = NULL;
        } else if (doc && scratch && cJSON_GetArraySize(scratch) > 0) {
            /* results recorded before the entry arrived (a worker that died first) */
            cJSON *x;
            while ((x = cJSON_DetachItemFromArray(scratch, cJSON_GetArraySize(scratch) - 1)) != NULL)
                cJSON_InsertItemInArray(dr.results, 0, x);
        }
        cJSON_Delete(scratch);
        failed |= dr.failed;
    }
    clb_inventory_destroy(inv);
    if (rc != CLI_EXIT_OK) {
        cJSON_Delete(doc);
        return rc;
    }
    if (stop_signal) {
        if (doc)
            cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(doc, "provenance"),
                                    "interrupted_by_signal", stop_signal);
        fprintf(stderr, "clbench: interrupted by signal %d; writing the results finished so far\n",
                stop_signal);
        cli_finish_doc(o, doc, CLI_EXIT_OK);
        return 128 + stop_signal;
    }
    return cli_finish_doc(o, doc, failed ? CLI_EXIT_FAILED : CLI_EXIT_OK);
}
