/* Descriptive statistics of benchmark samples. */
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of a sorted array. */
static double sorted_median(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so large n cannot overflow. */
static double binom_half_cdf(size_t k, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i <= k; i++)
        sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                   (double)n * log(2.0));
    return sum;
}

/* Distribution-free CI of the median: the order statistics s[j] and s[n-1-j] cover the median
 * with probability 1 - 2 P(X <= j) (X ~ Bin(n, 1/2)). Take the largest j that keeps >= 95%;
 * for n < 6 no j reaches 95% and the interval is [min, max] with its actual coverage. */
static void median_ci(const double *s, size_t n, clb_stats *st)
{
    size_t best = 0;
    double level = 1.0 - 2.0 * binom_half_cdf(0, n);
    for (size_t j = 1; j < n / 2; j++) {
        double cover = 1.0 - 2.0 * binom_half_cdf(j, n);
        if (cover < 0.95)
            break;
        best = j;
        level = cover;
    }
    st->ci95_lo = s[best];
    st->ci95_hi = s[n - 1 - best];
    st->ci95_level = n == 1 ? 0.0 : level;
}

clb_error clb_stats_compute(const double *x, size_t n, clb_stats *out)
{
    if (!x || !out || n == 0)
        return CLB_ERR_USAGE;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return CLB_ERR_USAGE;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return CLB_ERR_NOMEM;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);

    clb_stats st = {.n = n, .min = s[0], .max = s[n - 1], .median = sorted_median(s, n)};
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    st.mean = sum / (double)n;
    double ss = 0.0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - st.mean) * (s[i] - st.mean);
    st.stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    st.cv = st.mean != 0.0 ? st.stddev / fabs(st.mean) : 0.0;
    median_ci(s, n, &st);

    /* MAD: median of |x - median|, reusing the buffer. */
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(s[i] - st.median);
    qsort(s, n, sizeof *s, cmp_double);
    st.mad = sorted_median(s, n);

    free(s);
    *out = st;
    return CLB_OK;
}
