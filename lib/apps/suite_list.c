/* `clbench suite --list`: docs/suite.md's table "What runs", printed from suite_apps[] (suite.c)
 * and this build's registry, so the doc is generated rather than kept in step by hand (CTest
 * suite_doc_table diffs the two). */
#include "apps/suite.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A size as people read it, exactly: 8 Mi, 512 Ki, 10^7, else as written. */
static void size_text(char *buf, size_t n, const char *v)
{
    unsigned long long x = strtoull(v, NULL, 10), p = 1;
    int e = 0;
    while (p < x && e < 19)
        p *= 10, e++;
    if (x >= 65536 && x % (1ull << 20) == 0)
        snprintf(buf, n, "%llu Mi", x >> 20);
    else if (x >= 65536 && x % 1024 == 0)
        snprintf(buf, n, "%llu Ki", x >> 10);
    else if (x >= 1000000 && p == x)
        snprintf(buf, n, "10^%d", e);
    else
        snprintf(buf, n, "%s", v);
}

/* The work of one problem, 4 digits: 2.147e9 (the unit is the work model's). */
static void work_text(char *buf, size_t n, double x)
{
    int e = x > 0 ? (int)floor(log10(x)) : 0;
    double m = x / pow(10, e);
    if (m >= 9.9995)
        m /= 10, e++;
    if (e < 4)
        snprintf(buf, n, "%.4g", x);
    else
        snprintf(buf, n, "%.4ge%d", m, e);
}

/* name without the longest prefix up to a '.' that it shares with first. */
static const char *short_name(const char *name, const char *first)
{
    size_t cut = 0;
    for (size_t i = 0; name[i] && name[i] == first[i]; i++)
        if (name[i] == '.')
            cut = i + 1;
    return name + cut;
}

/* A glob's matches in registry order, each without the glob's prefix up to its last '.'. */
static void glob_matches(FILE *f, const char *glob)
{
    size_t cut = 0, hits = 0;
    for (size_t i = 0; glob[i] && !strchr("*?[", glob[i]); i++)
        if (glob[i] == '.')
            cut = i + 1;
    for (size_t i = 0; i < clb_bench_count(); i++) {
        const char *name = clb_bench_at(i)->name;
        if (clb_bench_match(glob, name))
            fprintf(f, "%s`%s`", hits++ ? ", " : " (", name + cut);
    }
    fputs(hits ? ")" : " (no row in this build)", f);
}

/* A cell of row names or globs (space-separated): the first in full, the others short; a
 * glob with the rows it matches, a name the registry lacks marked. */
static void rows_cell(FILE *f, const char *names)
{
    char buf[256];
    const char *first = NULL;
    snprintf(buf, sizeof buf, "%s", names ? names : "");
    fputs(" |", f);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        fprintf(f, "%s `%s`", first ? "," : "", first ? short_name(t, first) : t);
        first = first ? first : t;
        if (strpbrk(t, "*?["))
            glob_matches(f, t);
        else if (!clb_bench_find(t))
            fputs(" (not in this build)", f);
    }
    if (!first)
        fputs(" none", f);
}

/* The size variables: `VAR` quick / full unit; ... */
static void sizes_cell(FILE *f, const clb_suite_app *a, const clb_suite_words *w)
{
    char q[32], u[32];
    fputs(" |", f);
    for (int k = 0; k < CLB_SUITE_MAX_ENV && a->env[k]; k++) {
        size_text(q, sizeof q, a->quick[k]);
        size_text(u, sizeof u, a->full[k]);
        fprintf(f, "%s `%s` %s / %s%s%s", k ? ";" : "", a->env[k], q, u, w->unit[k] && *w->unit[k] ? " " : "",
                w->unit[k] ? w->unit[k] : "");
    }
}

/* The work model in words, and what seconds_per_tau makes of it per mode (the arithmetic is
 * the truth: a changed formula changes this cell). */
static void work_cell(FILE *f, const clb_suite_app *a, const clb_suite_words *w)
{
    char q[32] = "?", u[32] = "?";
    if (a->seconds_per_tau) {
        work_text(q, sizeof q, a->seconds_per_tau(a, 0) * 1e9);
        work_text(u, sizeof u, a->seconds_per_tau(a, 1) * 1e9);
    }
    fprintf(f, " | %s: %s / %s |\n", w->work, q, u);
}

void clb_suite_list(FILE *f)
{
    fputs("| app | sequential | pthreads | scored OpenCL rows (best of) | CUDA rows | sizes quick / full |"
          " work model (one problem): quick / full |\n"
          "| --- | --- | --- | --- | --- | --- | --- |\n",
          f);
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        const clb_suite_app *a = clb_suite_app_at(i);
        const clb_suite_words *w = clb_suite_words_at(i);
        fprintf(f, "| %s", a->title);
        rows_cell(f, a->sequential);
        rows_cell(f, a->pthreads);
        rows_cell(f, a->opencl);
        rows_cell(f, a->cuda);
        sizes_cell(f, a, w);
        work_cell(f, a, w);
    }
}
