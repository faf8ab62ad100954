/* An outside program written from the public header alone (docs/api.md): the inventory, the
 * first CPU device, one cheap row through clb_bench_run, its result as JSON in a results
 * document. Compiled with only include/ on the include path, so a declaration it needs that
 * moved to a private header fails its build (implicit declarations are errors).
 * usage: api_outside_client ROW [VERSION]   (VERSION: the project's, checked against CLB_VERSION_*) */
#include <clbench.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, const clb_diag *d)
{
    char buf[1200];
    fprintf(stderr, "FAIL: %s: %s\n", what, d ? clb_diag_format(d, buf, sizeof buf) : "");
    return 1;
}

static int check_version(const char *want)
{
    char have[64];
    snprintf(have, sizeof have, "%d.%d.%d", CLB_VERSION_MAJOR, CLB_VERSION_MINOR, CLB_VERSION_PATCH);
    if (strcmp(have, want) != 0 || strcmp(CLB_VERSION, want) != 0) {
        fprintf(stderr, "FAIL: header version %s (CLB_VERSION %s), project %s\n", have, CLB_VERSION,
                want);
        return 1;
    }
    return 0;
}

/* Runs row on dev and appends its JSON to a new document's device entry; 0 when ok. */
static int run_row(clb_device *dev, const char *row, char **argv)
{
    const clb_bench *b = clb_bench_find(row);
    clb_run_opts o;
    clb_result res;
    if (!b)
        return fail("row not in the registry", NULL);
    clb_run_opts_default(&o);
    o.quick = 1;
    clb_bench_run(dev, b, &o, &res);
    int bad = res.status != CLB_STATUS_OK || !isfinite(res.value) || res.nsamples == 0;
    if (bad)
        fprintf(stderr, "FAIL: %s: %s (%s)\n", row, clb_status_name(res.status), res.reason);
    cJSON *doc = clb_doc_create(1, argv);
    cJSON *entry = doc ? clb_doc_add_device(doc, dev, clb_derived_json(dev)) : NULL;
    cJSON *results = cJSON_GetObjectItemCaseSensitive(entry, "results");
    cJSON *j = clb_result_to_json(&res);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    if (!j || !cJSON_IsString(status) || strcmp(status->valuestring, "ok") != 0)
        bad = 1, fprintf(stderr, "FAIL: the result's JSON has no status ok\n");
    if (results && j)
        cJSON_AddItemToArray(results, j);
    else
        cJSON_Delete(j);
    clb_diag d;
    if (!doc || !results || clb_doc_check(doc, "client", &d) != CLB_OK)
        bad = 1, fprintf(stderr, "FAIL: the document does not check\n");
    else if (clb_doc_write(doc, "-", &d) != CLB_OK)
        bad = fail("writing the document", &d);
    cJSON_Delete(doc);
    clb_result_free(&res);
    return bad;
}

int main(int argc, char **argv)
{
    clb_inventory *inv = NULL;
    clb_device *dev = NULL;
    clb_diag d;
    int rc = 1;
    if (argc < 2)
        return 2;
    if (argc > 2 && check_version(argv[2]))
        return 1;
    if (clb_inventory_create(&inv, &d) != CLB_OK) {
        clb_inventory_destroy(inv);
        return fail("inventory", &d);
    }
    const clb_device_ref *ref = NULL;
    for (size_t i = 0; i < clb_inventory_count(inv) && !ref; i++)
        if (clb_inventory_at(inv, i)->type & CL_DEVICE_TYPE_CPU)
            ref = clb_inventory_at(inv, i);
    if (!ref)
        rc = fail("no CPU device", NULL);
    else if (clb_device_create(ref, &dev, &d) != CLB_OK)
        rc = fail("device", &d);
    else
        rc = run_row(dev, argv[1], argv);
    clb_device_destroy(dev);
    clb_inventory_destroy(inv);
    return rc;
}
