/* Child processes that return their results as lines of JSON (clbench.h, "child processes").
 * The parent spawns a worker with posix_spawn (no fork of a process that may hold driver
 * threads), reads one JSON document per line from a pipe with a deadline, and learns how the
 * worker ended: exit code, signal, or killed by us after the deadline. A worker never outlives
 * the parent: it learns the parent's pid from CLBENCH_PARENT_PID and binds its life to it
 * (clb_child_bind_to_parent). A line longer than CLB_CHILD_LINE_MAX costs the worker its life. */
#include "core/grow.h"
#include "core/internal.h"
#include "core/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct clb_child {
    pid_t pid;
    int fd;          /* read end of the worker's stdout; -1 after EOF */
    char *buf;       /* bytes read but not yet returned as a line */
    size_t len, cap;
    int reaped;
    int status;      /* waitpid status once reaped */
    int killed;      /* 1 when we killed it after a deadline */
    int overlong;    /* 1 when we killed it for a line longer than CLB_CHILD_LINE_MAX */
    size_t torn;     /* bytes of an unfinished last line, dropped at its end */
    size_t line_len; /* length of the last line returned */
};

#define PARENT_VAR CLB_CHILD_PARENT_VAR

/* The environment of a child: ours, with PARENT_VAR=<our pid> in place of any inherited one.
 * One allocation (the pointers, then the variable's text); NULL when out of memory. */
static char **child_environ(void)
{
    size_t n = 0, plen = strlen(PARENT_VAR);
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof *env + 48);
    if (!env)
        return NULL;
    char *var = (char *)(env + n + 2);
    snprintf(var, 48, "%s=%ld", PARENT_VAR, (long)getpid());
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], PARENT_VAR, plen) != 0 || environ[i][plen] != '=')
            env[k++] = environ[i];
    env[k++] = var;
    env[k] = NULL;
    return env;
}

int clb_child_bind_to_parent(const char *v)
{
    if (!v)
        return 0;
    char *end = NULL;
    long want = strtol(v, &end, 10);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
        return -1;
    /* The parent may have died before the line above: then we were re-parented already, and
     * no death signal will come. */
    if (!end || *end || want <= 0 || getppid() != (pid_t)want)
        return -1;
    return 0;
}

clb_error clb_child_start(char *const argv[], clb_child **out, clb_diag *d)
{
    clb_diag_clear(d);
    *out = NULL;
    int p[2] = {-1, -1};
    clb_child *c = calloc(1, sizeof *c);
    posix_spawn_file_actions_t fa;
    int fa_ok = 0;
    if (!c || pipe(p) != 0)
        CLB_FAIL(d, CLB_ERR_NOMEM, "cannot create a pipe for a worker: %s", strerror(errno));
    if (posix_spawn_file_actions_init(&fa) != 0)
        CLB_FAIL(d, CLB_ERR_NOMEM, "posix_spawn_file_actions_init failed");
    fa_ok = 1;
    posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    posix_spawn_file_actions_addclose(&fa, p[1]);
    char **env = child_environ();
    int rc = env ? posix_spawn(&c->pid, argv[0], &fa, NULL, argv, env) : ENOMEM;
    free(env);
    if (rc != 0)
        CLB_FAIL(d, CLB_ERR_IO, "cannot start worker %s: %s", argv[0], strerror(rc));
    close(p[1]);
    p[1] = -1;
    c->fd = p[0];
    p[0] = -1;
    *out = c;
    c = NULL;
cleanup:
    if (fa_ok)
        posix_spawn_file_actions_destroy(&fa);
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
    free(c);
    return d->err;
}

/* Moves the first complete line out of c->buf; NULL when there is none yet. */
static char *take_line(clb_child *c)
{
    char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
    if (!nl)
        return NULL;
    size_t n = (size_t)(nl - c->buf);
    char *line = malloc(n + 1);
    if (!line)
        return NULL;
    memcpy(line, c->buf, n);
    line[n] = '\0';
    c->line_len = n;
    memmove(c->buf, nl + 1, c->len - n - 1);
    c->len -= n + 1;
    return line;
}

/* Reads what is available into c->buf; 0 on EOF or error, 1 otherwise. */
static int fill(clb_child *c)
{
    if (!clb_grow_by(&c->buf, 1, c->len, 65536, &c->cap))
        return 0;
    ssize_t r = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (r < 0 && errno == EINTR)
        return 1;
    if (r <= 0) {
        close(c->fd);
        c->fd = -1;
        return 0;
    }
    c->len += (size_t)r;
    return 1;
}

static void reap(clb_child *c, int block)
{
    if (c->reaped)
        return;
    pid_t r;
    do
        r = waitpid(c->pid, &c->status, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == c->pid || (r < 0 && errno == ECHILD))
        c->reaped = 1;
}

size_t clb_child_line_length(const clb_child *c) { return c->line_len; }

void clb_child_kill(clb_child *c)
{
    if (!c || c->reaped)
        return;
    kill(c->pid, SIGKILL);
    c->killed = 1;
    reap(c, 1);
}

clb_child_event clb_child_next_line(clb_child *c, double timeout_s, const volatile int *stop,
                                    char **line)
{
    *line = NULL;
    double deadline = clb_now() + timeout_s;
    for (;;) {
        if ((*line = take_line(c)) != NULL)
            return CLB_CHILD_LINE;
        if (stop && *stop)
            return CLB_CHILD_STOPPED;
        if (c->fd < 0) {
            reap(c, 1);
            return CLB_CHILD_ENDED;
        }
        double left = deadline - clb_now();
        if (left <= 0) {
            clb_child_kill(c);
            return CLB_CHILD_TIMEOUT;
        }
        if (c->len >= CLB_CHILD_LINE_MAX) { /* no newline in the buffer (take_line above) */
            c->overlong = 1;
            clb_child_kill(c);
            close(c->fd);
            c->fd = -1;
            c->len = 0;
            return CLB_CHILD_ENDED;
        }
        struct pollfd pf = {c->fd, POLLIN, 0};
        int ms = left > 1.0 ? 1000 : (int)(left * 1000.0) + 1; /* wake up to check *stop */
        int r = poll(&pf, 1, ms);
        if (r > 0 && !fill(c) && c->len && c->buf[c->len - 1] != '\n') {
            /* A last line without its newline is a torn write of a dying worker: drop it. */
            c->torn = c->len;
            c->len = 0;
        }
    }
}

int clb_child_describe_end(clb_child *c, char *buf, size_t n)
{
    reap(c, 1);
    char torn[96] = "";
    if (c->torn)
        snprintf(torn, sizeof torn, ", leaving an unfinished line of %zu byte(s)", c->torn);
    int ret = 0;
    if (c->overlong)
        snprintf(buf, n, "worker killed: it sent a line longer than %d MiB", CLB_CHILD_LINE_MAX >> 20);
    else if (c->killed) {
        snprintf(buf, n, "killed after its deadline%s", torn);
        ret = -1;
    } else if (WIFSIGNALED(c->status)) {
        ret = WTERMSIG(c->status);
        snprintf(buf, n, "worker killed by signal %d (%s)%s", ret, strsignal(ret), torn);
    } else if (WIFEXITED(c->status))
        snprintf(buf, n, "worker exited with code %d%s", WEXITSTATUS(c->status), torn);
    else
        snprintf(buf, n, "worker ended in an unknown way%s", torn);
    return ret;
}

void clb_child_destroy(clb_child *c)
{
    if (!c)
        return;
    if (!c->reaped) {
        if (c->fd >= 0) {
            close(c->fd);
            c->fd = -1;
        }
        reap(c, 0);
        if (!c->reaped)
            clb_child_kill(c);
    }
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
    free(c);
}
