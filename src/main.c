/* clbench: command dispatch. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
int cli_discover(const cli_opts *o, clb_inventory **inv, size_t *idx, size_t *n)
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
    e = clb_select(*inv, &sel, idx, CLI_MAX_DEVICES, n, &d);
    if (e != CLB_OK) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int cli_open_device(const clb_device_ref *r, clb_device **dev)
{
    clb_diag d;
    if (clb_device_create(r, dev, &d) == CLB_OK)
        return CLI_EXIT_OK;
    char buf[1400];
    fprintf(stderr, "clbench: opening %s: %s\n", r->device_name, clb_diag_format(&d, buf, sizeof buf));
    return CLI_EXIT_RUNTIME;
}

int cli_finish_doc(const cli_opts *o, cJSON *doc, int rc)
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
    size_t idx[CLI_MAX_DEVICES], n = 0;
    clb_selector none = {0};
    cli_opts all = *o;
    all.sel = none;
    all.json = NULL;
    int rc = cli_discover(&all, &inv, idx, &n);
    if (rc == CLI_EXIT_OK)
        clb_inventory_print(inv, stdout);
    clb_inventory_destroy(inv);
    return rc;
}

static int cmd_info(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    int rc = cli_discover(o, &inv, idx, &n);
    int want_doc = o->json || o->html || o->csv || o->markdown;
    cJSON *doc = rc == CLI_EXIT_OK && want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    int human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        clb_device *dev = NULL;
        if ((rc = cli_open_device(r, &dev)) != CLI_EXIT_OK)
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
    return rc == CLI_EXIT_OK ? cli_finish_doc(o, doc, rc) : (cJSON_Delete(doc), rc);
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
             : strcmp(o.command, "__worker") == 0 ? cmd_worker(&o)
                                                 : cmd_run(&o);
    free(typed);
    return rc < 0 ? CLI_EXIT_OK : rc;
}

int cli_result_counts_as_failure(clb_status s)
{
    switch (s) {
    case CLB_STATUS_OK:
    case CLB_STATUS_UNSUPPORTED:
    case CLB_STATUS_THROTTLED:
    case CLB_STATUS_INCONCLUSIVE:
    case CLB_STATUS_INTERRUPTED:
        return 0;
    default:
        return 1;
    }
}
