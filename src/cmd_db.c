/* clbench db: the device database (placeholder while the data file lands). */
#include "cli.h"

int cmd_db(const cli_opts *o)
{
    (void)o;
    return CLI_EXIT_USAGE;
}
