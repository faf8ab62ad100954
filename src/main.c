/* clbench: command dispatch. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEVICES 256

/* Writes an empty-device document when --json was asked but no platform exists. */
static int write_empty_doc(const cli_opts *o)
{
    if (!o->json)
        return CLI_EXIT_OK;
    cJSON *doc = clb_doc_create(o->argc, o->argv);
    clb_diag d;
    clb_error e = doc ? clb_doc_write(doc, o->json, &d) : CLB_ERR_NOMEM;
    cJSON_Delete(doc);
    return e == CLB_OK ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}

/* Finds platforms and resolves the selection; on failure prints why and returns the exit code. */
static int discover(const cli_opts *o, clb_inventory **inv, size_t *idx, size_t *n)
{
    clb_diag d;
    clb_error e = clb_inventory_create(inv, &d);
    if (e == CLB_ERR_NO_PLATFORM || (e == CLB_OK && clb_inventory_count(*inv) == 0)) {
        fprintf(stderr, "clbench: %s\n", e == CLB_OK ? "no OpenCL device found" : d.msg);
        write_empty_doc(o);
        return CLI_EXIT_NO_PLATFORM;
    }
    if (e != CLB_OK) {
        char buf[1400];
        fprintf(stderr, "clbench: listing devices: %s\n", clb_diag_format(&d, buf, sizeof buf));
        return CLI_EXIT_RUNTIME;
    }
    clb_selector sel = o->sel;
    if (!sel.platform && !sel.device && !sel.type)
        sel.device = getenv("CLBENCH_DEVICE");
    if (sel.device && !*sel.device)
        sel.device = NULL;
    e = clb_select(*inv, &sel, idx, MAX_DEVICES, n, &d);
    if (e != CLB_OK) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static int open_device(const clb_device_ref *r, clb_device **dev)
{
    clb_diag d;
    if (clb_device_create(r, dev, &d) == CLB_OK)
        return CLI_EXIT_OK;
    char buf[1400];
    fprintf(stderr, "clbench: opening %s: %s\n", r->device_name, clb_diag_format(&d, buf, sizeof buf));
    return CLI_EXIT_RUNTIME;
}

static int finish_doc(const cli_opts *o, cJSON *doc, int rc)
{
    clb_diag d;
    if (o->json && doc && clb_doc_write(doc, o->json, &d) != CLB_OK) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        rc = CLI_EXIT_RUNTIME;
    }
    if (doc && (o->html || o->csv || o->markdown)) {
        int r = cli_write_reports(o, doc, o->json && strcmp(o->json, "-") != 0 ? o->json : "this run");
        rc = rc == CLI_EXIT_OK ? r : rc;
    }
    cJSON_Delete(doc);
    return rc;
}

static int cmd_list(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[MAX_DEVICES], n = 0;
    clb_selector none = {0};
    cli_opts all = *o;
    all.sel = none;
    all.json = NULL;
    int rc = discover(&all, &inv, idx, &n);
    if (rc == CLI_EXIT_OK)
        clb_inventory_print(inv, stdout);
    clb_inventory_destroy(inv);
    return rc;
}

static int cmd_info(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[MAX_DEVICES], n = 0;
    int rc = discover(o, &inv, idx, &n);
    int want_doc = o->json || o->html || o->csv || o->markdown;
    cJSON *doc = rc == CLI_EXIT_OK && want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    int human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        clb_device *dev = NULL;
        if ((rc = open_device(r, &dev)) != CLI_EXIT_OK)
            break;
        cJSON *derived = clb_derived_json(dev);
        if (human) {
            cli_print_device_header(stdout, r);
            clb_platform_info_print(r->platform, stdout);
            clb_device_info_print(r->device, stdout);
            char *text = cJSON_Print(derived);
            printf("  derived parameters:\n%s\n", text ? text : "{}");
            free(text);
        }
        if (doc)
            clb_doc_add_device(doc, dev, derived);
        else
            cJSON_Delete(derived);
        clb_device_destroy(dev);
    }
    clb_inventory_destroy(inv);
    return rc == CLI_EXIT_OK ? finish_doc(o, doc, rc) : (cJSON_Delete(doc), rc);
}

static int cmd_list_benchmarks(void)
{
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        printf("%-24s %-10s %s\n", b->name, b->group, b->description);
    }
    return CLI_EXIT_OK;
}

static int selected(const cli_opts *o, const clb_bench *b)
{
    if (o->npatterns == 0)
        return !(b->requires & CLB_REQ_APP); /* app rows run only when named */
    for (int i = 0; i < o->npatterns; i++)
        if (clb_bench_match(o->patterns[i], b->name))
            return 1;
    return 0;
}

/* Runs the selected benchmarks on one device; returns 1 if any failed. */
static int run_on_device(const cli_opts *o, clb_device *dev, cJSON *results, size_t total)
{
    int failed = 0, human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    int progress = !o->quiet && isatty(STDERR_FILENO);
    size_t done = 0;
    if (human) {
        cli_print_device_header(stdout, clb_device_reference(dev));
        cli_print_result_header(stdout);
    }
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const clb_bench *b = clb_bench_at(i);
        if (!selected(o, b))
            continue;
        if (progress)
            fprintf(stderr, "\r[%zu/%zu] %-40s", ++done, total, b->name);
        clb_result res;
        if (clb_bench_run(dev, b, &o->run, &res) != CLB_OK) {
            fprintf(stderr, "clbench: out of memory\n");
            return 1;
        }
        if (progress)
            fprintf(stderr, "\r%60s\r", "");
        if (human)
            cli_print_result(stdout, &res);
        if (results)
            cJSON_AddItemToArray(results, clb_result_to_json(&res));
        failed |= res.status != CLB_STATUS_OK && res.status != CLB_STATUS_UNSUPPORTED;
        clb_result_free(&res);
        fflush(stdout);
    }
    clb_apps_annotate(results);
    return failed;
}

static int cmd_run(const cli_opts *o)
{
    if (o->list_benchmarks)
        return cmd_list_benchmarks();
    size_t total = 0;
    for (size_t i = 0; i < clb_bench_count(); i++)
        total += (size_t)selected(o, clb_bench_at(i));
    if (total == 0) {
        fprintf(stderr, "clbench: no benchmark matches the patterns (see clbench run --list)\n");
        return CLI_EXIT_USAGE;
    }
    clb_inventory *inv = NULL;
    size_t idx[MAX_DEVICES], n = 0;
    int rc = discover(o, &inv, idx, &n), failed = 0;
    int want_doc = o->json || o->html || o->csv || o->markdown;
    cJSON *doc = rc == CLI_EXIT_OK && want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        clb_device *dev = NULL;
        if ((rc = open_device(clb_inventory_at(inv, idx[i]), &dev)) != CLI_EXIT_OK)
            break;
        cJSON *entry = doc ? clb_doc_add_device(doc, dev, clb_derived_json(dev)) : NULL;
        failed |= run_on_device(o, dev, cJSON_GetObjectItemCaseSensitive(entry, "results"), total);
        clb_device_destroy(dev);
    }
    clb_inventory_destroy(inv);
    if (rc != CLI_EXIT_OK) {
        cJSON_Delete(doc);
        return rc;
    }
    return finish_doc(o, doc, failed ? CLI_EXIT_FAILED : CLI_EXIT_OK);
}

int main(int argc, char **argv)
{
    /* getopt_long permutes argv: keep the command line as typed for the provenance. */
    char **typed = malloc(((size_t)argc + 1) * sizeof *typed);
    if (!typed)
        return CLI_EXIT_RUNTIME;
    memcpy(typed, argv, ((size_t)argc + 1) * sizeof *typed);
    cli_opts o;
    int rc = cli_parse(argc, argv, &o);
    o.argv = typed;
    if (rc == CLI_EXIT_OK)
        rc = strcmp(o.command, "list") == 0      ? cmd_list(&o)
             : strcmp(o.command, "info") == 0    ? cmd_info(&o)
             : strcmp(o.command, "report") == 0  ? cmd_report(&o)
             : strcmp(o.command, "compare") == 0 ? cmd_compare(&o)
                                                 : cmd_run(&o);
    free(typed);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
