/* The store's query API (lib/store/store.h) as the drift test, fleet checks and the site use it:
 * devices with their last run and driver, one row's history as arrays in time order (documents
 * added out of order), every (device, row) series in order and its early stop, device and
 * document lookups, idempotent adds, and the export of a document clbench printed, byte for byte.
 * With --each STORE: walks every series of that store and prints the count and the time (the
 * recorded measurement, docs/results/store-2026-11-25-vm.md). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Document i: host h, devices 0:0 and 0:1; rows r.a (10 + i, ok), r.b (ok on 0:0, unsupported
 * on 0:1), r.c only on 0:0 in document 2; the driver 2.0 from document 2 on. */
static char *make_doc(int i)
{
    cJSON *doc = cJSON_CreateObject(), *devs;
    char date[32];
    snprintf(date, sizeof date, "2026-03-%02dT12:00:00Z", 1 + i);
    cJSON_AddStringToObject(doc, "schema_version", CLB_SCHEMA_VERSION);
    cJSON *prov = cJSON_AddObjectToObject(doc, "provenance");
    cJSON_AddStringToObject(prov, "date", date);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(prov, "host"), "hostname", "h");
    devs = cJSON_AddArrayToObject(doc, "devices");
    for (int k = 0; k < 2; k++) {
        cJSON *e = cJSON_CreateObject(), *sel = cJSON_AddObjectToObject(e, "selection"), *res;
        cJSON_AddNumberToObject(sel, "platform_index", 0);
        cJSON_AddNumberToObject(sel, "device_index", k);
        cJSON *props = cJSON_AddObjectToObject(e, "device");
        cJSON_AddStringToObject(props, "CL_DEVICE_NAME", k ? "Model B" : "Model A");
        cJSON_AddStringToObject(props, "CL_DRIVER_VERSION", i >= 2 ? "2.0" : "1.0");
        cJSON_AddStringToObject(props, "CL_DEVICE_UUID_KHR", k ? "00000000-0000-0000-0000-000000000000"
                                                              : "1d2c3b4a-0000-0000-0000-00000000abcd");
        if (k == 1) { /* NVIDIA's attributes; the PCI address of cl_khr_pci_bus_info on the other */
            cJSON_AddNumberToObject(props, "CL_DEVICE_PCI_BUS_ID_NV", 0x41);
            cJSON_AddNumberToObject(props, "CL_DEVICE_PCI_SLOT_ID_NV", 0);
        } else {
            cJSON *pci = cJSON_AddObjectToObject(props, "CL_DEVICE_PCI_BUS_INFO_KHR");
            cJSON_AddNumberToObject(pci, "domain", 1), cJSON_AddNumberToObject(pci, "bus", 0x1b);
            cJSON_AddNumberToObject(pci, "device", 2), cJSON_AddNumberToObject(pci, "function", 1);
        }
        res = cJSON_AddArrayToObject(e, "results");
        const char *rows[] = {"r.a", "r.b", "r.c"};
        for (int r = 0; r < (k == 0 && i == 2 ? 3 : 2); r++) {
            cJSON *x = cJSON_CreateObject(), *st;
            int unsup = r == 1 && k == 1;
            cJSON_AddStringToObject(x, "name", rows[r]);
            cJSON_AddStringToObject(x, "status", unsup ? "unsupported" : "ok");
            if (unsup) {
                cJSON_AddNullToObject(x, "value");
            } else {
                cJSON_AddNumberToObject(x, "value", 10 + i + r * 100 + k * 1000);
                cJSON_AddStringToObject(x, "unit", "GB/s");
                cJSON_AddStringToObject(x, "better", "higher");
                st = cJSON_AddObjectToObject(x, "stats");
                cJSON_AddNumberToObject(st, "n", 5);
                cJSON_AddNumberToObject(st, "cv", 0.01 * (1 + i));
            }
            cJSON_AddItemToArray(res, x);
        }
        cJSON_AddItemToArray(devs, e);
    }
    char *text = cJSON_Print(doc), *out = malloc(strlen(text) + 2);
    snprintf(out, strlen(text) + 2, "%s\n", text);
    free(text);
    cJSON_Delete(doc);
    return out;
}

typedef struct seen {
    int calls, stop_at;
    char log[512];
} seen;

static int visit(const clb_store_series *sr, void *arg)
{
    seen *v = arg;
    size_t used = strlen(v->log);
    snprintf(v->log + used, sizeof v->log - used, "%lld:%s:%zu ", (long long)sr->device, sr->row_name, sr->n);
    for (size_t i = 1; i < sr->n; i++)
        CHECK(sr->time[i] >= sr->time[i - 1]);
    return ++v->calls == v->stop_at ? 7 : 0;
}

static void check_devices(clb_store *s)
{
    clb_store_device *v = NULL;
    size_t n = 0;
    clb_diag d;
    CHECK(clb_store_devices(s, &v, &n, &d) == CLB_OK && n == 2);
    if (n == 2) {
        CHECK(strcmp(v[0].key, "h/0:0") == 0 && strcmp(v[0].model, "Model A") == 0 && v[0].runs == 3);
        EXPECT(strcmp(v[0].driver, "2.0") == 0, "driver of the newest run: %s", v[0].driver);
        CHECK(v[1].last_run == 1772539200); /* 2026-03-03T12:00:00Z */
        EXPECT(strcmp(v[0].uuid, "1d2c3b4a-0000-0000-0000-00000000abcd") == 0 && strcmp(v[0].pci, "0001:1b:02.1") == 0,
               "device 1: uuid %s, pci %s", v[0].uuid, v[0].pci);
        EXPECT(strcmp(v[1].uuid, "") == 0 && strcmp(v[1].pci, "0000:41:00.0") == 0, "device 2: uuid %s, pci %s",
               v[1].uuid, v[1].pci);
    }
    clb_store_devices_free(v, n);
    int64_t id = -1, id2 = -1;
    CHECK(clb_store_find_device(s, "h/0:1", &id, &d) == CLB_OK && id == 2);
    CHECK(clb_store_find_device(s, "model b", &id2, &d) == CLB_OK && id2 == 2);
    CHECK(clb_store_find_device(s, "h/", &id, &d) == CLB_ERR_USAGE && strstr(d.msg, "names 2 devices"));
    CHECK(clb_store_find_device(s, "9", &id, &d) == CLB_ERR_USAGE);
}

static void check_history(clb_store *s)
{
    clb_store_series sr;
    clb_diag d;
    CHECK(clb_store_history(s, 1, "r.a", &sr, &d) == CLB_OK && sr.n == 3);
    for (size_t i = 0; i < sr.n && sr.n == 3; i++) {
        EXPECT(sr.value[i] == 10 + (double)i, "run %zu: value %g", i, sr.value[i]);
        CHECK(fabs(sr.spread[i] - 0.01 * (double)(1 + i)) < 1e-12 && sr.nsamp[i] == 5);
        CHECK(sr.status[i] == CLB_STATUS_OK && (i == 0 || sr.time[i] == sr.time[i - 1] + 86400));
    }
    CHECK(sr.better == 1 && strcmp(sr.unit, "GB/s") == 0);
    clb_store_series_free(&sr);
    CHECK(clb_store_history(s, 2, "r.b", &sr, &d) == CLB_OK && sr.n == 3 && isnan(sr.value[0]));
    CHECK(sr.n == 3 && sr.status[2] == CLB_STATUS_UNSUPPORTED && isnan(sr.spread[2]) && sr.nsamp[2] == 0);
    CHECK(strcmp(clb_store_status_name(s, CLB_STATUS_UNSUPPORTED), "unsupported") == 0);
    clb_store_series_free(&sr);
    CHECK(clb_store_history(s, 1, "no.row", &sr, &d) == CLB_OK && sr.n == 0);
    clb_store_series_free(&sr);
    seen all = {0}, two = {.stop_at = 2};
    int stopped = -1;
    CHECK(clb_store_each_series(s, 0, visit, &all, &stopped, &d) == CLB_OK && stopped == 0);
    EXPECT(strcmp(all.log, "1:r.a:3 1:r.b:3 1:r.c:1 2:r.a:3 2:r.b:3 ") == 0, "series: %s", all.log);
    CHECK(clb_store_each_series(s, 0, visit, &two, &stopped, &d) == CLB_OK && stopped == 7 && two.calls == 2);
    seen one = {0};
    CHECK(clb_store_each_series(s, 2, visit, &one, NULL, &d) == CLB_OK && strcmp(one.log, "2:r.a:3 2:r.b:3 ") == 0);
}

static void check_docs(clb_store *s, char *const *text)
{
    clb_store_doc *v = NULL;
    size_t n = 0;
    clb_diag d;
    CHECK(clb_store_docs(s, &v, &n, &d) == CLB_OK && n == 3);
    for (size_t i = 0; i < n; i++) {
        int64_t id = -1;
        char *out = NULL, prefix[13];
        size_t len = 0;
        snprintf(prefix, sizeof prefix, "%.12s", v[i].hash);
        CHECK(clb_store_find_doc(s, prefix, &id, &d) == CLB_OK && id == v[i].id);
        CHECK(clb_store_export(s, id, &out, &len, &d) == CLB_OK);
        int which = i == 0 ? 2 : (int)i - 1; /* added in the order 2, 0, 1 */
        EXPECT(out && strcmp(out, text[which]) == 0 && len == strlen(text[which]), "document %zu not as printed", i);
        CHECK(strcmp(v[i].source, "doc") == 0 && strcmp(v[i].kind, "results") == 0);
        free(out);
    }
    free(v);
}

/* A document with a row and a status the store has not seen, added through a handle that has
 * exported before (its names loaded), then exported by it: the names are read again. */
static void check_new_names(clb_store *s)
{
    static const char doc[] = "{\n\t\"schema_version\":\t\"" CLB_SCHEMA_VERSION "\",\n"
                              "\t\"devices\":\t[{\n\t\t\t\"results\":\t[{\n\t\t\t\t\t\"name\":\t\"r.new\",\n"
                              "\t\t\t\t\t\"status\":\t\"unheard\",\n\t\t\t\t\t\"value\":\t1.5\n\t\t\t\t}]\n"
                              "\t\t}]\n}\n";
    clb_store_added a;
    clb_diag d;
    char *out = NULL;
    size_t len = 0;
    CHECK(clb_store_add_bytes(s, doc, strlen(doc), "new names", &a, &d) == CLB_OK && !a.known && a.results == 1);
    CHECK(clb_store_export(s, a.doc, &out, &len, &d) == CLB_OK);
    EXPECT(out && strcmp(out, doc) == 0, "a new row and status: exported as added: %s", out ? out : d.msg);
    free(out);
}

/* --each STORE: every series of a store, timed. */
static int each_timed(const char *path)
{
    clb_store *s = NULL;
    clb_diag d;
    seen v = {0};
    struct timespec a, b;
    if (clb_store_open(path, 0, &s, &d) != CLB_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    v.stop_at = -1;
    clb_error e = clb_store_each_series(s, 0, visit, &v, NULL, &d);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%d series in %.3f s (%s)\n", v.calls, (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec),
           e == CLB_OK ? "ok" : d.msg);
    clb_store_close(s);
    return e != CLB_OK;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--each") == 0)
        return each_timed(argv[2]);
    char dir[] = "/tmp/clbench-test-store-XXXXXX", path[64], *text[3];
    clb_store *s = NULL;
    clb_store_added a;
    clb_diag d;
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/s.sqlite", dir);
    CHECK(clb_store_open(path, 0, &s, &d) == CLB_ERR_USAGE && !s);
    CHECK(clb_store_open(path, 1, &s, &d) == CLB_OK && clb_store_schema_version(s) == CLB_STORE_SCHEMA);
    for (int i = 0; i < 3; i++)
        text[i] = make_doc(i);
    const int order[] = {2, 0, 1};
    for (int i = 0; i < 3; i++)
        CHECK(clb_store_add_bytes(s, text[order[i]], strlen(text[order[i]]), "doc", &a, &d) == CLB_OK && !a.known &&
              a.runs == 2 && a.results == (order[i] == 2 ? 5u : 4u));
    CHECK(clb_store_add_bytes(s, text[0], strlen(text[0]), "again", &a, &d) == CLB_OK && a.known && a.doc == 2);
    check_devices(s);
    check_history(s);
    check_docs(s, text);
    check_new_names(s);
    clb_store_close(s);
    for (int i = 0; i < 3; i++)
        free(text[i]);
    char f[80];
    const char *side[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(f, sizeof f, "%s%s", path, side[i]);
        unlink(f);
    }
    rmdir(dir);
    return failures != 0;
}
