/* clbench __worker: the child side of `run` (src/cmd_run.c). Opens the one device given with
 * -d P:D, optionally prints its document entry ({"device": {...}}), then runs the named
 * benchmarks in order and prints each result as one line of JSON on stdout, flushed, so the
 * parent keeps every result finished before a crash. Not for people: no table, no files.
 * CLBENCH_FAULT=NAME:KIND (tests) makes the worker fail before benchmark NAME: KIND is segv,
 * abort, hang, exit, lost (with CLBENCH_FAULT_STATE=FILE: the device is reported lost once),
 * wrong, partial, skip (a fault planted in the kernel's output before validation:
 * --inject-fault), or a broken protocol: garbage, bigline (10 MB of it),
 * foreign (another benchmark's result) before the real result; halfline (a torn line, then
 * exit 0), silent (exit 0), flood (bytes without a newline until killed, about 13 MB/s), or
 * chatter (a line on fd 1, as a driver may print: it must not reach the protocol).
 * The protocol has its own stream: the worker's stdout as inherited; fd 1 itself is pointed at
 * stderr, so whatever a driver prints there never mixes with the results. */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The protocol stream: the stdout the parent gave us (protocol_open). */
static FILE *proto;

/* Moves the protocol to a descriptor of its own and points fd 1 at stderr. */
static int protocol_open(void)
{
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(proto = fdopen(fd, "w"))) {
        perror("clbench: worker protocol stream");
        return -1;
    }
    return 0;
}

/* The protocol faults (tests/hostile/proc_protocol.sh): 1 when kind is one. A fault that lets
 * the worker go on returns and the benchmark then runs as usual. */
static int protocol_fault(const char *kind, const char *name)
{
    if (strcmp(kind, "garbage") == 0)
        fputs("clbench worker says hello \x1b[31m\a\n", proto);
    else if (strcmp(kind, "bigline") == 0) {
        for (int i = 0; i < 10 * 1000 * 1000; i++)
            fputc("garbage"[i % 7], proto);
        fputc('\n', proto);
    } else if (strcmp(kind, "foreign") == 0)
        fputs("{\"name\":\"launch.nothing\",\"group\":\"launch\",\"status\":\"ok\",\"value\":1}\n", proto);
    else if (strcmp(kind, "halfline") == 0) {
        fprintf(proto, "{\"name\":\"%s\",\"group\":\"x\",\"status\":\"ok\",\"val", name);
        fflush(proto);
        _exit(0);
    } else if (strcmp(kind, "silent") == 0)
        _exit(0);
    else if (strcmp(kind, "flood") == 0) {
        static char block[65536];
        memset(block, 'f', sizeof block);
        for (;;) {
            fwrite(block, 1, sizeof block, proto);
            nanosleep(&(struct timespec){0, 5000000}, NULL);
        }
    } else if (strcmp(kind, "chatter") == 0) {
        printf("a driver's message on stdout\n");
        fflush(stdout);
    } else
        return 0;
    fflush(proto);
    return 1;
}

/* Test hook: the faults a driver can cause, on demand (docs/cli.md, tests/cli_isolation.sh). */
/* The `lost` fault: the first worker to meet NAME (no file at CLBENCH_FAULT_STATE yet) reports
 * the device as lost, as a reset GPU does; later workers run it normally. 1 when it fired. */
static int device_lost_once(const char *name, const char *group)
{
    const char *state = cli_env_get()->fault_state;
    FILE *f = state ? fopen(state, "wx") : NULL;
    if (!f)
        return 0;
    fclose(f);
    clb_result res;
    if (clb_result_init(&res, name, group) == CLB_OK) {
        clb_result_fail(&res, CLB_STATUS_ERROR, "injected: clFinish failed [CL_DEVICE_NOT_AVAILABLE]");
        cJSON *j = clb_result_to_json(&res);
        char *text = cJSON_PrintUnformatted(j);
        if (text)
            fprintf(proto, "%s\n", text);
        fflush(proto);
        free(text);
        cJSON_Delete(j);
    }
    clb_result_free(&res);
    return 1;
}

static int inject_process_fault(const char *name, const char *group)
{
    const char *f = cli_env_get()->fault;
    size_t n = strlen(name);
    if (!f || strncmp(f, name, n) != 0 || f[n] != ':')
        return 0;
    const char *kind = f + n + 1;
    fflush(proto);
    if (protocol_fault(kind, name))
        return 0;
    if (strcmp(kind, "segv") == 0) {
        signal(SIGSEGV, SIG_DFL); /* the OpenCL runtime may have installed a handler of its own */
        raise(SIGSEGV);
    }
    else if (strcmp(kind, "abort") == 0)
        abort();
    else if (strcmp(kind, "hang") == 0)
        for (;;)
            pause();
    else if (strcmp(kind, "exit") == 0)
        _exit(3);
    else if (strcmp(kind, "lost") == 0)
        return device_lost_once(name, group);
    return 0; /* wrong, partial, skip: below; another kind is none of the worker's */
}

/* Test hook CLBENCH_SLOWDOWN=F (0 < F <= 1): this worker's device pretends to be slower by F —
 * rates times F, times divided by F — for the fleet tests of a slow card (docs/fleet.md). The
 * result says so in params.artificial_slowdown, so it is never mistaken for a measurement. */
static void apply_slowdown(clb_result *res)
{
    double f = cli_env_get()->slowdown;
    if (!(f > 0 && f < 1) || !clb_status_has_value(res->status))
        return;
    double k = res->higher_is_better ? f : 1.0 / f;
    clb_stats *st = &res->stats;
    double *v[] = {&res->value, &st->min, &st->max, &st->median, &st->mean, &st->stddev,
                   &st->mad, &st->ci95_lo, &st->ci95_hi};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        *v[i] *= k;
    for (size_t i = 0; i < res->nsamples; i++)
        res->samples[i] *= k;
    cJSON_AddNumberToObject(res->params, "artificial_slowdown", f);
}

static void print_line(cJSON *j)
{
    char *text = cJSON_PrintUnformatted(j);
    if (text) {
        fputs(text, proto);
        fputc('\n', proto);
        fflush(proto);
    }
    free(text);
}

static void emit_device(clb_device *dev)
{
    cJSON *doc = clb_doc_create(0, NULL);
    cJSON *entry = doc ? clb_doc_add_device(doc, dev, clb_derived_json(dev)) : NULL;
    if (entry) {
        cJSON *line = cJSON_CreateObject();
        cJSON_AddItemReferenceToObject(line, "device", entry);
        print_line(line);
        cJSON_Delete(line);
    }
    cJSON_Delete(doc);
}

int cmd_worker(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    clb_device *dev = NULL;
    clb_nvml_watch *nvml = NULL; /* readings around each row, NVIDIA GPUs only */
    if (protocol_open() != 0)
        return CLI_EXIT_RUNTIME;
    int rc = cli_discover(o, &inv, idx, &n);
    if (rc == CLI_EXIT_OK && n != 1)
        rc = CLI_EXIT_USAGE;
    if (rc == CLI_EXIT_OK)
        rc = cli_open_device(clb_inventory_at(inv, idx[0]), &dev);
    if (rc == CLI_EXIT_OK && o->emit_device)
        emit_device(dev);
    if (rc == CLI_EXIT_OK)
        nvml = clb_nvml_watch_open(dev);
    for (int i = 0; rc == CLI_EXIT_OK && i < o->npatterns; i++) {
        const clb_bench *b = clb_bench_find(o->patterns[i]);
        if (!b)
            continue;
        if (inject_process_fault(b->name, b->group))
            continue;
        clb_run_opts ro = o->run;
        const char *f = cli_env_get()->fault;
        size_t len = strlen(b->name);
        if (f && strncmp(f, b->name, len) == 0 && f[len] == ':' && cli_fault_kind(f + len + 1) > 0)
            ro.inject_fault = cli_fault_kind(f + len + 1); /* planted in the kernel's output */
        clb_result res;
        clb_nvml_watch_before(nvml);
        if (clb_bench_run(dev, b, &ro, &res) != CLB_OK) {
            rc = CLI_EXIT_RUNTIME;
            break;
        }
        clb_nvml_watch_after(nvml, &res);
        apply_slowdown(&res);
        cJSON *j = clb_result_to_json(&res);
        print_line(j);
        cJSON_Delete(j);
        clb_result_free(&res);
    }
    clb_nvml_watch_close(nvml);
    clb_device_destroy(dev);
    clb_inventory_destroy(inv);
    return rc;
}
