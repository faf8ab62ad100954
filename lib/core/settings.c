/* The process's settings (clb_settings): installed once by the tool, read by the rows. The
 * library never looks at the environment; what a user sets there reaches it through here. */
#include "clbench.h"

#include <string.h>

#define DEFAULTS {.tune_family = -1}

static clb_settings installed = DEFAULTS; /* written before any run, then only read */

void clb_settings_default(clb_settings *s)
{
    *s = (clb_settings)DEFAULTS;
}

void clb_settings_set(const clb_settings *s)
{
    if (s)
        installed = *s;
    else
        clb_settings_default(&installed);
}

const clb_settings *clb_settings_get(void)
{
    return &installed;
}
