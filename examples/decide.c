/* A program built on the installed libclbench that decides: which device of the given results
 * files to use for a workload (the models of clbench recommend), and which block size of a host
 * loop is fastest (the tuning service).
 *   decide WORKLOAD SIZE RESULTS.json...     e.g. decide gemm 2048 gpu.json cpu.json
 * Build: as pick_device.c (find_package(clbench) or pkg-config). */
#include <clbench.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The evaluation: median of 5 timed passes after one warm-up, summing 2^20 floats in blocks. */
static clb_status sum_blocked(const int *point, void *user, double *seconds, char *why, size_t n)
{
    float *x = user;
    double t[5];
    volatile float sink = 0;
    clb_stats st;
    (void)why, (void)n;
    for (int r = -1; r < 5; r++) {
        double t0 = now();
        for (int b = 0; b < (1 << 20); b += point[0]) {
            float s = 0;
            for (int i = b; i < b + point[0]; i++)
                s += x[i];
            sink += s;
        }
        if (r >= 0)
            t[r] = now() - t0;
    }
    if (!(sink >= 0) || clb_stats_compute(t, 5, &st) != CLB_OK) /* reads sink: the sums are kept */
        return CLB_STATUS_ERROR;
    *seconds = st.median;
    return CLB_STATUS_OK;
}

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

static int tune(void)
{
    static const int blocks[] = {16, 64, 256, 1024, 4096};
    const clb_tune_dim dim = {"block", blocks, 5};
    const clb_tune_space space = {&dim, 1, NULL, NULL};
    clb_tune_opts o;
    clb_tune_run run;
    clb_diag d;
    float *x = malloc(sizeof(float) << 20);
    int rc = 1;
    for (int i = 0; x && i < (1 << 20); i++)
        x[i] = (float)(i % 7);
    clb_tune_opts_default(&o);
    if (x && clb_tune_search(&space, sum_blocked, x, &o, &run, &d) == CLB_OK && run.best >= 0) {
        printf("tuned block (%s, %zu points): %d, %.3g s\n", run.strategy, run.ncands,
               run.cands[run.best].point[0], run.cands[run.best].seconds);
        rc = 0;
    }
    clb_tune_run_free(&run);
    free(x);
    return rc;
}

int main(int argc, char **argv)
{
    clb_workload_kind w;
    if (argc < 4 || !clb_workload_parse(argv[1], &w)) {
        fprintf(stderr, "usage: decide stream|gemm|stencil|transfer|latency SIZE RESULTS.json...\n");
        return 2;
    }
    int rc = pick(w, atof(argv[2]), argc - 3, argv + 3);
    return rc ? rc : tune();
}
