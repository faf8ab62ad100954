/* The site's manifest (docs/store.md, "The site"): the files clbench wrote in DIR, so that a
 * rewrite removes the pages of devices and models no longer in the store and nothing else. The
 * manifest is read as hostile: a line is acted on only when it names a page the site writes
 * (index.html, scores.html, device/SLUG.html, model/SLUG.html, SLUG in the slugs' alphabet), and
 * a page is removed only when it is a regular file in a real folder of DIR (never through a
 * link). Anything else refuses the whole manifest before a page is written. */
#include "report/site_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "clbench site manifest 1"
enum { LINE_MAX_BYTES = 256 };

/* A page's place: folder "" (DIR itself), "device" or "model", and its file name. */
typedef struct page_name {
    char folder[8];
    char file[SITE_NAME_MAX + 8];
} page_name;

static int slug_char(char ch)
{
    return site_slug_keeps(ch) || ch == '-';
}

/* 1 when line names a page the site writes (and fills p). */
static int parse_page(const char *line, page_name *p)
{
    static const char *const folders[] = {"device/", "model/"};
    if (strcmp(line, "index.html") == 0 || strcmp(line, "scores.html") == 0) {
        p->folder[0] = '\0';
        snprintf(p->file, sizeof p->file, "%s", line);
        return 1;
    }
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        size_t fl = strlen(folders[i]), n = strlen(line);
        if (strncmp(line, folders[i], fl) != 0 || n < fl + 6 || n - fl - 5 >= SITE_NAME_MAX ||
            strcmp(line + n - 5, ".html") != 0 || line[fl] == '-')
            continue;
        for (size_t k = fl; k < n - 5; k++)
            if (!slug_char(line[k]))
                return 0;
        snprintf(p->folder, sizeof p->folder, "%.*s", (int)fl - 1, folders[i]);
        snprintf(p->file, sizeof p->file, "%s", line + fl);
        return 1;
    }
    return 0;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 when this site writes the page p. */
static int produced(const site_ctx *c, const page_name *p)
{
    char stem[SITE_NAME_MAX + 8];
    const char *key = stem;
    if (!p->folder[0])
        return 1; /* index.html, scores.html */
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(p->file) - 5), p->file);
    if (strcmp(p->folder, "device") == 0)
        return bsearch(&key, c->dev_sorted, c->m->ndevices, sizeof *c->dev_sorted, cmp_cstr) != NULL;
    return bsearch(&key, c->group_sorted, c->ngroups, sizeof *c->group_sorted, cmp_cstr) != NULL;
}

/* line for a message: at most 80 bytes, anything but printable ASCII as '?'. */
static void shown(const char *line, char *out, size_t n)
{
    size_t k = 0;
    for (; line[k] && k < 80 && k + 1 < n; k++)
        out[k] = line[k] >= 0x20 && line[k] < 0x7f ? line[k] : '?';
    out[k] = '\0';
}

typedef struct reader {
    FILE *f;
    char path[4200];
    char line[LINE_MAX_BYTES + 2];
    size_t lineno;
} reader;

/* Opens DIR's manifest (*absent = 1 when there is none) and reads its header. A link, a folder or
 * anything but a regular file as the manifest is refused: the manifest is clbench's own file. */
static clb_error open_manifest(const site_ctx *c, reader *r, int *absent, clb_diag *d)
{
    struct stat st;
    *absent = 0;
    r->lineno = 0;
    snprintf(r->path, sizeof r->path, "%s/%s", c->dir, CLB_SITE_MANIFEST);
    if (lstat(r->path, &st) != 0) {
        if (errno == ENOENT)
            return *absent = 1, CLB_OK;
        return clb_diag_set(d, CLB_ERR_IO, "cannot read the site's manifest %s: %s", r->path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return clb_diag_set(d, CLB_ERR_USAGE, "the site's manifest %s is not a regular file (a link?): refused, "
                            "nothing written or removed", r->path);
    int fd = open(r->path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0 || !(r->f = fdopen(fd, "r"))) {
        if (fd >= 0)
            close(fd);
        return clb_diag_set(d, CLB_ERR_IO, "cannot read the site's manifest %s: %s", r->path, strerror(errno));
    }
    if (!fgets(r->line, sizeof r->line, r->f) || strcmp(r->line, HEADER "\n") != 0) {
        fclose(r->f);
        r->f = NULL;
        return clb_diag_set(d, CLB_ERR_USAGE, "%s is not a manifest clbench wrote (no \"" HEADER "\" line): refused, "
                            "nothing written or removed; remove it to write the site anew", r->path);
    }
    r->lineno = 1;
    return CLB_OK;
}

/* The next line as a page: 1 read, 0 at the end, -1 refused (d set). */
static int next_page(reader *r, page_name *p, clb_diag *d)
{
    char buf[96];
    if (!fgets(r->line, sizeof r->line, r->f))
        return ferror(r->f) ? (clb_diag_set(d, CLB_ERR_IO, "cannot read %s", r->path), -1) : 0;
    r->lineno++;
    size_t n = strlen(r->line);
    int whole = n > 0 && r->line[n - 1] == '\n';
    if (whole)
        r->line[--n] = '\0';
    if (whole && strlen(r->line) == n && parse_page(r->line, p))
        return 1;
    shown(r->line, buf, sizeof buf);
    clb_diag_set(d, CLB_ERR_USAGE, "%s line %zu: \"%s\" is not a page of the site: the manifest is refused, "
                 "nothing written or removed; remove it to write the site anew", r->path, r->lineno, buf);
    return -1;
}

/* Whether p, if it exists, is a regular file in a real folder of DIR: the only kind ever removed. */
static clb_error check_page(const site_ctx *c, const page_name *p, size_t lineno, clb_diag *d)
{
    char path[4200];
    struct stat st;
    if (p->folder[0]) {
        snprintf(path, sizeof path, "%s/%s", c->dir, p->folder);
        if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
            return clb_diag_set(d, CLB_ERR_USAGE, "%s/%s line %zu: %s is not a folder (a link?): the manifest is "
                                "refused, nothing written or removed", c->dir, CLB_SITE_MANIFEST, lineno, path);
        if (lstat(path, &st) != 0)
            return CLB_OK;
    }
    snprintf(path, sizeof path, "%s/%s%s%s", c->dir, p->folder, p->folder[0] ? "/" : "", p->file);
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return clb_diag_set(d, CLB_ERR_USAGE, "%s/%s line %zu: %s is not a regular file (a link?): the manifest is "
                            "refused, nothing written or removed", c->dir, CLB_SITE_MANIFEST, lineno, path);
    return CLB_OK;
}

clb_error site_manifest_check(const site_ctx *c, clb_diag *d)
{
    reader r = {0};
    page_name p;
    int absent, got;
    if (open_manifest(c, &r, &absent, d) != CLB_OK || absent)
        return d->err;
    while ((got = next_page(&r, &p, d)) > 0 && check_page(c, &p, r.lineno, d) == CLB_OK)
        ;
    fclose(r.f);
    return d->err;
}

/* The pages this site writes, one per line. */
static void new_pages(const site_ctx *c, FILE *f)
{
    fputs("index.html\nscores.html\n", f);
    for (size_t i = 0; i < c->m->ndevices; i++)
        fprintf(f, "device/%s.html\n", c->dev_slug[i]);
    for (size_t g = 0; g < c->ngroups; g++)
        fprintf(f, "model/%s.html\n", c->groups[g].slug);
}

/* Writes the manifest: the header, the previous manifest's pages when old, the new pages. */
static clb_error write_manifest(const site_ctx *c, int old, clb_diag *d)
{
    char path[4200];
    clb_output *o;
    FILE *f;
    reader r = {0};
    page_name p;
    int absent = 1, got = 0;
    if (old && open_manifest(c, &r, &absent, d) != CLB_OK)
        return d->err;
    snprintf(path, sizeof path, "%s/%s", c->dir, CLB_SITE_MANIFEST);
    if (clb_output_open(path, &o, &f, d) == CLB_OK) {
        fputs(HEADER "\n", f);
        while (!absent && (got = next_page(&r, &p, d)) > 0)
            fprintf(f, "%s\n", r.line);
        new_pages(c, f);
        if (got < 0) { /* d holds the refusal; the closing's own outcome would hide it */
            clb_diag ignored;
            clb_output_close(o, 0, &ignored);
        } else
            clb_output_close(o, !ferror(f), d);
    }
    if (r.f)
        fclose(r.f);
    return d->err;
}

clb_error site_manifest_begin(const site_ctx *c, clb_diag *d)
{
    return write_manifest(c, 1, d);
}

/* Removes the page p from DIR: through a handle of its folder opened without following a link,
 * and only when it is a regular file there. */
static clb_error remove_page(const site_ctx *c, const page_name *p, size_t lineno, clb_diag *d)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", c->dir, p->folder);
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (dfd < 0)
        return errno == ENOENT ? CLB_OK
                               : clb_diag_set(d, CLB_ERR_USAGE, "%s/%s line %zu: cannot open the folder %s: %s",
                                              c->dir, CLB_SITE_MANIFEST, lineno, path, strerror(errno));
    if (fstatat(dfd, p->file, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT)
            clb_diag_set(d, CLB_ERR_IO, "cannot look at %s/%s: %s", path, p->file, strerror(errno));
    } else if (!S_ISREG(st.st_mode))
        clb_diag_set(d, CLB_ERR_USAGE, "%s/%s line %zu: %s/%s is not a regular file (a link?): not removed", c->dir,
                     CLB_SITE_MANIFEST, lineno, path, p->file);
    else if (unlinkat(dfd, p->file, 0) != 0 && errno != ENOENT)
        clb_diag_set(d, CLB_ERR_IO, "cannot remove the old page %s/%s: %s", path, p->file, strerror(errno));
    close(dfd);
    return d->err;
}

clb_error site_manifest_finish(const site_ctx *c, clb_diag *d)
{
    reader r = {0};
    page_name p;
    int absent, got;
    if (open_manifest(c, &r, &absent, d) != CLB_OK)
        return d->err;
    while (!absent && (got = next_page(&r, &p, d)) > 0)
        if (!produced(c, &p) && remove_page(c, &p, r.lineno, d) != CLB_OK)
            break;
    if (r.f)
        fclose(r.f);
    return d->err == CLB_OK ? write_manifest(c, 0, d) : d->err;
}
