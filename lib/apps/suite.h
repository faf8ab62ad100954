/* What docs/suite.md's table "What runs" says of a suite app beyond the public clb_suite_app:
 * what each size variable counts and the work model in words. suite_apps[] (suite.c) holds them
 * beside the app, so `clbench suite --list` prints the doc's table from the one table. */
#ifndef CLB_SUITE_H
#define CLB_SUITE_H

#include "clbench.h"

#include <stdio.h>

typedef struct clb_suite_words {
    const char *unit[CLB_SUITE_MAX_ENV]; /* what env[k] counts, "" when the name says it */
    const char *work;                    /* the work model (seconds_per_tau) in words */
} clb_suite_words;

/* The words of clb_suite_app_at(i); NULL past the end. Static. */
const clb_suite_words *clb_suite_words_at(size_t i);

/* docs/suite.md's table "What runs" as Markdown: one line per app of the table, with the
 * registry rows the OpenCL globs match in this build. Opens no device. */
void clb_suite_list(FILE *f);

#endif
