/* The environment variables clbench reads, in one table: each maps into the library's
 * clb_settings or the tool's own cli_env, and the same table prints the list in --help. The
 * worker processes are this binary and inherit the environment, so they map the same values. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef enum { K_SIZE, K_U64, K_REAL, K_INT, K_TEXT, K_OFF } env_kind;

typedef struct env_row {
    const char *var;  /* the variable */
    const char *flag; /* the flag that overrides it, NULL for none */
    env_kind kind;    /* how its text is parsed */
    size_t at;        /* offset of the field in cli_env */
    const char *help; /* one line in --help (NULL: not listed, e.g. the XDG directories) */
} env_row;

#define LIB(f) offsetof(cli_env, lib) + offsetof(clb_settings, f)
#define CLI(f) offsetof(cli_env, f)

static const env_row rows[] = {
    {"CLBENCH_DEVICE", "-d", K_TEXT, CLI(device), "default device selector (syntax of -d)"},
    {"CLBENCH_RANK_DEVICE", NULL, K_TEXT, CLI(rank_device), "run --mpi: this rank's device (as -d)"},
    {"CLBENCH_SUITE_REFERENCE", "--reference", K_TEXT, CLI(suite_reference), "suite: reference file"},
    {"CLBENCH_ISOLATION", NULL, K_OFF, CLI(isolation_off), "off: every row in the run process (cost of isolation)"},
    {"CLBENCH_SAXPY_N", NULL, K_SIZE, LIB(saxpy_n), "app.saxpy: fixed largest n (multiple of 16)"},
    {"CLBENCH_GEMM_N", NULL, K_SIZE, LIB(gemm_n), "app.*gemm.*: matrix order"},
    {"CLBENCH_GEMM_LADDER_N", NULL, K_SIZE, LIB(gemm_ladder_n), "app.*gemm.*: order of the seed ladder rungs"},
    {"CLBENCH_MCPI_N", NULL, K_SIZE, LIB(mcpi_n), "app.mcpi.*: samples"},
    {"CLBENCH_STRMATCH_BYTES", NULL, K_SIZE, LIB(strmatch_bytes), "app.strmatch.*: text bytes"},
    {"CLBENCH_APP_REP_BUDGET_S", NULL, K_REAL, LIB(app_rep_budget_s), "apps: seconds of repetitions per row (3)"},
    {"CLBENCH_EULER_N", NULL, K_SIZE, LIB(euler_n), "app.euler.string*: components n"},
    {"CLBENCH_EULER_GRID", NULL, K_SIZE, LIB(euler_grid), "app.euler.bruss2d*: grid N"},
    {"CLBENCH_EULER_STEPS", NULL, K_SIZE, LIB(euler_steps), "app.euler.*: steps"},
    {"CLBENCH_EULER_LOCAL", NULL, K_SIZE, LIB(euler_local), "app.euler.*: work-group size"},
    {"CLBENCH_EULER_GROUPS", NULL, K_SIZE, LIB(euler_groups), "app.euler.*: work-groups"},
    {"CLBENCH_EULER_TILE_GROUPS_PER_CU", NULL, K_SIZE, LIB(euler_tile_groups_per_cu), "app.euler.*: tile groups per compute unit"},
    {"CLBENCH_EULER_TILE2D_POINTS", NULL, K_SIZE, LIB(euler_tile2d_points), "tiled_2d: grid points per work-item"},
    {"CLBENCH_EULER_TILE2D_STEPS", NULL, K_SIZE, LIB(euler_tile2d_steps), "tiled_2d: steps per tile"},
    {"CLBENCH_EULER_TILE2D_FORM", NULL, K_TEXT, LIB(euler_tile2d_form), "tiled_2d: local, local_all or registers"},
    {"CLBENCH_CLBLAST_TUNING", NULL, K_TEXT, LIB(clblast_tuning), "clblast_tuned: tuner JSON files, ':'-separated"},
    {"CLBENCH_TUNE_FAMILY", NULL, K_INT, LIB(tune_family), "tuned GEMM: search only this kernel family"},
    {"CLBENCH_TUNE_BUDGET", NULL, K_REAL, LIB(tune_budget_s), "tuned GEMM: search budget in seconds"},
    {"CLBENCH_READ_FORMS", NULL, K_TEXT, LIB(read_forms), "memory.read_linear: all, or forms, comma-separated"},
    {"CLBENCH_READ_BYTES", NULL, K_U64, LIB(read_bytes), "memory.read_linear: array bytes on any device"},
    {"CLBENCH_QUICK_BYTES", NULL, K_SIZE, LIB(quick_bytes), "--quick DRAM arrays off GPUs: 262144 or 524288"},
    {"CLBENCH_TRANSFER_MAX_BYTES", NULL, K_REAL, LIB(transfer_max_bytes), "transfer.*: largest size in bytes"},
    {"CLBENCH_SUSTAINED_S", NULL, K_REAL, LIB(sustained_s), "microarch.sustained: seconds (60, --quick 2)"},
    {"CLBENCH_BUILD_OPTIONS", NULL, K_TEXT, LIB(build_options), "appended to every kernel build"},
    {"CLBENCH_NATIVE_PEAK", NULL, K_TEXT, LIB(native_peak), "tools/native_peak JSON: % of native peak (CPUs)"},
    {"CLBENCH_DUMP_DIR", NULL, K_TEXT, LIB(dump_dir), "write measured program binaries here"},
    {"CLBENCH_CLOCK_MHZ", NULL, K_REAL, LIB(clock_mhz), "clock of derived peaks instead of the device's"},
    {"CLBENCH_NVML_LIBRARY", NULL, K_TEXT, LIB(nvml_library), "NVML library to load"},
    {"CLBENCH_CUDA_MODULE", NULL, K_TEXT, LIB(cuda_module), "the CUDA twin module to load"},
    {"CLBENCH_EULER_CUDA_TILING", NULL, K_TEXT, LIB(euler_cuda_tiling), "app.euler.cuda: diamond or honeycomb, no screening"},
    {"CLBENCH_FAULT", NULL, K_TEXT, CLI(fault), "NAME:wrong|partial|skip: --inject-fault in row NAME only"},
    {"HOME", NULL, K_TEXT, LIB(home), NULL},
    {"XDG_CACHE_HOME", NULL, K_TEXT, LIB(xdg_cache_home), NULL},
    {"XDG_CONFIG_HOME", NULL, K_TEXT, LIB(xdg_config_home), NULL},
    {"XDG_DATA_HOME", NULL, K_TEXT, CLI(xdg_data_home), NULL},
};
#define NROWS (sizeof rows / sizeof rows[0])

extern char **environ;
static cli_env env = {.lib = {.tune_family = -1, .environment = &environ}};

static const char *expected(env_kind k)
{
    static const char *const what[] = {"a positive integer", "a positive integer",
                                       "a positive number", "an integer", "text", "off or on"};
    return what[k];
}

/* Stores text into the field at; 0 when it is not of the kind. */
static int store(const env_row *r, const char *text)
{
    char *end = NULL, *field = (char *)&env + r->at;
    errno = 0;
    switch (r->kind) {
    case K_SIZE:
    case K_U64: {
        unsigned long long v = strtoull(text, &end, r->kind == K_U64 ? 0 : 10);
        if (errno || *end || v == 0 || text[0] == '-' || (r->kind == K_SIZE && v > SIZE_MAX))
            return 0;
        if (r->kind == K_SIZE)
            *(size_t *)(void *)field = (size_t)v;
        else
            *(unsigned long long *)(void *)field = v;
        return 1;
    }
    case K_REAL: {
        double v = strtod(text, &end);
        return !errno && !*end && isfinite(v) && v > 0 ? (*(double *)(void *)field = v, 1) : 0;
    }
    case K_INT: {
        long v = strtol(text, &end, 10);
        return !errno && !*end && v >= 0 && v <= 1000000 ? (*(int *)(void *)field = (int)v, 1) : 0;
    }
    case K_OFF:
        if (strcmp(text, "off") != 0 && strcmp(text, "on") != 0)
            return 0;
        *(int *)(void *)field = strcmp(text, "off") == 0;
        return 1;
    case K_TEXT: *(const char **)(void *)field = text; return 1;
    }
    return 0;
}

int cli_env_load(void)
{
    for (size_t i = 0; i < NROWS; i++) {
        const char *text = getenv(rows[i].var);
        if (!text || !*text)
            continue; /* empty: unset */
        if (!store(&rows[i], text)) {
            fprintf(stderr, "clbench: %s=%s: expected %s\n", rows[i].var, text, expected(rows[i].kind));
            return CLI_EXIT_USAGE;
        }
    }
    clb_settings_set(&env.lib);
    return CLI_EXIT_OK;
}

const cli_env *cli_env_get(void)
{
    return &env;
}

void cli_env_usage(FILE *f)
{
    fputs("environment (run, suite and their workers; empty is unset; docs/cli.md \"Environment\"):\n", f);
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].help)
            fprintf(f, "  %-32s %s%s%s\n", rows[i].var, rows[i].help, rows[i].flag ? "; overridden by " : "",
                    rows[i].flag ? rows[i].flag : "");
}
