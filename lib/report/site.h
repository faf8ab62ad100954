/* The static site of a results store (clbench store site DIR, docs/store.md "The site"): an index of
 * devices, one page per device with its rows' histories, one page per model comparing its
 * devices, and the suite scores. Written from a plain in-memory model that the caller fills
 * (from the store's queries); the writer owns nothing of it and changes nothing in it. */
#ifndef CLB_REPORT_SITE_H
#define CLB_REPORT_SITE_H

#include "clbench.h"

#include <stdint.h>

/* One run of a row. time: seconds since 1970-01-01 UTC. status "ok" (or NULL, read as "ok")
 * makes value a measured number; any other status shows no number. lo, hi: the run's spread
 * (e.g. its 95 % interval, or min and max), NaN where unknown. */
typedef struct clb_site_point {
    int64_t time;
    double value, lo, hi;
    const char *status;
} clb_site_point;

/* A row's history on one device, its points oldest first. better: +1 higher is better, -1 lower
 * is better, 0 unknown (deviations are then not judged). */
typedef struct clb_site_row {
    const char *name, *unit;
    int better;
    const clb_site_point *points;
    size_t npoints;
} clb_site_row;

/* A headline figure of a device (fp32, fp64, memory bandwidth, a suite score...): the index's
 * columns are the distinct names over all devices, in first-seen order. value NaN: not measured. */
typedef struct clb_site_ceiling {
    const char *name, *unit;
    double value;
} clb_site_ceiling;

/* A device of the store. key: the store's unique name for it (any bytes: file names are made
 * from it, never taken from it); model groups devices onto the model pages. last_run: time of
 * its newest run. */
typedef struct clb_site_device {
    const char *key, *model, *vendor, *driver, *host;
    int64_t last_run;
    const clb_site_ceiling *ceilings;
    size_t nceilings;
    const clb_site_row *rows;
    size_t nrows;
} clb_site_device;

/* A suite score of one machine's device and variant. status "ok" (or NULL) with the peak and
 * average scores; "void" (or any other) shows reason and no number. device_key: links the row
 * to that device's page when a device of the model has it (NULL: no link). */
typedef struct clb_site_score {
    const char *machine, *device, *device_key, *variant, *status, *reason;
    double peak, average;
    int64_t time;
} clb_site_score;

/* What the site shows. generated: when the site was made (seconds since the epoch, UTC). */
typedef struct clb_site_model {
    const char *title;
    int64_t generated;
    const clb_site_device *devices;
    size_t ndevices;
    const clb_site_score *scores;
    size_t nscores;
} clb_site_model;

/* Writes the site into dir (created when absent, its parent must exist): index.html,
 * scores.html, device/SLUG.html per device, model/SLUG.html per model, and the manifest
 * .clbench-site (the files it wrote). Each page appears whole or not at all (clb_output); the
 * index comes last, so it links only to pages written. Nothing is written outside dir. A page
 * named by the previous manifest and no longer produced is removed; no other file is.
 * CLB_ERR_USAGE (nothing written) when m is NULL or dir exists and is not a directory (a link
 * to one is followed); CLB_ERR_USAGE also when device/ or model/ is not a real directory (a
 * symbolic link is refused), a page's path exists and is not a regular file (a planted link, a
 * FIFO), or the previous manifest is not one clbench writes (a line naming anything but a page
 * of the site, a link as the manifest or as a page it names: nothing written, nothing removed);
 * CLB_ERR_IO when a folder or page cannot be written; CLB_ERR_NOMEM. d->msg names the path.
 * The same as clb_site_begin, clb_site_put_device for every device, clb_site_finish. */
clb_error clb_site_write(const char *dir, const clb_site_model *m, clb_diag *d);

/* The site written device by device, so that only one device's runs need be in memory:
 * clb_site_begin takes the devices' identities (m->devices[i]: key, model, vendor, driver,
 * host, last_run; their rows and ceilings are not read) and the scores, checks dir and the
 * previous manifest (the refusals above) and names the pages. m and its strings must stay
 * valid until clb_site_finish. Memory: a few hundred bytes per device and per distinct row
 * name, and one device's rows at a time; what model pages need of each (device, row), its
 * latest run, goes to an unlinked temporary file inside dir (32 bytes each). */
typedef struct clb_site_writer clb_site_writer;
clb_error clb_site_begin(const char *dir, const clb_site_model *m, clb_site_writer **w, clb_diag *d);
/* Writes device i's page from its rows and headline figures (copied: they need live only
 * during the call). A device given twice keeps its first page. */
clb_error clb_site_put_device(clb_site_writer *w, size_t i, const clb_site_row *rows, size_t nrows,
                              const clb_site_ceiling *ceilings, size_t nceilings, clb_diag *d);
/* Writes the pages of devices never given (from m->devices[i] as it is), the model pages, the
 * scores, the index, then removes the pages of the previous manifest no longer produced and
 * writes the new manifest. Frees w (also on failure). The index's headline columns: the
 * distinct ceiling names over all devices, first seen first, of which some device has a
 * number. */
clb_error clb_site_finish(clb_site_writer *w, clb_diag *d);
/* Frees w without writing more (after a failure of the caller's own). */
void clb_site_abort(clb_site_writer *w);

/* The manifest's file name in dir. */
#define CLB_SITE_MANIFEST ".clbench-site"

/* The file name stem of key (a device key or a model name): at most 40 of its characters
 * folded to [a-z0-9_-], then "-" and 12 hex digits of a 64-bit FNV-1a hash of all its bytes.
 * Never empty, never "." or "..", no path separator, no control character. The site adds
 * "-N" to the later of two keys whose stems still coincide, so no two pages share a file. */
void clb_site_slug(const char *key, char *out, size_t n);
enum { CLB_SITE_SLUG_MAX = 64 }; /* bytes of out that always suffice */

#endif
