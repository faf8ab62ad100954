/* Command-line interface of the clbench tool. */
#ifndef CLB_CLI_H
#define CLB_CLI_H

#include "clbench.h"
#include "core/settings.h"

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
    double threshold;     /* compare, fleet-check: fraction (0.05 = 5%) */
    int threshold_set;    /* --threshold was given */
    double max_spread;    /* fleet-check --max-spread: fraction (0: the default) */
    int list_benchmarks;  /* run --list */
    int list_icd;         /* list --icd: the ICD loader, its vendor files and libraries */
    double bench_timeout_s; /* run --bench-timeout: deadline of one benchmark's worker (0: default) */
    int emit_device;      /* __worker --emit-device: print the device entry first */
    int mpi;              /* run --mpi: one device per MPI rank, results gathered by rank 0 */
    int allow_shared_device; /* run --mpi --allow-shared-device: ranks may share a device (marked) */
    int quiet;
    int strict;           /* run: exit 1 when a result is not ok/unsupported/inconclusive */
    int provenance_paths; /* report, run --html: absolute host paths as they are */
    clb_run_opts run;
    /* suite (docs/suite.md) */
    int suite_full;            /* --full (the default mode; --quick picks the other) */
    const char *platforms;     /* --platforms all: the default device of every platform */
    const char *variants[8];   /* --variant NAME=OPTIONS, repeatable */
    int nvariants;
    const char *reference;     /* --reference FILE */
    int sequential_only;       /* --sequential-only: the reference rows (peers/suite_reference.sh) */
    char **patterns;      /* borrowed from argv */
    int npatterns;
    const char *workload; /* recommend --workload */
    double size;          /* recommend, tune --size (0: the workload's default) */
    const char *from[16]; /* recommend --from (repeatable), db add --from */
    int nfrom;
    int data_on_host;     /* recommend --data-on host */
    double tune_budget_s; /* tune --budget (0: the app's default) */
    double max_input;     /* --max-input: largest input file in bytes (0: the default) */
    int no_binary_cache;  /* --no-binary-cache: build every program from source, touch no cache */
    char binary_cache_dir[4096]; /* the resolved cache directory (run.binary_cache_dir points here) */
    const char *store;    /* --store=PATH (NULL: the default place); store commands, run/suite --store */
    int store_set;        /* --store given: run, suite and run --mpi add their document to the store */
    int all;              /* store drift --all: every device */
    int argc;             /* the whole command line, for provenance */
    char **argv;
} cli_opts;

/* Parses argv into o. Returns CLI_EXIT_OK, or an exit code after printing the problem
 * (help and --version return -1: print nothing more, exit 0). */
int cli_parse(int argc, char **argv, cli_opts *o);
/* src/cli_paths.c: refuses (exit 2, why on stderr) an output that cannot be written where it
 * points, that is also an input or another output, or a second output to stdout. */
int cli_check_paths(const cli_opts *o);
void cli_usage(FILE *f);

#define CLI_MAX_DEVICES 256

/* Finds platforms and resolves the selection into idx[0..*n); on failure prints why and returns
 * the exit code. *inv: caller frees with clb_inventory_destroy. */
int cli_discover(const cli_opts *o, clb_inventory **inv, size_t *idx, size_t *n);
/* Opens a device, printing why it failed; *dev: caller frees with clb_device_destroy. */
int cli_open_device(const clb_device_ref *r, clb_device **dev);
/* Writes --json and the reports of doc (then frees doc); returns rc or the I/O failure's code. */
int cli_finish_doc(const cli_opts *o, cJSON *doc, int rc);
/* 1 for the statuses that make `run --strict` exit with CLI_EXIT_FAILED: all but ok,
 * unsupported and inconclusive. */
int cli_result_counts_as_failure(clb_status s);

/* src/cmd_info.c: list and info. */
int cmd_list(const cli_opts *o);
int cmd_info(const cli_opts *o);
/* src/cmd_run.c: run (on the run engine, src/run_engine.h); src/cmd_worker.c: the worker side. */
int cmd_run(const cli_opts *o);
int cmd_worker(const cli_opts *o);
/* src/cmd_mpi.c: run --mpi (MPI builds; otherwise it explains and exits 2). */
int cmd_run_mpi(const cli_opts *o);
/* The clb_fault named wrong, partial or skip (--inject-fault=KIND, CLBENCH_FAULT=NAME:KIND); -1
 * for another name. cli_fault_name is the inverse ("" for none). */
int cli_fault_kind(const char *name);
const char *cli_fault_name(int kind);

/* The run options (clb_run_opts, and the tool's --no-binary-cache) as flags, one table in
 * src/cli.c: the parser takes them by it and a worker's argv is made by it, so parent and worker
 * cannot disagree on an option. */
typedef enum cli_run_kind {
    CLI_RUN_FLAG,    /* int set to 1 by --flag (default 0) */
    CLI_RUN_COUNT,   /* unsigned, an integer in [lo, hi] */
    CLI_RUN_SECONDS, /* double, seconds in [lo, hi] */
    CLI_RUN_MS,      /* double field in seconds, given in milliseconds in [lo, hi] */
    CLI_RUN_FAULT    /* int clb_fault, --flag[=wrong|partial|skip] */
} cli_run_kind;
typedef struct cli_run_opt {
    const char *flag;   /* without the leading "--" */
    cli_run_kind kind;
    size_t off, size;   /* the field in cli_opts (run.* for clb_run_opts's) */
    double lo, hi;      /* accepted values, in the flag's unit */
    const char *expect; /* the refusal's "expected ..." */
} cli_run_opt;
#define CLI_RUN_ARGV_MAX 32
/* Row i of the table, NULL past its end. */
const cli_run_opt *cli_run_opt_row(size_t i);
/* The flags that give a worker o's run options: one per row whose field differs from the
 * parser's start (clb_run_opts_default, the tool's flags 0). */
typedef struct cli_run_argv {
    char text[CLI_RUN_ARGV_MAX][64];
    char *argv[CLI_RUN_ARGV_MAX + 1];
    int argc;
} cli_run_argv;
void cli_run_opts_to_argv(const cli_opts *o, cli_run_argv *out);

/* src/options_env.c: the environment variables the tool reads, one table. cli_env_load maps
 * them (exit code 2 and a message for a value of the wrong kind) and installs the library's
 * part with clb_settings_set; --help lists them (cli_env_usage). Strings point into the
 * environment. */
typedef struct cli_env {
    clb_settings lib;            /* sizes, forms, knobs and paths of the library */
    const char *device;          /* CLBENCH_DEVICE: the selector when none is given */
    const char *rank_device;     /* CLBENCH_RANK_DEVICE: run --mpi, this rank's selector */
    const char *suite_reference; /* CLBENCH_SUITE_REFERENCE: suite's reference file */
    const char *xdg_data_home;   /* the user's suite reference lives below it */
    int isolation_off;           /* CLBENCH_ISOLATION=off: every row in the run process */
    const char *fault;           /* CLBENCH_FAULT=NAME:KIND: wrong, partial, skip in row NAME */
} cli_env;
int cli_env_load(void);
const cli_env *cli_env_get(void);
void cli_env_usage(FILE *f);

/* Human-readable output. */
void cli_print_device_header(FILE *f, const clb_device_ref *r);
void cli_print_result_header(FILE *f);
void cli_print_result(FILE *f, const clb_result *res);
/* A failure's message on stderr, and its exit code: CLI_EXIT_USAGE for CLB_ERR_USAGE, else
 * CLI_EXIT_RUNTIME. */
int cli_fail_diag(const clb_diag *d);
/* A Unix time as UTC ISO 8601 ("2026-11-25T22:38:39Z"); "-" for none (t <= 0). */
void cli_format_time(int64_t t, char *buf, size_t n);

/* src/cmd_report.c: the report and compare commands, and the reports of a run. */
int cmd_report(const cli_opts *o);
int cmd_compare(const cli_opts *o);
/* src/cmd_suite.c: suite (apps and characterization, scores against the reference). */
int cmd_suite(const cli_opts *o);
/* src/cli_paths.c: the user's suite reference, $XDG_DATA_HOME (else ~/.local/share)/clbench/
 * suite_reference.json, into buf; 0 when neither variable is set. It overrides the built-in
 * reference when it exists. */
int cli_suite_user_reference(char *buf, size_t n);
/* src/cli_paths.c: the kernel binary cache's directory, $XDG_CACHE_HOME (else ~/.cache)/clbench/
 * binaries, into buf; 0 when neither variable gives an absolute directory. */
int cli_binary_cache_dir(char *buf, size_t n);
/* src/cmd_cache.c: cache list|clear. */
int cmd_cache(const cli_opts *o);
/* src/cmd_fleet.c: fleet-check. */
int cmd_fleet_check(const cli_opts *o);
/* src/cmd_recommend.c, src/cmd_tune.c, src/cmd_db.c: recommend, tune, db (docs/decide.md). */
int cmd_recommend(const cli_opts *o);
int cmd_tune(const cli_opts *o);
int cmd_db(const cli_opts *o);
/* src/cmd_store.c: store add|list|docs|show|history|export (docs/store.md). cli_store_path: the
 * store's file (--store, else $XDG_DATA_HOME or ~/.local/share, /clbench/store.sqlite; with
 * create its directory is made); cli_store_doc adds a document a command wrote (run --store),
 * cli_store_file the file run --mpi wrote. */
int cmd_store(const cli_opts *o);
int cli_store_path(const cli_opts *o, int create, char *buf, size_t n);
int cli_store_doc(const cli_opts *o, const cJSON *doc);
int cli_store_file(const cli_opts *o, const char *path);
/* src/cmd_store_wire.c, on a store the caller opened (cli_store_open): store drift
 * [DEVICE|--all]; fleet-check --store with the options fo; store history --html (sr: the row's
 * history). Each returns the command's exit code. */
struct clb_store;
struct clb_store_series;
int cli_store_open(const cli_opts *o, struct clb_store **s);
int cli_store_drift(const cli_opts *o, struct clb_store *s);
int cli_fleet_check_store(struct clb_store *s, const clb_fleet_opts *fo);
int cli_store_history_html(const cli_opts *o, struct clb_store *s, const struct clb_store_series *sr);
/* src/cmd_store_site.c: store site DIR, the store as a static site (docs/store.md, "The site").
 * s: the open store; the exit code. cli_check_site_dir (src/cli_paths.c): DIR may be written
 * (exit 2 when not) and holds no input (the store file). */
int cli_store_site(struct clb_store *s, const char *dir);
int cli_check_site_dir(const char *dir, const char *store);
/* Writes the --html/--csv/--markdown outputs asked for in o for one document named name. */
int cli_write_reports(const cli_opts *o, const cJSON *doc, const char *name);

/* Stop signals (src/stop.c): SIGINT, SIGTERM and SIGHUP set a flag that runs honour. */
void cli_catch_stop_signals(void);
void cli_release_stop_signals(void);
int cli_stop_signal(void); /* the signal that asked to stop, 0 when none */
const volatile int *cli_stop_flag(void);

/* src/worker_line.c: one line from a worker, of len bytes (it may hold NUL bytes). A result
 * is accepted only for the benchmark `expect` (NULL: none expected); a device entry is handed
 * over in *device (caller frees). BAD: why says what the line was, with its first bytes. */
typedef enum cli_wline { CLI_WLINE_BAD, CLI_WLINE_DEVICE, CLI_WLINE_RESULT } cli_wline;
cli_wline cli_worker_line(const char *line, size_t len, const char *expect, cJSON **device,
                          clb_result *res, char *why, size_t n);

#endif
