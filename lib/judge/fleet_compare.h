/* The fleet comparison of one result over sibling devices (same name and driver), on plain
 * arrays: what fleet-check decides, whether the values come from result files
 * (lib/report/fleet.c) or from the store (docs/fleet.md). Per result, the fleet's median m and
 * a robust scale s = max(1.4826 MAD, m x se), se = 1.2533 cv / sqrt(n) the standard error of one
 * device's median (cv and n: the medians over the devices); a device is flagged when it is worse
 * than m in the result's bad direction by at least min_rel AND |v - m| / s >= min_z. A result
 * whose median cv exceeds max_cv is not judged. Two devices have no median: the worse is judged
 * against the better, with s = m x se x sqrt(2). */
#ifndef CLB_FLEET_COMPARE_H
#define CLB_FLEET_COMPARE_H

#include "clbench.h"

/* One result over n devices. value[i]: device i's number, non-finite when it has none (not ok,
 * absent: skipped); cv[i]: its run-to-run cv, non-finite or NULL: 0; reps[i]: its repetitions,
 * below 1 or NULL: 1. */
typedef struct clb_fleet_values {
    const double *value;
    const double *cv;
    const double *reps;
    size_t n;
    int higher_better; /* 1: a rate (lower is worse); 0: a time (higher is worse) */
} clb_fleet_values;

typedef enum clb_fleet_outcome {
    CLB_FLEET_NO_PEER = 0,   /* fewer than two devices have a value */
    CLB_FLEET_TOO_NOISY = 1, /* median cv above max_cv: not judged, never flagged */
    CLB_FLEET_JUDGED = 2
} clb_fleet_outcome;

typedef struct clb_fleet_row {
    clb_fleet_outcome outcome;
    size_t k;     /* devices with a value */
    double ref;   /* the fleet median; with two devices the better one */
    double scale; /* the robust scale s */
    double cv;    /* the median run-to-run cv */
    double reps;  /* the median repetitions */
    size_t flags; /* devices flagged */
} clb_fleet_row;

/* Per device: its relative distance (v - ref) / |ref|, its robust z (v - ref) / s (NaN when it
 * has no value or the row is not judged) and whether it is flagged. */
typedef struct clb_fleet_dev {
    double rel, z;
    int flagged;
} clb_fleet_dev;

/* Judges one result; scratch holds at least in->n doubles, out in->n entries (may be NULL when
 * only the row is wanted). Returns the number of devices flagged. */
size_t clb_fleet_compare(const clb_fleet_values *in, const clb_fleet_opts *o, double *scratch,
                         clb_fleet_row *row, clb_fleet_dev *out);

#endif
