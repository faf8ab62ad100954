/* The results-document layer: tolerant readers of parsed results documents, shared by every
 * layer above it (judge, report, decide, the CLI). A document may come from another machine or
 * be damaged: every accessor checks the JSON type and answers "absent" rather than trusting
 * the schema. */
#ifndef CLB_DOC_H
#define CLB_DOC_H

#include "clbench.h"

/* obj[key] when obj is an object and the member is a string / finite number / array / object. */
const char *rj_str(const cJSON *obj, const char *key);
int rj_num(const cJSON *obj, const char *key, double *v);
const cJSON *rj_arr(const cJSON *obj, const char *key);
const cJSON *rj_obj(const cJSON *obj, const char *key);

/* The fields of one result that the report shows; absent strings are "" and absent numbers
 * clear the matching has_* flag. */
typedef struct rj_result {
    const char *name, *group, *status, *unit, *reason, *better, *timer;
    int has_value, has_stats, has_ci;
    double value, median, ci_lo, ci_hi, cv, n, mean, stddev, min, max;
} rj_result;
void rj_result_read(const cJSON *r, rj_result *out);

/* CL_DEVICE_NAME of a device entry, or "unknown device". */
const char *rj_device_name(const cJSON *dev);
/* The devices array of a document (NULL when absent). */
const cJSON *rj_devices(const cJSON *doc);
/* The result named name in a device entry, or NULL. */
const cJSON *rj_find_result(const cJSON *dev, const char *name);

/* The one rule for "the row's number" (judge, decide, the device database's import): the first
 * result named name in a results array counts, and only when its status is ok and its value a
 * finite number; NULL otherwise. rj_ok_result looks in a device entry's results. */
const cJSON *rj_ok_in(const cJSON *results, const char *name);
const cJSON *rj_ok_result(const cJSON *dev, const char *name);
/* The value of rj_ok_result(dev, name) when its unit is unit (NULL: any unit), else NaN. */
double rj_ok_value(const cJSON *dev, const char *name, const char *unit);

/* The results of a device entry sorted by name (lib/doc/name_index.c): rj_index_find answers
 * what rj_find_result does, in O(log n). */
typedef struct rj_named {
    const char *name;
    size_t pos;
    const cJSON *r;
} rj_named;
typedef struct rj_index {
    rj_named *e;
    size_t n;
} rj_index;
clb_error rj_index_build(rj_index *ix, const cJSON *dev);
const cJSON *rj_index_find(const rj_index *ix, const char *name);
void rj_index_free(rj_index *ix);
/* Keeps the first of each name of e[0..n) (by pos), in pos order; returns how many remain. */
size_t rj_named_distinct(rj_named *e, size_t n);

/* Four significant digits, without exponents for the magnitudes benchmarks produce; "-" for
 * non-finite values. */
void rj_fmt(char *buf, size_t n, double v);
/* The last path component of a file name (borrowed from path). */
const char *rj_basename(const char *path);

/* "NAME:LINE:COLUMN: malformed JSON near '...'" for an error at text[pos] (pos >= len: the end). */
clb_error clb_doc_syntax_error(const char *text, size_t len, size_t pos, const char *name, clb_diag *d);
/* "NAME:LINE:COLUMN: N bytes after the end of the JSON document" for a complete document that
 * text[pos..len) follows. */
clb_error clb_doc_trailing_error(const char *text, size_t len, size_t pos, const char *name, clb_diag *d);
/* Bytes of a UTF-8 byte order mark at the start of text (3 or 0): every reader skips it. */
size_t clb_doc_skip_bom(const char *text, size_t len);

#endif
