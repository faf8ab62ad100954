/* The store's static site (lib/report/site*.c, docs/store.md "The site") on synthetic models.
 *   test_site               file names of hostile keys, refusals (a file, planted links), the
 *                           pages of a small site: counts and contents
 *   test_site write DIR     the hostile model's site into DIR, for tests/site_check.sh and
 *                           tests/site_browser.sh; prints "devices N models M"
 *   test_site speed DIR D R N   D devices x R rows x N runs into DIR; prints the seconds taken
 * Every string of the hostile model carries a payload that marks the page if it ever ran, and
 * names its field, so the checks can tell which field was shown as text. */
#include "report/site_int.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define PWN "document.documentElement.dataset.pwned"
enum { POOL = 256, STR = 2048 };
static char pool[POOL][STR];
static size_t used;

/* text followed by markup for text, attribute and SVG <title> contexts that marks the page with
 * field when it runs (the payload of tests/hostile/report_make_docs.py). */
static const char *evil(const char *text, const char *field)
{
    char *s = pool[used++ % POOL];
    snprintf(s, STR, "%s\"'><img src=x onerror=\"" PWN "='%s'\"></title><svg><script>" PWN "='%s'</script>"
             "</svg><script>" PWN "='%s'</script>", text, field, field, field);
    return s;
}

static const int64_t T0 = 1795000000; /* 2026-11-18 */

/* Ten runs of a row on a 12-hour grid: value base*(1 + i/100), spread +-2 %, run bad_at failed. */
static void points(clb_site_point *p, size_t n, double base, size_t bad_at, const char *bad_status)
{
    for (size_t i = 0; i < n; i++) {
        double v = base * (1 + (double)i / 100);
        p[i] = (clb_site_point){T0 + (int64_t)i * 43200, v, 0.98 * v, 1.02 * v, "ok"};
        if (i == bad_at)
            p[i].status = bad_status;
    }
}

enum { NDEV = 9, NROW = 4, NRUN = 10 };
static clb_site_point pts[NDEV][NROW][NRUN];
static clb_site_row rows[NDEV][NROW];
static clb_site_ceiling ceils[NDEV][3];
static clb_site_device devs[NDEV];
static clb_site_score scores[6];
static char long_key[1200];

static void plain_rows(size_t d, double speed)
{
    static const struct { const char *name, *unit; int better; double base; } t[NROW] = {
        {"memory.copy", "GB/s", 1, 4000}, {"compute.fp32.fma", "GFLOP/s", 1, 60000},
        {"memory.latency", "ns", -1, 500}, {"app.sgemm.tuned", "GFLOP/s", 1, 45000}};
    for (size_t r = 0; r < NROW; r++) {
        points(pts[d][r], NRUN, t[r].base * speed, r == 1 ? 4 : NRUN, "timeout");
        rows[d][r] = (clb_site_row){t[r].name, t[r].unit, t[r].better, pts[d][r], NRUN};
    }
    ceils[d][0] = (clb_site_ceiling){"fp32", "GFLOP/s", 60000 * speed};
    ceils[d][1] = (clb_site_ceiling){"fp64", "GFLOP/s", 30000 * speed};
    ceils[d][2] = (clb_site_ceiling){"memory", "GB/s", 4000 * speed};
}

static void device(size_t d, const char *key, const char *model, const char *host, double speed)
{
    plain_rows(d, speed);
    devs[d] = (clb_site_device){key, model, "NVIDIA", "550.54.15", host, T0 + 9 * 43200, ceils[d], 3, rows[d], NROW};
}

/* Every string field of device d replaced by a payload naming the field. */
static void hostile_device(size_t d)
{
    clb_site_device *x = &devs[d];
    x->key = evil("../../etc/passwd", "key");
    x->model = evil("../../etc", "model");
    x->vendor = evil("v", "vendor");
    x->driver = evil("d", "driver");
    x->host = evil("../../etc", "host");
    ceils[d][0] = (clb_site_ceiling){evil("fp32", "ceiling.name"), evil("GFLOP/s", "ceiling.unit"), 1};
    rows[d][0].name = evil("memory.copy", "row.name");
    rows[d][0].unit = evil("GB/s", "row.unit");
    pts[d][0][NRUN - 1].status = evil("timeout", "point.status");
    pts[d][0][3].status = evil("crashed", "point.status.old");
}

/* The hostile model: two devices of one model and their case-folded and duplicated keys, a
 * device whose every string is a payload, controls, invalid UTF-8, a very long key, Unicode,
 * empty and missing strings, rows without runs or without any measured run, and scores with
 * a void one, a payload, and a device key no device has. */
static clb_site_model hostile_model(void)
{
    memset(long_key, 'k', sizeof long_key - 40);
    snprintf(long_key + sizeof long_key - 40, 40, "/\xd0\x96\xe6\x98\xbe end");
    device(0, "gpu0@nodeA", "H200", "nodeA", 1.0);
    device(1, "gpu1@nodeA", "H200", "nodeA", 0.9);
    device(2, "GPU0@NODEA", "H200", "nodeB", 1.0);
    device(3, "gpu0@nodeA", "H200", "nodeC", 1.01); /* the same key twice */
    device(4, "x", "x", "x", 1.0);
    hostile_device(4);
    device(5, "ctl\x01\x1b[31mred\n\t\xff\xfe bad", "\xd0\xa0\xd0\xb0\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbd \xe2\x9c\x93 \xe6\x98\xbe\xe5\x8d\xa1 ..\\..", "h", 1.0);
    device(6, long_key, "H200", "nodeD", 1.0);
    device(7, "", NULL, NULL, 1.0);
    devs[7].vendor = devs[7].driver = NULL;
    device(8, "..", ".", "/", 1.0);
    devs[8].nceilings = 0;
    rows[8][0].npoints = 0;                  /* a row without runs */
    for (size_t i = 0; i < NRUN; i++)        /* a row without a measured run */
        pts[8][1][i].status = "invalid_result";
    pts[8][2][5].lo = pts[8][2][5].hi = NAN; /* a run without its spread */
    pts[8][2][7].value = NAN;                /* "ok" without a number */
    /* The extremes: times at both ends of int64, values at both ends of a double. */
    pts[8][3][0] = (clb_site_point){INT64_MIN, -1e308, -1.7e308, 1e308, "ok"};
    pts[8][3][1] = (clb_site_point){INT64_MAX, 1e308, NAN, INFINITY, "ok"};
    rows[8][3].npoints = 2;
    pts[8][2][0].time = INT64_MIN; /* one time far away: the others crowd at the right */
    scores[0] = (clb_site_score){"nodeA", "H200", "gpu0@nodeA", "base", "ok", NULL, 12.5, 11.0, T0};
    scores[1] = (clb_site_score){"nodeA", "H200", "gpu1@nodeA", "-O3", NULL, NULL, 11.0, 10.0, T0};
    scores[2] = (clb_site_score){evil("m", "score.machine"), evil("d", "score.device"), devs[4].key,
                                 evil("v", "score.variant"), "ok", NULL, 3, 2, T0};
    scores[3] = (clb_site_score){"nodeB", "H200", "gpu0@nodeB", "base", "void", evil("why", "score.reason"), NAN, NAN, T0};
    scores[4] = (clb_site_score){"nodeC", "unknown", "no such device", "base", "ok", NULL, 9, 8, T0};
    scores[5] = (clb_site_score){NULL, NULL, NULL, NULL, "void", NULL, NAN, NAN, 0};
    return (clb_site_model){evil("fleet", "title"), T0 + 10 * 43200, devs, NDEV, scores, 6};
}

/* --------------------------------------------------------------------- checks */

static int slug_safe(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 53 || s[0] == '-' || s[0] == '.')
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return 0;
    return 1;
}

static void check_slugs(void)
{
    static const char *const keys[] = {"gpu0@nodeA", "GPU0@NODEA", "gpu0-nodea", "gpu0_nodea", "../../etc/passwd",
                                       "..", ".", "", "/", "a/b", "a\\b", "ctl\x01\x1b[31m", "\xff\xfe",
                                       "\xd0\xa0\xd0\xb0\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbd", "\xe6\x98\xbe\xe5\x8d\xa1",
                                       "CON", "nul.txt", "x-0123456789ab"};
    enum { N = sizeof keys / sizeof keys[0] };
    char s[N][CLB_SITE_SLUG_MAX];
    for (size_t i = 0; i < N; i++) {
        clb_site_slug(keys[i], s[i], sizeof s[i]);
        EXPECT(slug_safe(s[i]), "slug of key %zu: \"%s\"", i, s[i]);
        for (size_t j = 0; j < i; j++)
            EXPECT(strcmp(s[i], s[j]) != 0, "keys %zu and %zu share the slug %s", i, j, s[i]);
    }
    char again[CLB_SITE_SLUG_MAX], lng[CLB_SITE_SLUG_MAX];
    clb_site_slug(keys[0], again, sizeof again);
    CHECK(strcmp(again, s[0]) == 0); /* stable: the same key, the same page */
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    clb_site_slug(long_key, lng, sizeof lng);
    CHECK(slug_safe(lng));
    CHECK(strncmp(s[0], "gpu0-nodea-", 11) == 0); /* readable: the key's own characters lead */

    /* Equal keys (and equal stems): the later ones suffixed, all distinct. */
    const char *dup[] = {"a", "b", "a", "a", "b"};
    char names[5][SITE_NAME_MAX];
    CHECK(site_name_slugs(names, dup, 5) == CLB_OK);
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < i; j++)
            EXPECT(strcmp(names[i], names[j]) != 0, "names %zu and %zu: %s", i, j, names[i]);
    CHECK(strncmp(names[0], "a-", 2) == 0 && strlen(names[0]) == 14);
    CHECK(strcmp(names[2], names[0]) != 0 && strncmp(names[2], names[0], 14) == 0); /* "a-HASH-2" */
}

static size_t count_files(const char *dir, const char *sub)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *dp = opendir(path);
    size_t n = 0;
    for (struct dirent *e; dp && (e = readdir(dp));)
        n += e->d_name[0] != '.';
    if (dp)
        closedir(dp);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    long n;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (s = calloc(1, (size_t)n + 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (f)
        fclose(f);
    return s;
}

static void rm_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* The slowest card of a model heads its row on the model's page, with its deviation. */
static void check_model_page(const char *dir)
{
    char path[4200], slug[CLB_SITE_SLUG_MAX];
    clb_site_slug("H200", slug, sizeof slug);
    snprintf(path, sizeof path, "%s/model/%s.html", dir, slug);
    char *s = slurp(path);
    EXPECT(s != NULL, "no model page %s", path);
    if (!s)
        return;
    const char *row = strstr(s, "<h3>memory.copy</h3>");
    const char *first = row ? strstr(row, "<tr><td><a") : NULL, *end = first ? strstr(first, "</a>") : NULL;
    const char *slow = first ? strstr(first, "gpu1@nodeA") : NULL;
    EXPECT(slow && slow < end, "the slow card does not head memory.copy");
    EXPECT(row && strstr(row, "-10.0 %"), "no -10.0 %% deviation of the slow card");
    free(s);
}

/* A run that failed shows its status, never its number: gpu1's compute.fp32.fma, run 4. */
static void check_device_page(const char *dir)
{
    char path[4200], slug[CLB_SITE_SLUG_MAX];
    clb_site_slug("gpu1@nodeA", slug, sizeof slug);
    snprintf(path, sizeof path, "%s/device/%s.html", dir, slug);
    char *s = slurp(path);
    EXPECT(s != NULL, "no device page %s", path);
    if (!s)
        return;
    const char *row = strstr(s, "<figcaption>compute.fp32.fma");
    const char *end = row ? strstr(row, "</figure>") : NULL, *run = row ? strstr(row, "2026-11-20 11:06: ") : NULL;
    EXPECT(run && run < end && strncmp(run + 18, "timeout</title>", 15) == 0, "the failed run is not shown as its status");
    EXPECT(row && strstr(row, "1 not measured"), "the failed run is not counted");
    free(s);
    clb_site_slug("..", slug, sizeof slug);
    snprintf(path, sizeof path, "%s/device/%s.html", dir, slug);
    s = slurp(path);
    EXPECT(s && strstr(s, "2026-11-21 23:06: no value</title>"), "an ok run without a number is not \"no value\"");
    EXPECT(s && strstr(s, ">values beyond the plottable range</text>"), "values at a double's ends plotted");
    free(s);
}

/* No device, no score: an index and an empty scores page. */
static void check_empty(const char *tmp)
{
    char dir[4096];
    clb_diag d;
    clb_site_model m = {NULL, 0, NULL, 0, NULL, 0};
    snprintf(dir, sizeof dir, "%s/empty", tmp);
    EXPECT(clb_site_write(dir, &m, &d) == CLB_OK, "%s", d.msg);
    CHECK(count_files(dir, "") == 4 && count_files(dir, "device") == 0 && count_files(dir, "model") == 0);
}

/* Every file of a/sub (but skip) is in b/sub with the same bytes, and b/sub has no other; how many. */
static size_t same_files(const char *a, const char *b, const char *sub, const char *skip)
{
    char pa[4200], pb[4200];
    snprintf(pa, sizeof pa, "%s/%s", a, sub);
    DIR *dp = opendir(pa);
    size_t n = 0;
    EXPECT(dp != NULL, "no folder %s", pa);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (!*sub && (strcmp(e->d_name, "device") == 0 || strcmp(e->d_name, "model") == 0)))
            continue;
        snprintf(pa, sizeof pa, "%s/%s/%s", a, sub, e->d_name);
        snprintf(pb, sizeof pb, "%s/%s/%s", b, sub, e->d_name);
        if (skip && strcmp(e->d_name, skip) == 0) {
            n++;
            continue;
        }
        char *x = slurp(pa), *y = slurp(pb);
        EXPECT(x && y && strcmp(x, y) == 0, "%s differs between the whole and the streamed site", pb);
        free(x);
        free(y);
        n++;
    }
    if (dp)
        closedir(dp);
    /* count_files skips dot files (the manifest) and counts the folders device/ and model/ */
    EXPECT(count_files(b, sub) == (*sub ? n : n + 1), "%s/%s: other files", b, sub);
    return n;
}

/* The site given device by device in another order (the last first, one device twice, one never
 * given: written at the end from the model, one with its rows in reverse order) is the site
 * clb_site_write makes, file for file (but that device's page, which shows its rows as given):
 * the model pages group rows by name and unit whatever order each device gives them in. */
static void check_stream(const char *tmp)
{
    char a[4096], b[4096];
    clb_diag d;
    clb_site_model m = hostile_model();
    clb_site_writer *w = NULL;
    snprintf(a, sizeof a, "%s/whole", tmp);
    snprintf(b, sizeof b, "%s/streamed", tmp);
    devs[0].rows = rows[0] + 1; /* without memory.copy, which its model's other devices have */
    devs[0].nrows = NROW - 1;
    EXPECT(clb_site_write(a, &m, &d) == CLB_OK, "%s", d.msg);
    EXPECT(clb_site_begin(b, &m, &w, &d) == CLB_OK, "%s", d.msg);
    if (!w)
        return;
    clb_site_row back[NROW];
    for (size_t r = 0; r < NROW; r++)
        back[r] = devs[1].rows[NROW - 1 - r];
    for (size_t i = NDEV; i-- > 0;)
        if (i != 5)
            EXPECT(clb_site_put_device(w, i, i == 1 ? back : devs[i].rows, devs[i].nrows, devs[i].ceilings,
                                       devs[i].nceilings, &d) == CLB_OK, "%s", d.msg);
    CHECK(clb_site_put_device(w, 2, NULL, 0, NULL, 0, &d) == CLB_OK); /* again: the first stays */
    CHECK(clb_site_put_device(w, NDEV, NULL, 0, NULL, 0, &d) == CLB_ERR_USAGE);
    EXPECT(clb_site_finish(w, &d) == CLB_OK, "%s", d.msg);
    char slug[CLB_SITE_SLUG_MAX], page[CLB_SITE_SLUG_MAX + 8];
    clb_site_slug(devs[1].key, slug, sizeof slug);
    snprintf(page, sizeof page, "%s.html", slug);
    size_t top = same_files(a, b, "", NULL);
    EXPECT(top == 3, "%zu files at the top (index, scores, the manifest)", top);
    EXPECT(same_files(a, b, "device", page) == NDEV, "device pages");
    EXPECT(same_files(a, b, "model", NULL) == 5, "model pages");
    devs[0].rows = rows[0];
    devs[0].nrows = NROW;
    /* Each row once on its model's page, in name order. */
    char path[4200], prev[256] = "";
    clb_site_slug("H200", slug, sizeof slug);
    snprintf(path, sizeof path, "%s/model/%s.html", b, slug);
    char *s = slurp(path);
    size_t n = 0;
    for (const char *h = s; h && (h = strstr(h, "<h3>")); n++) {
        const char *e = strstr(h += 4, "</h3>");
        char name[256];
        snprintf(name, sizeof name, "%.*s", e ? (int)(e - h) : 0, h);
        EXPECT(strcmp(prev, name) < 0, "model page rows out of order or repeated: %s after %s", name, prev);
        snprintf(prev, sizeof prev, "%s", name);
    }
    EXPECT(n == NROW, "%zu rows on the H200 page", n);
    free(s);
}

static void check_site(void)
{
    char tmp[] = "/tmp/clb-site-XXXXXX", dir[4096], file[4200], link[4200];
    clb_diag d;
    clb_site_model m = hostile_model();
    CHECK(mkdtemp(tmp) != NULL);
    snprintf(dir, sizeof dir, "%s/site", tmp);
    EXPECT(clb_site_write(dir, &m, &d) == CLB_OK, "%s", d.msg);
    /* One page per device, the duplicated key too; one per model (H200, the payload's, the
     * Unicode one, none, "."). */
    EXPECT(count_files(dir, "device") == NDEV, "%zu device pages", count_files(dir, "device"));
    EXPECT(count_files(dir, "model") == 5, "%zu model pages", count_files(dir, "model"));
    EXPECT(count_files(dir, "") == 4, "%zu entries in the site", count_files(dir, ""));
    check_model_page(dir);
    check_device_page(dir);
    check_empty(tmp);
    check_stream(tmp);
    EXPECT(clb_site_write(dir, &m, &d) == CLB_OK, "again over itself: %s", d.msg);

    /* A file in the site's place is refused and left as it was. */
    snprintf(file, sizeof file, "%s/file", tmp);
    FILE *f = fopen(file, "w");
    CHECK(f && fputs("keep", f) >= 0 && fclose(f) == 0);
    CHECK(clb_site_write(file, &m, &d) == CLB_ERR_USAGE && strstr(d.msg, "not a directory"));
    char *s = slurp(file);
    CHECK(s && strcmp(s, "keep") == 0);
    free(s);

    /* A planted link for device/ or for a page would take the writes elsewhere: refused. */
    char out[4200], site2[4000];
    snprintf(out, sizeof out, "%s/outside", tmp);
    snprintf(site2, sizeof site2, "%s/site2", tmp);
    CHECK(mkdir(out, 0700) == 0 && mkdir(site2, 0700) == 0);
    snprintf(link, sizeof link, "%s/device", site2);
    CHECK(symlink(out, link) == 0);
    CHECK(clb_site_write(site2, &m, &d) == CLB_ERR_USAGE && strstr(d.msg, "symbolic link"));
    CHECK(count_files(out, "") == 0);
    CHECK(unlink(link) == 0);
    snprintf(link, sizeof link, "%s/index.html", site2);
    CHECK(symlink(file, link) == 0);
    CHECK(clb_site_write(site2, &m, &d) == CLB_ERR_USAGE && strstr(d.msg, "not a regular file"));
    s = slurp(file);
    CHECK(s && strcmp(s, "keep") == 0);
    free(s);
    rm_tree(tmp);
}

/* ------------------------------------------------------------------- drivers */

static int write_hostile(const char *dir)
{
    clb_diag d;
    clb_site_model m = hostile_model();
    if (clb_site_write(dir, &m, &d) != CLB_OK) {
        fprintf(stderr, "test_site: %s\n", d.msg);
        return 1;
    }
    printf("devices %d models 5\n", NDEV);
    return 0;
}

/* ndev devices (a model per 100) x nrow rows x nrun runs; prints the seconds clb_site_write took. */
static int speed(const char *dir, size_t ndev, size_t nrow, size_t nrun)
{
    clb_site_device *dv = calloc(ndev, sizeof *dv);
    clb_site_row *rw = calloc(nrow, sizeof *rw);
    clb_site_point *pt = calloc(nrow * nrun, sizeof *pt);
    char (*key)[32] = calloc(ndev, sizeof *key), (*model)[32] = calloc(ndev / 100 + 1, sizeof *model);
    char (*rname)[32] = calloc(nrow, sizeof *rname);
    static clb_site_ceiling ce[4] = {{"fp32", "GFLOP/s", 60000}, {"fp64", "GFLOP/s", 30000},
                                     {"memory", "GB/s", 4000}, {"suite", "", 12.5}};
    if (!dv || !rw || !pt || !key || !model || !rname)
        return 1;
    /* Rows share their runs across devices: the writer's cost, not the model's, is measured. */
    for (size_t r = 0; r < nrow; r++) {
        snprintf(rname[r], sizeof rname[r], "group%zu.row%zu", r % 7, r);
        points(pt + r * nrun, nrun, 100.0 + (double)r, r % 13 == 0 ? nrun / 2 : nrun, "timeout");
        rw[r] = (clb_site_row){rname[r], r % 3 ? "GB/s" : "ns", r % 3 ? 1 : -1, pt + r * nrun, nrun};
    }
    for (size_t i = 0; i <= ndev / 100; i++)
        snprintf(model[i], sizeof model[i], "Model %zu", i);
    for (size_t i = 0; i < ndev; i++) {
        snprintf(key[i], sizeof key[i], "gpu%zu@node%zu", i % 8, i / 8);
        dv[i] = (clb_site_device){key[i], model[i / 100], "Vendor", "550.54", key[i] + 5, T0, ce, 4, rw, nrow};
    }
    clb_site_model m = {"speed", T0, dv, ndev, NULL, 0};
    clb_diag d;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clb_error err = clb_site_write(dir, &m, &d);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (err != CLB_OK)
        fprintf(stderr, "test_site: %s\n", d.msg);
    else
        printf("%zu devices x %zu rows x %zu runs: %.2f s\n", ndev, nrow, nrun,
               (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec));
    free(dv);
    free(rw);
    free(pt);
    free(key);
    free(model);
    free(rname);
    return err != CLB_OK;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        return write_hostile(argv[2]);
    if (argc == 6 && strcmp(argv[1], "speed") == 0)
        return speed(argv[2], strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10), strtoul(argv[5], NULL, 10));
    if (argc != 1) {
        fprintf(stderr, "usage: test_site [write DIR | speed DIR DEVICES ROWS RUNS]\n");
        return 2;
    }
    check_slugs();
    check_site();
    return failures != 0;
}
