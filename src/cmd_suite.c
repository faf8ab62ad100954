/* clbench suite: every app of the suite table (lib/apps/suite.c) at the sizes of the mode,
 * the same on every device, plus a quick characterization, on the selected devices (or the
 * default device of every platform), once per build-option variant; then the Peak and
 * Average Scores against the reference and the seed 004 report (docs/suite.md). Runs through
 * the workers of `run` (cli_run_one_device): a crash costs one row, never the suite. */
#include "run_engine.h"

#include "apps/suite.h"
#include "judge/judge.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* data/suite_reference.json, embedded at build time (cmake/EmbedDataScript.cmake) */
extern const unsigned char clb_suite_reference_data[];
extern const size_t clb_suite_reference_data_len;


#define MAX_ROWS 256

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Parses the file at path (the reader of results documents, without the schema check); NULL
 * when it cannot be read or parsed (why on stderr if loud). */
static cJSON *read_json(const char *path, int loud)
{
    clb_diag d;
    cJSON *j = clb_json_load(path, &d);
    if (!j && loud)
        fprintf(stderr, "clbench: the reference: %s\n", d.msg);
    return j;
}

/* --reference, else CLBENCH_SUITE_REFERENCE, else the user's file (XDG data dir), else the
 * reference built into the binary: never the working directory or the source tree, so an
 * installed or copied binary scores the same as the build's. *from names the one used. */
static int load_reference(const cli_opts *o, cJSON **ref, const char **from)
{
    static char user[4096];
    const char *env = cli_env_get()->suite_reference;
    const char *path = o->reference ? o->reference : env && *env ? env : NULL;
    if (!path && cli_suite_user_reference(user, sizeof user) && access(user, F_OK) == 0)
        path = user;
    *from = path ? path : "built-in";
    if (path) {
        *ref = read_json(path, 1);
        return *ref ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    *ref = cJSON_ParseWithLength((const char *)clb_suite_reference_data, clb_suite_reference_data_len);
    if (!*ref)
        fprintf(stderr, "clbench: the built-in reference does not parse\n");
    return CLI_EXIT_OK;
}

/* The devices: the selection, or with --platforms all the default device (first GPU, else
 * first device) of every platform. */
static int pick_devices(const cli_opts *o, clb_inventory **inv, size_t *idx, size_t *n)
{
    if (!o->platforms)
        return cli_discover(o, inv, idx, n);
    cli_opts all = *o;
    all.sel = (clb_selector){NULL, NULL, "all"};
    size_t every[CLI_MAX_DEVICES], m = 0;
    int rc = cli_discover(&all, inv, every, &m);
    *n = 0;
    for (size_t p = 0; rc == CLI_EXIT_OK && p < clb_inventory_platform_count(*inv); p++) {
        long pick = -1;
        for (size_t i = 0; i < m; i++) {
            const clb_device_ref *r = clb_inventory_at(*inv, every[i]);
            if (r->platform_index != p)
                continue;
            if (pick < 0 || ((r->type & CL_DEVICE_TYPE_GPU) &&
                             !(clb_inventory_at(*inv, (size_t)pick)->type & CL_DEVICE_TYPE_GPU)))
                pick = (long)every[i];
        }
        if (pick >= 0)
            idx[(*n)++] = (size_t)pick;
    }
    return rc;
}

/* Adds name to the list unless present or not in the registry. */
static void add_row(const char **rows, size_t *n, const char *name)
{
    if (!name || !clb_bench_find(name) || *n == MAX_ROWS)
        return;
    for (size_t i = 0; i < *n; i++)
        if (strcmp(rows[i], name) == 0)
            return;
    rows[(*n)++] = name;
}

/* The app rows of one column: host rows in the first column only (they do not use the
 * device), the scored OpenCL rows always, the CUDA twins in base-variant columns. */
static size_t app_rows(const cli_opts *o, int first, int base, const char **rows)
{
    size_t n = 0;
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        const clb_suite_app *a = clb_suite_app_at(i);
        if (first)
            add_row(rows, &n, a->sequential);
        if (o->sequential_only)
            continue;
        if (first)
            add_row(rows, &n, a->pthreads);
        if (base && a->cuda) { /* space-separated: the twin and the vendor library */
            char names[256];
            snprintf(names, sizeof names, "%s", a->cuda);
            for (char *save = NULL, *nm = strtok_r(names, " ", &save); nm; nm = strtok_r(NULL, " ", &save))
                for (size_t k = 0; k < clb_bench_count(); k++)
                    if (strcmp(clb_bench_at(k)->name, nm) == 0)
                        add_row(rows, &n, clb_bench_at(k)->name); /* the registry's string outlives names */
        }
        char globs[256];
        snprintf(globs, sizeof globs, "%s", a->opencl);
        for (char *save = NULL, *g = strtok_r(globs, " ", &save); g; g = strtok_r(NULL, " ", &save))
            for (size_t k = 0; k < clb_bench_count(); k++)
                if (clb_bench_match(g, clb_bench_at(k)->name))
                    add_row(rows, &n, clb_bench_at(k)->name);
    }
    return n;
}

/* Sets every size variable of the mode (the workers inherit the environment). */
static void set_sizes(int full)
{
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        const clb_suite_app *a = clb_suite_app_at(i);
        for (int k = 0; k < CLB_SUITE_MAX_ENV && a->env[k]; k++)
            setenv(a->env[k], full ? a->full[k] : a->quick[k], 1);
    }
    cli_env_load(); /* and this process too, for rows run in it (CLBENCH_ISOLATION=off) */
}

/* Runs one column (device ref, variant v: -1 base) and returns its device entry. */
static cJSON *run_column(const cli_opts *o, const clb_device_ref *ref, int v, int first, int *failed)
{
    const char *rows[MAX_ROWS], *opts = v >= 0 ? strchr(o->variants[v], '=') + 1 : "";
    char name[64];
    snprintf(name, sizeof name, "%.*s", v >= 0 ? (int)(opts - 1 - o->variants[v]) : 4, v >= 0 ? o->variants[v] : "base");
    if (v >= 0)
        setenv("CLBENCH_BUILD_OPTIONS", opts, 1);
    else
        unsetenv("CLBENCH_BUILD_OPTIONS");
    cli_env_load();
    cli_opts oc = *o;
    oc.quiet = 1;
    oc.run.all_reps = !o->run.quick; /* full mode: seed 004's warm-up and 10 runs, every one */
    oc.run.quick = 0;
    oc.patterns = (char **)rows;
    oc.npatterns = (int)app_rows(o, first, v < 0, rows);
    fprintf(stderr, "clbench suite: %s, variant %s: %d app rows\n", ref->device_name, name, oc.npatterns);
    cJSON *entry = cli_run_one_device(&oc, ref, failed);
    if (v < 0 && !o->sequential_only) { /* a quick characterization beside the scores */
        int f2 = 0;
        oc.npatterns = 0;
        oc.run.quick = 1;
        oc.run.all_reps = 0;
        fprintf(stderr, "clbench suite: %s: quick characterization\n", ref->device_name);
        cJSON *ch = cli_run_one_device(&oc, ref, &f2);
        cJSON *src = cJSON_GetObjectItemCaseSensitive(ch, "results"), *dst = cJSON_GetObjectItemCaseSensitive(entry, "results");
        while (src && cJSON_GetArraySize(src) > 0)
            cJSON_AddItemToArray(dst, cJSON_DetachItemFromArray(src, 0));
        cJSON_Delete(ch);
        *failed |= f2;
        /* % of peak and the roofline need the characterization's rows beside the apps' */
        *failed |= clb_entry_finish(entry) > 0;
    }
    cJSON *sc = cJSON_AddObjectToObject(entry, "suite_column");
    cJSON_AddStringToObject(sc, "variant", name);
    cJSON_AddStringToObject(sc, "build_options", opts);
    return entry;
}

int cmd_suite(const cli_opts *o)
{
    if (o->list_benchmarks) { /* the table of apps (docs/suite.md's "What runs"); no device */
        clb_suite_list(stdout);
        return CLI_EXIT_OK;
    }
    if (o->run.quick && o->suite_full) {
        fprintf(stderr, "clbench: suite: --quick and --full exclude each other\n");
        return CLI_EXIT_USAGE;
    }
    int full = !o->run.quick, failed = 0, rc;
    double t0 = wall_now();
    clb_inventory *inv = NULL;
    cJSON *ref = NULL, *doc = NULL;
    const char *ref_from = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    if ((rc = load_reference(o, &ref, &ref_from)) != CLI_EXIT_OK || (rc = pick_devices(o, &inv, idx, &n)) != CLI_EXIT_OK)
        goto cleanup;
    set_sizes(full);
    doc = clb_doc_create(o->argc, o->argv);
    cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
    /* --sequential-only: the first column alone; another would have no row, and no pattern
     * means every row */
    for (size_t i = 0; i < (o->sequential_only ? 1 : n); i++)
        for (int v = -1; v < (o->sequential_only ? 0 : o->nvariants); v++)
            cJSON_AddItemToArray(devs, run_column(o, clb_inventory_at(inv, idx[i]), v, i == 0 && v < 0, &failed));
    unsetenv("CLBENCH_BUILD_OPTIONS");
    clb_diag d;
    cJSON *summary = clb_suite_summary(doc, ref, full, &d);
    if (!summary) {
        fprintf(stderr, "clbench: suite: %s\n", d.msg);
        rc = CLI_EXIT_RUNTIME;
        goto cleanup;
    }
    cJSON_AddNumberToObject(summary, "wall_s", wall_now() - t0);
    cJSON *reps = cJSON_AddObjectToObject(summary, "repetitions");
    cJSON_AddNumberToObject(reps, "warmup", o->run.warmup);
    cJSON_AddNumberToObject(reps, "runs", o->run.reps);
    cJSON_AddStringToObject(reps, "early_stop", full ? "none: every run is taken"
                                                     : "app rows stop after 3 runs once 3 s have passed");
    cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(summary, "reference"), "source", ref_from);
    cJSON_AddItemToObject(doc, "suite", summary);
    if (!o->quiet && !(o->json && strcmp(o->json, "-") == 0)) {
        clb_suite_print(stdout, summary);
        printf("repetitions: %u warm-up + %u runs per app row%s\n", o->run.warmup, o->run.reps,
               full ? ", every one taken" : " (quick mode: app rows stop after 3 runs once 3 s have passed)");
        printf("suite wall time %.1f s\n", wall_now() - t0);
    }
    rc = cli_finish_doc(o, doc, failed && o->strict ? CLI_EXIT_FAILED : CLI_EXIT_OK);
    doc = NULL; /* freed by cli_finish_doc */
cleanup:
    cJSON_Delete(doc);
    cJSON_Delete(ref);
    clb_inventory_destroy(inv);
    return rc;
}
