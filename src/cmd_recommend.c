/* clbench recommend: ranks devices for a workload class by the time its model predicts from
 * measured parameters (lib/decide/recommend.c, docs/decide.md). The table goes to stderr and
 * only the chosen device's selector to stdout, so CLBENCH_DEVICE=$(clbench recommend ...) works. */
#include "run_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDS 256

typedef struct cand {
    char label[400];    /* file and device name */
    char selector[32];  /* P:D */
    clb_prediction p;
    double measured;    /* the suite's time for the same workload in the same entry, or NaN */
    char measured_row[96];
} cand;

static void selector_of(const cJSON *entry, char *buf, size_t n)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(entry, "selection");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(s, "platform_index");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(s, "device_index");
    if (cJSON_IsNumber(p) && cJSON_IsNumber(d))
        snprintf(buf, n, "%d:%d", p->valueint, d->valueint);
    else
        snprintf(buf, n, "?");
}

static void add_entry(cand *c, size_t *n, const cJSON *entry, const char *file, clb_workload_kind w,
                      const cli_opts *o)
{
    if (*n >= MAX_CANDS)
        return;
    cand *k = &c[(*n)++];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "device"), "CL_DEVICE_NAME");
    snprintf(k->label, sizeof k->label, "%s%s%s", file ? file : "", file ? ": " : "",
             cJSON_IsString(name) ? name->valuestring : "(unnamed device)");
    selector_of(entry, k->selector, sizeof k->selector);
    clb_predict(entry, w, o->size, o->data_on_host, &k->p);
    k->measured = clb_workload_measured(entry, w, o->size, k->measured_row, sizeof k->measured_row);
}

/* Devices from results files; exit code 2 for an unusable file. */
static int from_files(const cli_opts *o, clb_workload_kind w, cand *c, size_t *n)
{
    for (int i = 0; i < o->nfrom; i++) {
        clb_diag d;
        cJSON *doc = clb_doc_load(o->from[i], &d), *e;
        if (!doc) {
            fprintf(stderr, "clbench: %s\n", d.msg);
            return CLI_EXIT_USAGE;
        }
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "devices"))
            add_entry(c, n, e, o->from[i], w, o);
        cJSON_Delete(doc);
    }
    return CLI_EXIT_OK;
}

/* A quick measurement of only the rows the model needs, in workers (the parent opens no
 * OpenCL): every device unless a selection is given. */
static int measure(const cli_opts *o, clb_workload_kind w, cand *c, size_t *n)
{
    cli_opts q = *o;
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], nd = 0;
    const char *const *rows = clb_workload_rows(w);
    int np = 0, failed = 0;
    while (rows[np])
        np++;
    q.patterns = (char **)rows; /* read only: cli_selected matches against them */
    q.npatterns = np;
    q.quiet = 1;
    q.json = NULL;
    q.run.reps = o->run.reps < 10 ? o->run.reps : 3;
    if (!q.sel.platform && !q.sel.device && !q.sel.type)
        q.sel.type = "all";
    int rc = cli_discover(&q, &inv, idx, &nd);
    for (size_t i = 0; rc == CLI_EXIT_OK && i < nd; i++) {
        const clb_device_ref *r = clb_inventory_at(inv, idx[i]);
        fprintf(stderr, "clbench: measuring %s on %u:%u (%s)\n", clb_workload_name(w), r->platform_index,
                r->device_index, r->device_name);
        cJSON *entry = cli_run_one_device(&q, r, &failed);
        cJSON_DeleteItemFromObjectCaseSensitive(entry, "selection");
        cJSON *sel = cJSON_AddObjectToObject(entry, "selection");
        cJSON_AddNumberToObject(sel, "platform_index", r->platform_index);
        cJSON_AddNumberToObject(sel, "device_index", r->device_index);
        add_entry(c, n, entry, NULL, w, o);
        cJSON_Delete(entry);
    }
    clb_inventory_destroy(inv);
    return rc;
}

static int by_time(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->p.ranked != y->p.ranked)
        return x->p.ranked ? -1 : 1;
    return x->p.ranked && x->p.seconds != y->p.seconds ? (x->p.seconds < y->p.seconds ? -1 : 1) : 0;
}

static void print_table(FILE *f, const cand *c, size_t n, clb_workload_kind w, const cli_opts *o)
{
    fprintf(f, "workload %s, size %.0f%s\n", clb_workload_name(w), o->size,
            w == CLB_WORKLOAD_STREAM ? (o->data_on_host ? ", data on the host" : ", data on the device") : "");
    for (size_t i = 0; i < n; i++) {
        const cand *k = &c[i];
        if (!k->p.ranked) {
            fprintf(f, "  -  %-6s %s\n     not ranked: missing %s\n", k->selector, k->label, k->p.missing);
            continue;
        }
        fprintf(f, "%3zu  %-6s %s\n     predicted %.4g s = %s\n     from %s\n", i + 1, k->selector, k->label,
                k->p.seconds, k->p.model, k->p.deciding);
        if (k->p.assumption[0])
            fprintf(f, "     assumption: %s\n", k->p.assumption);
        if (isfinite(k->measured))
            fprintf(f, "     measured by the suite: %.4g s (%s), predicted/measured %.2f\n", k->measured,
                    k->measured_row, k->p.seconds / k->measured);
    }
}

/* Where the suite measured the same workload on every ranked device: does its ranking agree? */
static void print_check(FILE *f, const cand *c, size_t n)
{
    size_t ranked = 0, agree = 1, with = 0;
    for (size_t i = 0; i < n && c[i].p.ranked; i++, ranked++)
        with += isfinite(c[i].measured) ? 1u : 0u;
    if (ranked < 2) {
        fprintf(f, "check: not possible (it needs at least two ranked devices)\n");
        return;
    }
    if (with < ranked) {
        fprintf(f, "check: not possible (the suite's own time for this workload is missing on %zu of %zu ranked devices)\n",
                ranked - with, ranked);
        return;
    }
    for (size_t i = 1; i < ranked; i++)
        agree &= c[i - 1].measured <= c[i].measured;
    fprintf(f, "check: the suite's measured times rank the devices %s\n",
            agree ? "the same way: agree" : "differently: DISAGREE");
}

int cmd_recommend(const cli_opts *o)
{
    clb_workload_kind w;
    cli_opts q = *o;
    size_t n = 0;
    if (!clb_workload_parse(o->workload, &w)) {
        fprintf(stderr, "clbench: recommend needs --workload stream|gemm|stencil|transfer|latency (got '%s')\n",
                o->workload ? o->workload : "");
        return CLI_EXIT_USAGE;
    }
    if (q.size <= 0)
        q.size = clb_workload_default_size(w);
    cand *c = calloc(MAX_CANDS, sizeof *c);
    if (!c)
        return CLI_EXIT_RUNTIME;
    int rc = q.nfrom ? from_files(&q, w, c, &n) : measure(&q, w, c, &n);
    if (rc == CLI_EXIT_OK) {
        qsort(c, n, sizeof *c, by_time);
        print_table(stderr, c, n, w, &q);
        print_check(stderr, c, n);
        if (n == 0 || !c[0].p.ranked) {
            fprintf(stderr, "clbench: no device could be ranked for %s\n", clb_workload_name(w));
            rc = CLI_EXIT_NO_PLATFORM;
        } else {
            printf("%s\n", c[0].selector);
        }
    }
    free(c);
    return rc;
}
