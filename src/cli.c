/* Option parsing: one table of long options, one loop. */
#define _GNU_SOURCE
#include "cli.h"
#include "git_sha.h" /* generated at build time: CLB_GIT_SHA */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 256, OPT_LIST, OPT_QUIET, OPT_VERSION, OPT_HTML, OPT_CSV, OPT_MARKDOWN,
       OPT_THRESHOLD, OPT_BENCH_TIMEOUT, OPT_EMIT_DEVICE, OPT_ALL_DEVICES, OPT_MPI, OPT_MAX_SPREAD,
       OPT_STRICT, OPT_FULL, OPT_PLATFORMS, OPT_VARIANT, OPT_REFERENCE, OPT_SEQ_ONLY,
       OPT_WORKLOAD, OPT_SIZE, OPT_FROM, OPT_DATA_ON, OPT_BUDGET_S, OPT_PROVENANCE_PATHS,
       OPT_MAX_INPUT, OPT_ALLOW_SHARED, OPT_ICD, OPT_STORE, OPT_ALL,
       OPT_RUN /* OPT_RUN + i: row i of run_rows */ };

static const struct option long_opts[] = {
    {"platform", required_argument, NULL, 'p'},  {"device", required_argument, NULL, 'd'},
    {"type", required_argument, NULL, 't'},      {"json", required_argument, NULL, OPT_JSON},
    {"list", no_argument, NULL, OPT_LIST},       {"quiet", no_argument, NULL, OPT_QUIET},
    {"version", no_argument, NULL, OPT_VERSION}, {"help", no_argument, NULL, 'h'},
    {"html", required_argument, NULL, OPT_HTML}, {"csv", required_argument, NULL, OPT_CSV},
    {"markdown", required_argument, NULL, OPT_MARKDOWN},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"bench-timeout", required_argument, NULL, OPT_BENCH_TIMEOUT},
    {"emit-device", no_argument, NULL, OPT_EMIT_DEVICE},
    {"all-devices", no_argument, NULL, OPT_ALL_DEVICES},
    {"mpi", no_argument, NULL, OPT_MPI},
    {"allow-shared-device", no_argument, NULL, OPT_ALLOW_SHARED},
    {"max-spread", required_argument, NULL, OPT_MAX_SPREAD},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"full", no_argument, NULL, OPT_FULL},
    {"platforms", required_argument, NULL, OPT_PLATFORMS},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"sequential-only", no_argument, NULL, OPT_SEQ_ONLY},
    {"workload", required_argument, NULL, OPT_WORKLOAD}, {"size", required_argument, NULL, OPT_SIZE},
    {"from", required_argument, NULL, OPT_FROM},         {"data-on", required_argument, NULL, OPT_DATA_ON},
    {"budget", required_argument, NULL, OPT_BUDGET_S},
    {"provenance-paths", no_argument, NULL, OPT_PROVENANCE_PATHS},
    {"max-input", required_argument, NULL, OPT_MAX_INPUT},
    {"icd", no_argument, NULL, OPT_ICD},
    {"store", optional_argument, NULL, OPT_STORE},
    {"all", no_argument, NULL, OPT_ALL},
    {NULL, 0, NULL, 0}};

void cli_usage(FILE *f)
{
    fputs("usage: clbench COMMAND [options]\n"
          "commands:\n"
          "  list                      platforms and devices (as clinfo -l)\n"
          "  list --icd                the ICD loader, the .icd files (OCL_ICD_VENDORS or /etc/OpenCL/vendors),\n"
          "                            their libraries and the platforms in them\n"
          "  info [--json FILE|-]      every property of the selected devices, and derived ones\n"
          "  run [PATTERN...]          run benchmarks whose names match the globs (default: all)\n"
          "      --list                print the benchmark registry and exit\n"
          "      --reps N              timed repetitions (default 10)\n"
          "      --time-budget S       repeat each benchmark for S seconds instead (at least 3 reps)\n"
          "      --warmup N            discarded warm-up launches (default 1, at least 1)\n"
          "      --target-ms MS        calibrated duration of one launch (default 50)\n"
          "      --watchdog-ms MS      longest allowed launch (default 200)\n"
          "      --quick               smallest meaningful sizes (smoke tests)\n"
          "      --all-reps            app rows take every repetition (no stop after 3 runs once 3 s passed)\n"
          "      --strict              exit 1 when a result is not ok, unsupported or inconclusive (CI)\n"
          "      --retune              app.*gemm.tuned: search again instead of the cached tiles\n"
          "      --inject-fault[=KIND] validation self-check: plant a fault (wrong, the default; partial;\n"
          "                            skip) in every output before validation: each row must then\n"
          "                            report invalid_result (docs/measurement.md#validation)\n"
          "      --no-binary-cache     build every kernel from source: the binary cache\n"
          "                            (docs/binary_cache.md) is neither read nor written\n"
          "      --json FILE|-         write results (docs/schema.md); '-' is stdout\n"
          "      --mpi                 under mpirun/srun: each rank runs the device of its node-local\n"
          "                            rank (CLBENCH_RANK_DEVICE overrides), rank 0 writes one JSON\n"
          "      --allow-shared-device (--mpi) let ranks of a node share a device instead of exiting 2;\n"
          "                            their results are marked shared_device\n"
          "      --bench-timeout S     a benchmark without a result after S seconds is killed\n"
          "                            (status timeout; default 600, or 20x --time-budget)\n"
          "      --html FILE           also write the HTML report of this run (--csv, --markdown too)\n"
          "  suite [--quick|--full]     every app at fixed sizes and a quick characterization; Peak and\n"
          "                            Average Scores against the reference (docs/suite.md)\n"
          "      --platforms all       the default device of every platform, side by side\n"
          "      --variant NAME=OPTS   run the OpenCL rows again with OPTS appended to every build (repeatable)\n"
          "      --reference FILE      reference times (default: the user's file, else the built-in one)\n"
          "      --sequential-only     only the sequential rows (what peers/suite_reference.sh measures)\n"
          "      --list                print the suite's table of apps (rows, sizes, work models) as\n"
          "                            Markdown, docs/suite.md's \"What runs\", and exit\n"
          "  report RESULTS.json...    reports of result files: --html FILE, --csv FILE, --markdown FILE\n"
          "      --provenance-paths    (report, run --html) show absolute host paths in the HTML as they are\n"
          "      --max-input BYTES     largest input file read (default 1G; K, M, G suffixes)\n"
          "  compare BASE.json NEW.json [--threshold 5%]\n"
          "                            NEW/BASE ratios; exit 0 no regression, 1 regression, 2 unusable input\n"
          "  fleet-check RESULTS.json... [--threshold 5%]\n"
          "                            flag devices slower than their identical peers; exit 0 none, 1 flagged\n"
          "                            (--max-spread 3%: results noisier than this are not judged)\n"
          "      --store[=PATH]        (fleet-check) each device's latest run in the store instead of files\n"
          "  recommend --workload stream|gemm|stencil|transfer|latency [--size N] [--from R.json]...\n"
          "            [--data-on host|device]  rank the devices by predicted time (table on stderr);\n"
          "                            stdout: the chosen device's selector P:D; exit 3 nothing rankable\n"
          "  tune gemm|euler [--size N] [--budget S]  search again (GEMM tiles, Euler honeycomb height)\n"
          "  db list|show NAME|match   the device database; db match: the selected device's entry\n"
          "  cache list|clear          the kernel binary cache: its entries, or remove them\n"
          "  store add|list|docs|show|history|export|drift|site  the results store, one SQLite file (docs/store.md):\n"
          "      add FILE...           keep results, suite and fleet documents (adding one twice changes nothing)\n"
          "      list | docs           the devices (key, model, driver, host, last run, runs) | the documents\n"
          "      show DEVICE           a device and its rows' last values (DEVICE: id, key or a unique part)\n"
          "      history DEVICE ROW    one row's runs on one device: time, value, cv, n, status\n"
          "      export [DOC]          a document as it was written (DOC: id or hash prefix), or all as an array\n"
          "      history ... --html FILE  also the history as an HTML page with its plot\n"
          "      drift [DEVICE|--all]  a change-point test per (device, row) history (docs/drift.md): exit 1 when\n"
          "                            a row moved beyond its noise, naming the runs (--threshold 3%: the floor;\n"
          "                            --json FILE|-: the summary and the moved rows as JSON)\n"
          "      site DIR              the store as a static site in DIR: index, device, model and scores pages\n"
          "      --store[=PATH]        the store (default $XDG_DATA_HOME/clbench/store.sqlite); run, suite and\n"
          "                            run --mpi: also add the document they write (--store PATH.sqlite too)\n"
          "device selection (every command; default: CLBENCH_DEVICE, else the first GPU, else the first device):\n"
          "  -p, --platform P          platform index or name substring\n"
          "  -d, --device D            flat index, P:D, or name substring (case-insensitive)\n"
          "  -t, --type T              cpu|gpu|accelerator|all\n"
          "      --all-devices         every device (= --type all); run characterizes several devices\n"
          "                            concurrently, then re-runs the rows that share the host alone\n"
          "other: --quiet, --version, -h/--help\n"
          "exit codes: 0 ok (run: completed and written, whatever the statuses), 1 run --strict: a result\n"
          "failed (compare: a regression), 2 usage (also an unusable input or output path), 3 no OpenCL\n"
          "platform/device, 4 runtime error\n",
          f);
    cli_env_usage(f);
}

/* Strict number parsing: the whole argument, finite, within [lo, hi]. */
static int parse_double(const char *s, double lo, double hi, double *v)
{
    char *end = NULL;
    errno = 0;
    *v = strtod(s, &end);
    return errno == 0 && end != s && *end == '\0' && isfinite(*v) && *v >= lo && *v <= hi;
}

static int bad_value(const char *flag, const char *value, const char *expect)
{
    fprintf(stderr, "clbench: %s: invalid value '%s' (expected %s)\n", flag, value, expect);
    return CLI_EXIT_USAGE;
}

/* "5%", "5" (both percent) or "0.5%"; stored as a fraction in *frac. flag names the option. */
static int parse_percent(const char *flag, const char *arg, double *frac)
{
    char num[64];
    double v;
    size_t len = strlen(arg);
    snprintf(num, sizeof num, "%s", arg);
    if (len > 0 && len < sizeof num && num[len - 1] == '%')
        num[len - 1] = '\0';
    if (!parse_double(num, 0, 1000, &v))
        return bad_value(flag, arg, "a percentage from 0 to 1000, e.g. 5%");
    *frac = v / 100;
    return CLI_EXIT_OK;
}

/* "N", "NK", "NM", "NG" (powers of 1024), from 1 byte to 1 TiB. */
static int parse_bytes(const char *flag, const char *arg, double *bytes)
{
    static const char units[] = "KMG";
    char num[64];
    double v, scale = 1;
    size_t len = strlen(arg);
    snprintf(num, sizeof num, "%s", arg);
    const char *u = len > 0 && len < sizeof num ? strchr(units, num[len - 1]) : NULL;
    if (u && *u) {
        num[len - 1] = '\0';
        scale = pow(1024, (double)(u - units + 1));
    }
    if (!parse_double(num, 1, 1e12, &v) || v != floor(v) || v * scale > 1099511627776.0)
        return bad_value(flag, arg, "bytes from 1 to 1T, e.g. 4096, 64K, 512M, 2G");
    *bytes = v * scale;
    return CLI_EXIT_OK;
}

static const char *const fault_kinds[] = {"", "wrong", "partial", "skip"};

int cli_fault_kind(const char *name)
{
    for (int k = CLB_FAULT_WRONG; k <= CLB_FAULT_SKIP; k++)
        if (strcmp(name, fault_kinds[k]) == 0)
            return k;
    return -1;
}

const char *cli_fault_name(int kind)
{
    return kind >= CLB_FAULT_WRONG && kind <= CLB_FAULT_SKIP ? fault_kinds[kind] : "";
}

/* The run options (clb_run_opts, and the tool's flags that shape a worker's run): the parser takes
 * them by this table and the run engine gives them to its workers by it (cli_run_opts_to_argv),
 * so a new run option is one row here (and its line in --help and docs/cli.md when it is for
 * people). Fields are cli_opts's; flags default to 0. */
#define RUN_FIELD(f) offsetof(cli_opts, run.f), sizeof(((cli_opts *)0)->run.f)
#define TOOL_FIELD(f) offsetof(cli_opts, f), sizeof(((cli_opts *)0)->f)
static const cli_run_opt run_rows[] = {
    {"reps", CLI_RUN_COUNT, RUN_FIELD(reps), 1, 1e5, "an integer from 1 to 100000"},
    {"time-budget", CLI_RUN_SECONDS, RUN_FIELD(time_budget_s), 0.001, 86400, "seconds from 0.001 to 86400"},
    {"warmup", CLI_RUN_COUNT, RUN_FIELD(warmup), 1, 1000, "an integer from 1 to 1000"},
    {"target-ms", CLI_RUN_MS, RUN_FIELD(target_s), 0.01, 10000, "milliseconds from 0.01 to 10000"},
    {"watchdog-ms", CLI_RUN_MS, RUN_FIELD(watchdog_s), 0.01, 60000, "milliseconds from 0.01 to 60000"},
    {"quick", CLI_RUN_FLAG, RUN_FIELD(quick), 0, 0, NULL},
    {"inject-fault", CLI_RUN_FAULT, RUN_FIELD(inject_fault), 0, 0, "wrong, partial or skip"},
    {"retune", CLI_RUN_FLAG, RUN_FIELD(retune), 0, 0, NULL},
    {"largest-only", CLI_RUN_FLAG, RUN_FIELD(largest_only), 0, 0, NULL}, /* a concurrent pass */
    {"all-reps", CLI_RUN_FLAG, RUN_FIELD(all_reps), 0, 0, NULL},
    /* the tool's, not the library's: a worker told it resolves no cache directory (cli_parse) */
    {"no-binary-cache", CLI_RUN_FLAG, TOOL_FIELD(no_binary_cache), 0, 0, NULL},
};
#define RUN_ROWS (sizeof run_rows / sizeof run_rows[0])
_Static_assert(RUN_ROWS <= CLI_RUN_ARGV_MAX, "CLI_RUN_ARGV_MAX: one argument per run option");

const cli_run_opt *cli_run_opt_row(size_t i) { return i < RUN_ROWS ? &run_rows[i] : NULL; }

/* Sets row r's field of o from arg; CLI_EXIT_OK or the refusal's exit code. */
static int apply_run(const cli_run_opt *r, const char *arg, cli_opts *o)
{
    char *field = (char *)o + r->off;
    char flag[48];
    double v;
    int i = 1;
    unsigned u;
    snprintf(flag, sizeof flag, "--%s", r->flag);
    switch (r->kind) {
    case CLI_RUN_FLAG: break;
    case CLI_RUN_FAULT:
        if ((i = cli_fault_kind(arg ? arg : "wrong")) < 0)
            return bad_value(flag, arg, r->expect);
        break;
    case CLI_RUN_COUNT:
        if (!parse_double(arg, r->lo, r->hi, &v) || v != floor(v))
            return bad_value(flag, arg, r->expect);
        u = (unsigned)v;
        memcpy(field, &u, sizeof u);
        return CLI_EXIT_OK;
    case CLI_RUN_SECONDS:
    case CLI_RUN_MS:
        if (!parse_double(arg, r->lo, r->hi, &v))
            return bad_value(flag, arg, r->expect);
        v = r->kind == CLI_RUN_MS ? v * 1e-3 : v;
        memcpy(field, &v, sizeof v);
        return CLI_EXIT_OK;
    }
    memcpy(field, &i, sizeof i);
    return CLI_EXIT_OK;
}

/* "--flag" or "--flag=value" for row r's field of o, into buf (n bytes). */
static void run_arg(const cli_run_opt *r, const cli_opts *o, char *buf, size_t n)
{
    const char *field = (const char *)o + r->off;
    double v;
    int i;
    unsigned u;
    switch (r->kind) {
    case CLI_RUN_FLAG: snprintf(buf, n, "--%s", r->flag); break;
    case CLI_RUN_FAULT:
        memcpy(&i, field, sizeof i);
        snprintf(buf, n, "--%s=%s", r->flag, cli_fault_name(i));
        break;
    case CLI_RUN_COUNT:
        memcpy(&u, field, sizeof u);
        snprintf(buf, n, "--%s=%u", r->flag, u);
        break;
    case CLI_RUN_SECONDS:
    case CLI_RUN_MS:
        memcpy(&v, field, sizeof v);
        snprintf(buf, n, "--%s=%.17g", r->flag, r->kind == CLI_RUN_MS ? v * 1e3 : v);
        break;
    }
}

void cli_run_opts_to_argv(const cli_opts *o, cli_run_argv *out)
{
    cli_opts def; /* the parser's start: zero, the library's run defaults */
    memset(&def, 0, sizeof def);
    clb_run_opts_default(&def.run);
    out->argc = 0;
    for (size_t i = 0; i < RUN_ROWS; i++) {
        const cli_run_opt *r = &run_rows[i];
        if (memcmp((const char *)o + r->off, (const char *)&def + r->off, r->size) == 0)
            continue; /* the worker starts from the same defaults */
        run_arg(r, o, out->text[out->argc], sizeof out->text[out->argc]);
        out->argv[out->argc] = out->text[out->argc];
        out->argc++;
    }
    out->argv[out->argc] = NULL;
}

/* Applies one parsed option; returns CLI_EXIT_OK or an exit code. */
static int apply(int c, const char *arg, cli_opts *o)
{
    double v;
    if (c >= OPT_RUN && (size_t)(c - OPT_RUN) < RUN_ROWS)
        return apply_run(&run_rows[c - OPT_RUN], arg, o);
    switch (c) {
    case 'p': o->sel.platform = arg; break;
    case 'd': o->sel.device = arg; break;
    case 't': o->sel.type = arg; break;
    case OPT_JSON: o->json = arg; break;
    case OPT_LIST: o->list_benchmarks = 1; break;
    case OPT_ICD: o->list_icd = 1; break;
    case OPT_STORE: o->store_set = 1, o->store = arg; break;
    case OPT_ALL: o->all = 1; break;
    case OPT_QUIET: o->quiet = 1; break;
    case OPT_STRICT: o->strict = 1; break;
    case OPT_PROVENANCE_PATHS: o->provenance_paths = 1; break;
    case OPT_HTML: o->html = arg; break;
    case OPT_CSV: o->csv = arg; break;
    case OPT_MARKDOWN: o->markdown = arg; break;
    case OPT_THRESHOLD: o->threshold_set = 1; return parse_percent("--threshold", arg, &o->threshold);
    case OPT_BENCH_TIMEOUT:
        if (!parse_double(arg, 0.1, 86400, &v))
            return bad_value("--bench-timeout", arg, "seconds from 0.1 to 86400");
        o->bench_timeout_s = v;
        break;
    case OPT_EMIT_DEVICE: o->emit_device = 1; break;
    case OPT_ALL_DEVICES: o->sel.type = "all"; break;
    case OPT_MPI: o->mpi = 1; break;
    case OPT_ALLOW_SHARED: o->allow_shared_device = 1; break;
    case OPT_FULL: o->suite_full = 1; break;
    case OPT_PLATFORMS:
        if (strcmp(arg, "all") != 0)
            return bad_value("--platforms", arg, "all");
        o->platforms = arg;
        break;
    case OPT_VARIANT:
        if (o->nvariants == 8 || !strchr(arg, '=') || arg[0] == '=')
            return bad_value("--variant", arg, "NAME=OPTIONS, at most 8 times");
        o->variants[o->nvariants++] = arg;
        break;
    case OPT_REFERENCE: o->reference = arg; break;
    case OPT_SEQ_ONLY: o->sequential_only = 1; break;
    case OPT_MAX_SPREAD: return parse_percent("--max-spread", arg, &o->max_spread);
    case OPT_MAX_INPUT: return parse_bytes("--max-input", arg, &o->max_input);
    case OPT_WORKLOAD: o->workload = arg; break;
    case OPT_SIZE:
        if (!parse_double(arg, 1, 1e15, &v) || v != floor(v))
            return bad_value("--size", arg, "an integer from 1 to 1e15");
        o->size = v;
        break;
    case OPT_FROM:
        if (o->nfrom >= (int)(sizeof o->from / sizeof o->from[0]))
            return bad_value("--from", arg, "at most 16 files");
        o->from[o->nfrom++] = arg;
        break;
    case OPT_DATA_ON:
        if (strcmp(arg, "host") != 0 && strcmp(arg, "device") != 0)
            return bad_value("--data-on", arg, "host or device");
        o->data_on_host = strcmp(arg, "host") == 0;
        break;
    case OPT_BUDGET_S:
        if (!parse_double(arg, 0.1, 86400, &v))
            return bad_value("--budget", arg, "seconds from 0.1 to 86400");
        o->tune_budget_s = v;
        break;
    case OPT_VERSION: printf("clbench %s (commit %s, schema %s)\n", CLB_VERSION, CLB_GIT_SHA, CLB_SCHEMA_VERSION); return -1;
    case 'h': cli_usage(stdout); return -1;
    default: cli_usage(stderr); return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static int known_command(const char *s)
{
    return strcmp(s, "list") == 0 || strcmp(s, "info") == 0 || strcmp(s, "run") == 0 ||
           strcmp(s, "report") == 0 || strcmp(s, "compare") == 0 || strcmp(s, "__worker") == 0 ||
           strcmp(s, "fleet-check") == 0 || strcmp(s, "suite") == 0 || strcmp(s, "recommend") == 0 ||
           strcmp(s, "tune") == 0 || strcmp(s, "db") == 0 || strcmp(s, "cache") == 0 || strcmp(s, "store") == 0;
}

/* The word after a bare --store is its PATH when it names a store file (.sqlite, .sqlite3, .db);
 * otherwise --store means the default store and the word is the command's (a pattern, a file). */
static int store_file_arg(const char *w)
{
    static const char *const exts[] = {".sqlite", ".sqlite3", ".db"};
    size_t n = strlen(w);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i]);
        if (w[0] != '-' && n > e && strcmp(w + n - e, exts[i]) == 0)
            return 1;
    }
    return 0;
}

int cli_parse(int argc, char **argv, cli_opts *o)
{
    memset(o, 0, sizeof *o);
    clb_run_opts_default(&o->run);
    o->threshold = 0.05;
    o->argc = argc;
    o->argv = argv;
    opterr = 0; /* report unknown options ourselves, with the usage */
    struct option opts[sizeof long_opts / sizeof long_opts[0] + RUN_ROWS];
    size_t ngeneral = sizeof long_opts / sizeof long_opts[0] - 1;
    memcpy(opts, long_opts, sizeof long_opts);
    for (size_t i = 0; i < RUN_ROWS; i++) {
        const cli_run_opt *r = &run_rows[i];
        int has = r->kind == CLI_RUN_FLAG ? no_argument
                  : r->kind == CLI_RUN_FAULT ? optional_argument : required_argument;
        opts[ngeneral + i] = (struct option){r->flag, has, NULL, OPT_RUN + (int)i};
    }
    opts[ngeneral + RUN_ROWS] = (struct option){NULL, 0, NULL, 0};
    int c, rc;
    while ((c = getopt_long(argc, argv, "p:d:t:h", opts, NULL)) != -1) {
        if (c == '?' || c == ':') {
            fprintf(stderr, "clbench: unknown option or missing value: %s\n", argv[optind - 1]);
            cli_usage(stderr);
            return CLI_EXIT_USAGE;
        }
        if (c == OPT_STORE && !optarg && optind < argc && store_file_arg(argv[optind]))
            optarg = argv[optind++]; /* --store PATH.sqlite */
        if ((rc = apply(c, optarg, o)) != CLI_EXIT_OK)
            return rc;
    }
    if (o->run.warmup > 0 && o->run.watchdog_s < o->run.target_s)
        return bad_value("--watchdog-ms", "(below --target-ms)", "a budget at least the target");
    if (optind >= argc) {
        fprintf(stderr, "clbench: missing command\n");
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    o->command = argv[optind++];
    if (!known_command(o->command)) {
        fprintf(stderr, "clbench: unknown command '%s'\n", o->command);
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    o->patterns = argv + optind;
    o->npatterns = argc - optind;
    int takes_args = strcmp(o->command, "run") == 0 || strcmp(o->command, "__worker") == 0 ||
                     strcmp(o->command, "report") == 0 || strcmp(o->command, "fleet-check") == 0 ||
                     strcmp(o->command, "compare") == 0 || strcmp(o->command, "tune") == 0 ||
                     strcmp(o->command, "db") == 0 || strcmp(o->command, "cache") == 0 ||
                     strcmp(o->command, "store") == 0;
    if (o->npatterns > 0 && !takes_args) {
        fprintf(stderr, "clbench: '%s' takes no arguments (got '%s')\n", o->command, o->patterns[0]);
        return CLI_EXIT_USAGE;
    }
    if (o->max_input > 0)
        clb_input_limit_set(o->max_input);
    if ((rc = cli_env_load()) != CLI_EXIT_OK)
        return rc;
    if (!o->no_binary_cache && cli_binary_cache_dir(o->binary_cache_dir, sizeof o->binary_cache_dir))
        o->run.binary_cache_dir = o->binary_cache_dir;
    return cli_check_paths(o);
}
