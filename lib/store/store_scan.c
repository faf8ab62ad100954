/* Where the device entries of a document's text lie, found without parsing it: the store then
 * parses one entry at a time (a fleet document of 10,000 devices is gigabytes as a cJSON tree).
 * Only the happy path: anything unexpected answers 0 and the caller parses the whole text with
 * the one reader, whose messages name the problem. */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

static size_t skip_ws(const char *t, size_t i, size_t n)
{
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* t[i] == '"': the index after the closing quote, n when there is none. */
static size_t skip_string(const char *t, size_t i, size_t n)
{
    for (i++; i < n; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return n;
}

/* The index after the value at t[i]; *depth: the deepest nesting inside it (0 for a scalar).
 * n when it does not end. */
static size_t skip_value(const char *t, size_t i, size_t n, size_t *depth)
{
    size_t d = 0;
    *depth = 0;
    if (i < n && t[i] == '"')
        return skip_string(t, i, n);
    if (i < n && t[i] != '[' && t[i] != '{') {
        while (i < n && !strchr(",]} \t\r\n", t[i]))
            i++;
        return i;
    }
    for (; i < n; i++) {
        char c = t[i];
        if (c == '"') {
            i = skip_string(t, i, n) - 1;
        } else if (c == '[' || c == '{') {
            if (++d > *depth)
                *depth = d;
        } else if ((c == ']' || c == '}') && --d == 0) {
            return i + 1;
        }
    }
    return n;
}

/* The entries of the array at t[i] == '[' into span (pairs of offsets); the index after its ']',
 * n when it is not an array of objects. */
static size_t scan_entries(const char *t, size_t i, size_t n, size_t **span, size_t *nspan, size_t *depth)
{
    size_t cap = 0, d;
    for (i = skip_ws(t, i + 1, n); i < n && t[i] != ']';) {
        size_t e = skip_value(t, i, n, &d);
        if (e >= n || t[i] != '{')
            return n;
        *depth = d + 1 > *depth ? d + 1 : *depth;
        if (!clb_grow_by(span, sizeof **span, *nspan, 2, &cap))
            return n;
        (*span)[(*nspan)++] = i;
        (*span)[(*nspan)++] = e;
        i = skip_ws(t, e, n);
        if (i < n && t[i] == ',') {
            i = skip_ws(t, i + 1, n);
            if (i >= n || t[i] != '{')
                return n; /* a trailing comma is not JSON */
        } else if (i >= n || t[i] != ']') {
            return n;
        }
    }
    return i < n ? i + 1 : n;
}

/* One pass over the top-level object: the first member "devices" holds the entries. */
int clb_store_scan(const char *t, size_t n, size_t *lo, size_t *hi, size_t **span, size_t *nspan)
{
    size_t i = skip_ws(t, 0, n), depth = 0, dv;
    int found = 0;
    *span = NULL, *nspan = 0;
    if (i >= n || t[i] != '{')
        return 0;
    for (i = skip_ws(t, i + 1, n); i < n && t[i] == '"';) {
        size_t k = i, ke = skip_string(t, i, n);
        i = skip_ws(t, ke, n);
        if (i >= n || t[i] != ':')
            break;
        size_t v = skip_ws(t, i + 1, n), ve;
        if (!found && ke - k == 9 && memcmp(t + k, "\"devices\"", 9) == 0 && v < n && t[v] == '[') {
            ve = scan_entries(t, v, n, span, nspan, &depth);
            *lo = v, *hi = ve, found = 1;
        } else {
            ve = skip_value(t, v, n, &dv);
            depth = dv > depth ? dv : depth;
        }
        if (ve >= n || ve == v)
            break;
        i = skip_ws(t, ve, n);
        if (i < n && t[i] == '}') {
            if (found && skip_ws(t, i + 1, n) == n && depth + 1 <= CJSON_NESTING_LIMIT) {
                *nspan /= 2;
                return 1;
            }
            break; /* the reader says what is wrong, or refuses the depth */
        }
        if (i >= n || t[i] != ',')
            break;
        i = skip_ws(t, i + 1, n);
    }
    free(*span);
    *span = NULL, *nspan = 0;
    return 0;
}
