/* The run options travel to a worker as flags made from the parser's own table
 * (cli_run_opts_to_argv, src/cli.c): every field of clb_run_opts, and the tool's
 * --no-binary-cache, set to a value other than its default must come back the same from the
 * worker's parse (cli_parse of "__worker ..."), and every field must have its row in the table. */
#include "cli.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

/* Every field of clb_run_opts, each unlike its default, in declaration order. A positional
 * initializer: -Wextra's missing-field-initializers stops the build when a field is added to
 * clb_run_opts and not here (and then to fields[] below and to the table). */
static const clb_run_opts all_set = {
    0.0375,           /* target_s: 37.5 ms */
    0.25,             /* watchdog_s */
    3,                /* warmup */
    7,                /* reps */
    1.5,              /* time_budget_s */
    1,                /* quick */
    CLB_FAULT_PARTIAL, /* inject_fault */
    1,                /* retune */
    1,                /* largest_only */
    1,                /* all_reps */
    NULL,             /* binary_cache_dir: not a flag, each process resolves its own */
};

/* The same fields by name and place in cli_opts: each must be a row of the table, since the worker
 * needs them all (all but binary_cache_dir, which the worker resolves itself, as the parent does),
 * and the tool's no_binary_cache (the worker must not resolve a cache directory either). */
#define FIELD(f) {#f, offsetof(cli_opts, run.f), sizeof(((cli_opts *)0)->run.f)}
#define TOOL(f) {#f, offsetof(cli_opts, f), sizeof(((cli_opts *)0)->f)}
static const struct {
    const char *name;
    size_t off, size;
} fields[] = {FIELD(target_s), FIELD(watchdog_s), FIELD(warmup), FIELD(reps), FIELD(time_budget_s),
              FIELD(quick), FIELD(inject_fault), FIELD(retune), FIELD(largest_only), FIELD(all_reps),
              TOOL(no_binary_cache)};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The worker's parse of the flags of o: "__worker -d 0:0 FLAGS -- memory.copy" into *w. */
static int worker_parse(const cli_opts *o, cli_opts *w, int *nflags)
{
    static cli_run_argv a;
    static char *argv[CLI_RUN_ARGV_MAX + 8];
    int k = 0;
    cli_run_opts_to_argv(o, &a);
    *nflags = a.argc;
    argv[k++] = "clbench";
    argv[k++] = "__worker";
    argv[k++] = "-d";
    argv[k++] = "0:0";
    for (int i = 0; i < a.argc; i++)
        argv[k++] = a.argv[i];
    argv[k++] = "--";
    argv[k++] = "memory.copy";
    argv[k] = NULL;
    extern int optind;
    optind = 0; /* GNU getopt: start afresh for each parse */
    return cli_parse(k, argv, w);
}

/* Field f of a and b equal: exactly, or within rounding for the ones sent in milliseconds. */
static int same_field(const cli_opts *a, const cli_opts *b, size_t off, size_t size, int ms)
{
    if (!ms)
        return memcmp((const char *)a + off, (const char *)b + off, size) == 0;
    double x, y;
    memcpy(&x, (const char *)a + off, sizeof x);
    memcpy(&y, (const char *)b + off, sizeof y);
    return fabs(x - y) <= 1e-15 * fabs(x);
}

static const cli_run_opt *row_of(size_t off)
{
    for (size_t i = 0; cli_run_opt_row(i); i++)
        if (cli_run_opt_row(i)->off == off)
            return cli_run_opt_row(i);
    return NULL;
}

int main(void)
{
    static cli_opts def, all, one, w; /* the parser's start (zero, the run defaults); every field set */
    clb_run_opts_default(&def.run);
    all = def;
    all.run = all_set;
    all.no_binary_cache = 1;
    size_t rows = 0;
    for (; cli_run_opt_row(rows); rows++) {
        const cli_run_opt *r = cli_run_opt_row(rows);
        size_t want = r->kind == CLI_RUN_COUNT ? sizeof(unsigned)
                      : r->kind == CLI_RUN_SECONDS || r->kind == CLI_RUN_MS ? sizeof(double) : sizeof(int);
        EXPECT(r->size == want, "--%s: its kind does not fit its field", r->flag);
    }
    CHECK(rows == NFIELDS); /* no row for a field that is not in fields[] */
    int nflags = -1;
    CHECK(worker_parse(&all, &w, &nflags) == CLI_EXIT_OK);
    CHECK(nflags == (int)NFIELDS); /* one flag per field */
    CHECK(w.npatterns == 1 && strcmp(w.patterns[0], "memory.copy") == 0);
    for (size_t i = 0; i < NFIELDS; i++) {
        const cli_run_opt *r = row_of(fields[i].off);
        EXPECT(r != NULL, "field %s has no row in the run options table", fields[i].name);
        EXPECT(memcmp((const char *)&all + fields[i].off, (const char *)&def + fields[i].off,
                      fields[i].size) != 0, "the test's value of %s is its default", fields[i].name);
        EXPECT(same_field(&all, &w, fields[i].off, fields[i].size, r && r->kind == CLI_RUN_MS),
               "the worker got another %s", fields[i].name);
    }
    CHECK(w.run.binary_cache_dir == NULL); /* told --no-binary-cache, the worker resolved no cache */
    /* The defaults travel as no flag at all, and the worker has them. */
    CHECK(worker_parse(&def, &w, &nflags) == CLI_EXIT_OK);
    CHECK(nflags == 0);
    CHECK(w.no_binary_cache == 0);
    w.run.binary_cache_dir = def.run.binary_cache_dir; /* each process resolves its own */
    CHECK(memcmp(&w.run, &def.run, sizeof def.run) == 0);
    /* Each field alone: one flag, and only that field changes. */
    for (size_t i = 0; i < NFIELDS; i++) {
        one = def;
        memcpy((char *)&one + fields[i].off, (const char *)&all + fields[i].off, fields[i].size);
        CHECK(worker_parse(&one, &w, &nflags) == CLI_EXIT_OK);
        EXPECT(nflags == 1, "%s alone: %d flags", fields[i].name, nflags);
        for (size_t j = 0; j < NFIELDS; j++)
            EXPECT(same_field(&one, &w, fields[j].off, fields[j].size,
                              row_of(fields[j].off) && row_of(fields[j].off)->kind == CLI_RUN_MS),
                   "%s alone: the worker got another %s", fields[i].name, fields[j].name);
    }
    return failures != 0;
}
