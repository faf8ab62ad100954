/* Reading only part of a results document: a strict JSON reader that builds cJSON nodes only for
 * the members on a few paths and checks the rest for well-formedness without building it.
 * fleet-check reads ~220 KB per device of which it needs ~2 KB (names, status, value, stats);
 * building every node with cJSON costs 5.5 s per 1,000 devices (docs/results/fleet.md).
 *
 * Paths are "a/b/#/c": '/' separates member names, '#' stands for every array element, and a
 * path keeps the whole subtree below its last name. Kept subtrees are handed to cJSON itself. */
#include "doc/doc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PATHS = 32 };

typedef struct jp {
    const char *s;
    size_t len, pos;
    size_t err_pos; /* where the first error was found; SIZE_MAX: none */
    int depth;
    int nomem;
} jp;

/* Where each path stands at the current node: the rest of the path ("" once it matched). */
typedef struct cursor {
    const char *rest[MAX_PATHS];
    size_t n;
    int keep_all;
} cursor;

static int fail(jp *p)
{
    if (p->err_pos == SIZE_MAX)
        p->err_pos = p->pos;
    return 0;
}

static void ws(jp *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\n' ||
                               p->s[p->pos] == '\r' || p->s[p->pos] == '\t'))
        p->pos++;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string at p->pos ('"' included); *esc = 1 when it holds an escape. */
static int skip_string(jp *p, int *esc)
{
    const unsigned char *s = (const unsigned char *)p->s;
    size_t i = p->pos + 1;
    *esc = 0;
    for (; i < p->len; i++) {
        unsigned char c = s[i];
        if (c == '"') {
            p->pos = i + 1;
            return 1;
        }
        if (c < 0x20)
            break;
        if (c == '\\') {
            *esc = 1;
            if (++i >= p->len || !strchr("\"\\/bfnrtu", s[i]) || s[i] == '\0')
                break;
            if (s[i] == 'u') {
                if (i + 4 >= p->len || !is_hex(p->s[i + 1]) || !is_hex(p->s[i + 2]) ||
                    !is_hex(p->s[i + 3]) || !is_hex(p->s[i + 4]))
                    break;
                i += 4;
            }
        }
    }
    p->pos = i;
    return fail(p);
}

static int digits(jp *p)
{
    size_t start = p->pos;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
        p->pos++;
    return p->pos > start;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int skip_number(jp *p)
{
    if (p->s[p->pos] == '-')
        p->pos++;
    if (p->pos < p->len && p->s[p->pos] == '0')
        p->pos++;
    else if (!digits(p))
        return fail(p);
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (!digits(p))
            return fail(p);
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (!digits(p))
            return fail(p);
    }
    return 1;
}

static int skip_scalar(jp *p)
{
    static const char *const lit[] = {"true", "false", "null"};
    int esc;
    if (p->pos >= p->len)
        return fail(p);
    char c = p->s[p->pos];
    if (c == '"')
        return skip_string(p, &esc);
    if (c == '-' || (c >= '0' && c <= '9'))
        return skip_number(p);
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(lit[i]);
        if (p->len - p->pos >= n && memcmp(p->s + p->pos, lit[i], n) == 0) {
            p->pos += n;
            return 1;
        }
    }
    return fail(p);
}

/* '"key" :' at p->pos, white space around it. */
static int skip_key(jp *p)
{
    int esc;
    ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '"' || !skip_string(p, &esc))
        return fail(p);
    ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':')
        return fail(p);
    p->pos++;
    return 1;
}

/* Checks one value without building it: iterative, with the open brackets on a stack, so that
 * the nesting limit (not the C stack) bounds a hostile document. */
static int skip_value(jp *p)
{
    char stack[CJSON_NESTING_LIMIT + 1];
    int top = 0;
    for (;;) {
        ws(p);
        if (p->pos >= p->len)
            return fail(p);
        char c = p->s[p->pos];
        if (c == '{' || c == '[') {
            if (p->depth + top >= CJSON_NESTING_LIMIT)
                return fail(p);
            stack[top++] = c;
            p->pos++;
            ws(p);
            if (p->pos < p->len && p->s[p->pos] == (c == '{' ? '}' : ']')) {
                p->pos++;
                top--;
            } else {
                if (c == '{' && !skip_key(p))
                    return 0;
                continue;
            }
        } else if (!skip_scalar(p)) {
            return 0;
        }
        /* After a value: ',' or the closing bracket of the innermost container. */
        for (;;) {
            if (top == 0)
                return 1;
            ws(p);
            if (p->pos >= p->len)
                return fail(p);
            c = p->s[p->pos];
            if (c == ',') {
                p->pos++;
                if (stack[top - 1] == '{' && !skip_key(p))
                    return 0;
                break;
            }
            if (c != (stack[top - 1] == '{' ? '}' : ']'))
                return fail(p);
            p->pos++;
            top--;
        }
    }
}

/* The cursor of a child named key[0..n) ("#" for an array element). */
static void descend(const cursor *in, const char *key, size_t n, cursor *out)
{
    out->n = 0;
    out->keep_all = 0;
    for (size_t i = 0; i < in->n; i++) {
        const char *r = in->rest[i], *slash = strchr(r, '/');
        size_t seg = slash ? (size_t)(slash - r) : strlen(r);
        if (seg != n || memcmp(r, key, n) != 0)
            continue;
        if (!slash)
            out->keep_all = 1;
        else
            out->rest[out->n++] = slash + 1;
    }
}

static cJSON *value(jp *p, const cursor *c);

/* A kept subtree: checked by skip_value, then built by cJSON from its text. */
static cJSON *kept(jp *p)
{
    size_t start = p->pos;
    if (!skip_value(p))
        return NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(p->s + start, p->pos - start, NULL, 0);
    if (!v && p->err_pos == SIZE_MAX)
        p->err_pos = start; /* cJSON refused what the check accepted (or ran out of memory) */
    return v;
}

/* The member name at p->pos, unescaped by cJSON when it holds escapes (then *owned is set). */
static const char *member_name(jp *p, char *buf, size_t cap, cJSON **owned)
{
    size_t start = p->pos;
    int esc;
    *owned = NULL;
    if (p->pos >= p->len || p->s[p->pos] != '"' || !skip_string(p, &esc))
        return fail(p), NULL;
    size_t n = p->pos - start - 2;
    if (!esc && n < cap) {
        memcpy(buf, p->s + start + 1, n);
        buf[n] = '\0';
        return buf;
    }
    *owned = cJSON_ParseWithLengthOpts(p->s + start, p->pos - start, NULL, 0);
    if (!cJSON_IsString(*owned))
        return p->nomem = 1, NULL;
    return (*owned)->valuestring;
}

/* One member "name": value of an object on a kept path; adds it to obj when kept. */
static int member(jp *p, const cursor *c, cJSON *obj)
{
    char buf[256];
    cJSON *owned = NULL;
    ws(p);
    const char *key = member_name(p, buf, sizeof buf, &owned);
    int ok = key != NULL;
    ws(p);
    if (ok && (p->pos >= p->len || p->s[p->pos] != ':'))
        ok = fail(p);
    if (ok) {
        p->pos++;
        cursor sub;
        descend(c, key, strlen(key), &sub);
        if (!sub.keep_all && sub.n == 0) {
            ok = skip_value(p);
        } else {
            cJSON *v = value(p, &sub);
            ok = v != NULL;
            if (ok)
                cJSON_AddItemToObject(obj, key, v);
        }
    }
    cJSON_Delete(owned);
    return ok;
}

/* An object or array on a kept path (c->n > 0): its kept members or elements. */
static cJSON *container(jp *p, const cursor *c)
{
    char open = p->s[p->pos], close = open == '{' ? '}' : ']';
    cJSON *out = open == '{' ? cJSON_CreateObject() : cJSON_CreateArray();
    cursor elem;
    descend(c, "#", 1, &elem);
    if (!out || ++p->depth > CJSON_NESTING_LIMIT)
        goto fail;
    p->pos++;
    ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        p->depth--;
        return out;
    }
    for (;;) {
        if (open == '{') {
            if (!member(p, c, out))
                goto fail;
        } else if (!elem.keep_all && elem.n == 0) {
            if (!skip_value(p))
                goto fail;
        } else {
            cJSON *v = value(p, &elem);
            if (!v)
                goto fail;
            cJSON_AddItemToArray(out, v);
        }
        ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close)
            break;
        fail(p);
        goto fail;
    }
    p->pos++;
    p->depth--;
    return out;
fail:
    cJSON_Delete(out);
    return NULL;
}

/* A value whose cursor keeps something: all of it, its kept parts, or (a scalar where the path
 * wants an object or array) nothing but a null placeholder that no reader mistakes for data. */
static cJSON *value(jp *p, const cursor *c)
{
    ws(p);
    if (c->keep_all)
        return kept(p);
    if (p->pos < p->len && (p->s[p->pos] == '{' || p->s[p->pos] == '['))
        return container(p, c);
    if (!skip_value(p))
        return NULL;
    cJSON *v = cJSON_CreateNull();
    if (!v)
        p->nomem = 1;
    return v;
}

cJSON *clb_doc_parse_paths(const char *text, size_t len, const char *name,
                           const char *const *paths, size_t npaths, clb_diag *d)
{
    clb_diag_clear(d);
    if (npaths > MAX_PATHS) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: at most %d paths", name, MAX_PATHS);
        return NULL;
    }
    jp p = {text, len, clb_doc_skip_bom(text, len), SIZE_MAX, 0, 0};
    cursor root = {{NULL}, npaths, 0};
    for (size_t i = 0; i < npaths; i++)
        root.rest[i] = paths[i];
    cJSON *doc = value(&p, &root);
    ws(&p);
    if (doc && p.pos < len) {
        cJSON_Delete(doc);
        clb_doc_trailing_error(text, len, p.pos, name, d);
        return NULL;
    }
    if (!doc) {
        if (p.nomem && p.err_pos == SIZE_MAX)
            clb_diag_set(d, CLB_ERR_NOMEM, "%s: out of memory", name);
        else
            clb_doc_syntax_error(text, len, p.err_pos == SIZE_MAX ? len : p.err_pos, name, d);
        return NULL;
    }
    if (clb_doc_check(doc, name, d) != CLB_OK) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

cJSON *clb_doc_load_paths(const char *path, const char *const *paths, size_t npaths, clb_diag *d)
{
    char *text = NULL;
    size_t len = 0;
    clb_diag_clear(d);
    if (clb_doc_read_file(path, &text, &len, d) != CLB_OK)
        return NULL;
    cJSON *doc = clb_doc_parse_paths(text, len, path, paths, npaths, d);
    free(text);
    return doc;
}
