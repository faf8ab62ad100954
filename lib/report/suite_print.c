/* The suite summary for people: the seed 004 report per system (system block first, then per
 * column the score, app / peak time / ratio / average time / ratio / standard deviation, and
 * the speedups of OpenCL over sequential, pthreads and CUDA), as text and as an HTML section. */
#include "report/report_cols.h"

#include <math.h>
#include <string.h>

static const char *str_or(const cJSON *o, const char *key, const char *dflt)
{
    const char *s = rj_str(o, key);
    return s && *s ? s : dflt;
}

/* str_or for the terminal: control characters from the document shown, never sent. */
static const char *ts(const cJSON *o, const char *key, const char *dflt)
{
    return rep_term(str_or(o, key, dflt));
}

/* A number with 4 significant digits, or the text of why it is absent. */
static void num(char *buf, size_t n, const cJSON *o, const char *key, const char *absent)
{
    double v;
    if (rj_num(o, key, &v))
        rj_fmt(buf, n, v);
    else
        snprintf(buf, n, "%s", absent);
}

static void print_system(FILE *f, const cJSON *s)
{
    const cJSON *sys = rj_obj(s, "system"), *ref = rj_obj(s, "reference"), *c;
    double cpus = 0;
    rj_num(sys, "online_cpus", &cpus);
    fprintf(f, "clbench suite %s, mode %s\nSystem information\n  CPU        %s (%g online)\n",
            ts(s, "suite_version", "?"), ts(s, "mode", "?"), ts(sys, "cpu", "?"), cpus);
    fprintf(f, "  user       %s\n  clock      %s\n  caches     %s\n  memory     %s\n", ts(sys, "user", "?"),
            ts(sys, "cpu_clock", "?"), ts(sys, "caches", "?"), ts(sys, "memory", "?"));
    fprintf(f, "  OS         %s %s\n  compiler   %s\n  flags      %s (host rows: %s)\n", ts(sys, "os", "?"),
            ts(sys, "kernel", ""), ts(sys, "compiler", "?"), ts(sys, "compiler_flags", "?"),
            ts(sys, "host_rows_flags", "?"));
    cJSON_ArrayForEach(c, rj_arr(s, "columns")) {
        fprintf(f, "  device     %s | %s | driver %s | %s\n", ts(c, "device", "?"),
                ts(c, "platform_version", "?"), ts(c, "driver", "?"), ts(c, "device_version", "?"));
    }
    if (strcmp(str_or(ref, "status", ""), "ok") == 0)
        fprintf(f, "  reference  version %s, %s\n", ts(ref, "version", "?"),
                ts(rj_obj(ref, "provenance"), "machine", "?"));
    else
        fprintf(f, "  reference  %s\n", ts(ref, "reason", "absent"));
}

static void print_score(FILE *f, const cJSON *sc)
{
    char p[32], a[32], pg[32], ag[32];
    if (strcmp(str_or(sc, "status", ""), "ok") != 0) {
        fprintf(f, "Score: VOID%s%s: %s\n", rj_str(sc, "void_app") ? " by " : "", ts(sc, "void_app", ""),
                ts(sc, "reason", ""));
        return;
    }
    num(p, sizeof p, sc, "peak", "-");
    num(a, sizeof a, sc, "average", "-");
    num(pg, sizeof pg, sc, "peak_geomean", "-");
    num(ag, sizeof ag, sc, "average_geomean", "-");
    fprintf(f, "Peak Score %s (geometric mean %s)   Average Score %s (geometric mean %s)\n", p, pg, a, ag);
}

static void print_row(FILE *f, const char *title, const cJSON *r, const char *best)
{
    char pk[32], pr[32], av[32], ar[32], sd[32], ks[32], tt[32], nm[120];
    snprintf(nm, sizeof nm, "%s%s", str_or(r, "row", "?"), best && strcmp(best, str_or(r, "row", "")) == 0 ? " *" : "");
    if (strcmp(str_or(r, "status", ""), "ok") != 0) {
        fprintf(f, "%-13s %-40s %s: %s\n", rep_term(title), rep_term(nm), ts(r, "status", "?"), ts(r, "reason", ""));
        return;
    }
    num(pk, sizeof pk, r, "peak_s", "-");
    num(pr, sizeof pr, r, "peak_ratio", "-");
    num(av, sizeof av, r, "avg_s", "-");
    num(ar, sizeof ar, r, "avg_ratio", "-");
    num(sd, sizeof sd, r, "std_s", "-");
    num(ks, sizeof ks, r, "kernel_s", "-");
    num(tt, sizeof tt, r, "total_s", "-");
    fprintf(f, "%-13s %-40s %12s %8s %12s %8s %12s %12s %12s\n", rep_term(title), rep_term(nm), pk, pr, av, ar, sd, ks, tt);
}

/* "12.3x / 11.9x" (peak / average) or why there is none. */
static void speedup_text(char *buf, size_t n, const cJSON *sp)
{
    char p[24], a[24];
    double v;
    if (!rj_num(sp, "peak", &v)) {
        snprintf(buf, n, "%s", str_or(sp, "status", "-"));
        return;
    }
    num(p, sizeof p, sp, "peak", "-");
    num(a, sizeof a, sp, "average", "-");
    snprintf(buf, n, "%sx / %sx", p, a);
}

/* The aggregate speedups: the geometric means over the apps (seed_ratio 0) or seed 004's score
 * ratios (1): three texts and the row's label. */
static void aggregate_text(const cJSON *g, int seed_ratio, char s[3][64], char *label, size_t nlabel)
{
    static const char *const keys[] = {"vs_sequential", "vs_pthreads", "vs_cuda"};
    for (int k = 0; k < 3; k++) {
        const cJSON *x = rj_obj(g, keys[k]);
        if (seed_ratio) {
            x = rj_obj(x, "score_ratio");
            speedup_text(s[k], 64, x);
            if (!x)
                snprintf(s[k], 64, "-");
            continue;
        }
        double n = 0, of = 0;
        speedup_text(s[k], 64, x);
        if (rj_num(x, "apps", &n) && rj_num(x, "of", &of) && n > 0 && n < of) {
            size_t len = strlen(s[k]);
            snprintf(s[k] + len, 64 - len, " (%g of %g apps)", n, of);
        }
    }
    snprintf(label, nlabel, seed_ratio ? "all apps (seed 004: score ratio)" : "all apps (geometric mean)");
}

static void print_column(FILE *f, const cJSON *c)
{
    const cJSON *app, *r;
    fprintf(f, "\n== %s [%s], variant %s (build options: %s)\n", ts(c, "device", "?"), ts(c, "platform", "?"),
            ts(c, "variant", "base"), ts(c, "build_options", "none"));
    print_score(f, rj_obj(c, "score"));
    fprintf(f, "%-13s %-40s %12s %8s %12s %8s %12s %12s %12s\n", "app", "row (* best OpenCL, scored)", "peak time s",
            "ratio", "avg time s", "ratio", "std dev s", "kernel s", "total s");
    cJSON_ArrayForEach(app, rj_arr(c, "apps")) {
        const char *title = str_or(app, "title", "?");
        cJSON_ArrayForEach(r, rj_arr(app, "rows")) {
            print_row(f, title, r, rj_str(app, "best_opencl"));
            title = "";
        }
    }
    fprintf(f, "speedup of the best OpenCL row (peak / average) over: %-20s %-20s %s\n", "sequential", "pthreads", "CUDA");
    cJSON_ArrayForEach(app, rj_arr(c, "apps")) {
        char s1[64], s2[64], s3[64];
        const cJSON *sp = rj_obj(app, "speedups");
        speedup_text(s1, sizeof s1, rj_obj(sp, "vs_sequential"));
        speedup_text(s2, sizeof s2, rj_obj(sp, "vs_pthreads"));
        speedup_text(s3, sizeof s3, rj_obj(sp, "vs_cuda"));
        fprintf(f, "  %-51s %-20s %-20s %s\n", ts(app, "title", "?"), rep_term(s1), rep_term(s2), rep_term(s3));
    }
    char s[3][64], label[64];
    const cJSON *g = rj_obj(c, "speedup_geomean");
    for (int seed = 0; seed < 2; seed++) {
        aggregate_text(g, seed, s, label, sizeof label);
        fprintf(f, "  %-51s %-20s %-20s %s\n", label, s[0], s[1], s[2]);
    }
    cJSON_ArrayForEach(r, rj_arr(c, "omitted"))
        fprintf(f, "omitted: %s: %s\n", ts(r, "app", "?"), ts(r, "why", ""));
}

void clb_suite_print(FILE *f, const cJSON *summary)
{
    const cJSON *c;
    print_system(f, summary);
    cJSON_ArrayForEach(c, rj_arr(summary, "columns"))
        print_column(f, c);
    fputs("\nPeak uses the best run, average the arithmetic mean of the runs (after one discarded warm-up);\n"
          "ratio = reference sequential time / time; scores are harmonic means over the apps; higher is better.\n"
          "kernel s = one run's kernel time (median); total s = setup (host data, build, uploads) + kernel + read-back.\n",
          f);
}

/* ---- HTML ---- */

static void td(FILE *f, const char *s)
{
    fputs("<td>", f);
    html_puts(f, s);
    fputs("</td>", f);
}

static void td_num(FILE *f, const cJSON *o, const char *key)
{
    char b[32];
    num(b, sizeof b, o, key, "-");
    td(f, b);
}

static void html_score(FILE *f, const cJSON *c)
{
    const cJSON *sc = rj_obj(c, "score");
    fputs("<tr>", f);
    td(f, str_or(c, "device", "?"));
    td(f, str_or(c, "variant", "base"));
    td(f, str_or(c, "build_options", ""));
    if (strcmp(str_or(sc, "status", ""), "ok") == 0) {
        td_num(f, sc, "peak");
        td_num(f, sc, "average");
        td_num(f, sc, "peak_geomean");
        td_num(f, sc, "average_geomean");
    } else {
        fputs("<td colspan=\"4\">", f);
        rep_html_status(f, "void", rj_str(sc, "reason"));
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

static void html_app_rows(FILE *f, const cJSON *app)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rj_arr(app, "rows")) {
        fputs("<tr>", f);
        td(f, str_or(app, "title", "?"));
        td(f, str_or(r, "row", "?"));
        if (strcmp(str_or(r, "status", ""), "ok") != 0) {
            fputs("<td colspan=\"7\">", f);
            rep_html_status(f, str_or(r, "status", "?"), rj_str(r, "reason"));
            fputs("</td></tr>\n", f);
            continue;
        }
        const char *keys[] = {"peak_s", "peak_ratio", "avg_s", "avg_ratio", "std_s", "kernel_s", "total_s"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            td_num(f, r, keys[k]);
        fputs("</tr>\n", f);
    }
}

/* The speedup table's last row: seed 004's aggregate over the apps. */
static void html_aggregate_row(FILE *f, const cJSON *c)
{
    char s[3][64], label[64];
    for (int seed = 0; seed < 2; seed++) {
        aggregate_text(rj_obj(c, "speedup_geomean"), seed, s, label, sizeof label);
        fputs("<tr class=\"aggregate\">", f);
        td(f, label);
        td(f, "");
        for (int k = 0; k < 3; k++)
            td(f, s[k]);
        fputs("</tr>\n", f);
    }
}

static void html_column(FILE *f, const cJSON *c)
{
    const cJSON *app;
    fputs("<h3>", f);
    html_puts(f, str_or(c, "device", "?"));
    fputs(" &mdash; ", f);
    html_puts(f, str_or(c, "variant", "base"));
    fputs("</h3>\n<table><tr><th>app</th><th>row</th><th>peak time (s)</th><th>peak ratio</th>"
          "<th>avg. time (s)</th><th>avg. ratio</th><th>std. deviation (s)</th><th>kernel (s)</th>"
          "<th>total (s)</th></tr>\n", f);
    cJSON_ArrayForEach(app, rj_arr(c, "apps"))
        html_app_rows(f, app);
    fputs("</table>\n<table><tr><th>app</th><th>best OpenCL row</th><th>vs sequential (peak / avg)</th>"
          "<th>vs pthreads</th><th>vs CUDA</th></tr>\n", f);
    cJSON_ArrayForEach(app, rj_arr(c, "apps")) {
        char s[3][64];
        const char *keys[] = {"vs_sequential", "vs_pthreads", "vs_cuda"};
        fputs("<tr>", f);
        td(f, str_or(app, "title", "?"));
        td(f, str_or(app, "best_opencl", "-"));
        for (int k = 0; k < 3; k++) {
            speedup_text(s[k], sizeof s[k], rj_obj(rj_obj(app, "speedups"), keys[k]));
            td(f, s[k]);
        }
        fputs("</tr>\n", f);
    }
    html_aggregate_row(f, c);
    fputs("</table>\n", f);
    cJSON_ArrayForEach(app, rj_arr(c, "omitted")) {
        fputs("<p class=\"small\">omitted: ", f);
        html_puts(f, str_or(app, "app", "?"));
        fputs(": ", f);
        html_puts(f, str_or(app, "why", ""));
        fputs("</p>\n", f);
    }
}

/* Seed 004's score table as its figure draws it: per column (device, variant) one bar of the
 * Peak and one of the Average Score on one linear scale from 0; a void column has its label and
 * "void", no bar. Each bar carries its score in data-score. */
static void html_score_bars(FILE *f, const cJSON *summary)
{
    static const char *const keys[] = {"peak", "average"}, *const fill[] = {"#1f77b4", "#ff7f0e"};
    const double width = 640, left = 220, row = 40, span = width - left - 70;
    const cJSON *c;
    double top = 0, v;
    size_t n = 0, i = 0;
    cJSON_ArrayForEach(c, rj_arr(summary, "columns")) {
        const cJSON *sc = rj_obj(c, "score");
        n++;
        for (int k = 0; k < 2 && strcmp(str_or(sc, "status", ""), "ok") == 0; k++)
            if (rj_num(sc, keys[k], &v) && v > top)
                top = v;
    }
    if (n == 0)
        return;
    fprintf(f, "<svg class=\"scores\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
               "aria-label=\"Peak Score (blue) and Average Score (orange) per column\">\n",
            width, row * (double)n + 8);
    cJSON_ArrayForEach(c, rj_arr(summary, "columns")) {
        const cJSON *sc = rj_obj(c, "score");
        double y = 8 + row * (double)i++;
        fprintf(f, "<text x=\"4\" y=\"%.0f\">", y + 16);
        html_puts(f, str_or(c, "device", "?"));
        fputs(" / ", f);
        html_puts(f, str_or(c, "variant", "base"));
        fputs("</text>\n", f);
        if (strcmp(str_or(sc, "status", ""), "ok") != 0) {
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">void</text>\n", left, y + 16);
            continue;
        }
        for (int k = 0; k < 2; k++) {
            v = 0;
            double w = rj_num(sc, keys[k], &v) && top > 0 ? span * v / top : 0;
            fprintf(f, "<rect class=\"%s\" x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"14\" fill=\"%s\" "
                       "data-score=\"%.17g\"/><text x=\"%.1f\" y=\"%.0f\">%.4g</text>\n",
                    keys[k], left, y + 16 * k, w, fill[k], v, left + w + 4, y + 16 * k + 12, v);
        }
    }
    fputs("</svg>\n", f);
}

void clb_suite_html(FILE *f, const cJSON *summary)
{
    const cJSON *c, *sys = rj_obj(summary, "system");
    const char *keys[] = {"user", "cpu", "cpu_clock", "caches", "memory", "os", "kernel", "compiler",
                          "compiler_flags", "host_rows_flags", "clbench_git_sha"};
    fputs("<h2>Suite scores</h2>\n<table>", f);
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        fputs("<tr><th>", f);
        html_puts(f, keys[k]);
        fputs("</th>", f);
        td(f, str_or(sys, keys[k], "?"));
        fputs("</tr>", f);
    }
    fputs("<tr><th>reference</th>", f);
    td(f, strcmp(str_or(rj_obj(summary, "reference"), "status", ""), "ok") == 0
              ? str_or(rj_obj(rj_obj(summary, "reference"), "provenance"), "machine", "?")
              : str_or(rj_obj(summary, "reference"), "reason", "absent"));
    fputs("</tr></table>\n<table><tr><th>device</th><th>variant</th><th>build options</th><th>Peak Score</th>"
          "<th>Average Score</th><th>peak geomean</th><th>average geomean</th></tr>\n", f);
    cJSON_ArrayForEach(c, rj_arr(summary, "columns"))
        html_score(f, c);
    fputs("</table>\n", f);
    html_score_bars(f, summary);
    cJSON_ArrayForEach(c, rj_arr(summary, "columns"))
        html_column(f, c);
    fputs("<p class=\"small\">Peak uses the best run, average the arithmetic mean of the runs; ratio = reference "
          "sequential time / time; scores are harmonic means over the apps (docs/suite.md).</p>\n", f);
}
