/* clbench fleet-check RESULTS.json... (or --store: the store's latest runs, cmd_store_wire.c): flags the odd device among identical ones, from one merged
 * file (an MPI run) or many per-node files; exit 0 nothing flagged, 1 a device flagged, 2 unusable
 * input (a device compared with itself included). For the prolog/epilog of a batch system. Opens no OpenCL device. */
#include "cli.h"
#include "store/store.h"

#include <stdlib.h>

int cmd_fleet_check(const cli_opts *o)
{
    clb_fleet_opts fo;
    clb_fleet_opts_default(&fo);
    if (o->threshold_set)
        fo.min_rel = o->threshold;
    if (o->max_spread > 0)
        fo.max_cv = o->max_spread;
    if (o->store_set && o->npatterns > 0) {
        fprintf(stderr, "clbench: fleet-check --store reads the store; name no RESULTS.json files with it\n");
        return CLI_EXIT_USAGE;
    }
    if (o->store_set) {
        struct clb_store *s = NULL;
        int rc = cli_store_open(o, &s);
        if (rc == CLI_EXIT_OK)
            rc = cli_fleet_check_store(s, &fo);
        clb_store_close(s);
        return rc;
    }
    if (o->npatterns == 0) {
        fprintf(stderr, "clbench: fleet-check needs RESULTS.json files\n");
        return CLI_EXIT_USAGE;
    }
    size_t n = (size_t)o->npatterns;
    cJSON **docs = calloc(n, sizeof *docs);
    clb_report_src *src = calloc(n, sizeof *src);
    int rc = docs && src ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
    for (size_t i = 0; rc == CLI_EXIT_OK && i < n; i++) {
        clb_diag d;
        if (!(docs[i] = clb_fleet_load(o->patterns[i], &d))) {
            fprintf(stderr, "clbench: %s\n", d.msg);
            rc = CLI_EXIT_USAGE;
        }
        src[i] = (clb_report_src){o->patterns[i], docs[i]};
    }
    if (rc == CLI_EXIT_OK) {
        clb_diag d;
        long flags = clb_fleet_check(stdout, src, n, &fo, &d);
        if (flags < 0)
            fprintf(stderr, "clbench: fleet-check: %s\n", d.msg);
        rc = flags < 0 ? (d.err == CLB_ERR_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME)
             : flags > 0 ? CLI_EXIT_FAILED : CLI_EXIT_OK;
    }
    for (size_t i = 0; docs && i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    free(src);
    return rc;
}
