/* The assertion macros of the C unit tests: a failed check prints file:line and the
 * condition and is counted; main returns failures != 0. */
#ifndef CLB_TEST_CHECK_H
#define CLB_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* CHECK with a printf-style explanation. */
#define EXPECT(cond, ...)                                              \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                              \
            fputc('\n', stderr);                                       \
            failures++;                                                \
        }                                                              \
    } while (0)

/* The end of a test's main: the failures counted (stderr) or that all passed; the exit status. */
static inline int check_done(const char *test)
{
    if (failures)
        fprintf(stderr, "%s: %d failure(s)\n", test, failures);
    else
        printf("%s: all checks passed\n", test);
    return failures != 0;
}

#endif
