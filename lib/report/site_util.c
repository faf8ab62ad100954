/* What the site's pages share: safe file names, numbers and times, the page frame, cells and
 * links, pages written whole (clb_output). Every string of the model reaches a page through
 * html_puts. */
#include "report/site_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const char *site_s(const char *s)
{
    return s ? s : "";
}

int site_ok(const char *status)
{
    return !status || strcmp(status, "ok") == 0;
}

const char *site_unmeasured(const clb_site_point *p)
{
    return site_ok(p->status) || !*p->status ? "no value" : p->status;
}

/* Large values without an exponent (4640 GB/s, not 4.64e+03), small ones with 4 digits. */
void site_num(char *buf, size_t n, double v)
{
    double a = fabs(v);
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (a >= 1000 && a < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

void site_time(char *buf, size_t n, int64_t t)
{
    struct tm tm;
    time_t tt = (time_t)t;
    if (t <= 0 || (int64_t)tt != t || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, n, "-");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double site_median(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(x, n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* 64-bit FNV-1a over every byte of s. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

void clb_site_slug(const char *key, char *out, size_t n)
{
    char stem[41];
    size_t k = 0;
    key = site_s(key);
    for (const char *p = key; *p && k < sizeof stem - 1; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (site_slug_keeps(c))
            stem[k++] = c;
        else if (k > 0 && stem[k - 1] != '-') /* runs of anything else: one dash */
            stem[k++] = '-';
    }
    while (k > 0 && stem[k - 1] == '-')
        k--;
    stem[k] = '\0';
    snprintf(out, n, "%s-%012llx", k ? stem : "x", (unsigned long long)(fnv1a(key) & 0xFFFFFFFFFFFFull));
}

typedef struct slug_ref {
    const char *slug, *key;
    size_t i;
} slug_ref;

static int cmp_slug_ref(const void *a, const void *b)
{
    const slug_ref *x = a, *y = b;
    int c = strcmp(x->slug, y->slug);
    if (!c)
        c = strcmp(x->key, y->key);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The slugs of n keys, the later of equal ones (equal keys, or a hash collision) suffixed
 * "-2", "-3", ...: a suffixed name ends in "-N", a plain one in 12 hex digits after a dash,
 * so no two coincide. CLB_ERR_NOMEM without memory for the sort. */
clb_error site_name_slugs(char (*slug)[SITE_NAME_MAX], const char *const *keys, size_t n)
{
    slug_ref *r = malloc(n ? n * sizeof *r : 1);
    if (!r)
        return CLB_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        clb_site_slug(keys[i], slug[i], SITE_NAME_MAX);
        r[i] = (slug_ref){slug[i], site_s(keys[i]), i};
    }
    qsort(r, n, sizeof *r, cmp_slug_ref);
    /* Each run's first name stays plain (it is compared against, never changed). */
    for (size_t i = 1, first = 0; i < n; i++) {
        if (strcmp(r[i].slug, r[first].slug) != 0) {
            first = i;
            continue;
        }
        size_t len = strlen(slug[r[i].i]);
        snprintf(slug[r[i].i] + len, SITE_NAME_MAX - len, "-%zu", i - first + 1);
    }
    free(r);
    return CLB_OK;
}

clb_error site_open(const site_ctx *c, const char *rel, clb_output **o, FILE **f, clb_diag *d)
{
    char path[4096];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", c->dir, rel) >= sizeof path)
        return clb_diag_set(d, CLB_ERR_USAGE, "site folder name too long: %.200s", c->dir);
    /* A link or a node planted in the site's place would take the write elsewhere. */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return clb_diag_set(d, CLB_ERR_USAGE, "cannot write %s: it exists and is not a regular file", path);
    return clb_output_open(path, o, f, d);
}

clb_error site_close(clb_output *o, FILE *f, clb_diag *d)
{
    return clb_output_close(o, !ferror(f), d);
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:20px;color:#222}"
    "nav{font-size:13px;margin-bottom:8px}h1{margin:4px 0;word-break:break-all}"
    "h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:28px}"
    "h3{font-size:14px;margin:16px 0 4px 0;word-break:break-all}"
    "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}"
    "th{background:#f2f4f7}td.num{text-align:right;white-space:nowrap}tbody th{background:#e8ecf2}"
    "td{max-width:420px;overflow-wrap:anywhere}.meta{color:#555;font-size:13px}"
    ".small{color:#666;font-size:11px}.worse{color:#9b1c1c;font-weight:600}"
    ".st{display:inline-block;padding:0 5px;border-radius:3px;font-size:12px;font-weight:600}"
    ".st-ok{background:#d9f2d9;color:#1a661a}.st-unsupported{background:#eee;color:#555}"
    ".st-bad{background:#f9d6d6;color:#9b1c1c}"
    ".grid{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;width:300px}"
    "figcaption{font-size:12px;font-weight:600;overflow-wrap:anywhere}figure p{margin:2px 0;font-size:11px;color:#444}"
    "svg.h{width:300px;height:120px;background:#fff;border:1px solid #ddd}svg.h text{font-size:10px;fill:#444}"
    "svg.h .b{fill:#1f77b4;fill-opacity:.18;stroke:none}svg.h .l{fill:none;stroke:#1f77b4;stroke-width:1.5}"
    "svg.h circle{fill:#1f77b4}svg.h circle.x{fill:#d62728}";

void site_head(FILE *f, const char *title, const char *up)
{
    /* No script is ever needed: the policy forbids every script and every outside load, so
     * that even a string that escaped escaping could not run or call home. */
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>", f);
    html_puts(f, *site_s(title) ? title : "(unnamed)");
    fprintf(f, "</title><style>%s</style></head>\n<body>\n<nav><a href=\"%sindex.html\">devices</a> "
               "&middot; <a href=\"%sscores.html\">suite scores</a></nav>\n", css, up, up);
}

void site_foot(FILE *f, const site_ctx *c)
{
    char t[32];
    site_time(t, sizeof t, c->m->generated);
    fprintf(f, "<p class=\"small\">written by clbench store site, %s UTC</p>\n</body></html>\n", t);
}

void site_td(FILE *f, const char *s)
{
    fputs("<td>", f);
    html_puts(f, s);
    fputs("</td>", f);
}

void site_td_num(FILE *f, double v, const char *unit)
{
    char b[40];
    site_num(b, sizeof b, v);
    fprintf(f, "<td class=\"num\">%s", b);
    if (isfinite(v) && unit && *unit) {
        fputs(" ", f);
        html_puts(f, unit);
    }
    fputs("</td>", f);
}

void site_link(FILE *f, const char *up, const char *folder, const char *slug, const char *text)
{
    fprintf(f, "<a href=\"%s%s/", up, folder);
    html_puts(f, slug);
    fputs(".html\">", f);
    html_puts(f, *site_s(text) ? text : "(unnamed)");
    fputs("</a>", f);
}

size_t site_find_device(const site_ctx *c, const char *key)
{
    size_t lo = 0, hi = c->m->ndevices;
    if (!key)
        return (size_t)-1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(site_s(c->m->devices[c->by_key[mid]].key), key);
        if (r == 0)
            return c->by_key[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}
