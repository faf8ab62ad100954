/* Bounded fuzz of the results-document reader, the reports and compare: thousands of mutated
 * and truncated variants of the sample documents (byte flips, deletions, insertions of JSON
 * punctuation, truncations, and structural mutations of the parsed tree: members replaced by
 * values of the wrong type) go through clb_doc_parse, clb_report_html/csv/markdown and
 * clb_compare. Nothing may crash, hang or leak (run under ASan+UBSan in CI); a rejected
 * document must come with a file:line:column message.
 *
 * usage: test_report_fuzz SAMPLE.json... ; CLB_FUZZ_SECONDS bounds the run (default 5),
 * CLB_FUZZ_SEED picks the random stream (default 1). docs/report.md records the one-minute run. */
#include "clbench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static size_t below(uint64_t *s, size_t n)
{
    return n ? (size_t)(next_rand(s) % n) : 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        buf = n > 0 ? malloc((size_t)n) : NULL;
        rewind(f);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *len = buf ? (size_t)n : 0;
    }
    fclose(f);
    return buf;
}

/* One byte-level mutation of t[0..*len) in place (t has room for *len + 8 bytes). */
static void mutate_bytes(char *t, size_t *len, uint64_t *s)
{
    static const char tokens[] = "{}[]\",:0-1e9.tfn\\ \n";
    size_t at = below(s, *len);
    switch (below(s, 4)) {
    case 0: t[at] = (char)(next_rand(s) & 0xff); break;
    case 1: t[at] = tokens[below(s, sizeof tokens - 1)]; break;
    case 2: memmove(t + at, t + at + 1, *len - at - 1); (*len)--; break;
    default:
        memmove(t + at + 1, t + at, *len - at);
        t[at] = tokens[below(s, sizeof tokens - 1)];
        (*len)++;
    }
}

/* A random node of the tree (depth-first walk to a random stop). */
static cJSON *random_node(cJSON *root, uint64_t *s)
{
    cJSON *n = root;
    for (int depth = 0; depth < 12 && n->child && below(s, 4) != 0; depth++) {
        int k = cJSON_GetArraySize(n);
        n = cJSON_GetArrayItem(n, (int)below(s, (size_t)k));
        if (!n)
            return root;
    }
    return n;
}

/* A string of 3990..4010 bytes of multi-byte UTF-8 ("\xc3\xa9"): exercises cuts of long text
 * on character boundaries. */
static cJSON *long_string(uint64_t *s)
{
    char buf[4100];
    size_t n = 3990 + below(s, 21), i;
    for (i = 0; i + 1 < n; i += 2) {
        buf[i] = (char)0xc3;
        buf[i + 1] = (char)0xa9;
    }
    buf[i] = '\0';
    return cJSON_CreateString(buf);
}

static cJSON *random_value(uint64_t *s)
{
    switch (below(s, 8)) {
    case 7: return long_string(s);
    case 0: return cJSON_CreateNull();
    case 1: return cJSON_CreateNumber((double)(int64_t)next_rand(s) * 1e-3);
    case 2: return cJSON_CreateString("<script>alert(1)</script>&\"'|,\n");
    case 3: return cJSON_CreateArray();
    case 4: return cJSON_CreateObject();
    case 5: return cJSON_CreateBool(1);
    default: return cJSON_CreateNumber(below(s, 2) ? 1e308 : -0.0);
    }
}

/* Replaces a random member or element of a parsed copy by a value of another type. */
static void mutate_tree(cJSON *doc, uint64_t *s)
{
    for (int i = 0, n = 1 + (int)below(s, 4); i < n; i++) {
        cJSON *parent = random_node(doc, s);
        int k = cJSON_GetArraySize(parent);
        if (k == 0)
            continue;
        cJSON_ReplaceItemInArray(parent, (int)below(s, (size_t)k), random_value(s));
    }
}

static int exercise(const cJSON *a, const cJSON *b, FILE *sink)
{
    clb_report_src src[2] = {{"a.json", a}, {"b <b>.json", b}};
    clb_diag d;
    clb_report_html(sink, src, 2);
    clb_report_csv(sink, src, 2);
    clb_report_markdown(sink, src, 2);
    int rc = clb_compare(sink, a, b, 0.05, &d);
    return rc >= 0 && rc <= 2;
}

/* Parses one variant; a rejection must name a position ("name:line:column: ...") or a
 * schema problem. Returns 0 on a contract violation. */
static int one_text(const char *t, size_t len, const cJSON *ref, FILE *sink)
{
    clb_diag d;
    cJSON *doc = clb_doc_parse(t, len, "fuzz.json", &d);
    if (!doc) {
        unsigned line, col;
        return sscanf(d.msg, "fuzz.json:%u:%u:", &line, &col) == 2 || strstr(d.msg, "fuzz.json: ");
    }
    int ok = exercise(doc, ref, sink) && exercise(ref, doc, sink);
    cJSON_Delete(doc);
    return ok;
}

static int one_tree(const cJSON *ref, uint64_t *s, FILE *sink)
{
    cJSON *doc = cJSON_Duplicate(ref, 1);
    if (!doc)
        return 0;
    mutate_tree(doc, s);
    int ok = exercise(doc, ref, sink) && exercise(doc, doc, sink);
    cJSON_Delete(doc);
    return ok;
}

int main(int argc, char **argv)
{
    const char *secs = getenv("CLB_FUZZ_SECONDS"), *seed = getenv("CLB_FUZZ_SEED");
    double limit = secs ? atof(secs) : 5;
    uint64_t st = seed ? strtoull(seed, NULL, 10) | 1 : 1;
    FILE *sink = fopen("/dev/null", "w");
    long iters = 0, bad = 0;
    time_t start = time(NULL);
    if (argc < 2 || !sink) {
        fprintf(stderr, "usage: test_report_fuzz SAMPLE.json...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        char *orig = slurp(argv[i], &len);
        clb_diag d;
        cJSON *ref = orig ? clb_doc_parse(orig, len, argv[i], &d) : NULL;
        char *t = orig ? malloc(len + 64) : NULL;
        if (!ref || !t) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        while (difftime(time(NULL), start) < limit * i / (argc - 1)) {
            size_t n = len;
            memcpy(t, orig, len);
            if (below(&st, 3) == 0) {
                bad += !one_tree(ref, &st, sink);
            } else {
                for (int m = 0, k = 1 + (int)below(&st, 8); m < k && n > 1 && n < len + 56; m++)
                    mutate_bytes(t, &n, &st);
                if (below(&st, 4) == 0)
                    n = below(&st, n + 1); /* truncation */
                bad += !one_text(t, n, ref, sink);
            }
            iters++;
        }
        cJSON_Delete(ref);
        free(t);
        free(orig);
    }
    fclose(sink);
    printf("report_fuzz: %ld variants in %.0f s, %ld contract violation(s)\n", iters,
           difftime(time(NULL), start), bad);
    return bad == 0 && iters > 100 ? 0 : 1;
}
