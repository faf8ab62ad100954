/* clbench run: the selection, the devices and the document; the runs themselves are the run
 * engine's (src/run_engine.c), --mpi is src/cmd_mpi.c's. */
#include "run_engine.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmd_list_benchmarks(void)
{
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        printf("%-24s %-10s %s\n", b->name, b->group, b->description);
    }
    return CLI_EXIT_OK;
}

int cmd_run(const cli_opts *o)
{
    if (o->list_benchmarks)
        return cmd_list_benchmarks();
    if (o->allow_shared_device && !o->mpi) {
        fprintf(stderr, "clbench: --allow-shared-device is for run --mpi (ranks sharing a device)\n");
        return CLI_EXIT_USAGE;
    }
    if (o->mpi)
        return cmd_run_mpi(o);
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
    if (rc != CLI_EXIT_OK) {
        clb_inventory_destroy(inv);
        return rc;
    }
    int want_doc = o->json || o->html || o->csv || o->markdown || o->store_set;
    int human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    cli_device_run *runs = calloc(n, sizeof *runs);
    char **bufs = calloc(n, sizeof *bufs);
    size_t *lens = calloc(n, sizeof *lens);
    if (!runs || !bufs || !lens) {
        free(runs), free(bufs), free(lens);
        clb_inventory_destroy(inv);
        return CLI_EXIT_RUNTIME;
    }
    for (size_t i = 0; i < n; i++) {
        runs[i] = (cli_device_run){o, clb_inventory_at(inv, idx[i]), want_doc, NULL, cJSON_CreateArray(),
                               stdout, human, n == 1 && human && isatty(STDERR_FILENO), 0, 0};
        if (n > 1 && !(runs[i].out = open_memstream(&bufs[i], &lens[i])))
            runs[i].out = stdout;
    }
    cli_run_devices(runs, n);
    cJSON *doc = want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    for (size_t i = 0; i < n; i++) {
        cli_device_run *dr = &runs[i];
        if (dr->out != stdout) {
            fclose(dr->out);
            fwrite(bufs[i], 1, lens[i], stdout);
            free(bufs[i]);
        }
        failed |= dr->failed;
        /* speedups and % of peak need the device's other rows: the ladder after the verdicts */
        cJSON *entry = cli_device_entry(dr, n > 1, &failed);
        if (human)
            clb_report_ladder(stdout, cJSON_GetObjectItemCaseSensitive(entry, "results"), dr->ref->device_name, 0);
        if (doc)
            cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "devices"), entry);
        else
            cJSON_Delete(entry);
    }
    free(runs);
    free(bufs);
    free(lens);
    clb_inventory_destroy(inv);
    if (cli_stop_signal()) {
        if (doc)
            cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(doc, "provenance"),
                                    "interrupted_by_signal", cli_stop_signal());
        fprintf(stderr, "clbench: interrupted by signal %d; writing the results finished so far\n",
                cli_stop_signal());
        cli_finish_doc(o, doc, CLI_EXIT_OK);
        return 128 + cli_stop_signal();
    }
    return cli_finish_doc(o, doc, failed && o->strict ? CLI_EXIT_FAILED : CLI_EXIT_OK);
}
