/* Plateau detection in staircase curves (latency or bandwidth against working-set size),
 * used by memory.latency and memory.caches. Pure C, no OpenCL. */
#ifndef CLB_PLATEAUS_H
#define CLB_PLATEAUS_H

#include <stddef.h>

typedef struct clb_plateau {
    size_t first, last;   /* indices of the first and last point of the plateau */
    double x_first, x_last;
    double level;         /* median of the raw y values of its points */
} clb_plateau;

/* Finds the plateaus of y(x) (x ascending, y > 0, n points): runs of at least two points
 * whose (3-point median smoothed) values stay within a factor (1 + tol) of the run's median;
 * single points between runs are transitions. Neighbouring plateaus whose levels differ by
 * less than a factor (1 + merge_tol) are merged. Writes at most cap plateaus to out and
 * returns how many were found (tol 0.12 and merge_tol 0.25 suit measured latency curves). */
size_t clb_find_plateaus(const double *x, const double *y, size_t n, double tol, double merge_tol,
                         clb_plateau *out, size_t cap);

/* Keeps the plateaus in p[0..m-1] that make the levels strictly monotonic (rising when
 * rising is non-zero, else falling): a plateau that the next one does not exceed was a
 * noise bump and is dropped. Returns the new count. Memory hierarchies are monotonic:
 * each level farther away is slower. */
size_t clb_plateaus_monotonic(clb_plateau *p, size_t m, int rising);

/* Cache levels from the monotonic plateaus p[0..m-1] of a latency curve: a short plateau
 * (its sizes span less than a factor 2) between two others, at a level between theirs, is the
 * mixture of the two (part of the working set still in the nearer cache), not a level, and is
 * dropped; then neighbours whose levels differ by less than a factor step (1.5 suits CPUs and
 * GPUs) are one level and merge: the level ends at the largest size still inside it (x_last of
 * its last plateau) and keeps the nearer plateau's latency. Returns the new count. */
size_t clb_cache_levels(clb_plateau *p, size_t m, double step);

/* Moves the end of each level of p[0..m-1] but the last (from clb_cache_levels on the curve
 * x, y of n points) past its plateau to the largest following size whose latency is still below
 * the geometric mean of this level's and the next one's: the largest size that this level still
 * serves more than the next. A cache whose replacement is not LRU (the EPYC VM's L2), or whose
 * far part costs more (a partitioned L2), loses lines before it is full: its plateau ends early
 * and the latency rises through a slope, not a step. An LRU step leaves the end unchanged. */
void clb_level_ends(const double *x, const double *y, size_t n, clb_plateau *p, size_t m);

/* The x_last of p[0..m-1] nearest to want on a log scale (NaN when m is 0); *agrees when it lies
 * within a factor 2 of want (the test of a detected level against sysfs or the database). */
double clb_nearest_level(const clb_plateau *p, size_t m, double want, int *agrees);

#endif
