/* Reading results documents back: file -> cJSON with line:column errors, schema check. The one
 * reader of the files a user names (results, the suite's reference): every command accepts the
 * same bytes (a UTF-8 byte order mark is skipped) and says the same thing about the rest. */
#define _POSIX_C_SOURCE 200809L
#include "core/grow.h"
#include "doc/doc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static double input_limit = 1073741824.0; /* 1 GiB */

void clb_input_limit_set(double bytes)
{
    input_limit = bytes >= 1 ? bytes : 1;
}

double clb_input_limit(void)
{
    return input_limit;
}

size_t clb_doc_skip_bom(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* 1-based line and column (in bytes) of offset pos in text. */
static void line_col(const char *text, size_t pos, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* Up to n-1 bytes of text from the error position, one line, printable ASCII only. */
static void snippet(const char *s, size_t len, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < n && s[i] != '\n' && s[i] != '\0'; i++)
        out[k++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    out[k] = '\0';
}

/* 1 when the last character that is not white space is not a closing brace. */
static int unclosed(const char *text, size_t len)
{
    while (len > 0 && strchr(" \t\r\n", text[len - 1]) && text[len - 1])
        len--;
    return len == 0 || text[len - 1] != '}';
}

/* Deepest nesting of arrays and objects outside strings, counted before parsing, so that a
 * document too deep for the parser is reported as such (and not as truncated). */
static size_t nesting_depth(const char *t, size_t len)
{
    size_t depth = 0, max = 0;
    int in_str = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = t[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '[' || ch == '{') {
            if (++depth > max)
                max = depth;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            depth--;
        }
    }
    return max;
}

clb_error clb_doc_trailing_error(const char *text, size_t len, size_t pos, const char *name, clb_diag *d)
{
    size_t line, col;
    char near[32];
    line_col(text, pos, &line, &col);
    snippet(text + pos, len - pos, near, sizeof near);
    return clb_diag_set(d, CLB_ERR_IO, "%s:%zu:%zu: %zu bytes after the end of the JSON document, from '%s'", name,
                        line, col, len - pos, near);
}

clb_error clb_doc_syntax_error(const char *text, size_t len, size_t pos, const char *name, clb_diag *d)
{
    size_t line, col;
    char near[32];
    line_col(text, pos, &line, &col);
    snippet(text + pos, len - pos, near, sizeof near);
    if (pos >= len)
        return clb_diag_set(d, CLB_ERR_IO, "%s:%zu:%zu: malformed JSON: unexpected end of file (truncated?)",
                            name, line, col);
    return clb_diag_set(d, CLB_ERR_IO, "%s:%zu:%zu: malformed JSON near '%s'%s", name, line, col, near,
                        unclosed(text, len) ? " (the file ends without closing the document: truncated?)" : "");
}

clb_error clb_doc_check(const cJSON *doc, const char *name, clb_diag *d)
{
    if (!cJSON_IsObject(doc))
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: not a clbench results document (no JSON object)",
                            name);
    const char *v = rj_str(doc, "schema_version");
    if (!v)
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: no schema_version: not a clbench results document",
                            name);
    char *end = NULL;
    long major = strtol(v, &end, 10);
    long ours = strtol(CLB_SCHEMA_VERSION, NULL, 10);
    if (end == v || major != ours)
        return clb_diag_set(d, CLB_ERR_USAGE,
                            "%s: schema version %s has a different major version than this tool's %s",
                            name, v, CLB_SCHEMA_VERSION);
    if (!rj_devices(doc))
        return clb_diag_set(d, CLB_ERR_USAGE, "%s: 'devices' is missing or not an array", name);
    return CLB_OK;
}

/* text[0..len) as one JSON value (a leading byte order mark skipped), or NULL with the reason. */
static cJSON *parse_json(const char *text, size_t len, const char *name, clb_diag *d)
{
    clb_diag_clear(d);
    size_t depth = nesting_depth(text, len);
    if (depth > CJSON_NESTING_LIMIT) {
        clb_diag_set(d, CLB_ERR_IO, "%s: JSON nested %zu levels deep; results documents are at most %d deep",
                     name, depth, CJSON_NESTING_LIMIT);
        return NULL;
    }
    const char *end = NULL;
    /* require_null_terminated = 0: text[0..len) need not end in NUL; trailing garbage is
     * caught below instead. */
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t pos = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    if (doc) {
        while (pos < len && strchr(" \t\r\n", text[pos]) && text[pos])
            pos++;
        if (pos < len) {
            cJSON_Delete(doc);
            clb_doc_trailing_error(text, len, pos, name, d);
            return NULL;
        }
    }
    if (!doc)
        clb_doc_syntax_error(text, len, pos, name, d);
    return doc;
}

cJSON *clb_doc_parse(const char *text, size_t len, const char *name, clb_diag *d)
{
    cJSON *doc = parse_json(text, len, name, d);
    if (doc && clb_doc_check(doc, name, d) != CLB_OK) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

static const char *kind_of(mode_t m)
{
    return S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory"
           : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* size: the file's size in bytes, or "" when it is not known (a pipe read up to the limit). */
static clb_error too_large(const char *path, const char *size, clb_diag *d)
{
    return clb_diag_set(d, CLB_ERR_USAGE, "%s: %s%slarger than the input limit of %.0f bytes (--max-input raises it)",
                        path, size, *size ? " bytes, " : "", input_limit);
}

/* Up to the limit and one byte more from fd into a buffer that grows as needed (reads of 64 KiB
 * at least). */
static clb_error read_capped(int fd, const char *path, char **buf, size_t *len, clb_diag *d)
{
    size_t cap = 0, n = 0, most = (size_t)input_limit + 1;
    char *b = NULL;
    ssize_t got = 0;
    int room = 1;
    while (n < most && (room = clb_grow_by(&b, 1, n, (size_t)1 << 16, &cap)) &&
           (got = read(fd, b + n, (cap < most ? cap : most) - n)) > 0)
        n += (size_t)got;
    clb_error e = CLB_OK;
    if (!room)
        e = clb_diag_set(d, CLB_ERR_NOMEM, "%s: out of memory reading the file", path);
    else if (got < 0)
        e = clb_diag_set(d, CLB_ERR_IO, "%s: read error: %s", path, strerror(errno));
    else if (n == most)
        e = too_large(path, "", d);
    if (e != CLB_OK) {
        free(b);
        return e;
    }
    *buf = b;
    *len = n;
    return CLB_OK;
}

/* Reads the whole file, a regular file or a pipe, within the input limit; caller frees *buf. */
clb_error clb_doc_read_file(const char *path, char **buf, size_t *len, clb_diag *d)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return clb_diag_set(d, CLB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    clb_error e = CLB_OK;
    char size[32];
    if (fstat(fd, &st) != 0)
        e = clb_diag_set(d, CLB_ERR_IO, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        e = clb_diag_set(d, CLB_ERR_USAGE, "%s: %s, not a file to read", path, kind_of(st.st_mode));
    else if (S_ISREG(st.st_mode) && (double)st.st_size > input_limit) {
        snprintf(size, sizeof size, "%lld", (long long)st.st_size);
        e = too_large(path, size, d);
    } else
        e = read_capped(fd, path, buf, len, d);
    close(fd);
    return e;
}

/* A user file through the one capped reader, then through parse. */
static cJSON *load_with(const char *path, cJSON *(*parse)(const char *, size_t, const char *, clb_diag *),
                        clb_diag *d)
{
    char *text = NULL;
    size_t len = 0;
    clb_diag_clear(d);
    if (clb_doc_read_file(path, &text, &len, d) != CLB_OK)
        return NULL;
    cJSON *j = parse(text, len, path, d);
    free(text);
    return j;
}

cJSON *clb_json_load(const char *path, clb_diag *d) { return load_with(path, parse_json, d); }

cJSON *clb_doc_load(const char *path, clb_diag *d) { return load_with(path, clb_doc_parse, d); }
