/* Host paths out of the report: an absolute path says where a file lay on the machine that ran
 * (home directories, user names), which a shared report need not tell (docs/report.md). */
#include "report/report_cols.h"

#include <string.h>

/* Characters that end a path token inside command lines, environment values and JSON text. */
static int ends_token(char ch)
{
    return ch == '\0' || strchr(" :,\"'[]=", ch) != NULL;
}

void rep_strip_paths(char *s)
{
    size_t r = 0, w = 0;
    while (s[r]) {
        if (s[r] != '/' || (r > 0 && !ends_token(s[r - 1]))) {
            s[w++] = s[r++];
            continue;
        }
        size_t keep = r; /* the last component: after the last '/' followed by more of the token */
        for (; !ends_token(s[r]); r++)
            if (s[r] == '/' && !ends_token(s[r + 1]))
                keep = r + 1;
        while (keep < r)
            s[w++] = s[keep++];
    }
    s[w] = '\0';
}
