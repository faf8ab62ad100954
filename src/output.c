/* Human-readable output on stdout. */
#include "cli.h"

#include <math.h>
#include <time.h>

/* Four significant digits, without exponents for the magnitudes benchmarks produce. */
static void fmt_num(char *buf, size_t n, double v)
{
    if (fabs(v) >= 1e4 || v == floor(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

void cli_print_device_header(FILE *f, const clb_device_ref *r)
{
    fprintf(f, "\n== device %u:%u  %s  [%s]\n", r->platform_index, r->device_index, r->device_name,
            r->platform_name);
}

void cli_print_result_header(FILE *f)
{
    fprintf(f, "%-24s %-14s %12s %-11s %-25s %7s %6s\n", "benchmark", "status", "median", "unit",
            "95% CI of median", "cv", "n");
}

void cli_print_result(FILE *f, const clb_result *res)
{
    if (res->status != CLB_STATUS_OK) {
        fprintf(f, "%-24s %-14s %s\n", res->name, clb_status_name(res->status), res->reason);
        return;
    }
    char v[32], lo[32], hi[32], ci[80];
    fmt_num(v, sizeof v, res->value);
    fmt_num(lo, sizeof lo, res->stats.ci95_lo);
    fmt_num(hi, sizeof hi, res->stats.ci95_hi);
    snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
    fprintf(f, "%-24s %-14s %12s %-11s %-25s %6.1f%% %6zu\n", res->name, "ok", v, res->unit, ci,
            100.0 * res->stats.cv, res->stats.n);
}

int cli_fail_diag(const clb_diag *d)
{
    fprintf(stderr, "clbench: %s\n", d->msg);
    return d->err == CLB_ERR_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
}

void cli_format_time(int64_t t, char *buf, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (t <= 0 || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, n, "-");
}
