/* clbench list and clbench info: the devices and their properties. */
#include "run_engine.h"

#include <stdlib.h>
#include <string.h>

/* Where the ICD loader looks: OCL_ICD_VENDORS (ocl-icd's variable) or its default. */
static cJSON *icd_json(void)
{
    const char *env = getenv("OCL_ICD_VENDORS");
    int set = env && *env;
    return clb_icd_json(set ? env : "/etc/OpenCL/vendors", set ? "OCL_ICD_VENDORS" : "default");
}

/* list --icd: a description of what is installed, also when nothing works (exit 0). */
static int list_icd(void)
{
    cJSON *icd = icd_json();
    clb_icd_print(icd, stdout);
    cJSON_Delete(icd);
    return CLI_EXIT_OK;
}

int cmd_list(const cli_opts *o)
{
    if (o->list_icd)
        return list_icd();
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    cli_opts all = *o;
    all.sel = (clb_selector){NULL, NULL, "all"}; /* every device, whatever CLBENCH_DEVICE says */
    all.json = NULL;
    int rc = cli_discover(&all, &inv, idx, &n);
    if (rc == CLI_EXIT_OK)
        clb_inventory_print(inv, stdout);
    const char *env = cli_env_get()->device;
    clb_selector mine = {NULL, env, NULL};
    clb_diag d;
    if (rc == CLI_EXIT_OK && env && *env && clb_select(inv, &mine, idx, CLI_MAX_DEVICES, &n, &d) != CLB_OK)
        fprintf(stderr, "clbench: note: CLBENCH_DEVICE=%s selects no device (%s); list shows them all\n", env, d.msg);
    clb_inventory_destroy(inv);
    return rc;
}

/* Properties are read in this process (clGetDeviceInfo needs no context); the derived
 * parameters, which compile a probe kernel, come from a worker. */
int cmd_info(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    int rc = cli_discover(o, &inv, idx, &n);
    int want_doc = o->json || o->html || o->csv || o->markdown;
    cJSON *doc = rc == CLI_EXIT_OK && want_doc ? clb_doc_create(o->argc, o->argv) : NULL;
    int human = !o->quiet && !(o->json && strcmp(o->json, "-") == 0);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        clb_diag d;
        cJSON *entry = cli_worker_device_entry(o, r, &d);
        if (!entry) {
            char buf[1400];
            fprintf(stderr, "clbench: %s\n", clb_diag_format(&d, buf, sizeof buf));
            rc = CLI_EXIT_RUNTIME;
            break;
        }
        if (human) {
            cli_print_device_header(stdout, r);
            clb_platform_info_print(r->platform, stdout);
            clb_device_info_print(r->device, stdout);
            char *text = cJSON_Print(cJSON_GetObjectItemCaseSensitive(entry, "derived"));
            printf("  derived parameters:\n%s\n", text ? text : "{}");
            free(text);
        }
        if (doc)
            cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "devices"), entry);
        else
            cJSON_Delete(entry);
    }
    clb_inventory_destroy(inv);
    if (doc && rc == CLI_EXIT_OK)
        cJSON_AddItemToObject(doc, "icd", icd_json());
    return rc == CLI_EXIT_OK ? cli_finish_doc(o, doc, rc) : (cJSON_Delete(doc), rc);
}
