/* The single-file HTML report: provenance, devices side by side, summary cards, plots and
 * every result. Strings from the documents are always written through html_puts. */
#include "report/report_cols.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222}"
    "h1{margin-bottom:4px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:32px}"
    "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}"
    "th{background:#f2f4f7}td.num{text-align:right;white-space:nowrap}"
    ".cards{display:flex;flex-wrap:wrap;gap:16px}"
    ".card{border:1px solid #ccc;border-radius:6px;padding:12px;min-width:320px;max-width:460px;"
    "background:#fafbfc}.card h3{margin:0 0 8px 0;font-size:15px}"
    ".small{color:#666;font-size:11px}.na{color:#999;font-style:italic}"
    ".st{display:inline-block;padding:1px 6px;border-radius:3px;font-size:12px;font-weight:600}"
    ".st-ok{background:#d9f2d9;color:#1a661a}.st-unsupported{background:#eee;color:#555}"
    ".st-bad{background:#f9d6d6;color:#9b1c1c}"
    ".plots{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0}"
    "svg.plot{background:#fff;border:1px solid #ddd}svg.plot text{font-size:11px;fill:#333}"
    "svg.plot .ptitle{font-size:13px;font-weight:600}svg.plot .axis{font-size:12px}"
    "svg.plot .grid{stroke:#e5e5e5}svg.plot .frame{fill:none;stroke:#888}"
    "code{font-size:12px}details code{font-size:11px;word-break:break-all}"
    "td{max-width:520px}summary{cursor:pointer}"
    "svg.plot .reflabel{font-size:10px;fill:#444}svg.plot .rlabel{font-size:10px}svg.plot .plabel{font-size:10px;fill:#111}svg.plot .leader{stroke:#999;stroke-width:0.7}";

static void th_esc(FILE *f, const char *s)
{
    fputs("<th>", f);
    html_puts(f, s);
    fputs("</th>", f);
}

/* Header cells: one per device, with the input file when there are several. */
static void col_headers(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc,
                        const char *first)
{
    fputs("<tr>", f);
    th_esc(f, first);
    for (size_t i = 0; i < c->n; i++) {
        fputs("<th>", f);
        html_puts(f, c->col[i].name);
        if (nsrc > 1) {
            fputs("<br><span class=\"small\">", f);
            html_puts(f, src[c->col[i].src].name);
            fputs("</span>", f);
        }
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
}

/* text, escaped; with strip, its absolute paths reduced to their last component. */
static void text_paths(FILE *f, const char *text, int strip)
{
    char *copy = strip && text ? malloc(strlen(text) + 1) : NULL;
    if (copy) {
        memcpy(copy, text, strlen(text) + 1);
        rep_strip_paths(copy);
    }
    html_puts(f, copy ? copy : text);
    free(copy);
}

/* A JSON value as text: strings as they are, numbers compact, anything else as JSON; with
 * strip, absolute paths shortened. */
static void json_value_p(FILE *f, const cJSON *v, int strip)
{
    char num[64];
    if (cJSON_IsString(v)) {
        text_paths(f, v->valuestring, strip);
    } else if (cJSON_IsNumber(v)) {
        snprintf(num, sizeof num, "%.15g", v->valuedouble);
        fputs(num, f);
    } else if (v) {
        char *text = cJSON_PrintUnformatted(v);
        text_paths(f, text ? text : "?", strip);
        free(text);
    } else {
        fputs("<span class=\"na\">-</span>", f);
    }
}

static void json_value(FILE *f, const cJSON *v)
{
    json_value_p(f, v, 0);
}

static const char *const prov_keys[] = {"tool", "tool_version", "git_sha", "build_type", "date",
                                        "command_line", "environment"};
static const char *const host_keys[] = {"hostname", "os", "kernel", "machine", "cpu",
                                        "online_cpus", /* and seed 004's Fig. 6: */ "user", "cpu_mhz",
                                        "cpu_max_mhz", "caches", "memory_bytes", "compiler",
                                        "compiler_flags", "host_rows_flags"};

/* One row: provenance[key] (or provenance.host[key]) of every file. */
static void prov_row(FILE *f, const clb_report_src *src, size_t n, const char *key, int host, int strip)
{
    fputs("<tr>", f);
    th_esc(f, key);
    for (size_t i = 0; i < n; i++) {
        const cJSON *p = rj_obj(src[i].doc, "provenance");
        const cJSON *o = host ? rj_obj(p, "host") : p;
        fputs("<td>", f);
        json_value_p(f, o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL, strip);
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

/* strip: host paths (the executable, output and input files, environment values) shortened to
 * their last component, unless --provenance-paths. */
static void provenance(FILE *f, const clb_report_src *src, size_t n, int strip)
{
    fputs("<section id=\"provenance\"><h2>Provenance and system</h2><table>\n<tr><th>file</th>", f);
    for (size_t i = 0; i < n; i++) {
        fputs("<th>", f);
        text_paths(f, src[i].name, strip);
        fputs("</th>", f);
    }
    fputs("</tr>\n<tr><th>schema_version</th>", f);
    for (size_t i = 0; i < n; i++) {
        fputs("<td>", f);
        json_value(f, cJSON_GetObjectItemCaseSensitive(src[i].doc, "schema_version"));
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
    for (size_t k = 0; k < sizeof prov_keys / sizeof prov_keys[0]; k++)
        prov_row(f, src, n, prov_keys[k], 0, strip);
    for (size_t k = 0; k < sizeof host_keys / sizeof host_keys[0]; k++)
        prov_row(f, src, n, host_keys[k], 1, strip);
    fputs("</table></section>\n", f);
}

static const char *const dev_keys[] = {
    "CL_PLATFORM_NAME", "CL_PLATFORM_VERSION", "CL_DEVICE_VENDOR", "CL_DEVICE_TYPE",
    "CL_DEVICE_VERSION", "CL_DRIVER_VERSION", "CL_DEVICE_MAX_COMPUTE_UNITS",
    "CL_DEVICE_MAX_CLOCK_FREQUENCY", "CL_DEVICE_GLOBAL_MEM_SIZE", "CL_DEVICE_LOCAL_MEM_SIZE",
    "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE", "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE",
    "CL_DEVICE_MAX_WORK_GROUP_SIZE"};

/* The property of a device entry: CL_PLATFORM_* from "platform", the rest from "device". */
static const cJSON *dev_prop(const cJSON *dev, const char *key)
{
    const cJSON *o = rj_obj(dev, strncmp(key, "CL_PLATFORM_", 12) == 0 ? "platform" : "device");
    return o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static void derived_rows(FILE *f, const rep_cols *c)
{
    static const char *const keys[] = {"fp64", "fp16", "simd_width", "local_memory", "global_cache"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        fputs("<tr>", f);
        th_esc(f, keys[k]);
        for (size_t i = 0; i < c->n; i++) {
            const cJSON *e = rj_obj(rj_obj(c->col[i].dev, "derived"), keys[k]);
            fputs("<td>", f);
            json_value(f, e ? cJSON_GetObjectItemCaseSensitive(e, "value") : NULL);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
}

static void devices(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc)
{
    fputs("<section id=\"devices\"><h2>Devices</h2><table>\n", f);
    col_headers(f, c, src, nsrc, "property");
    for (size_t k = 0; k < sizeof dev_keys / sizeof dev_keys[0]; k++) {
        fputs("<tr>", f);
        th_esc(f, dev_keys[k]);
        for (size_t i = 0; i < c->n; i++) {
            fputs("<td>", f);
            json_value(f, dev_prop(c->col[i].dev, dev_keys[k]));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    derived_rows(f, c);
    fputs("</table></section>\n", f);
}

/* The statistics line under a value: median, CI, cv, n, min/mean/max, sd, direction. */
static void stats_line(FILE *f, const rj_result *x)
{
    char m[32], lo[32], hi[32], mn[32], mean[32], mx[32], sd[32];
    rj_fmt(m, sizeof m, x->median);
    rj_fmt(lo, sizeof lo, x->has_ci ? x->ci_lo : NAN);
    rj_fmt(hi, sizeof hi, x->has_ci ? x->ci_hi : NAN);
    rj_fmt(mn, sizeof mn, x->min);
    rj_fmt(mean, sizeof mean, x->mean);
    rj_fmt(mx, sizeof mx, x->max);
    rj_fmt(sd, sizeof sd, x->stddev);
    fprintf(f, "<br><span class=\"small\">median %s, 95%% CI [%s, %s], cv %.1f%%, n %.0f"
               "<br>min %s, mean %s, max %s, sd %s", m, lo, hi, 100 * x->cv, x->n, mn, mean, mx, sd);
    if (*x->better) {
        fputs(", ", f);
        html_puts(f, x->better);
        fputs(" is better", f);
    }
    fputs("</span>", f);
}

/* value / the first column's value, when both are ok numbers in the same unit. */
static void ratio_line(FILE *f, const rj_result *x, const cJSON *first)
{
    rj_result b;
    if (!first)
        return;
    rj_result_read(first, &b);
    if (strcmp(b.status, "ok") != 0 || !b.has_value || b.value == 0 || strcmp(b.unit, x->unit) != 0)
        return;
    fprintf(f, "<br><span class=\"small\">%.3f&times; the first column</span>", x->value / b.value);
}

/* "73.2% of the physical limit 3350 GB/s" with the limit's source as a tooltip. */
static void limit_line(FILE *f, const cJSON *r)
{
    double pct, limit;
    const char *unit;
    char v[32];
    if (!rep_limit_efficiency(r, &pct, &limit, &unit))
        return;
    rj_fmt(v, sizeof v, limit);
    fputs("<br><span class=\"small\" title=\"", f);
    html_puts(f, rj_str(rj_obj(rj_obj(r, "params"), "limit"), "source"));
    fprintf(f, "\">%.1f%% of the physical limit %s ", pct, v);
    html_puts(f, unit);
    fputs("</span>", f);
}

enum { PARAMS_SHOWN = 4000 };

/* The timer and the params (compact JSON, cut at PARAMS_SHOWN bytes on a UTF-8 character
 * boundary) in a <details> element: visible on demand, no script needed. */
static void details(FILE *f, const cJSON *r, const rj_result *x, int strip)
{
    const cJSON *params = rj_obj(r, "params");
    if (!*x->timer && cJSON_GetArraySize(params) == 0)
        return;
    fputs("<details><summary class=\"small\">details</summary><span class=\"small\">", f);
    if (*x->timer) {
        fputs("timer: ", f);
        html_puts(f, x->timer);
        fputs("<br>", f);
    }
    char *text = params ? cJSON_PrintUnformatted(params) : NULL;
    if (text && strip) /* cache files, libraries: no host paths unless asked */
        rep_strip_paths(text);
    if (text && strlen(text) > PARAMS_SHOWN + 3) { /* room for "..." and the NUL */
        size_t cut = PARAMS_SHOWN;
        while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80)
            cut--;
        memcpy(text + cut, "...", 4);
    }
    if (text) {
        fputs("params: <code>", f);
        html_puts(f, text);
        fputs("</code>", f);
    }
    free(text);
    fputs("</span></details>", f);
}

/* One cell of the results table; first: the same result in the first column (or NULL). */
static void result_cell(FILE *f, const cJSON *r, const cJSON *first, int strip)
{
    char v[32];
    rj_result x;
    if (!r) {
        fputs("<td><span class=\"na\">not in this run</span></td>", f);
        return;
    }
    rj_result_read(r, &x);
    fputs("<td>", f);
    if (strcmp(x.status, "ok") == 0 && x.has_value) {
        rj_fmt(v, sizeof v, x.value);
        fprintf(f, "<b>%s</b> ", v);
        html_puts(f, x.unit);
        fputs(" ", f);
    }
    rep_html_status(f, x.status, strcmp(x.status, "ok") == 0 ? NULL : x.reason);
    if (strcmp(x.status, "ok") == 0 && x.has_value) {
        limit_line(f, r);
        if (x.has_stats)
            stats_line(f, &x);
        if (first != r)
            ratio_line(f, &x, first);
    }
    details(f, r, &x, strip);
    fputs("</td>", f);
}

static void results(FILE *f, const rep_cols *c, const clb_report_src *src, size_t nsrc, int strip)
{
    fputs("<section id=\"results\"><h2>All results</h2><table>\n", f);
    col_headers(f, c, src, nsrc, "benchmark");
    for (size_t k = 0; k < c->nnames; k++) {
        fputs("<tr><th><code>", f);
        html_puts(f, c->names[k]);
        fputs("</code></th>", f);
        for (size_t i = 0; i < c->n; i++)
            result_cell(f, rep_find(&c->col[i], c->names[k]),
                        c->n > 1 ? rep_find(&c->col[0], c->names[k]) : NULL, strip);
        fputs("</tr>\n", f);
    }
    if (c->nnames == 0)
        fputs("<tr><td class=\"na\">no results in the input</td></tr>\n", f);
    fputs("</table></section>\n", f);
}

clb_error clb_report_html(FILE *f, const clb_report_src *src, size_t n)
{
    clb_html_opts o = {0};
    return clb_report_html_ex(f, src, n, &o);
}

clb_error clb_report_html_ex(FILE *f, const clb_report_src *src, size_t n, const clb_html_opts *o)
{
    rep_cols c;
    if (rep_cols_build(&c, src, n) != CLB_OK)
        return CLB_ERR_NOMEM;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<title>clbench report</title>\n<style>%s</style></head>\n<body>\n"
               "<h1>clbench report</h1>\n<p class=\"small\">%zu file(s), %zu device(s); generated "
               "by clbench %s (schema %s)</p>\n",
            css, n, c.n, CLB_VERSION, CLB_SCHEMA_VERSION);
    /* What a reader wants first: a suite's scores, the headline figures, the roofline, then the
     * groups; the device properties and the provenance close the page. */
    for (size_t i = 0; i < n; i++)
        if (rj_obj(src[i].doc, "suite"))
            clb_suite_html(f, rj_obj(src[i].doc, "suite"));
    rep_html_summary(f, &c, src, n);
    rep_html_roofline(f, &c, src, n);
    rep_html_plots(f, &c, n);
    results(f, &c, src, n, !o->provenance_paths);
    devices(f, &c, src, n);
    provenance(f, src, n, !o->provenance_paths);
    fputs("</body></html>\n", f);
    rep_cols_free(&c);
    return ferror(f) ? CLB_ERR_IO : CLB_OK;
}
