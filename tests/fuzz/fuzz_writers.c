/* libFuzzer harness: the report writers with an oracle. The input is split at NUL bytes into
 * strings that replace, in turn, the string values of a complete results document (device,
 * platform, results, params and a params key, curves, an app ladder, provenance, roofline,
 * suite) and the file names; an empty piece keeps the template's value, so that statuses like "ok" still reach every
 * branch. After each '<', '"' and '\'' of a piece the harness inserts "Zq", which no writer's
 * own markup contains. Then:
 *   HTML      valid UTF-8; every '<' opens a tag of the writer (an allowed name, attributes
 *             name="value" without '<' or '"'); no "<Zq", "\"Zq" or "'Zq" anywhere;
 *   CSV       valid UTF-8; every record has the header's 12 cells; no cell starts a formula
 *             (=, +, -, @, tab, CR) unless it is a plain number;
 *   Markdown  valid UTF-8; no '<' at all; every line of the results table has 13 unescaped '|';
 *   terminal  compare, fleet-check and the suite summary: valid UTF-8, no control byte but '\n'.
 * A violation aborts (a finding). */
#include "clbench.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char template_doc[] =
    "{\"schema_version\":\"1.0.0\",\"provenance\":{\"tool\":\"clbench\",\"tool_version\":\"0.1.0\",\"git_sha\":\"01234"
    "56789ab\",\"build_type\":\"RelWithDebInfo\",\"command_line\":[\"clbench\",\"run\",\"--json\",\"sample.json\"],\""
    "date\":\"2026-01-02T03:04:05Z\",\"host\":{\"os\":\"Linux\",\"kernel\":\"6.1.0\",\"machine\":\"x86_64\",\"hostname\""
    ":\"testhost\",\"cpu\":\"Example CPU <8 cores> & \\\"friends\\\"\",\"online_cpus\":8},\"environment\":{\"POCL_DE"
    "VICES\":\"pthread\"}},\"devices\":[{\"selection\":{\"platform_index\":0,\"device_index\":0},\"platform\":{\"CL"
    "_PLATFORM_NAME\":\"Example Platform\",\"CL_PLATFORM_VERSION\":\"OpenCL 3.0 example\"},\"device\":{\"CL_DEV"
    "ICE_NAME\":\"Example GPU <X1>\",\"CL_DEVICE_VENDOR\":\"Example Inc.\",\"CL_DEVICE_TYPE\":\"CL_DEVICE_TYPE_"
    "GPU\",\"CL_DEVICE_MAX_COMPUTE_UNITS\":16,\"CL_DEVICE_MAX_CLOCK_FREQUENCY\":1500,\"CL_DEVICE_GLOBAL_MEM"
    "_SIZE\":8589934592},\"derived\":{\"fp64\":{\"value\":false,\"how\":\"no cl_khr_fp64\"},\"simd_width\":{\"value"
    "\":32,\"how\":\"probe kernel\"}},\"results\":[{\"name\":\"launch.roundtrip\",\"group\":\"launch\",\"status\":\"ok\""
    ",\"reason\":null,\"value\":12.5,\"unit\":\"us\",\"better\":\"lower\",\"timer\":\"wall_clock_monotonic\",\"stats\":"
    "{\"n\":10,\"min\":11.0,\"max\":14.0,\"median\":12.5,\"mean\":12.6,\"stddev\":0.9,\"mad\":0.4,\"cv\":0.0714,\"ci95"
    "\":[12.0,13.0],\"ci95_level\":0.98},\"params\":{}},{\"name\":\"compute.fp32_peak\",\"group\":\"compute\",\"sta"
    "tus\":\"ok\",\"reason\":null,\"value\":4000.0,\"unit\":\"GFLOP/s\",\"better\":\"higher\",\"timer\":\"cl_event_prof"
    "iling\",\"stats\":{\"n\":10,\"min\":3900,\"max\":4050,\"median\":4000,\"mean\":3990,\"stddev\":40,\"mad\":20,\"cv\""
    ":0.01,\"ci95\":[3980,4020],\"ci95_level\":0.98},\"params\":{\"theoretical\":5000,\"curve\":{\"x_name\":\"ILP\""
    ",\"x_unit\":\"\",\"y_name\":\"FP32 rate\",\"y_unit\":\"GFLOP/s\",\"x_log\":false,\"points\":[[1,1100],[2,2100],["
    "4,3800],[8,4000]],\"label\":\"float4 fma\"}}},{\"name\":\"compute.fp64_peak\",\"group\":\"compute\",\"status\""
    ":\"unsupported\",\"reason\":\"device lacks cl_khr_fp64\",\"value\":null,\"unit\":\"GFLOP/s\",\"stats\":null,\"p"
    "arams\":{}},{\"name\":\"memory.bandwidth\",\"group\":\"memory\",\"status\":\"ok\",\"reason\":null,\"value\":300.0"
    ",\"unit\":\"GB/s\",\"better\":\"higher\",\"timer\":\"cl_event_profiling\",\"stats\":{\"n\":6,\"min\":290,\"max\":310"
    ",\"median\":300,\"mean\":300,\"stddev\":7,\"mad\":5,\"cv\":0.0233,\"ci95\":[290,310],\"ci95_level\":0.97},\"par"
    "ams\":{\"curves\":[{\"x_name\":\"working set\",\"x_unit\":\"B\",\"y_name\":\"bandwidth\",\"y_unit\":\"GB/s\",\"x_log"
    "\":true,\"points\":[[4096,900],[65536,850],[1048576,600],[16777216,320],[268435456,300]],\"label\":\"r"
    "ead\"},{\"x_name\":\"working set\",\"x_unit\":\"B\",\"y_name\":\"bandwidth\",\"y_unit\":\"GB/s\",\"x_log\":true,\"po"
    "ints\":[[4096,700],[65536,650],[1048576,450],[16777216,250],[268435456,240]],\"label\":\"copy\"}],\"li"
    "mit\":{\"value\":600,\"unit\":\"GB/s\",\"source\":\"db\"},\"efficiency\":70}},{\"name\":\"memory.latency\",\"group"
    "\":\"memory\",\"status\":\"invalid_result\",\"reason\":\"element 17: got 3, expected 4 (pointer chain \\\"br"
    "oken\\\", a|b)\",\"value\":null,\"unit\":\"ns\",\"stats\":null,\"params\":{}},{\"name\":\"app.saxpy.sequential\","
    "\"group\":\"app\",\"status\":\"ok\",\"value\":1.5,\"unit\":\"GB/s\",\"better\":\"higher\",\"params\":{\"rung_index\":0"
    ",\"speedup_vs_sequential\":1,\"peer_row\":\"memory.triad\",\"pct_of_triad\":50}},{\"name\":\"app.saxpy.open"
    "cl\",\"group\":\"app\",\"status\":\"ok\",\"value\":2.5,\"unit\":\"GB/s\",\"better\":\"higher\",\"params\":{\"rung_inde"
    "x\":1,\"speedup_vs_sequential\":2,\"peer_row\":\"memory.triad\",\"pct_of_triad\":50}}],\"roofline\":{\"ceili"
    "ngs\":[{\"name\":\"fp32 peak\",\"kind\":\"compute\",\"value\":4000,\"unit\":\"GFLOP/s\",\"pct_of_physical\":80},{"
    "\"name\":\"dram\",\"kind\":\"bandwidth\",\"value\":500,\"unit\":\"GB/s\"}],\"theoretical\":[{\"name\":\"fp32 limit\""
    ",\"kind\":\"compute\",\"value\":5000,\"unit\":\"GFLOP/s\"}],\"points\":[{\"row\":\"app.saxpy\",\"unit\":\"GFLOP/s\","
    "\"intensity\":0.1,\"performance\":40,\"verdict\":\"ok\",\"reason\":\"below its roof\",\"pct_of_roof\":80},{\"ro"
    "w\":\"app.sgemm\",\"unit\":\"GIOP/s\",\"intensity\":50,\"performance\":3000,\"verdict\":\"invalid\",\"reason\":\"a"
    "bove its roof\",\"compute_only\":true}]}}],\"suite\":{\"suite_version\":\"1\",\"mode\":\"quick\",\"system\":{\"c"
    "pu\":\"cpu\",\"os\":\"Linux\",\"kernel\":\"6\",\"compiler\":\"cc\",\"clbench_git_sha\":\"abc\"},\"reference\":{\"statu"
    "s\":\"absent\",\"reason\":\"no reference\"},\"columns\":[{\"device\":\"GPU\",\"platform\":\"P\",\"platform_version"
    "\":\"1\",\"driver\":\"d\",\"device_version\":\"v\",\"variant\":\"base\",\"build_options\":\"-O3\",\"score\":{\"status\""
    ":\"void\",\"reason\":\"why\",\"void_app\":\"app\"},\"apps\":[{\"title\":\"Euler\",\"app\":\"euler\",\"best_opencl\":\"o"
    "cl\",\"rows\":[{\"row\":\"ocl\",\"status\":\"ok\",\"peak_s\":1,\"peak_ratio\":2},{\"row\":\"seq\",\"status\":\"error\","
    "\"reason\":\"failed\"}],\"speedups\":{\"vs_sequential\":{\"status\":\"absent\"}}}],\"omitted\":[{\"app\":\"mcpi\","
    "\"why\":\"no device\"}]}]}}";

enum { MAX_PIECES = 64 };

typedef struct pool {
    char *s[MAX_PIECES];
    size_t n, next;
} pool;

/* The pieces of data between NUL bytes, each with "Zq" after '<', '"' and '\''. */
static void pool_init(pool *p, const uint8_t *data, size_t size)
{
    size_t start = 0;
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i <= size && p->n < MAX_PIECES; i++) {
        if (i < size && data[i] != 0)
            continue;
        char *s = malloc(3 * (i - start) + 1), *o = s;
        if (!s)
            abort();
        for (size_t k = start; k < i; k++) {
            *o++ = (char)data[k];
            if (data[k] == '<' || data[k] == '"' || data[k] == '\'')
                *o++ = 'Z', *o++ = 'q';
        }
        *o = '\0';
        p->s[p->n++] = s;
        start = i + 1;
    }
}

static const char *pool_take(pool *p)
{
    return p->n ? p->s[p->next++ % p->n] : "";
}

static void pool_free(pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->s[i]);
}

/* Every string value in document order takes the next piece (an empty piece keeps it); every
 * params object gets a member named by a piece. */
static void fill(cJSON *node, pool *p)
{
    for (; node; node = node->next) {
        if (cJSON_IsString(node)) {
            const char *s = pool_take(p);
            if (*s && !cJSON_SetValuestring(node, s))
                abort();
        }
        if (node->string && strcmp(node->string, "params") == 0 && cJSON_IsObject(node)) {
            const char *k = pool_take(p);
            if (*k)
                cJSON_AddStringToObject(node, k, "v");
        }
        fill(node->child, p);
    }
}

/* The length of the well-formed UTF-8 character at s[0..n), 0 when invalid (own check). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

static void fail(const char *what, const char *out, size_t at)
{
    fprintf(stderr, "ORACLE: %s at byte %zu: '%.80s'\n", what, at, out + (at > 20 ? at - 20 : 0));
    abort();
}

static void check_utf8(const char *out, size_t n, int terminal)
{
    for (size_t i = 0; i < n;) {
        const unsigned char *s = (const unsigned char *)out + i;
        size_t len = utf8_len(s, n - i);
        if (len == 0)
            fail("invalid UTF-8", out, i);
        if (terminal && ((s[0] < 0x20 && s[0] != '\n') || s[0] == 0x7F || (s[0] == 0xC2 && s[1] < 0xA0)))
            fail("control character on the terminal", out, i);
        i += len;
    }
}

static const char *const tags[] = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "section", "table", "tr",
    "th", "td", "span", "br", "b", "code", "details", "summary", "div", "figure", "figcaption", "svg",
    "line", "rect", "text", "polyline", "circle", NULL};

static int known_tag(const char *s, size_t n)
{
    for (size_t i = 0; tags[i]; i++)
        if (strlen(tags[i]) == n && strncmp(tags[i], s, n) == 0)
            return 1;
    return 0;
}

/* The tag at out[i] == '<': returns the index after its '>'. */
static size_t tag_end(const char *out, size_t n, size_t i)
{
    static const char doctype[] = "<!DOCTYPE html>";
    size_t k = i + 1, name;
    if (strncmp(out + i, doctype, sizeof doctype - 1) == 0)
        return i + sizeof doctype - 1;
    k += k < n && out[k] == '/';
    for (name = k; k < n && ((out[k] >= 'a' && out[k] <= 'z') || (out[k] >= '0' && out[k] <= '9')); k++)
        ;
    if (!known_tag(out + name, k - name))
        fail("'<' that opens no tag of the writer", out, i);
    for (;;) {
        if (k < n && out[k] == '>')
            return k + 1;
        if (k + 1 < n && out[k] == '/' && out[k + 1] == '>')
            return k + 2;
        if (k >= n || out[k] != ' ')
            fail("malformed attribute list", out, k);
        for (k++; k < n && (isalnum((unsigned char)out[k]) || out[k] == '-'); k++)
            ;
        if (k + 1 >= n || out[k] != '=' || out[k + 1] != '"')
            fail("attribute without a quoted value", out, k);
        for (k += 2; k < n && out[k] != '"'; k++)
            if (out[k] == '<')
                fail("'<' in an attribute value", out, k);
        k++;
    }
}

static void check_html(const char *out, size_t n)
{
    check_utf8(out, n, 0);
    for (size_t i = 0; i + 2 < n; i++)
        if ((out[i] == '<' || out[i] == '"' || out[i] == '\'') && out[i + 1] == 'Z' && out[i + 2] == 'q')
            fail("an input's '<', '\"' or '\\'' unescaped", out, i);
    for (size_t i = 0; i < n;)
        i = out[i] == '<' ? tag_end(out, n, i) : i + 1;
}

/* A text cell may start a formula only when it is a plain number. */
static int plain_number(const char *c, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (c[i] == '-' || c[i] == '+'))
        i++;
    for (; i < n && ((c[i] >= '0' && c[i] <= '9') || c[i] == '.' || c[i] == 'e' || c[i] == 'E' ||
                     ((c[i] == '-' || c[i] == '+') && (c[i - 1] == 'e' || c[i - 1] == 'E'))); i++)
        digits += c[i] >= '0' && c[i] <= '9';
    return i == n && digits > 0;
}

static void check_csv(const char *out, size_t n)
{
    size_t cells = 0, row = 0, i = 0;
    check_utf8(out, n, 0);
    while (i < n) {
        char cell[8] = "";
        size_t len = 0, start = i;
        if (out[i] == '"') { /* quoted: "" is a quote, ends at a lone quote */
            for (i++; i < n && !(out[i] == '"' && (i + 1 >= n || out[i + 1] != '"')); i += out[i] == '"' ? 2 : 1)
                if (len < sizeof cell - 1)
                    cell[len++] = out[i];
            if (i >= n)
                fail("unterminated quoted CSV cell", out, start);
            i++;
        } else {
            for (; i < n && out[i] != ',' && out[i] != '\n'; i++)
                if (out[i] == '"' || out[i] == '\r')
                    fail("quote or CR in an unquoted CSV cell", out, i);
            len = i - start;
            memcpy(cell, out + start, len < sizeof cell ? len : sizeof cell - 1);
        }
        if (len && strchr("=+-@\t\r", cell[0]) && !plain_number(out + start, i - start))
            fail("CSV cell that starts a formula", out, start);
        cells++;
        if (i < n && out[i] == ',') {
            i++;
            continue;
        }
        if (i >= n || out[i] != '\n' || cells != 12)
            fail("CSV record without 12 cells", out, start);
        i++;
        cells = 0;
        row++;
    }
    if (cells != 0 || row < 1)
        fail("CSV ends inside a record", out, n);
}

static void check_md(const char *out, size_t n)
{
    check_utf8(out, n, 0);
    if (memchr(out, '<', n))
        fail("'<' in the Markdown", out, (size_t)((const char *)memchr(out, '<', n) - out));
    for (size_t i = 0; i < n && out[i] == '|';) { /* the results table: up to the first other line */
        size_t pipes = 0, start = i;
        for (; i < n && out[i] != '\n'; i++)
            pipes += out[i] == '|' && (i == 0 || out[i - 1] != '\\');
        if (pipes != 13)
            fail("Markdown row without 13 cell borders", out, start);
        i++;
    }
}

typedef void (*writer)(FILE *f, const clb_report_src *src, cJSON *doc);

static void w_html(FILE *f, const clb_report_src *src, cJSON *doc)
{
    (void)doc;
    clb_report_html(f, src, 2);
}

static void w_csv(FILE *f, const clb_report_src *src, cJSON *doc)
{
    (void)doc;
    clb_report_csv(f, src, 2);
}

static void w_md(FILE *f, const clb_report_src *src, cJSON *doc)
{
    (void)doc;
    clb_report_markdown(f, src, 2);
}

static void w_term(FILE *f, const clb_report_src *src, cJSON *doc)
{
    clb_diag d;
    clb_fleet_opts o;
    clb_fleet_opts_default(&o);
    o.verbose = 1;
    clb_compare(f, src[0].doc, src[1].doc, 0.05, &d);
    clb_fleet_check(f, src, 2, &o, &d);
    clb_suite_print(f, cJSON_GetObjectItemCaseSensitive(doc, "suite"));
}

static void render(writer w, void (*check)(const char *, size_t), const clb_report_src *src, cJSON *doc)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f)
        return;
    w(f, src, doc);
    fclose(f);
    check(out, n);
    free(out);
}

static void check_term(const char *out, size_t n)
{
    check_utf8(out, n, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pool p;
    clb_diag d;
    pool_init(&p, data, size);
    cJSON *doc = clb_doc_parse(template_doc, sizeof template_doc - 1, "template.json", &d);
    cJSON *other = cJSON_Duplicate(doc, 1);
    if (!doc || !other)
        abort();
    fill(doc, &p);
    fill(other, &p);
    clb_report_src src[2] = {{pool_take(&p), doc}, {pool_take(&p), other}};
    src[0].name = *src[0].name ? src[0].name : "a.json";
    src[1].name = *src[1].name ? src[1].name : "b.json";
    render(w_html, check_html, src, doc);
    render(w_csv, check_csv, src, doc);
    render(w_md, check_md, src, doc);
    render(w_term, check_term, src, doc);
    cJSON_Delete(doc);
    cJSON_Delete(other);
    pool_free(&p);
    return 0;
}
