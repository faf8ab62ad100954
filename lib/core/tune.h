/* The tuning service (lib/core/tune.c) and its winners' cache (lib/core/tune_cache.c);
 * private: apps run it inside their rows, the tool through `clbench tune`. */
#ifndef CLB_TUNE_H
#define CLB_TUNE_H

#include "clbench.h"

/* A kernel's parameter space: named integer dimensions with their allowed values and a
 * constraint (local memory, work-group limits, vector width) that rejects points the device
 * cannot run. Searched on a device by clb_tune_search (docs/decide.md). */
#define CLB_TUNE_MAX_DIMS 8
typedef struct clb_tune_dim {
    const char *name;
    const int *values;
    size_t count;
} clb_tune_dim;

typedef struct clb_tune_space {
    const clb_tune_dim *dims;
    size_t ndims; /* 1 .. CLB_TUNE_MAX_DIMS */
    /* 1 when the point (one value per dimension) may run; NULL: every point may. */
    int (*allowed)(const int *point, void *user);
    void *user;
} clb_tune_space;

/* Measures one point on the device: *seconds = the median of its timed repetitions after
 * warm-up (runner statistics). Returns CLB_STATUS_OK, or the status of a point that could not
 * run or failed its check, with the reason in why. */
typedef clb_status (*clb_tune_eval)(const int *point, void *user, double *seconds, char *why,
                                    size_t why_n);

typedef struct clb_tune_opts {
    size_t exhaustive_max; /* spaces with at most this many allowed points are searched whole (64) */
    double budget_s;       /* larger spaces: random sampling, then hill-climbing, until spent (30) */
    size_t max_evals;      /* 0: no limit on the number of points measured */
    uint64_t seed;         /* random sampling (fixed default: searches are reproducible) */
} clb_tune_opts;
void clb_tune_opts_default(clb_tune_opts *o);

typedef struct clb_tune_cand {
    int point[CLB_TUNE_MAX_DIMS];
    clb_status status;
    double seconds; /* median time; meaningful only when status is ok */
    char why[160];  /* the reason when status is not ok */
} clb_tune_cand;

typedef struct clb_tune_run {
    clb_tune_cand *cands; /* in the order measured; freed by clb_tune_run_free */
    size_t ncands;
    size_t allowed;       /* allowed points (0 when too many to count: then ~total) */
    long best;            /* index of the fastest ok candidate, -1 when none is ok */
    const char *strategy; /* "exhaustive" or "random+hill-climb" (static) */
} clb_tune_run;

/* Searches s with eval; exhaustive when it has at most o->exhaustive_max allowed points, else
 * random sampling + hill-climbing (one index step per dimension) under o->budget_s. A space
 * without allowed points gives CLB_ERR_UNSUPPORTED; out->best is -1 when no point was ok. */
clb_error clb_tune_search(const clb_tune_space *s, clb_tune_eval eval, void *user,
                          const clb_tune_opts *o, clb_tune_run *out, clb_diag *d);
void clb_tune_run_free(clb_tune_run *r);

/* The winners' cache: {"version": 2, "entries": {KEY: {...}}} in
 * $XDG_CACHE_HOME/clbench/tune.json (~/.cache when unset). KEY = app | device | driver | size
 * class (clb_tune_key). The file is untrusted input: clb_tune_cache_parse checks it whole and
 * returns NULL (CLB_ERR_USAGE, reason in d) on anything malformed. Caller frees with cJSON_Delete. */
cJSON *clb_tune_cache_parse(const char *buf, size_t len, clb_diag *d);
/* The cache path, creating its directories; CLB_ERR_IO when neither variable is set. */
clb_error clb_tune_cache_path(char *buf, size_t n, clb_diag *d);
/* The same path without creating anything (for comparing it with the paths a user names). */
clb_error clb_tune_cache_file(char *buf, size_t n, clb_diag *d);
/* A missing file is an empty cache; a malformed one too, with the reason in d (CLB_ERR_USAGE). */
cJSON *clb_tune_cache_load(const char *path, clb_diag *d);
/* Written whole or not at all (clb_output). */
clb_error clb_tune_cache_store(const char *path, const cJSON *cache, clb_diag *d);
const cJSON *clb_tune_cache_get(const cJSON *cache, const char *key); /* borrowed, or NULL */
void clb_tune_cache_put(cJSON *cache, const char *key, cJSON *entry); /* takes entry */
/* "app | device | driver | n~2^K": problems within a factor of 2 share a winner. */
void clb_tune_key(char *buf, size_t n, const char *app, const char *device, const char *driver,
                  double size);

#endif
