/* Device database of physical limits (data/devdb.json, read by devdb_table.c; sources in docs/limits.md) and the
 * theoretical arithmetic peak (lib/device/devdb.c documents the formulas). */
#ifndef CLB_DEVDB_H
#define CLB_DEVDB_H

#include "clbench.h"

#include <stddef.h>

/* One product (or one architecture, for the derived rows). Figures are per OpenCL device:
 * where a board shows up as several devices (MI250X: one per GCD) the row is per device. A
 * figure <= 0 is not in the datasheet (no limit from the database). */
typedef struct clb_devdb_row {
    const char *key;         /* short id, e.g. "h100-sxm5" */
    const char *vendor;      /* case-insensitive substring of CL_DEVICE_VENDOR */
    const char *name;        /* case-insensitive substring of CL_DEVICE_NAME (AMD: of the board name) */
    const char *exclude;     /* a substring that must not occur (NULL: none), e.g. "NVL" */
    const char *product;     /* the product the row describes */
    unsigned fp32_lanes;     /* FP32 FMA lanes per compute unit (NVIDIA: per SM) */
    unsigned fp64_lanes;
    unsigned units;          /* compute units the full product reports (0: derived row) */
    double fp32_gflops, fp64_gflops; /* datasheet vector peak (FMA = 2 flops) */
    double dram_gbps;        /* DRAM bandwidth, GB/s (1e9) */
    double link_gbps;        /* host link, GB/s per direction */
    const char *src_fp, *src_dram, *src_link; /* title + URL of each figure */
    const char *note;        /* SKU clock dependence and other caveats */
    double l2_bytes;         /* last-level (L2) cache, bytes (0: not in the database) */
    const char *src_l2;
    double l2_partitions;    /* partitions the L2 is split into, each caching its near SMs' accesses (0: unknown) */
    const char *src_l2_partitions;
} clb_devdb_row;

/* The L2 that one SM's accesses can fill: the whole L2 over its partitions (each caches the
 * accesses of its near SMs; GA100, GH100), the whole L2 where partitions are unknown; 0: none. */
double clb_devdb_l2_one_sm(const clb_devdb_row *r);

size_t clb_devdb_count(void);
const clb_devdb_row *clb_devdb_at(size_t i);

/* The row matching vendor and name (AMD: pass the board name), or NULL. */
const clb_devdb_row *clb_devdb_find(const char *vendor, const char *name);

/* The kinds of physical limit the guard (lib/judge/limits.c) checks against. */
typedef enum { CLB_LIMIT_FP32, CLB_LIMIT_FP64, CLB_LIMIT_DRAM, CLB_LIMIT_LINK } clb_limit_kind;

/* A limit: value (NaN when unknown, source then says why), its unit and where it comes from. */
typedef struct clb_limit {
    double value;
    const char *unit;
    char source[640];
} clb_limit;

/* The device's limit of that kind: database row, else derived (GPU: compute units x lanes x
 * 2 x maximum clock; CPU: physical cores x lanes x 2 x measured clock), else unknown. */
void clb_devdb_limit(clb_device *dev, clb_limit_kind kind, clb_limit *out);

/* The name to match for dev (CL_DEVICE_BOARD_NAME_AMD when present, else CL_DEVICE_NAME) and
 * its matched row (NULL when none). */
const clb_devdb_row *clb_devdb_match(clb_device *dev, char *name, size_t n);

/* Precision: 32 or 64 (floating); anything else has no entry. ops_per_lane_clock: 2 for
 * fused multiply-add counted as two operations, 1 for add or mul.
 * Returns the theoretical peak in G(FL)OP/s, or a NaN with the reason in how. how always
 * says how the figure was obtained. *slack gets the factor by which a measurement may
 * exceed it before it is implausible (1.03: the guard's rule). */
double clb_devdb_peak(clb_device *dev, unsigned precision, unsigned ops_per_lane_clock,
                      char *how, size_t how_n, double *slack);

/* Adds the derived parameters device_database {value: row key or null, how} and limit_fp32,
 * limit_fp64, limit_dram, limit_link {value (null: unknown), unit, how} to o (clbench info). */
void clb_devdb_derived(cJSON *o, clb_device *dev);

/* figs[key] = {value, origin, source} when v is a positive finite figure; nothing otherwise
 * (lib/device/devdb_json.c: every writer of a database figure). */
void clb_devdb_figure(cJSON *figs, const char *key, double v, const char *origin, const char *source);

/* Pure formula, for tests: units x lanes x ops x MHz / 1000 (GOP/s). */
double clb_devdb_formula(unsigned units, unsigned lanes, unsigned ops, double mhz);

#endif
