/* clbench tune APP: runs the tuning service's search for an app explicitly, in a worker like
 * run (the parent opens no OpenCL), prints the candidate table and stores the winner in the
 * cache (docs/decide.md). */
#include "run_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *str_of(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num_of(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The candidate table of one tuned row (params.tune_table). Returns 1 when a winner exists. */
static int print_tuned(FILE *f, const cJSON *res)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(res, "params"), *c;
    const cJSON *table = cJSON_GetObjectItemCaseSensitive(p, "tune_table");
    fprintf(f, "%s: %s, strategy %s, searched at n=%.0f; key '%s', cache %s\n", str_of(res, "name"),
            str_of(res, "status"), str_of(p, "tune_strategy"),
            isfinite(num_of(p, "tune_screen_n")) ? num_of(p, "tune_screen_n") : num_of(p, "n"), str_of(p, "tune_key"),
            str_of(p, "tune_cache"));
    fprintf(f, "  %-44s %12s %20s  %s\n", "configuration", "median [s]", "rate", "valid?");
    cJSON_ArrayForEach(c, table)
    {
        int ok = strcmp(str_of(c, "status"), "ok") == 0;
        if (ok)
            fprintf(f, "  %-44s %12.4g %9.4g %-10s  yes%s\n", str_of(c, "config"), num_of(c, "median_s"),
                    num_of(c, "rate"), str_of(c, "rate_unit"),
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "winner")) ? "  <- winner" : "");
        else
            fprintf(f, "  %-44s %12s %20s  no: %s (%s)\n", str_of(c, "config"), "-", "-", str_of(c, "status"),
                    str_of(c, "reason"));
    }
    if (strcmp(str_of(res, "status"), "ok") == 0)
        fprintf(f, "  row at n=%.0f: %.4g %s\n", num_of(p, "n"), num_of(res, "value"), str_of(res, "unit"));
    else
        fprintf(f, "  row not ok: %s\n", str_of(res, "reason"));
    return cJSON_GetArraySize(table) > 0 && strcmp(str_of(p, "tune_source"), "search") == 0;
}

/* The size and budget reach the worker through the environment it inherits. */
static void export_knobs(const cli_opts *o, int euler)
{
    char buf[64];
    if (o->size > 0) {
        snprintf(buf, sizeof buf, "%.0f", o->size);
        setenv(euler ? "CLBENCH_EULER_N" : "CLBENCH_GEMM_N", buf, 1);
    }
    if (o->tune_budget_s > 0) {
        snprintf(buf, sizeof buf, "%g", o->tune_budget_s);
        setenv("CLBENCH_TUNE_BUDGET", buf, 1);
    }
    cli_env_load(); /* this process sees what its workers see */
}

int cmd_tune(const cli_opts *o)
{
    static char *gemm[] = {"app.sgemm.tuned"}, *euler[] = {"app.euler.string.f32.sweep_honeycomb"};
    int is_euler = o->npatterns == 1 && strcmp(o->patterns[0], "euler") == 0;
    if (o->npatterns != 1 || (!is_euler && strcmp(o->patterns[0], "gemm") != 0)) {
        fprintf(stderr, "clbench: tune takes one app: gemm or euler\n");
        return CLI_EXIT_USAGE;
    }
    cli_opts q = *o;
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    int failed = 0, found = 0;
    q.patterns = is_euler ? euler : gemm;
    q.npatterns = 1;
    q.quiet = 1;
    q.json = NULL;
    q.run.retune = 1;
    export_knobs(o, is_euler);
    int rc = cli_discover(&q, &inv, idx, &n);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        printf("device %u:%u %s\n", r->platform_index, r->device_index, r->device_name);
        cJSON *entry = cli_run_one_device(&q, r, &failed), *res;
        cJSON_ArrayForEach(res, cJSON_GetObjectItemCaseSensitive(entry, "results"))
            found += print_tuned(stdout, res);
        cJSON_Delete(entry);
    }
    clb_inventory_destroy(inv);
    return rc != CLI_EXIT_OK ? rc : found ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}
