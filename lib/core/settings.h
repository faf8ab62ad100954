/* The process-wide settings the tool installs (private: the library's own knobs, not its API). */
#ifndef CLB_SETTINGS_H
#define CLB_SETTINGS_H

#include "clbench.h"

/* Process-wide settings: sizes, forms, tuning knobs and paths the library would otherwise have
 * to look up itself. The library reads no environment variable; the tool maps its documented
 * variables (`clbench --help`, docs/cli.md "Environment") into this struct once at start-up,
 * and every worker process does the same. Zero, NULL or a negative value means "the default"
 * (given in each comment). Strings are borrowed: the caller keeps them alive while installed. */
typedef struct clb_settings {
    /* application sizes (0: the row's own per device type) */
    size_t saxpy_n;             /* app.saxpy: one fixed largest n (a multiple of 16) */
    size_t gemm_n;              /* app.*gemm.*: the matrix order */
    size_t gemm_ladder_n;       /* the GEMM ladder rungs below tuned */
    size_t mcpi_n;              /* app.mcpi.*: samples */
    size_t strmatch_bytes;      /* app.strmatch.*: text bytes */
    double app_rep_budget_s;    /* apps: seconds of repetitions per row (3; 1 to 86400) */
    size_t euler_n, euler_grid, euler_steps; /* app.euler.*: STRING n, BRUSS2D N, steps */
    size_t euler_local, euler_groups;        /* work-group size, groups (0: the row's choice) */
    size_t euler_tile_groups_per_cu;         /* 1-D tiled rows (4 on GPUs, else 1) */
    size_t euler_tile2d_points, euler_tile2d_steps; /* tiled_2d: points per item, steps per tile */
    const char *euler_tile2d_form;           /* tiled_2d: "local" or "registers" (NULL: the default) */
    /* GEMM tuning */
    const char *clblast_tuning; /* app.*gemm.clblast_tuned: tuner JSON files, ':'-separated
                                   (NULL: the tuner's files in the current directory) */
    int tune_family;            /* the tuned GEMM: search only this kernel family (-1: all) */
    double tune_budget_s;       /* the tuned GEMM: search budget (0: every candidate) */
    /* memory, transfer, microarch */
    const char *read_forms;     /* memory.read_linear: "all" or a comma-separated form list */
    unsigned long long read_bytes; /* memory.read_linear: array bytes on any device (MiB steps) */
    size_t quick_bytes;         /* --quick DRAM arrays on non-GPU devices: 262144 or 524288 */
    double transfer_max_bytes;  /* transfer.*: a smaller largest size */
    double sustained_s;         /* microarch.sustained: duration (60; --quick 2; at most 3600) */
    /* compute and builds */
    const char *build_options;  /* appended to every kernel build (clbench suite --variant) */
    const char *native_peak;    /* tools/native_peak JSON: "% of native peak" on CPU devices */
    const char *dump_dir;       /* program binaries of measured configurations written here */
    double clock_mhz;           /* derived peaks use this clock instead of the device's */
    /* loaders */
    const char *nvml_library;   /* NVML library to load (libnvidia-ml.so.1) */
    const char *cuda_module;    /* the CUDA twin module to load, and no other */
    const char *euler_cuda_tiling; /* app.euler.cuda: "diamond" or "honeycomb" forced (NULL: screened) */
    /* the user's directories (tuning cache, device database) */
    const char *home, *xdg_cache_home, *xdg_config_home;
    /* where the caller's NAME=VALUE list lives (the tool: &environ, so always the current one);
     * its OCL_ICD_*, POCL_* and CLBENCH_* entries go into provenance.environment (NULL: none) */
    char **const *environment;
} clb_settings;
/* The defaults above (every field "unset"). */
void clb_settings_default(clb_settings *s);
/* Installs a copy of *s for the whole process (NULL: the defaults); call before any run. */
void clb_settings_set(const clb_settings *s);
/* The installed settings (the defaults until clb_settings_set). */
const clb_settings *clb_settings_get(void);

#endif
