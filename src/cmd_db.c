/* clbench db list|show NAME|match|add --from RESULTS.json: the device database (built-in
 * entries with their sources, and the user's file of measured entries; docs/decide.md). Only
 * match opens a device, in a worker. */
#include "run_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *str_of(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The user's file: a missing file is empty; an unreadable or malformed one is an error (exit 2).
 * Read by the reader of every user file (its limit, its refusal of devices and directories). */
static int load_user(cJSON **out, char *path, size_t n)
{
    clb_diag d;
    char *buf = NULL;
    size_t len = 0;
    *out = NULL;
    if (clb_devdb_user_path(path, n, 0, &d) != CLB_OK || access(path, F_OK) != 0)
        return CLI_EXIT_OK; /* no HOME or no file yet: no user entries */
    if (clb_doc_read_file(path, &buf, &len, &d) != CLB_OK) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        return CLI_EXIT_USAGE;
    }
    *out = clb_devdb_parse(buf, len, &d);
    free(buf);
    if (!*out) {
        fprintf(stderr, "clbench: %s: %s\n", path, d.msg);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static void print_entry_line(const cJSON *e)
{
    const cJSON *f, *figs = cJSON_GetObjectItemCaseSensitive(e, "figures");
    printf("%-18s %-8s %-24s %s", str_of(e, "key"), str_of(e, "origin"), str_of(e, "name"), str_of(e, "product"));
    cJSON_ArrayForEach(f, figs)
        printf("; %s %g (%s)", f->string, cJSON_GetObjectItemCaseSensitive(f, "value")->valuedouble, str_of(f, "origin"));
    putchar('\n');
}

/* Built-in entries then the user's, as one array (caller frees). */
static int all_entries(cJSON **all)
{
    char path[4096];
    cJSON *user = NULL, *e;
    int rc = load_user(&user, path, sizeof path);
    *all = clb_devdb_json();
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(user, "entries"))
        cJSON_AddItemToArray(*all, cJSON_Duplicate(e, 1));
    cJSON_Delete(user);
    return rc;
}

static int db_list_show(const cli_opts *o, const char *key)
{
    cJSON *all = NULL, *e;
    int rc = all_entries(&all), shown = 0;
    cJSON *walk = rc == CLI_EXIT_OK ? all : NULL;
    cJSON_ArrayForEach(e, walk)
    {
        if (!key) {
            print_entry_line(e);
        } else if (strcmp(str_of(e, "key"), key) == 0) {
            char *text = cJSON_Print(e);
            printf("%s\n", text ? text : "");
            free(text);
            shown++;
        }
    }
    if (rc == CLI_EXIT_OK && key && !shown) {
        fprintf(stderr, "clbench: no device database entry '%s' (clbench db list)\n", key);
        rc = CLI_EXIT_USAGE;
    }
    (void)o;
    cJSON_Delete(all);
    return rc;
}

/* The selected devices' built-in match (from the worker's derived parameters) and any user
 * entry whose vendor and name occur in the device's. */
static int db_match(const cli_opts *o)
{
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    cJSON *user = NULL, *u;
    char path[4096];
    int rc = load_user(&user, path, sizeof path);
    if (rc == CLI_EXIT_OK)
        rc = cli_discover(o, &inv, idx, &n);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        clb_diag d;
        cJSON *entry = cli_worker_device_entry(o, r, &d);
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "derived"), "device_database");
        const char *vendor = str_of(cJSON_GetObjectItemCaseSensitive(entry, "device"), "CL_DEVICE_VENDOR");
        printf("%u:%u %s\n  built-in: %s\n", r->platform_index, r->device_index, r->device_name,
               m ? str_of(m, "how") : d.msg);
        cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(user, "entries"))
            if (clb_contains_nocase(r->device_name, str_of(u, "name")) && clb_contains_nocase(vendor, str_of(u, "vendor")))
                printf("  user entry %s (%s) matches: name '%s' in the device name, vendor '%s'\n", str_of(u, "key"),
                       path, str_of(u, "name"), str_of(u, "vendor"));
        cJSON_Delete(entry);
    }
    clb_inventory_destroy(inv);
    cJSON_Delete(user);
    return rc;
}

/* Adds (or replaces, by key) the entries made from every device of the results file. */
static int db_add(const cli_opts *o)
{
    char path[4096];
    clb_diag d;
    cJSON *user = NULL, *doc = NULL, *dev;
    int rc = o->nfrom == 1 ? load_user(&user, path, sizeof path) : CLI_EXIT_USAGE, added = 0;
    if (o->nfrom != 1)
        fprintf(stderr, "clbench: db add needs exactly one --from RESULTS.json\n");
    if (rc == CLI_EXIT_OK && !(doc = clb_doc_load(o->from[0], &d))) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && !user) {
        user = cJSON_CreateObject();
        cJSON_AddNumberToObject(user, "version", 1);
        cJSON_AddArrayToObject(user, "entries");
    }
    cJSON *devs = rc == CLI_EXIT_OK ? cJSON_GetObjectItemCaseSensitive(doc, "devices") : NULL;
    cJSON_ArrayForEach(dev, devs)
    {
        cJSON *e = clb_devdb_entry_from_results(dev, o->from[0], &d), *es = cJSON_GetObjectItemCaseSensitive(user, "entries");
        if (!e) {
            fprintf(stderr, "clbench: skipped: %s\n", d.msg);
            continue;
        }
        for (int i = cJSON_GetArraySize(es) - 1; i >= 0; i--)
            if (strcmp(str_of(cJSON_GetArrayItem(es, i), "key"), str_of(e, "key")) == 0)
                cJSON_DeleteItemFromArray(es, i);
        print_entry_line(e);
        cJSON_AddItemToArray(es, e);
        added++;
    }
    if (rc == CLI_EXIT_OK && !added) {
        fprintf(stderr, "clbench: %s: no device with a measured figure\n", o->from[0]);
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && (clb_devdb_user_path(path, sizeof path, 1, &d) != CLB_OK || clb_doc_write(user, path, &d) != CLB_OK)) {
        fprintf(stderr, "clbench: writing the device database file: %s\n", d.msg);
        rc = CLI_EXIT_RUNTIME;
    }
    if (rc == CLI_EXIT_OK)
        fprintf(stderr, "clbench: %d entr%s written to %s\n", added, added == 1 ? "y" : "ies", path);
    cJSON_Delete(doc);
    cJSON_Delete(user);
    return rc;
}

int cmd_db(const cli_opts *o)
{
    const char *sub = o->npatterns > 0 ? o->patterns[0] : "";
    if (strcmp(sub, "list") == 0 && o->npatterns == 1)
        return db_list_show(o, NULL);
    if (strcmp(sub, "show") == 0 && o->npatterns == 2)
        return db_list_show(o, o->patterns[1]);
    if (strcmp(sub, "match") == 0 && o->npatterns == 1)
        return db_match(o);
    if (strcmp(sub, "add") == 0 && o->npatterns == 1)
        return db_add(o);
    fprintf(stderr, "clbench: usage: clbench db list | show KEY | match [-d D] | add --from RESULTS.json\n");
    return CLI_EXIT_USAGE;
}
