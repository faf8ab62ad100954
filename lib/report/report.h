/* The presentation layer's own helpers, beside the document accessors (doc/doc.h). */
#ifndef CLB_REPORT_H
#define CLB_REPORT_H

#include "doc/doc.h"

/* The writers of document strings (lib/report/html_text.c); each replaces invalid UTF-8 with
 * U+FFFD, NULL writes nothing (an empty cell).
 * html_puts: HTML text and attribute values (&, <, >, ", ' escaped; controls as U+FFFD).
 * rep_csv_cell: one CSV cell (RFC 4180 quoting; a text starting with =, +, -, @, tab or CR gets a
 * leading ' so that spreadsheets never read it as a formula; plain numbers stay numbers).
 * rep_md_cell: one Markdown table cell (|, <, >, & escaped, line breaks as spaces).
 * rep_term: terminal text, controls shown as \xHH; returns one of 8 static buffers in turn. */
void html_puts(FILE *f, const char *s);
void rep_csv_cell(FILE *f, const char *s);
void rep_md_cell(FILE *f, const char *s);
const char *rep_term(const char *s);
/* Length (1..4) of the well-formed UTF-8 character at s, 0 when s starts an invalid sequence. */
size_t rep_utf8_len(const char *s);

#endif
