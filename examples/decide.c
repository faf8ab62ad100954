/* A program built on the installed libclbench that decides which device of the given results
 * files to use for a workload (the models of clbench recommend).
 *   decide WORKLOAD SIZE RESULTS.json...     e.g. decide gemm 2048 gpu.json cpu.json
 * Build: as pick_device.c (find_package(clbench) or pkg-config). */
#include <clbench.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int pick(clb_workload_kind w, double size, int nfiles, char **files)
{
    double best = INFINITY;
    for (int i = 0; i < nfiles; i++) {
        clb_diag d;
        cJSON *doc = clb_doc_load(files[i], &d), *e;
        if (!doc) {
            fprintf(stderr, "decide: %s\n", d.msg);
            return 2;
        }
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "devices"))
        {
            clb_prediction p;
            clb_predict(e, w, size, 0, &p);
            if (p.ranked)
                printf("%s: %.4g s (%s; %s)%s\n", files[i], p.seconds, p.model, p.deciding,
                       p.seconds < best ? "  <- best so far" : "");
            else
                printf("%s: not ranked: missing %s\n", files[i], p.missing);
            best = p.ranked && p.seconds < best ? p.seconds : best;
        }
        cJSON_Delete(doc);
    }
    return isfinite(best) ? 0 : 3;
}

int main(int argc, char **argv)
{
    clb_workload_kind w;
    if (argc < 4 || !clb_workload_parse(argv[1], &w)) {
        fprintf(stderr, "usage: decide stream|gemm|stencil|transfer|latency SIZE RESULTS.json...\n");
        return 2;
    }
    return pick(w, atof(argv[2]), argc - 3, argv + 3);
}
