/* The results document: schema version, provenance, devices with their results. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "git_sha.h" /* generated at build time: CLB_GIT_SHA */
#ifndef CLB_BUILD_TYPE
#define CLB_BUILD_TYPE "unknown"
#endif


/* "model name" of the first CPU in /proc/cpuinfo, or "unknown". */
static void cpu_model(char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 2;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, n, "%s", colon);
            break;
        }
    }
    fclose(f);
}

static cJSON *host_json(void)
{
    cJSON *h = cJSON_CreateObject();
    struct utsname u;
    char cpu[256];
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(h, "os", u.sysname);
        cJSON_AddStringToObject(h, "kernel", u.release);
        cJSON_AddStringToObject(h, "machine", u.machine);
        cJSON_AddStringToObject(h, "hostname", u.nodename);
    }
    cpu_model(cpu, sizeof cpu);
    cJSON_AddStringToObject(h, "cpu", cpu);
    cJSON_AddNumberToObject(h, "online_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    clb_host_system(h);
    return h;
}

/* OCL_ICD_* and POCL_* variables change which driver runs and how: record them, from the list
 * the caller handed over (clb_settings.environment). */
static cJSON *env_json(void)
{
    cJSON *e = cJSON_CreateObject();
    char **const *list = clb_settings_get()->environment;
    for (char **v = list ? *list : NULL; v && *v; v++) {
        if (strncmp(*v, "OCL_ICD_", 8) != 0 && strncmp(*v, "POCL_", 5) != 0 &&
            strncmp(*v, "CLBENCH_", 8) != 0)
            continue;
        const char *eq = strchr(*v, '=');
        if (!eq)
            continue;
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *v), *v);
        cJSON_AddStringToObject(e, key, eq + 1);
    }
    return e;
}

static cJSON *provenance_json(int argc, char **argv)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "tool", "clbench");
    cJSON_AddStringToObject(p, "tool_version", CLB_VERSION);
    cJSON_AddStringToObject(p, "git_sha", CLB_GIT_SHA);
    cJSON_AddStringToObject(p, "build_type", CLB_BUILD_TYPE);
    cJSON *cmd = cJSON_AddArrayToObject(p, "command_line");
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(p, "date", date);
    cJSON_AddItemToObject(p, "host", host_json());
    cJSON_AddItemToObject(p, "environment", env_json());
    return p;
}

cJSON *clb_doc_create(int argc, char **argv)
{
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return NULL;
    cJSON_AddStringToObject(doc, "schema_version", CLB_SCHEMA_VERSION);
    cJSON_AddItemToObject(doc, "provenance", provenance_json(argc, argv));
    cJSON_AddArrayToObject(doc, "devices");
    return doc;
}

cJSON *clb_doc_add_device(cJSON *doc, clb_device *dev, cJSON *derived)
{
    const clb_device_ref *r = clb_device_reference(dev);
    cJSON *d = cJSON_CreateObject();
    cJSON *sel = cJSON_AddObjectToObject(d, "selection");
    cJSON_AddNumberToObject(sel, "platform_index", r->platform_index);
    cJSON_AddNumberToObject(sel, "device_index", r->device_index);
    cJSON_AddItemToObject(d, "platform", clb_platform_info_json(r->platform));
    cJSON_AddItemToObject(d, "device", clb_device_info_json(r->device));
    if (derived)
        cJSON_AddItemToObject(d, "derived", derived);
    cJSON_AddArrayToObject(d, "results");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "devices"), d);
    return d;
}

clb_error clb_doc_write(const cJSON *doc, const char *path, clb_diag *d)
{
    char *text = cJSON_Print(doc);
    if (!text)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory printing JSON");
    clb_output *o = NULL;
    FILE *f = NULL;
    if (clb_output_open(path, &o, &f, d) == CLB_OK) {
        size_t n = strlen(text);
        int ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
        clb_output_close(o, ok, d);
    }
    free(text);
    return d->err;
}
