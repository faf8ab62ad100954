/* clbench __worker: the child side of `run` (src/cmd_run.c). Opens the one device given with
 * -d P:D, optionally prints its document entry ({"device": {...}}), then runs the named
 * benchmarks in order and prints each result as one line of JSON on stdout, flushed, so the
 * parent keeps every result finished before a crash. Not for people: no table, no files.
 * CLBENCH_FAULT=NAME:KIND with KIND wrong, partial or skip plants the fault of --inject-fault
 * in row NAME's output alone. The faults of a broken driver or worker (crashes, hangs, a lost
 * device, a broken protocol) are not in the product: the test-only preload library
 * tests/preload/clb_fault_preload.c injects them.
 * The protocol has its own stream: the worker's stdout as inherited; fd 1 itself is pointed at
 * stderr, so whatever a driver prints there never mixes with the results. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
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
