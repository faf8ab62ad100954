/* Theoretical arithmetic peak of a device (lib/devdb.c documents the table and formulas). */
#ifndef CLB_DEVDB_H
#define CLB_DEVDB_H

#include "clbench.h"

#include <stddef.h>

/* Lanes (results per clock) of one compute unit / core for a precision; 0 = not known. */
typedef struct clb_devdb_row {
    const char *vendor;  /* case-insensitive substring of CL_DEVICE_VENDOR */
    const char *name;    /* case-insensitive substring of CL_DEVICE_NAME */
    unsigned fp32_lanes; /* FP32 FMA lanes per CU (NVIDIA: per SM) */
    unsigned fp64_lanes;
    const char *source;  /* where the figures come from */
} clb_devdb_row;

/* The GPU row matching vendor and name, or NULL. */
const clb_devdb_row *clb_devdb_find(const char *vendor, const char *name);

/* Precision: 32 or 64 (floating); anything else has no entry. ops_per_lane_clock: 2 for
 * fused multiply-add counted as two operations, 1 for add or mul.
 * Returns the theoretical peak in G(FL)OP/s, or a NaN with the reason in how. how always
 * says how the figure was obtained. *slack gets the factor by which a measurement may
 * exceed it before it is implausible (clock uncertainty). */
double clb_devdb_peak(clb_device *dev, unsigned precision, unsigned ops_per_lane_clock,
                      char *how, size_t how_n, double *slack);

/* Pure formula, for tests: units x lanes x ops x MHz / 1000 (GOP/s). */
double clb_devdb_formula(unsigned units, unsigned lanes, unsigned ops, double mhz);

#endif
