/* What the commands share: finding and selecting devices, opening one (workers only), writing
 * the document and its reports, and which statuses make `run` fail. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

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
        sel.device = cli_env_get()->device;
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
    if (doc && o->store_set) { /* what --json wrote, byte for byte */
        int r = cli_store_doc(o, doc);
        rc = rc == CLI_EXIT_OK ? r : rc;
    }
    if (doc && (o->html || o->csv || o->markdown)) {
        int r = cli_write_reports(o, doc, o->json && strcmp(o->json, "-") != 0 ? o->json : "this run");
        rc = rc == CLI_EXIT_OK ? r : rc;
    }
    cJSON_Delete(doc);
    return rc;
}

int cli_result_counts_as_failure(clb_status s)
{
    switch (s) {
    case CLB_STATUS_OK:
    case CLB_STATUS_UNSUPPORTED:
    case CLB_STATUS_INCONCLUSIVE:
        return 0;
    default:
        return 1;
    }
}
