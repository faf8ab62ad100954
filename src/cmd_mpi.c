/* clbench run --mpi: a fleet characterized by one MPI job (mpirun, or srun under Slurm). Each
 * rank takes one device: CLBENCH_RANK_DEVICE when set (a selector, as -d), else the selection's
 * device at the rank's node-local index (docs/fleet.md says where the local rank comes from).
 * Each rank runs its device in worker processes, as `run` does; rank 0 writes one JSON document
 * whose device entries carry node, rank and local_rank, receiving one rank's entry at a time and
 * writing it out at once, so its memory does not grow with the number of ranks. Ranks of one
 * node never share a device unnoticed: the job exits 2 before any benchmark when two would,
 * unless --allow-shared-device, which marks their entries and results shared_device. */
#define _GNU_SOURCE /* sched_getaffinity, before any header */
#include "run_engine.h"

#ifdef CLBENCH_HAVE_MPI
#include <mpi.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records the CPUs this rank may run on. Launchers bind ranks (OpenMPI binds to a core when
 * there are at most 2 ranks): a CPU device then runs on that core alone, an 8-16x loss that
 * would read as a slow device, so the rank says so. */
static void note_affinity(cJSON *entry, const clb_device_ref *ref, int rank)
{
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || online <= 0)
        return;
    int allowed = CPU_COUNT(&set);
    cJSON_AddNumberToObject(entry, "cpus_allowed", allowed);
    cJSON_AddNumberToObject(entry, "cpus_online", (double)online);
    if ((ref->type & CL_DEVICE_TYPE_CPU) && allowed < online)
        fprintf(stderr, "clbench: rank %d is bound to %d of %ld CPUs, and its device (%s) is a CPU: it runs "
                        "on those only (mpirun --bind-to none, srun --cpu-bind=none)\n",
                rank, allowed, online, ref->device_name);
}

/* The node-local rank: the launchers' variables first, then MPI-3's shared-memory split. */
static int local_rank(const char **source)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                       "SLURM_LOCALID", "PMI_LOCAL_RANK", "PMIX_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            *source = vars[i];
            return atoi(v);
        }
    }
    MPI_Comm node;
    int r = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &r);
    MPI_Comm_free(&node);
    *source = "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)";
    return r;
}

/* The ranks of one node take turns for the rows that share the host (transfers; launches when
 * a CPU device is among them). The first barrier waits for every rank's concurrent rows; then
 * rank k of the node waits k more, re-runs its shared rows alone and joins the barriers left,
 * so every rank of the node passes node_size + 1 barriers. */
typedef struct node_turns {
    MPI_Comm node;
    int rank, size;
} node_turns;

static void wait_turn(void *arg)
{
    node_turns *t = arg;
    for (int i = 0; i <= t->rank; i++)
        MPI_Barrier(t->node);
}

static void pass_turn(void *arg)
{
    node_turns *t = arg;
    for (int i = t->rank; i < t->size; i++)
        MPI_Barrier(t->node);
}

/* How many ranks of the node (this one included) run on this rank's device, 0 without one;
 * *first: 1 when this rank is the lowest of them (it speaks for them). */
static int ranks_on_my_device(MPI_Comm node, int node_rank, int node_size, const clb_device_ref *ref,
                              int *first)
{
    long key = ref ? (long)ref->platform_index << 32 | (long)ref->device_index : -1;
    long *keys = malloc((size_t)node_size * sizeof *keys);
    int count = 0;
    *first = 1;
    if (!keys) { /* the others would wait for us in the collective below */
        fprintf(stderr, "clbench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_RUNTIME);
    }
    MPI_Allgather(&key, 1, MPI_LONG, keys, 1, MPI_LONG, node);
    for (int i = 0; ref && i < node_size; i++)
        if (keys[i] == key) {
            count++;
            *first &= i >= node_rank;
        }
    free(keys);
    return count;
}

/* Adds the shared_device mark (the number of ranks on the device) to an entry and its results. */
static void mark_shared(cJSON *entry, int ranks)
{
    cJSON *r;
    cJSON_AddNumberToObject(entry, "shared_device", ranks);
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(entry, "results"))
    {
        cJSON *params = cJSON_GetObjectItemCaseSensitive(r, "params");
        if (cJSON_IsObject(params))
            cJSON_AddNumberToObject(params, "shared_device", ranks);
    }
}

/* This rank's device entry with its results, or NULL (the reason is printed); *refused: ranks
 * of some node would share a device without --allow-shared-device (every rank learns it). */
static cJSON *run_rank(const cli_opts *o, int rank, int *failed, int *refused)
{
    cli_opts mine = *o;
    const char *explicit_dev = cli_env_get()->rank_device, *source = "";
    if (explicit_dev && *explicit_dev) {
        mine.sel.device = explicit_dev;
        mine.sel.platform = NULL;
    }
    int local = local_rank(&source);
    clb_inventory *inv = NULL;
    size_t idx[CLI_MAX_DEVICES], n = 0;
    const clb_device_ref *ref = NULL;
    cJSON *entry = NULL;
    if (cli_discover(&mine, &inv, idx, &n) == CLI_EXIT_OK && n > 0)
        ref = clb_inventory_at(inv, idx[(size_t)local % n]);
    /* collective over the node: every rank takes part, with or without a device */
    node_turns t;
    int cpu = ref && (ref->type & CL_DEVICE_TYPE_CPU), any_cpu = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &t.node);
    MPI_Comm_rank(t.node, &t.rank);
    MPI_Comm_size(t.node, &t.size);
    MPI_Allreduce(&cpu, &any_cpu, 1, MPI_INT, MPI_MAX, t.node);
    int first = 1, sharing = ranks_on_my_device(t.node, t.rank, t.size, ref, &first);
    int shared = sharing > 1, any_shared = 0;
    MPI_Allreduce(&shared, &any_shared, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_shared && !o->allow_shared_device) {
        char node[MPI_MAX_PROCESSOR_NAME];
        int len = 0;
        MPI_Get_processor_name(node, &len);
        if (shared && first)
            fprintf(stderr, "clbench: %d ranks of node %s would share one device, %u:%u (%s): %d rank(s) on "
                            "the node, %zu device(s) selected. Start fewer ranks per node, select more "
                            "devices (-d, --type, CLBENCH_RANK_DEVICE), or pass --allow-shared-device "
                            "to measure them sharing it (the results are marked shared_device)\n",
                    sharing, node, ref->platform_index, ref->device_index, ref->device_name, t.size, n);
        *refused = 1;
        MPI_Comm_free(&t.node);
        clb_inventory_destroy(inv);
        return NULL;
    }
    cli_shared_host host = {(size_t)t.size, any_cpu, wait_turn, pass_turn, &t};
    if (ref) {
        entry = cli_run_one_device_shared(&mine, ref, t.size > 1 ? &host : NULL, failed);
        char node[MPI_MAX_PROCESSOR_NAME];
        int len = 0;
        MPI_Get_processor_name(node, &len);
        cJSON_AddStringToObject(entry, "node", node);
        cJSON_AddNumberToObject(entry, "rank", rank);
        cJSON_AddNumberToObject(entry, "local_rank", local);
        cJSON_AddStringToObject(entry, "local_rank_from",
                                explicit_dev && *explicit_dev ? "CLBENCH_RANK_DEVICE" : source);
        note_affinity(entry, ref, rank);
        if (shared)
            mark_shared(entry, sharing);
    } else {
        *failed = 1;
        wait_turn(&t); /* the node's other ranks still count this rank's barriers */
        pass_turn(&t);
    }
    MPI_Comm_free(&t.node);
    clb_inventory_destroy(inv);
    return entry;
}

/* Rank 0: the document's head, then each rank's entry as it arrives, then the tail. */
static int gather_and_write(const cli_opts *o, char *own, int size, clb_diag *d)
{
    cJSON *doc = clb_doc_create(o->argc, o->argv);
    char *head = doc ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    clb_output *out = NULL;
    FILE *f = NULL;
    int ok = head && clb_output_open(o->json, &out, &f, d) == CLB_OK;
    /* head ends in `"devices":[]}`: write it without the last two characters, then entries */
    size_t hl = head ? strlen(head) : 0;
    ok = ok && hl > 2 && fwrite(head, 1, hl - 2, f) == hl - 2;
    for (int r = 0; r < size; r++) {
        char *text = own;
        unsigned long len = 0;
        if (r > 0) {
            MPI_Recv(&len, 1, MPI_UNSIGNED_LONG, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            text = malloc(len + 1);
            MPI_Recv(text, (int)len, MPI_CHAR, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            text[len] = '\0';
        }
        if (ok && *text)
            ok = fprintf(f, "%s%s", r > 0 ? "," : "", text) > 0;
        if (r > 0)
            free(text);
    }
    ok = ok && fputs("]}\n", f) != EOF;
    if (out)
        clb_output_close(out, ok, d);
    free(head);
    return ok && d->err == CLB_OK;
}

int cmd_run_mpi(const cli_opts *o)
{
    if (!o->json) {
        fprintf(stderr, "clbench: run --mpi needs --json FILE (rank 0 writes the fleet's results)\n");
        return CLI_EXIT_USAGE;
    }
    MPI_Init(NULL, NULL);
    int rank = 0, size = 1, failed = 0, any_failed = 0, rc = CLI_EXIT_OK, refused = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cJSON *entry = run_rank(o, rank, &failed, &refused);
    if (refused) { /* every rank knows: nothing was measured, nothing is written */
        MPI_Finalize();
        return CLI_EXIT_USAGE;
    }
    char *text = entry ? cJSON_PrintUnformatted(entry) : NULL;
    cJSON_Delete(entry);
    if (!text)
        text = calloc(1, 1); /* a rank without a device sends nothing: no entry */
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        clb_diag d;
        clb_diag_clear(&d);
        if (!gather_and_write(o, text, size, &d)) {
            fprintf(stderr, "clbench: writing %s: %s\n", o->json, d.msg);
            rc = CLI_EXIT_RUNTIME;
        } else if (o->html || o->csv || o->markdown) {
            cJSON *doc = clb_doc_load(o->json, &d);
            rc = doc ? cli_write_reports(o, doc, o->json) : CLI_EXIT_RUNTIME;
            cJSON_Delete(doc);
        }
        if (rc == CLI_EXIT_OK && o->store_set) /* the file as written, byte for byte */
            rc = cli_store_file(o, o->json);
        if (rc == CLI_EXIT_OK)
            fprintf(stderr, "clbench: %d rank(s); results of every rank in %s\n", size, o->json);
    } else {
        unsigned long len = strlen(text);
        MPI_Send(&len, 1, MPI_UNSIGNED_LONG, 0, 0, MPI_COMM_WORLD);
        MPI_Send(text, (int)len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
    free(text);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc != CLI_EXIT_OK ? rc : any_failed && o->strict ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

#else

int cmd_run_mpi(const cli_opts *o)
{
    (void)o;
    fprintf(stderr, "clbench: this clbench was built without MPI; configure with "
                    "cmake -DCLBENCH_MPI=ON (OpenMPI: apt-get install libopenmpi-dev)\n");
    return CLI_EXIT_USAGE;
}

#endif
