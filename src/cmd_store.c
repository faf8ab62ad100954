/* clbench store add|list|docs|show|history|export|site: the results store (docs/store.md), and the
 * --store of run, suite and run --mpi (cli_store_doc). */
#include "cli.h"
#include "core/internal.h"
#include "doc/doc.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_store_path(const cli_opts *o, int create, char *buf, size_t n)
{
    clb_diag d;
    if (o->store) {
        snprintf(buf, n, "%s", o->store);
        return CLI_EXIT_OK;
    }
    if (clb_user_file(buf, n, cli_env_get()->xdg_data_home, "XDG_DATA_HOME", ".local/share", "store.sqlite", create,
                      &d) != CLB_OK) {
        fprintf(stderr, "clbench: the store's default place: %s (--store=PATH names one)\n", d.msg);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static int open_store(const cli_opts *o, int create, clb_store **s)
{
    char path[4096];
    clb_diag d;
    int rc = cli_store_path(o, create, path, sizeof path);
    if (rc == CLI_EXIT_OK && clb_store_open(path, create, s, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    return rc;
}

static void print_added(const char *name, const clb_store_added *a)
{
    if (a->known)
        printf("known  doc %lld %.12s %s (already in the store; nothing changed)\n", (long long)a->doc, a->hash, name);
    else
        printf("added  doc %lld %.12s %s: %zu run%s, %zu results\n", (long long)a->doc, a->hash, name, a->runs,
               a->runs == 1 ? "" : "s", a->results);
}

static int store_add(const cli_opts *o)
{
    clb_store *s = NULL;
    int rc = o->npatterns < 2 ? CLI_EXIT_USAGE : open_store(o, 1, &s);
    if (o->npatterns < 2)
        fprintf(stderr, "clbench: store add needs one or more documents\n");
    for (int i = 1; rc != CLI_EXIT_RUNTIME && s && i < o->npatterns && !cli_stop_signal(); i++) {
        clb_store_added a;
        clb_diag d;
        if (clb_store_add_file(s, o->patterns[i], &a, &d) == CLB_OK)
            print_added(o->patterns[i], &a);
        else {
            int r = cli_fail_diag(&d);
            rc = r > rc ? r : rc;
        }
    }
    clb_store_close(s);
    return rc;
}

/* The frame of the commands that read the store: open it (never created), run fn, close it. */
static int with_store(const cli_opts *o, int (*fn)(const cli_opts *, clb_store *))
{
    clb_store *s = NULL;
    int rc = open_store(o, 0, &s);
    if (rc == CLI_EXIT_OK)
        rc = fn(o, s);
    clb_store_close(s);
    return rc;
}

/* store list: one line per device. */
static int list_devices(const cli_opts *o, clb_store *s)
{
    (void)o;
    clb_store_device *v = NULL;
    size_t n = 0;
    clb_diag d;
    clb_error e = clb_store_devices(s, &v, &n, &d);
    if (e == CLB_OK)
        printf("%-4s %-28s %-32s %-10s %-20s %-20s %s\n", "id", "key", "model", "vendor", "driver", "last run", "runs");
    for (size_t i = 0; i < n; i++) {
        char t[32];
        cli_format_time(v[i].last_run, t, sizeof t);
        printf("%-4lld %-28s %-32s %-10.10s %-20s %-20s %zu\n", (long long)v[i].id, v[i].key, v[i].model, v[i].vendor,
               v[i].driver, t, v[i].runs);
    }
    clb_store_devices_free(v, n);
    return e == CLB_OK ? CLI_EXIT_OK : cli_fail_diag(&d);
}

/* store docs: one line per document. */
static int list_docs(const cli_opts *o, clb_store *s)
{
    (void)o;
    clb_store_doc *v = NULL;
    size_t n = 0;
    clb_diag d;
    clb_error e = clb_store_docs(s, &v, &n, &d);
    if (e == CLB_OK)
        printf("%-4s %-14s %-8s %-20s %-20s %12s %5s %s\n", "doc", "hash", "kind", "date", "added", "bytes", "runs",
               "source");
    for (size_t i = 0; i < n; i++) {
        char t[32], a[32];
        cli_format_time(v[i].time, t, sizeof t);
        cli_format_time(v[i].added, a, sizeof a);
        printf("%-4lld %-14.12s %-8s %-20s %-20s %12lld %5zu %s\n", (long long)v[i].id, v[i].hash, v[i].kind, t, a,
               (long long)v[i].bytes, v[i].runs, *v[i].source ? v[i].source : "-");
    }
    free(v);
    return e == CLB_OK ? CLI_EXIT_OK : cli_fail_diag(&d);
}

static int store_list(const cli_opts *o)
{
    return with_store(o, list_devices);
}

static int store_docs(const cli_opts *o)
{
    return with_store(o, list_docs);
}

static int print_latest(const clb_store_series *sr, void *arg)
{
    clb_store *s = arg;
    size_t i = sr->n - 1;
    char v[32], t[32];
    rj_fmt(v, sizeof v, sr->value[i]);
    cli_format_time(sr->time[i], t, sizeof t);
    printf("  %-36s %12s %-10s %-14s %-20s %zu\n", sr->row_name, v, sr->unit, clb_store_status_name(s, sr->status[i]), t,
           sr->n);
    return 0;
}

/* store show DEVICE: the device, then the last value of each of its rows. */
static int show_device(const cli_opts *o, clb_store *s)
{
    clb_diag d;
    int64_t id = -1;
    if (clb_store_find_device(s, o->patterns[1], &id, &d) != CLB_OK)
        return cli_fail_diag(&d);
    clb_store_device *v = NULL;
    size_t n = 0;
    int rc = clb_store_devices(s, &v, &n, &d) == CLB_OK ? CLI_EXIT_OK : cli_fail_diag(&d);
    for (size_t i = 0; i < n; i++)
        if (v[i].id == id) {
            char t[32];
            cli_format_time(v[i].last_run, t, sizeof t);
            printf("device %lld %s\n  model %s, vendor %s, driver %s\n  host %s, slot %s%s%s; UUID %s, PCI %s\n"
                   "  %zu runs, the last %s\n",
                   (long long)id, v[i].key, v[i].model, v[i].vendor, v[i].driver, v[i].host, v[i].slot,
                   *v[i].variant ? ", variant " : "", v[i].variant, *v[i].uuid ? v[i].uuid : "-",
                   *v[i].pci ? v[i].pci : "-", v[i].runs, t);
        }
    clb_store_devices_free(v, n);
    if (rc == CLI_EXIT_OK) {
        printf("  %-36s %12s %-10s %-14s %-20s %s\n", "row", "last value", "unit", "status", "last run", "runs");
        if (clb_store_each_series(s, id, print_latest, s, NULL, &d) != CLB_OK)
            rc = cli_fail_diag(&d);
    }
    return rc;
}

static int store_show(const cli_opts *o)
{
    return with_store(o, show_device);
}

static int store_history(const cli_opts *o)
{
    clb_store *s = NULL;
    clb_diag d;
    int64_t id = -1;
    clb_store_series sr = {0};
    int rc = open_store(o, 0, &s);
    if (rc == CLI_EXIT_OK && clb_store_find_device(s, o->patterns[1], &id, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    if (rc == CLI_EXIT_OK && clb_store_history(s, id, o->patterns[2], &sr, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    if (rc == CLI_EXIT_OK && sr.n == 0) {
        fprintf(stderr, "clbench: device %lld has no row '%s' in the store\n", (long long)id, o->patterns[2]);
        rc = CLI_EXIT_USAGE;
    }
    int table = !o->html || strcmp(o->html, "-") != 0; /* --html -: the page alone on stdout */
    if (rc == CLI_EXIT_OK && table)
        printf("%-20s %14s %-10s %8s %5s %-14s %s\n", "time", "value", "unit", "cv %", "n", "status", "run");
    for (size_t i = 0; rc == CLI_EXIT_OK && table && i < sr.n; i++) {
        char t[32], v[32], cv[32];
        cli_format_time(sr.time[i], t, sizeof t);
        rj_fmt(v, sizeof v, sr.value[i]);
        rj_fmt(cv, sizeof cv, 100 * sr.spread[i]);
        printf("%-20s %14s %-10s %8s %5d %-14s %lld\n", t, v, sr.unit, cv, sr.nsamp[i],
               clb_store_status_name(s, sr.status[i]), (long long)sr.run[i]);
    }
    if (rc == CLI_EXIT_OK && o->html)
        rc = cli_store_history_html(o, s, &sr);
    clb_store_series_free(&sr);
    clb_store_close(s);
    return rc;
}

/* text to --json FILE (whole or not at all) or stdout. */
static int write_out(const cli_opts *o, const char *text, size_t len)
{
    clb_diag d;
    if (!o->json || strcmp(o->json, "-") == 0)
        return fwrite(text, 1, len, stdout) == len ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
    clb_output *out = NULL;
    FILE *f = NULL;
    if (clb_output_open(o->json, &out, &f, &d) == CLB_OK)
        clb_output_close(out, fwrite(text, 1, len, f) == len, &d);
    return d.err == CLB_OK ? CLI_EXIT_OK : cli_fail_diag(&d);
}

/* Every document as one JSON array. */
static int export_all(const cli_opts *o, clb_store *s)
{
    clb_store_doc *v = NULL;
    size_t n = 0;
    clb_diag d;
    if (clb_store_docs(s, &v, &n, &d) != CLB_OK)
        return cli_fail_diag(&d);
    cJSON *all = cJSON_CreateArray();
    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < n && rc == CLI_EXIT_OK; i++) {
        char *text = NULL;
        size_t len = 0;
        if (clb_store_export(s, v[i].id, &text, &len, &d) != CLB_OK)
            rc = cli_fail_diag(&d);
        else
            cJSON_AddItemToArray(all, cJSON_Parse(text));
        free(text);
    }
    char *text = rc == CLI_EXIT_OK ? cJSON_Print(all) : NULL;
    if (text) {
        size_t len = strlen(text);
        text[len] = '\n'; /* replaces the NUL: written by length */
        rc = write_out(o, text, len + 1);
    } else if (rc == CLI_EXIT_OK) {
        rc = CLI_EXIT_RUNTIME;
    }
    free(text);
    cJSON_Delete(all);
    free(v);
    return rc;
}

/* One document by id or hash prefix, or every one (export_all). */
static int export_some(const cli_opts *o, clb_store *s)
{
    clb_diag d;
    int64_t id = -1;
    if (o->npatterns == 1)
        return export_all(o, s);
    if (clb_store_find_doc(s, o->patterns[1], &id, &d) != CLB_OK)
        return cli_fail_diag(&d);
    char *text = NULL;
    size_t len = 0;
    int rc = clb_store_export(s, id, &text, &len, &d) == CLB_OK ? write_out(o, text, len) : cli_fail_diag(&d);
    free(text);
    return rc;
}

static int store_export(const cli_opts *o)
{
    return with_store(o, export_some);
}

/* store drift [DEVICE|--all] (cmd_store_wire.c). */
static int store_drift(const cli_opts *o)
{
    if (o->npatterns > 1 && o->all) {
        fprintf(stderr, "clbench: store drift: name one DEVICE or --all, not both\n");
        return CLI_EXIT_USAGE;
    }
    return with_store(o, cli_store_drift);
}

/* store site DIR: DIR checked before the store is opened (src/cli_paths.c), the site built in
 * src/cmd_store_site.c. */
static int store_site(const cli_opts *o)
{
    char path[4096];
    clb_store *s = NULL;
    clb_diag d;
    int rc = cli_store_path(o, 0, path, sizeof path);
    if (rc == CLI_EXIT_OK)
        rc = cli_check_site_dir(o->patterns[1], path);
    if (rc == CLI_EXIT_OK && clb_store_open(path, 0, &s, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    if (rc == CLI_EXIT_OK)
        rc = cli_store_site(s, o->patterns[1]);
    clb_store_close(s);
    return rc;
}

int cli_store_open(const cli_opts *o, clb_store **s)
{
    return open_store(o, 0, s);
}

int cmd_store(const cli_opts *o)
{
    static const struct {
        const char *sub;
        int lo, hi; /* arguments after the subcommand */
        int (*fn)(const cli_opts *);
    } subs[] = {{"add", 1, 1 << 30, store_add}, {"list", 0, 0, store_list},       {"docs", 0, 0, store_docs},
                {"show", 1, 1, store_show},     {"history", 2, 2, store_history}, {"export", 0, 1, store_export},
                {"drift", 0, 1, store_drift},
                {"site", 1, 1, store_site}};
    const char *sub = o->npatterns > 0 ? o->patterns[0] : "";
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(sub, subs[i].sub) == 0 && o->npatterns - 1 >= subs[i].lo && o->npatterns - 1 <= subs[i].hi)
            return subs[i].fn(o);
    fprintf(stderr, "clbench: usage: clbench store add FILE... | list | docs | show DEVICE | history DEVICE ROW |"
                    " export [DOC] | drift [DEVICE|--all] | site DIR [--store=PATH]\n");
    return CLI_EXIT_USAGE;
}

static void print_stored(const clb_store_added *a)
{
    fprintf(stderr, "clbench: stored as doc %lld (%.12s)%s: %zu runs, %zu results\n", (long long)a->doc, a->hash,
            a->known ? ", already there" : "", a->runs, a->results);
}

int cli_store_file(const cli_opts *o, const char *path)
{
    clb_store *s = NULL;
    clb_store_added a;
    clb_diag d;
    int rc = open_store(o, 1, &s);
    if (rc == CLI_EXIT_OK && clb_store_add_file(s, path, &a, &d) != CLB_OK)
        rc = cli_fail_diag(&d);
    else if (rc == CLI_EXIT_OK)
        print_stored(&a);
    clb_store_close(s);
    return rc;
}

int cli_store_doc(const cli_opts *o, const cJSON *doc)
{
    char *text = cJSON_Print(doc);
    clb_store *s = NULL;
    clb_store_added a;
    clb_diag d;
    int rc = text ? open_store(o, 1, &s) : CLI_EXIT_RUNTIME;
    if (rc == CLI_EXIT_OK) {
        size_t len = strlen(text);
        char *bytes = realloc(text, len + 2); /* the bytes clb_doc_write writes: text and newline */
        if (bytes) {
            text = bytes;
            text[len++] = '\n';
            text[len] = '\0';
        }
        if (!bytes)
            rc = CLI_EXIT_RUNTIME;
        else if (clb_store_add_bytes(s, text, len, "this run", &a, &d) != CLB_OK)
            rc = cli_fail_diag(&d);
        else
            print_stored(&a);
    }
    free(text);
    clb_store_close(s);
    return rc;
}
