/* Outliers across a fleet of identical devices (clbench fleet-check). Devices are grouped by
 * name and driver version; per result, the fleet's median m and a robust scale s, and each
 * device's robust z = (v - m) / s. A device is flagged on a result when it is worse than the
 * fleet (in the result's bad direction) by at least min_rel AND |z| >= min_z. The scale is the
 * larger of 1.4826 MAD (the fleet's spread) and m times the standard error of one device's
 * median (1.2533 cv / sqrt(n) from the median run-to-run CV and repetitions: a fleet of
 * near-identical devices has a MAD near zero, and their own noise must not become a flag). A result
 * whose typical run-to-run CV exceeds max_cv cannot separate a fault of min_rel from noise: it
 * is reported as not judged, never flagged. A device is never compared with itself: two entries
 * with one UUID, one PCI address on one node, or ranks marked sharing one device refuse the
 * whole check (same_device_pairs). */
#include "core/grow.h"
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fdev {
    const cJSON *dev;
    char label[192];
    const char *name, *driver;
} fdev;

/* "node3 rank 5 dev 0:1" from the entry (MPI runs add node and rank) or the file's host. */
static void label_of(const cJSON *doc, const cJSON *dev, const char *file, fdev *out)
{
    const char *node = rj_str(dev, "node");
    if (!node)
        node = rj_str(rj_obj(rj_obj(doc, "provenance"), "host"), "hostname");
    double rank = -1, p = -1, d = -1;
    rj_num(dev, "rank", &rank);
    rj_num(rj_obj(dev, "selection"), "platform_index", &p);
    rj_num(rj_obj(dev, "selection"), "device_index", &d);
    char r[32] = "";
    if (rank >= 0)
        snprintf(r, sizeof r, " rank %.0f", rank);
    snprintf(out->label, sizeof out->label, "%s%s dev %.0f:%.0f (%s)", node ? node : "?", r, p, d,
             rj_basename(file));
    out->dev = dev;
    out->name = rj_device_name(dev);
    out->driver = rj_str(rj_obj(dev, "device"), "CL_DRIVER_VERSION");
    if (!out->driver)
        out->driver = "";
}

static int same_kind(const fdev *a, const fdev *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->driver, b->driver) == 0;
}

/* One thing that names a physical device; two entries with one key are one device. */
typedef struct dev_key {
    char key[160];
    size_t dev;
} dev_key;

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const dev_key *)a)->key, ((const dev_key *)b)->key);
}

/* The keys of entry i into k (at most 3): its UUID, its PCI address on its node, and, for
 * ranks that ran sharing a device (run --mpi --allow-shared-device), its selection on its node. */
static size_t keys_of(const cJSON *doc, const fdev *fd, size_t i, dev_key *k)
{
    const cJSON *dev = fd->dev, *props = rj_obj(dev, "device");
    const char *node = rj_str(dev, "node");
    if (!node)
        node = rj_str(rj_obj(rj_obj(doc, "provenance"), "host"), "hostname");
    if (!node)
        node = "?";
    size_t n = 0;
    const char *uuid = rj_str(props, "CL_DEVICE_UUID_KHR");
    if (uuid && strspn(uuid, "0-") != strlen(uuid)) /* an all-zero UUID names nothing */
        snprintf(k[n++].key, sizeof k->key, "UUID %s", uuid);
    const cJSON *pci = rj_obj(props, "CL_DEVICE_PCI_BUS_INFO_KHR");
    double dom = 0, bus = -1, slot = -1, fn = 0;
    if (pci) {
        rj_num(pci, "domain", &dom), rj_num(pci, "bus", &bus), rj_num(pci, "device", &slot);
        rj_num(pci, "function", &fn);
    } else {
        rj_num(props, "CL_DEVICE_PCI_DOMAIN_ID_NV", &dom), rj_num(props, "CL_DEVICE_PCI_BUS_ID_NV", &bus);
        rj_num(props, "CL_DEVICE_PCI_SLOT_ID_NV", &slot);
    }
    if (bus >= 0 && slot >= 0)
        snprintf(k[n++].key, sizeof k->key, "PCI %04x:%02x:%02x.%x on %.80s", (unsigned)dom, (unsigned)bus,
                 (unsigned)slot, (unsigned)fn, node);
    double shared = 0, p = -1, d = -1;
    rj_num(dev, "shared_device", &shared);
    rj_num(rj_obj(dev, "selection"), "platform_index", &p);
    rj_num(rj_obj(dev, "selection"), "device_index", &d);
    if (shared > 1)
        snprintf(k[n++].key, sizeof k->key, "device %.0f:%.0f of %.80s, shared by ranks", p, d, node);
    for (size_t j = 0; j < n; j++)
        k[j].dev = i;
    return n;
}

/* Refuses (CLB_ERR_USAGE, naming both) when two entries are one physical device. */
static clb_error same_device_pairs(const fdev *devs, const cJSON *const *docs, size_t n, clb_diag *d)
{
    dev_key *k = malloc((3 * n + 1) * sizeof *k);
    size_t nk = 0;
    if (!k)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        nk += keys_of(docs[i], &devs[i], i, k + nk);
    qsort(k, nk, sizeof *k, cmp_key);
    for (size_t i = 1; i < nk && d->err == CLB_OK; i++)
        if (strcmp(k[i - 1].key, k[i].key) == 0 && k[i - 1].dev != k[i].dev)
            clb_diag_set(d, CLB_ERR_USAGE,
                         "%s and %s are the same device (%s): a device compared with itself proves "
                         "nothing (ranks sharing one device, or one result file given twice?)",
                         devs[k[i - 1].dev].label, devs[k[i].dev].label, k[i].key);
    free(k);
    return d->err;
}

/* The result named rname of a device: devices of one kind list their results in the same order,
 * so *next (the one after the previous match) is tried before a search of the whole list. */
static const cJSON *find_next(const cJSON *dev, const char *rname, const cJSON **next)
{
    const char *s = rj_str(*next, "name");
    const cJSON *r = s && strcmp(s, rname) == 0 ? *next : rj_find_result(dev, rname);
    if (r)
        *next = r->next;
    return r;
}

void clb_fleet_print_kind(FILE *f, size_t k, const char *name, const char *driver)
{
    fprintf(f, "== %zu x %s (driver %s)\n", k, rep_term(name), driver && *driver ? rep_term(driver) : "?");
    if (k < 2)
        fprintf(f, "not judged: a single device of its kind has no peer to compare with\n");
}

void clb_fleet_print_row(FILE *f, const char *rname, const char *const *label, const clb_fleet_values *in,
                         const clb_fleet_row *row, const clb_fleet_dev *out, const clb_fleet_opts *o)
{
    if (row->outcome == CLB_FLEET_TOO_NOISY && o->verbose)
        fprintf(f, "not judged  %s: median run-to-run spread %.1f %% (above %.1f %%)\n", rep_term(rname),
                100 * row->cv, 100 * o->max_cv);
    for (size_t i = 0; i < in->n && row->flags; i++) {
        if (!out[i].flagged)
            continue;
        char val[32], med[32];
        rj_fmt(val, sizeof val, in->value[i]);
        rj_fmt(med, sizeof med, row->ref);
        fprintf(f, "FLAG  %s: %s %s, %.0f %% %s %s %s (robust z = %+.1f, n = %zu)\n", rep_term(label[i]),
                rep_term(rname), val, 100 * fabs(out[i].rel), out[i].rel < 0 ? "below" : "above",
                row->k == 2 ? "its peer's" : "the fleet median", med, out[i].z, row->k);
    }
}

void clb_fleet_print_summary(FILE *f, size_t devices, size_t kinds, size_t flags, size_t not_judged)
{
    fprintf(f, "%zu device(s) of %zu kind(s); %zu flag(s); %zu result(s) not judged (spread too large)\n",
            devices, kinds, flags, not_judged);
}

/* Judges one result name over the devices idx[0..n) of one kind (clb_fleet_compare, shared
 * with the store's fleet-check); returns the flags printed. next[i]: where device idx[i]'s
 * lookup starts (find_next). */
static size_t judge(FILE *f, const fdev *devs, const size_t *idx, size_t n, const char *rname,
                    const clb_fleet_opts *o, size_t *not_judged, const cJSON **next)
{
    double *v = malloc(4 * n * sizeof *v);
    clb_fleet_dev *out = malloc(n * sizeof *out);
    const char **label = malloc(n * sizeof *label);
    clb_fleet_values in = {v, v + n, v + 2 * n, n, 1};
    clb_fleet_row row = {.flags = 0};
    if (!v || !out || !label)
        goto cleanup;
    for (size_t i = 0; i < n; i++) {
        rj_result x;
        const cJSON *r = find_next(devs[idx[i]].dev, rname, &next[i]);
        label[i] = devs[idx[i]].label;
        v[i] = v[n + i] = v[2 * n + i] = NAN;
        if (!r)
            continue;
        rj_result_read(r, &x);
        if (strcmp(x.status, "ok") != 0 || !x.has_value || !isfinite(x.value))
            continue;
        in.higher_better = !x.better || strcmp(x.better, "lower") != 0;
        v[i] = x.value;
        v[n + i] = x.has_stats ? x.cv : NAN;
        v[2 * n + i] = x.has_stats ? x.n : NAN;
    }
    clb_fleet_compare(&in, o, v + 3 * n, &row, out);
    *not_judged += row.outcome == CLB_FLEET_TOO_NOISY;
    clb_fleet_print_row(f, rname, label, &in, &row, out, o);
cleanup:
    free(v);
    free(out);
    free(label);
    return row.flags;
}

/* Every result name of the first device of a kind that the others may share. */
static size_t judge_kind(FILE *f, const fdev *devs, const size_t *idx, size_t n,
                         const clb_fleet_opts *o, size_t *not_judged, const cJSON **next)
{
    size_t flags = 0;
    const cJSON *r;
    for (size_t i = 0; i < n; i++) {
        const cJSON *res = rj_arr(devs[idx[i]].dev, "results");
        next[i] = res ? res->child : NULL;
    }
    cJSON_ArrayForEach(r, rj_arr(devs[idx[0]].dev, "results"))
    {
        const char *rname = rj_str(r, "name");
        if (rname)
            flags += judge(f, devs, idx, n, rname, o, not_judged, next);
    }
    return flags;
}

/* The members fleet-check reads (label_of, same_kind, judge); params and samples, most of a
 * file, are checked and skipped. */
static const char *const fleet_paths[] = {
    "schema_version", "provenance/host/hostname", "devices/#/node", "devices/#/rank",
    "devices/#/selection", "devices/#/device/CL_DEVICE_NAME", "devices/#/device/CL_DRIVER_VERSION",
    "devices/#/results/#/name", "devices/#/results/#/status", "devices/#/results/#/value",
    "devices/#/results/#/better", "devices/#/results/#/stats", "devices/#/shared_device",
    "devices/#/device/CL_DEVICE_UUID_KHR", "devices/#/device/CL_DEVICE_PCI_BUS_INFO_KHR",
    "devices/#/device/CL_DEVICE_PCI_BUS_ID_NV", "devices/#/device/CL_DEVICE_PCI_SLOT_ID_NV",
    "devices/#/device/CL_DEVICE_PCI_DOMAIN_ID_NV"};

cJSON *clb_fleet_load(const char *path, clb_diag *d)
{
    return clb_doc_load_paths(path, fleet_paths, sizeof fleet_paths / sizeof *fleet_paths, d);
}

void clb_fleet_opts_default(clb_fleet_opts *o)
{
    o->min_rel = 0.05;
    o->min_z = 4.5;
    o->max_cv = 0.03;
    o->verbose = 0;
}

long clb_fleet_check(FILE *f, const clb_report_src *src, size_t nsrc, const clb_fleet_opts *o,
                     clb_diag *d)
{
    size_t n = 0, cap = 0, flags = 0, not_judged = 0, kinds = 0;
    fdev *devs = NULL;
    const cJSON **docs = NULL; /* the document of each entry */
    size_t *idx = NULL;
    int *done = NULL;
    const cJSON **next = NULL;
    clb_diag_clear(d);
    for (size_t i = 0; i < nsrc; i++) {
        const cJSON *dev;
        cJSON_ArrayForEach(dev, rj_devices(src[i].doc))
        {
            void *const arr[] = {&devs, (void *)&docs};
            const size_t sz[] = {sizeof *devs, sizeof *docs};
            if (!clb_grow_all(arr, sz, 2, n, &cap))
                CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
            docs[n] = src[i].doc;
            label_of(src[i].doc, dev, src[i].name, &devs[n++]);
        }
    }
    if (same_device_pairs(devs, docs, n, d) != CLB_OK)
        goto cleanup;
    idx = malloc((n ? n : 1) * sizeof *idx);
    done = calloc(n ? n : 1, sizeof *done);
    next = malloc((n ? n : 1) * sizeof *next);
    if (!idx || !done || !next)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        size_t k = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && same_kind(&devs[i], &devs[j])) {
                idx[k++] = j;
                done[j] = 1;
            }
        kinds++;
        clb_fleet_print_kind(f, k, devs[i].name, devs[i].driver);
        if (k < 2)
            continue;
        flags += judge_kind(f, devs, idx, k, o, &not_judged, next);
    }
    clb_fleet_print_summary(f, n, kinds, flags, not_judged);
cleanup:
    free(devs);
    free(docs);
    free(idx);
    free(done);
    free(next);
    return d->err == CLB_OK ? (long)flags : -1;
}
