/* clbench report and clbench compare: they read result files, never an OpenCL device. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef clb_error (*writer_fn)(FILE *f, const clb_report_src *src, size_t n);

/* Writes one output to path ("-": stdout), whole or not at all. */
static int write_one(const char *path, writer_fn fn, const clb_report_src *src, size_t n)
{
    clb_output *o = NULL;
    FILE *f = NULL;
    clb_diag d;
    if (clb_output_open(path, &o, &f, &d) == CLB_OK)
        clb_output_close(o, fn(f, src, n) == CLB_OK, &d);
    if (d.err != CLB_OK) {
        fprintf(stderr, "clbench: %s\n", d.msg);
        return CLI_EXIT_RUNTIME;
    }
    return CLI_EXIT_OK;
}

/* The HTML report with host paths as they are (--provenance-paths). */
static clb_error html_with_paths(FILE *f, const clb_report_src *src, size_t n)
{
    clb_html_opts h = {1};
    return clb_report_html_ex(f, src, n, &h);
}

static int write_reports(const cli_opts *o, const clb_report_src *src, size_t n)
{
    int rc = CLI_EXIT_OK;
    if (o->html)
        rc = write_one(o->html, o->provenance_paths ? html_with_paths : clb_report_html, src, n);
    if (o->csv && rc == CLI_EXIT_OK)
        rc = write_one(o->csv, clb_report_csv, src, n);
    if (o->markdown && rc == CLI_EXIT_OK)
        rc = write_one(o->markdown, clb_report_markdown, src, n);
    return rc;
}

int cli_write_reports(const cli_opts *o, const cJSON *doc, const char *name)
{
    clb_report_src src = {name, doc};
    return write_reports(o, &src, 1);
}

/* Loads every file; on failure prints file:line:column and returns CLI_EXIT_USAGE. */
static int load_all(char **paths, int n, cJSON **docs)
{
    for (int i = 0; i < n; i++) {
        clb_diag d;
        docs[i] = clb_doc_load(paths[i], &d);
        if (!docs[i]) {
            fprintf(stderr, "clbench: %s\n", d.msg);
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_EXIT_OK;
}

static void free_all(cJSON **docs, int n)
{
    for (int i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
}

int cmd_report(const cli_opts *o)
{
    if (o->npatterns == 0 || (!o->html && !o->csv && !o->markdown)) {
        fprintf(stderr, "clbench: report needs RESULTS.json files and at least one of --html, "
                        "--csv, --markdown\n");
        return CLI_EXIT_USAGE;
    }
    cJSON **docs = calloc((size_t)o->npatterns, sizeof *docs);
    clb_report_src *src = calloc((size_t)o->npatterns, sizeof *src);
    int rc = docs && src ? load_all(o->patterns, o->npatterns, docs) : CLI_EXIT_RUNTIME;
    for (int i = 0; rc == CLI_EXIT_OK && i < o->npatterns; i++) {
        src[i].name = o->patterns[i];
        src[i].doc = docs[i];
    }
    if (rc == CLI_EXIT_OK)
        rc = write_reports(o, src, (size_t)o->npatterns);
    free(src);
    if (docs)
        free_all(docs, o->npatterns);
    return rc;
}

int cmd_compare(const cli_opts *o)
{
    if (o->npatterns != 2) {
        fprintf(stderr, "clbench: compare takes exactly two files: BASE.json NEW.json\n");
        return CLB_COMPARE_UNUSABLE;
    }
    cJSON **docs = calloc(2, sizeof *docs);
    if (!docs || load_all(o->patterns, 2, docs) != CLI_EXIT_OK) {
        if (docs)
            free_all(docs, 2);
        return CLB_COMPARE_UNUSABLE;
    }
    printf("base: %s\nnew:  %s\n", o->patterns[0], o->patterns[1]);
    clb_diag d;
    int rc = clb_compare(stdout, docs[0], docs[1], o->threshold, &d);
    if (rc == CLB_COMPARE_UNUSABLE)
        fprintf(stderr, "clbench: compare: %s\n", d.msg);
    else
        printf("compare: %s\n", rc == CLB_COMPARE_REGRESSION ? "REGRESSION" : "no regression");
    free_all(docs, 2);
    return rc;
}
