/* The store's packed form of a run's results (lib/store/store_pack.c, formats 2 and 3, and the
 * records of store_points.c): values come
 * back exactly (every number the same bits, keys and order the same) through shapes nested in
 * themselves, back references at and past their reach, decimals and their differences, shared
 * prefixes, -0 and doubles that no decimal gives; a format 1 blob still reads; every truncation
 * of a blob is refused without a crash (of a long blob, 200 of them); and a run of results like the measured ones packs to at
 * most the bytes per result recorded in docs/store.md, deflated and not. Format 3: odd results
 * (duplicate names, none, a status that is no string, a string value, -0) come back exactly
 * from the blob and their records; the holes take the records' values (another record, not the
 * same result; a record short, refused); statistics that the samples give back are not kept
 * (smaller than with one ulp off); records and blob of the measured kind at most 29 B per result. */
#include "check.h"
#include "store/store_int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when a and b are the same JSON, numbers compared bit for bit. */
static int same(const cJSON *a, const cJSON *b)
{
    if (!a || !b || (a->type & 0xff) != (b->type & 0xff))
        return 0;
    if ((a->string == NULL) != (b->string == NULL) || (a->string && strcmp(a->string, b->string) != 0))
        return 0;
    if (cJSON_IsNumber(a))
        return memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) == 0;
    if (cJSON_IsString(a))
        return strcmp(a->valuestring, b->valuestring) == 0;
    const cJSON *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next)
        if (!same(x, y))
            return 0;
    return x == NULL && y == NULL;
}

/* The length of format 2 a deflated blob (0xF3) holds, from its header (0 when not one). */
static size_t plain_length(const unsigned char *b, size_t n)
{
    size_t len = 0;
    for (size_t at = 1, shift = 0; n > 0 && b[0] == 0xF3 && at < n && shift < 35; shift += 7) {
        len |= (size_t)(b[at] & 0x7f) << shift;
        if (!(b[at++] & 0x80))
            return len;
    }
    return 0;
}

/* Packs v, checks format 2's mark (0xF2, or 0xF3 deflated) and the way back; returns the packed
 * length and in *plain the length of format 2. */
static size_t round_trip(const char *what, const cJSON *v, size_t *plain)
{
    size_t n = 0;
    unsigned char *b = clb_store_pack(v, &n);
    EXPECT(b != NULL && n > 0 && (b[0] == 0xF2 || b[0] == 0xF3), "%s: packed, format 2", what);
    if (plain)
        *plain = b && b[0] == 0xF3 ? plain_length(b, n) : n;
    cJSON *back = b ? clb_store_unpack(b, n) : NULL;
    EXPECT(same(v, back), "%s: comes back exactly", what);
    /* every truncation is refused (and none crashes); of a long blob, 200 of them */
    int refused = 1;
    for (size_t k = 0; b && k < n; k += n < 2000 ? 1 : n / 200) {
        cJSON *t = clb_store_unpack(b, k);
        refused &= t == NULL;
        cJSON_Delete(t);
    }
    EXPECT(refused, "%s: every truncation refused", what);
    cJSON_Delete(back);
    free(b);
    return n;
}

static const char *const texts[] = {
    "[]",
    "{}",
    "[null, true, false, 0, -1, 1e300, -1e-300, 5e-324, 9007199254740993, -9007199254740992, 0.1, 1.5, 123.456789]",
    "{\"a\": {\"a\": 1, \"b\": 2}, \"b\": 3, \"c\": {\"a\": 4, \"b\": 5}, \"d\": {\"a\": {\"a\": 6, \"b\": 7}, \"b\": 8}}",
    "{\"k\": 1, \"k\": 2, \"\": \"\", \"\\u00e9t\\u00e9\": \"caf\\u00e9\"}",
    "[\"row001\", \"row002\", \"row0\", \"row\", \"r\", \"row002\", \"\", \"x\"]",
    "[0.95, 0.95, 12.5, 0.95, 1e-7, 3.14159265358979, 3.14159265358979, 0.30000000000000004]",
    "[{\"n\": 5, \"v\": 1.25}, {\"n\": 5, \"v\": 1.26}, {\"v\": 1.27, \"n\": 5}, {\"n\": 5}]",
};

/* Numbers past a back reference's reach, -0 (printed "-0"), decimals of every exponent. */
static cJSON *edges(void)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 300; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(0.5 + i));
    for (int i = 0; i < 300; i++) /* again: 300, then 64 and 65 places back */
        cJSON_AddItemToArray(a, cJSON_CreateNumber(0.5 + (i % 65)));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(-0.0));
    double p = 1;
    for (int e = 0; e <= 24; e++, p *= 10)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(12345.0 / p)), cJSON_AddItemToArray(a, cJSON_CreateNumber(-7.0 / p));
    return a;
}

/* 200 results as tests/store_gen.py writes them (statistics of 5, no samples, every 17th
 * unsupported), numbers with 6 decimals and 9 digits. */
static cJSON *results(void)
{
    cJSON *a = cJSON_CreateArray();
    uint64_t x = 88172645463325252ull;
    for (int row = 0; row < 200; row++) {
        cJSON *r = cJSON_CreateObject();
        char name[32];
        snprintf(name, sizeof name, "gen.row%03d", row);
        cJSON_AddStringToObject(r, "name", name);
        cJSON_AddStringToObject(r, "group", "gen");
        if (row % 17 == 16) {
            cJSON_AddStringToObject(r, "status", "unsupported");
            cJSON_AddStringToObject(r, "reason", "not on this device");
            cJSON_AddNullToObject(r, "value");
            cJSON_AddStringToObject(r, "unit", "GB/s");
            cJSON_AddNullToObject(r, "stats");
            cJSON_AddObjectToObject(r, "params");
            cJSON_AddArrayToObject(r, "samples");
            cJSON_AddItemToArray(a, r);
            continue;
        }
        double v[5], base = 10.0 * (row + 1);
        for (int k = 0; k < 5; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v[k] = round(base * (1 + 0.02 * ((double)(x % 1000000) / 1e6 - 0.5)) * 1e6) / 1e6;
        }
        for (int i = 1; i < 5; i++) /* sorted */
            for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
                double t = v[k];
                v[k] = v[k - 1], v[k - 1] = t;
            }
        double mean = round((v[0] + v[1] + v[2] + v[3] + v[4]) / 5 * 1e5) / 1e5, sd = round(base * 1e-2 * 1e7) / 1e7;
        cJSON_AddStringToObject(r, "status", "ok");
        cJSON_AddNullToObject(r, "reason");
        cJSON_AddNumberToObject(r, "value", v[2]);
        cJSON_AddStringToObject(r, "unit", "GB/s");
        cJSON_AddStringToObject(r, "better", "higher");
        cJSON_AddStringToObject(r, "timer", "cl_event_profiling");
        cJSON *st = cJSON_AddObjectToObject(r, "stats"), *ci;
        cJSON_AddNumberToObject(st, "n", 5);
        cJSON_AddNumberToObject(st, "min", v[0]);
        cJSON_AddNumberToObject(st, "max", v[4]);
        cJSON_AddNumberToObject(st, "median", v[2]);
        cJSON_AddNumberToObject(st, "mean", mean);
        cJSON_AddNumberToObject(st, "stddev", sd);
        cJSON_AddNumberToObject(st, "cv", round(sd / mean * 1e11) / 1e11);
        ci = cJSON_AddArrayToObject(st, "ci95");
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(v[0]));
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(v[4]));
        cJSON_AddNumberToObject(st, "ci95_level", 0.95);
        cJSON_AddNumberToObject(cJSON_AddObjectToObject(r, "params"), "bytes", (double)(1 << (row % 30)));
        cJSON_AddArrayToObject(r, "samples");
        cJSON_AddItemToArray(a, r);
    }
    return a;
}

/* Format 3's lookups: row ids by name in a small table, status codes ("ok" 0, others from 64). */
static const char *row_names[512];
static int nrow_names;
static const char *status_names[8] = {"ok", "error", "unsupported"};
static int nstatus_names = 3;

static char *copy_of(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

static int64_t t_row_of(void *arg, const cJSON *r, const char *name, size_t pos)
{
    (void)arg, (void)r, (void)pos;
    for (int i = 0; i < nrow_names; i++)
        if (strcmp(row_names[i], name) == 0)
            return i + 1;
    if (nrow_names == 512)
        return -1;
    if (!(row_names[nrow_names] = copy_of(name)))
        return -1;
    return ++nrow_names;
}

static int64_t t_code_of(void *arg, const char *name)
{
    (void)arg;
    for (int i = 0; i < nstatus_names; i++)
        if (strcmp(status_names[i], name) == 0)
            return i ? 63 + i : 0;
    if (nstatus_names == 8)
        return -1;
    if (!(status_names[nstatus_names] = copy_of(name)))
        return -1;
    return 63 + nstatus_names++;
}

static const char *t_name_of(void *arg, int64_t row)
{
    (void)arg;
    return row >= 1 && row <= nrow_names ? row_names[row - 1] : NULL;
}

static const char *t_status_of(void *arg, int code)
{
    (void)arg;
    return code == 0 ? "ok" : code >= 64 && code < 63 + nstatus_names ? status_names[code - 63] : NULL;
}

/* A result as clbench writes it: its statistics from its samples (clb_stats_compute). */
static cJSON *measured(const char *name, int n, double scale)
{
    double x[128];
    uint64_t z = (uint64_t)0x9e3779b97f4a7c15 ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        x[i] = scale * (1 + (double)(z % 100000) / 3e6);
    }
    clb_stats st;
    clb_stats_compute(x, (size_t)n, &st);
    cJSON *r = cJSON_CreateObject(), *s, *ci, *smp;
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddStringToObject(r, "status", "ok");
    cJSON_AddNumberToObject(r, "value", st.median);
    s = cJSON_AddObjectToObject(r, "stats");
    cJSON_AddNumberToObject(s, "n", (double)n);
    cJSON_AddNumberToObject(s, "min", st.min), cJSON_AddNumberToObject(s, "max", st.max);
    cJSON_AddNumberToObject(s, "median", st.median), cJSON_AddNumberToObject(s, "mean", st.mean);
    cJSON_AddNumberToObject(s, "stddev", st.stddev), cJSON_AddNumberToObject(s, "mad", st.mad);
    cJSON_AddNumberToObject(s, "cv", st.cv);
    ci = cJSON_AddArrayToObject(s, "ci95");
    cJSON_AddItemToArray(ci, cJSON_CreateNumber(st.ci95_lo)), cJSON_AddItemToArray(ci, cJSON_CreateNumber(st.ci95_hi));
    cJSON_AddNumberToObject(s, "ci95_level", st.ci95_level);
    smp = cJSON_AddArrayToObject(r, "samples");
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(smp, cJSON_CreateNumber(x[i]));
    return r;
}

/* Packs v in format 3 beside its records and back; the blob's length (and *pts the records'). */
static size_t round_trip3(const char *what, const cJSON *v, size_t *pts)
{
    clb_store_rec *recs = NULL, *got = NULL;
    long *rec_of = NULL;
    size_t nrec = 0, n = 0, np = 0, ngot = 0;
    EXPECT(clb_store_records(v, t_row_of, t_code_of, NULL, &recs, &nrec, &rec_of), "%s: records", what);
    unsigned char *b = clb_store_pack3(v, recs, rec_of, t_name_of, t_status_of, NULL, &n);
    unsigned char *p = clb_store_points_encode(recs, nrec, &np);
    EXPECT(b && (b[0] == 0xF4 || b[0] == 0xF5) && p, "%s: packed, format 3", what);
    EXPECT(p && clb_store_points_decode(p, np, &got, &ngot) && ngot == nrec &&
               (nrec == 0 || memcmp(got, recs, nrec * sizeof *recs) == 0),
           "%s: the records come back", what);
    cJSON *back = b ? clb_store_unpack3(b, n, got, ngot, t_name_of, t_status_of, NULL) : NULL;
    EXPECT(same(v, back), "%s: comes back exactly", what);
    cJSON_Delete(back);
    if (nrec > 0 && b) { /* the holes are the records': another record, not the same result; one short, refused */
        double keep = got[0].value;
        got[0].value = isnan(keep) ? 1.0 : nextafter(keep, INFINITY);
        back = clb_store_unpack3(b, n, got, ngot, t_name_of, t_status_of, NULL);
        EXPECT(!same(v, back), "%s: a record's value changed, the result changes (or is refused)", what);
        cJSON_Delete(back);
        got[0].value = keep;
        back = clb_store_unpack3(b, n, got, ngot - 1, t_name_of, t_status_of, NULL);
        EXPECT(back == NULL, "%s: a record short, refused", what);
        cJSON_Delete(back);
    }
    int refused = 1;
    for (size_t k = 0; b && k < n; k += n < 2000 ? 1 : n / 200) {
        cJSON *t = clb_store_unpack3(b, k, got, ngot, t_name_of, t_status_of, NULL);
        refused &= t == NULL;
        cJSON_Delete(t);
    }
    for (size_t k = 0; p && k < np; k += np < 2000 ? 1 : np / 200) {
        clb_store_rec *t = NULL;
        size_t nt = 0;
        refused &= !clb_store_points_decode(p, k, &t, &nt);
        free(t);
    }
    EXPECT(refused, "%s: every truncation refused", what);
    if (pts)
        *pts = np;
    free(recs), free(rec_of), free(got), free(b), free(p);
    return n;
}

/* Format 3: odd results (duplicate names, no name, no status, a string value, NaN-free edge
 * numbers), statistics from samples (given back by the samples: smaller) and one not. */
static void format3(void)
{
    static const char odd[] =
        "[{\"name\": \"a\", \"status\": \"ok\", \"value\": -0.0, \"stats\": {\"cv\": 0.25, \"n\": 3, \"median\": -0.0}},"
        " {\"name\": \"a\", \"status\": \"error\", \"value\": 7},"
        " {\"status\": \"ok\", \"value\": 1.5}, {\"name\": \"b\", \"value\": \"x\", \"status\": 5},"
        " {\"name\": \"c\", \"status\": \"unsupported\", \"value\": null, \"stats\": null, \"samples\": []},"
        " {\"name\": \"d\", \"status\": \"ok\", \"value\": 2, \"stats\": {\"n\": 2.5, \"cv\": -1, \"min\": 1},"
        " \"samples\": [1, 3]}, 5, \"s\", {\"name\": \"e\", \"status\": \"ok\", \"value\": 1e300,"
        " \"stats\": {\"min\": 1, \"min\": 1, \"max\": 2, \"n\": 2}, \"samples\": [2, 1]}]";
    cJSON *v = cJSON_Parse(odd);
    EXPECT(v != NULL, "%s", "the odd results parse");
    if (v)
        round_trip3("odd results", v, NULL);
    cJSON_Delete(v);
    /* statistics from samples: given back (holes), and with the mean one ulp off (kept) */
    cJSON *good = cJSON_CreateArray(), *off = cJSON_CreateArray();
    for (int i = 0; i < 10; i++) { /* 5 to 12 samples, and 60 and 100 (min, max, median from them too) */
        char name[16];
        int n = i < 8 ? 5 + i : i == 8 ? 60 : 100;
        snprintf(name, sizeof name, "m%d", i);
        cJSON_AddItemToArray(good, measured(name, n, 10.0 * (i + 1)));
        cJSON *r = measured(name, n, 10.0 * (i + 1)), *mean = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "stats"), "mean");
        cJSON_SetNumberValue(mean, nextafter(mean->valuedouble, INFINITY));
        cJSON_AddItemToArray(off, r);
    }
    size_t ng = round_trip3("statistics from samples", good, NULL), no = round_trip3("a statistic one ulp off", off, NULL);
    printf("10 measured results: %zu B with their statistics from the samples, %zu B with each mean one ulp off\n", ng, no);
    EXPECT(ng + 10 * 4 <= no, "the samples give the statistics back: %zu B, %zu B when they do not", ng, no);
    cJSON_Delete(good);
    cJSON_Delete(off);
    /* the measured kind of results: what the store's size depends on (docs/store.md) */
    cJSON *r = results();
    size_t np = 0, n3 = round_trip3("200 results", r, &np);
    printf("200 results: %zu B in format 3 deflated (%.1f per result), records %zu B (%.1f per result)\n", n3,
           (double)n3 / 200, np, (double)np / 200);
    EXPECT(n3 + np <= 29 * 200, "200 results in format 3 and their records: %zu B, at most 29 per result", n3 + np);
    cJSON_Delete(r);
    for (int i = 0; i < nrow_names; i++)
        free((char *)row_names[i]);
    for (int i = 3; i < nstatus_names; i++)
        free((char *)status_names[i]);
}

int main(void)
{
    char what[64];
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        cJSON *v = cJSON_Parse(texts[i]);
        snprintf(what, sizeof what, "text %zu", i);
        EXPECT(v != NULL, "%s parses", what);
        if (v)
            round_trip(what, v, NULL);
        cJSON_Delete(v);
    }
    cJSON *e = edges();
    round_trip("edges", e, NULL);
    cJSON_Delete(e);

    /* format 1 (schema versions 2 and 3): [{"a": 1.5, "b": "a"}] */
    static const unsigned char f1[] = {6, 1, 7, 2, 0, 1, 'a', 4, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 1, 'b', 5, 1};
    cJSON *old = clb_store_unpack(f1, sizeof f1), *want = cJSON_Parse("[{\"a\": 1.5, \"b\": \"a\"}]");
    EXPECT(same(old, want), "%s", "a format 1 blob still reads");
    cJSON_Delete(old);
    cJSON_Delete(want);

    /* the size the store's measurement depends on (docs/store.md, "Schema"): format 2 at most
     * 58 B per result, deflated at most 31 */
    cJSON *r = results();
    size_t plain = 0, n = round_trip("200 results", r, &plain);
    char *text = cJSON_PrintUnformatted(r);
    printf("200 results: %zu B as text, %zu B in format 2 (%.1f per result), %zu B deflated (%.1f per result)\n",
           text ? strlen(text) : 0, plain, (double)plain / 200, n, (double)n / 200);
    EXPECT(plain > 0 && plain <= 58 * 200, "200 results in format 2: %zu B, at most 58 per result", plain);
    EXPECT(n <= 31 * 200 && n < plain, "200 results deflated: %zu B, at most 31 per result", n);
    free(text);
    cJSON_Delete(r);
    format3();
    if (failures == 0)
        printf("PASS: store pack formats 2 and 3\n");
    return failures != 0;
}
