/* clbench: command dispatch. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* getopt_long permutes argv: keep the command line as typed for the provenance. */
    char **typed = malloc(((size_t)argc + 1) * sizeof *typed);
    if (!typed)
        return CLI_EXIT_RUNTIME;
    memcpy(typed, argv, ((size_t)argc + 1) * sizeof *typed);
    cli_opts o;
    int rc = cli_parse(argc, argv, &o);
    o.argv = typed;
    if (rc == CLI_EXIT_OK)
        rc = strcmp(o.command, "list") == 0      ? cmd_list(&o)
             : strcmp(o.command, "info") == 0    ? cmd_info(&o)
             : strcmp(o.command, "report") == 0  ? cmd_report(&o)
             : strcmp(o.command, "compare") == 0 ? cmd_compare(&o)
             : strcmp(o.command, "__worker") == 0 ? cmd_worker(&o)
             : strcmp(o.command, "fleet-check") == 0 ? cmd_fleet_check(&o)
             : strcmp(o.command, "suite") == 0 ? cmd_suite(&o)
             : strcmp(o.command, "recommend") == 0 ? cmd_recommend(&o)
             : strcmp(o.command, "tune") == 0 ? cmd_tune(&o)
             : strcmp(o.command, "db") == 0 ? cmd_db(&o)
                                                 : cmd_run(&o);
    free(typed);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
