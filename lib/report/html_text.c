/* HTML text pieces shared by the page (html.c) and its summary cards (summary.c), so that
 * both depend on this module and not on each other: escaping and status badges. */
#include "report_cols.h"

#include <string.h>

void html_puts(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
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
