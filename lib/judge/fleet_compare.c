/* The fleet comparison of one result over sibling devices (fleet_compare.h, docs/fleet.md). */
#include "judge/fleet_compare.h"

#include <math.h>
#include <stdlib.h>

/* The k-th smallest of x[0..n) (Hoare's selection; x is reordered): O(n), where a sort of a
 * fleet's 10,000 values per result would be O(n log n). */
static double select_kth(double *x, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        for (;;) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i >= j)
                break;
            double t = x[i];
            x[i++] = x[j], x[j--] = t;
        }
        if (k <= j)
            hi = j;
        else
            lo = j + 1;
    }
    return x[k];
}

/* The median (the mean of the two middle values for even n), as a sort would give it. */
static double median_of(double *x, size_t n)
{
    double hi = select_kth(x, n, n / 2);
    if (n % 2)
        return hi;
    double lo = x[0]; /* the largest of the lower half, all <= hi after the selection */
    for (size_t i = 1; i < n / 2; i++)
        lo = fmax(lo, x[i]);
    return 0.5 * (lo + hi);
}

static double cv_of(const clb_fleet_values *in, size_t i)
{
    return in->cv && isfinite(in->cv[i]) ? in->cv[i] : 0;
}

static double reps_of(const clb_fleet_values *in, size_t i)
{
    return in->reps && in->reps[i] >= 1 ? in->reps[i] : 1;
}

/* The medians over the devices with a value: of the values, the distances from that median
 * (MAD), the cvs and the repetitions. */
static void fleet_medians(const clb_fleet_values *in, double *tmp, clb_fleet_row *row, double *mad)
{
    size_t k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (isfinite(in->value[i]))
            tmp[k++] = in->value[i];
    row->k = k;
    if (k == 0)
        return;
    double m = row->ref = median_of(tmp, k);
    k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (isfinite(in->value[i]))
            tmp[k++] = fabs(in->value[i] - m);
    *mad = median_of(tmp, k);
    k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (isfinite(in->value[i]))
            tmp[k++] = cv_of(in, i);
    row->cv = median_of(tmp, k);
    k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (isfinite(in->value[i]))
            tmp[k++] = reps_of(in, i);
    row->reps = median_of(tmp, k);
}

/* Two devices: the better of the two is the reference. */
static double better_of_two(const clb_fleet_values *in)
{
    double best = NAN;
    for (size_t i = 0; i < in->n; i++) {
        double v = in->value[i];
        if (isfinite(v) && (isnan(best) || (in->higher_better ? v > best : v < best)))
            best = v;
    }
    return best;
}

size_t clb_fleet_compare(const clb_fleet_values *in, const clb_fleet_opts *o, double *scratch,
                         clb_fleet_row *row, clb_fleet_dev *out)
{
    double mad = 0;
    *row = (clb_fleet_row){.outcome = CLB_FLEET_NO_PEER, .ref = NAN, .scale = NAN, .cv = NAN, .reps = NAN};
    for (size_t i = 0; out && i < in->n; i++)
        out[i] = (clb_fleet_dev){NAN, NAN, 0};
    fleet_medians(in, scratch, row, &mad);
    size_t k = row->k;
    if (k < 2)
        return 0; /* no peer to compare with */
    if (row->cv > o->max_cv) {
        row->outcome = CLB_FLEET_TOO_NOISY;
        return 0;
    }
    row->outcome = CLB_FLEET_JUDGED;
    /* The noise of one device's median of `reps` samples: its standard error, 1.2533 cv / sqrt(n). */
    double m = row->ref, se = 1.2533 * row->cv / sqrt(row->reps);
    /* Two devices have no median to stand apart from: the worse one is flagged when the gap is
     * beyond the threshold and beyond min_z of their own noise. */
    double scale = k == 2 ? fabs(m) * fmax(se, 1e-9) * sqrt(2.0) : fmax(1.4826 * mad, fabs(m) * se);
    double ref = k == 2 ? better_of_two(in) : m;
    row->ref = ref, row->scale = scale;
    for (size_t i = 0; i < in->n && ref != 0 && scale > 0; i++) {
        double v = in->value[i];
        if (!isfinite(v))
            continue;
        double rel = (v - ref) / fabs(ref), z = (v - ref) / scale;
        double worse = in->higher_better ? -rel : rel;
        int flagged = worse >= o->min_rel && fabs(z) >= o->min_z;
        if (out)
            out[i] = (clb_fleet_dev){rel, z, flagged};
        row->flags += (size_t)flagged;
    }
    return row->flags;
}
