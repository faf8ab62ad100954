/* Command-line interface of the clbench tool. */
#ifndef CLB_CLI_H
#define CLB_CLI_H

#include "clbench.h"

/* Exit codes (documented in docs/cli.md). */
enum {
    CLI_EXIT_OK = 0,          /* success: the run completed and its results were written */
    CLI_EXIT_FAILED = 1,      /* run --strict: a result not ok, unsupported or inconclusive */
    CLI_EXIT_USAGE = 2,       /* bad flag, value, selection or pattern */
    CLI_EXIT_NO_PLATFORM = 3, /* no OpenCL platform or no device at all */
    CLI_EXIT_RUNTIME = 4      /* OpenCL or I/O failure outside a benchmark */
};

typedef struct cli_opts {
    const char *command;  /* "list", "info", "run", "report", "compare" */
    clb_selector sel;
    const char *json;     /* path or "-" */
    const char *html;     /* report outputs (report, run), paths or "-" */
    const char *csv;
    const char *markdown;
    double threshold;     /* compare: fraction (0.05 = 5%) */
    int list_benchmarks;  /* run --list */
    int quiet;
    int strict;           /* run: exit 1 when a result is not ok/unsupported/inconclusive */
    clb_run_opts run;
    char **patterns;      /* borrowed from argv */
    int npatterns;
    int argc;             /* the whole command line, for provenance */
    char **argv;
} cli_opts;

/* Parses argv into o. Returns CLI_EXIT_OK, or an exit code after printing the problem
 * (help and --version return -1: print nothing more, exit 0). */
int cli_parse(int argc, char **argv, cli_opts *o);
void cli_usage(FILE *f);

/* Human-readable output. */
void cli_print_device_header(FILE *f, const clb_device_ref *r);
void cli_print_result_header(FILE *f);
void cli_print_result(FILE *f, const clb_result *res);

/* src/report_cmd.c: the report and compare commands, and the reports of a run. */
int cmd_report(const cli_opts *o);
int cmd_compare(const cli_opts *o);
/* Writes the --html/--csv/--markdown outputs asked for in o for one document named name. */
int cli_write_reports(const cli_opts *o, const cJSON *doc, const char *name);

#endif
