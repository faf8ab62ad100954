/* Every string from a document reaches an output through one of the writers here: HTML text
 * and attributes (html_puts), CSV and Markdown cells, and terminal text. Each replaces what is
 * not well-formed UTF-8 with U+FFFD and escapes what its format gives a meaning to, so that no
 * input string can become markup, a spreadsheet formula or a terminal control sequence. */
#include "report/report_cols.h"

#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Bytes s[1..n) are continuation bytes; s[1] also within [lo, hi] (Unicode Table 3-7). */
static int tail_ok(const unsigned char *s, size_t n, unsigned lo, unsigned hi)
{
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return 1;
}

size_t rep_utf8_len(const char *p)
{
    const unsigned char *s = (const unsigned char *)p;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return tail_ok(s, 2, 0x80, 0xBF) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) /* no overlong forms, no surrogates */
        return tail_ok(s, 3, c == 0xE0 ? 0xA0 : 0x80, c == 0xED ? 0x9F : 0xBF) ? 3 : 0;
    if (c >= 0xF0 && c <= 0xF4) /* at most U+10FFFF */
        return tail_ok(s, 4, c == 0xF0 ? 0x90 : 0x80, c == 0xF4 ? 0x8F : 0xBF) ? 4 : 0;
    return 0;
}

/* A control character other than tab and line breaks (which each format handles itself). */
static int is_control(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
}

/* Walks s one character at a time: invalid sequences and controls become U+FFFD, ASCII goes
 * to esc (which writes it, escaped as its format needs), the rest is copied. */
static void walk(FILE *f, const char *s, void (*esc)(FILE *, char))
{
    while (s && *s) {
        size_t n = rep_utf8_len(s);
        if (n == 0 || (n == 1 && is_control((unsigned char)*s)))
            fputs(replacement, f);
        else if (n == 1)
            esc(f, *s);
        else
            fwrite(s, 1, n, f);
        s += n ? n : 1;
    }
}

static void html_char(FILE *f, char c)
{
    switch (c) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fputc(c, f);
    }
}

void html_puts(FILE *f, const char *s)
{
    walk(f, s, html_char);
}

/* Quotes doubled; the cell is quoted as a whole by rep_csv_cell. */
static void csv_char(FILE *f, char c)
{
    if (c == '"')
        fputc('"', f);
    fputc(c, f);
}

/* A plain decimal number ("-3.5", "+1e-3"): a spreadsheet reads it as that number, never as a
 * formula, so it keeps its sign. */
static int plain_number(const char *s)
{
    size_t i = (*s == '-' || *s == '+') ? 1 : 0, digits = 0;
    for (; (s[i] >= '0' && s[i] <= '9') || s[i] == '.'; i++)
        digits += s[i] != '.';
    if (digits && (s[i] == 'e' || s[i] == 'E')) {
        i += (s[i + 1] == '-' || s[i + 1] == '+') ? 2 : 1;
        size_t e = i;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e)
            return 0;
    }
    return digits > 0 && s[i] == '\0' && strchr(s, '.') == strrchr(s, '.');
}

void rep_csv_cell(FILE *f, const char *s)
{
    s = s ? s : "";
    int quote = strpbrk(s, ",\"\r\n") != NULL;
    /* =, +, -, @ (and tab, CR) start a formula in spreadsheets: a leading ' keeps it text. */
    int formula = *s && strchr("=+-@\t\r", *s) && !plain_number(s);
    if (quote)
        fputc('"', f);
    if (formula)
        fputc('\'', f);
    walk(f, s, csv_char);
    if (quote)
        fputc('"', f);
}

/* Pipes escaped, line breaks as spaces (one table row per line), and <, >, &
 * as entities: Markdown renderers pass HTML through. */
static void md_char(FILE *f, char c)
{
    switch (c) {
    case '|': fputs("\\|", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '\n': case '\r': fputc(' ', f); break;
    default: fputc(c, f);
    }
}

void rep_md_cell(FILE *f, const char *s)
{
    walk(f, s, md_char);
}

enum { TERM_SLOTS = 8, TERM_LEN = 1024 };

/* Terminal text: every control character (C0 including line breaks, DEL, and the C1 range
 * U+0080..U+009F) shown as \xHH, invalid UTF-8 as U+FFFD; cut with "..." beyond TERM_LEN. The
 * result lives in one of TERM_SLOTS buffers used in turn, so that one printf may take several
 * (the report code is single-threaded). */
const char *rep_term(const char *s)
{
    static char slot[TERM_SLOTS][TERM_LEN];
    static unsigned next;
    char *out = slot[next++ % TERM_SLOTS];
    size_t o = 0;
    while (s && *s) {
        size_t n = rep_utf8_len(s);
        unsigned char c = (unsigned char)*s, c1 = (unsigned char)s[1];
        char piece[8];
        if (n == 0)
            snprintf(piece, sizeof piece, "%s", replacement);
        else if ((n == 1 && (c < 0x20 || c == 0x7F)) || (n == 2 && c == 0xC2 && c1 < 0xA0))
            snprintf(piece, sizeof piece, "\\x%02X", n == 1 ? c : c1);
        else
            snprintf(piece, sizeof piece, "%.*s", (int)n, s);
        size_t len = strlen(piece);
        if (o + len + 4 > TERM_LEN) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        memcpy(out + o, piece, len);
        o += len;
        s += n ? n : 1;
    }
    out[o] = '\0';
    return out;
}

/* CSS class of a status: ok, unsupported, or bad for every failure. */
static const char *status_class(const char *st)
{
    return strcmp(st, "ok") == 0 ? "st-ok" : strcmp(st, "unsupported") == 0 ? "st-unsupported" : "st-bad";
}

void rep_html_status(FILE *f, const char *st, const char *reason)
{
    fprintf(f, "<span class=\"st %s\">", status_class(st));
    html_puts(f, *st ? st : "(no status)");
    fputs("</span>", f);
    if (reason && *reason) {
        fputs(" ", f);
        html_puts(f, reason);
    }
}
