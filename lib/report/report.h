/* Helpers shared by the report, export and compare code: tolerant readers of parsed results
 * documents. A document may come from another machine or be damaged: every accessor checks
 * the JSON type and answers "absent" rather than trusting the schema. */
#ifndef CLB_REPORT_H
#define CLB_REPORT_H

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

/* Writes s HTML-escaped (&, <, >, ", ') ; NULL writes nothing. */
void html_puts(FILE *f, const char *s);

#endif
