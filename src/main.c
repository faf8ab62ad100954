/* clbench: command dispatch. */
#include "cli.h"
#include "core/child.h"

#include <stdlib.h>
#include <string.h>

/* The commands that run benchmarks in workers and stop on SIGINT/SIGTERM/SIGHUP with the
 * results so far (cli_stop_signal); the others keep the signals' default actions. */
static int honours_stop(const char *cmd)
{
    static const char *const cmds[] = {"run", "suite", "recommend", "tune"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmd, cmds[i]) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    cli_catch_stop_signals(); /* before anything else: no moment of a run dies without its JSON */
    const char *parent = getenv(CLB_CHILD_PARENT_VAR); /* set by clb_child_start */
    int bound = clb_child_bind_to_parent(parent);
    unsetenv(CLB_CHILD_PARENT_VAR); /* not for our own children: clb_child_start sets theirs */
    if (bound != 0) {
        fprintf(stderr, "clbench: the parent that started this worker is gone; not running\n");
        return CLI_EXIT_RUNTIME;
    }
    /* getopt_long permutes argv: keep the command line as typed for the provenance. */
    char **typed = malloc(((size_t)argc + 1) * sizeof *typed);
    if (!typed)
        return CLI_EXIT_RUNTIME;
    memcpy(typed, argv, ((size_t)argc + 1) * sizeof *typed);
    cli_opts o;
    int rc = cli_parse(argc, argv, &o);
    o.argv = typed;
    if (rc != CLI_EXIT_OK || !honours_stop(o.command))
        cli_release_stop_signals();
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
             : strcmp(o.command, "cache") == 0 ? cmd_cache(&o)
             : strcmp(o.command, "store") == 0 ? cmd_store(&o)
                                                 : cmd_run(&o);
    free(typed);
    if (rc >= 0 && rc < 128 && cli_stop_signal()) /* stopped: the shell's convention */
        rc = 128 + cli_stop_signal();
    return rc < 0 ? CLI_EXIT_OK : rc;
}
