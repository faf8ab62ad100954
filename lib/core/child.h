/* Worker processes of the tool (lib/core/child.c); private to the library and the tool. */
#ifndef CLB_CHILD_H
#define CLB_CHILD_H

#include "clbench.h"

/* A worker process whose standard output is a stream of JSON documents, one per line; the
 * parent never opens an OpenCL context itself, so a driver crash or hang in the worker
 * becomes a status. Caller frees with clb_child_destroy (kills a worker still running). */
typedef struct clb_child clb_child;
typedef enum clb_child_event {
    CLB_CHILD_LINE,    /* *line holds the next line (caller frees with free) */
    CLB_CHILD_ENDED,   /* the worker closed its output and was reaped */
    CLB_CHILD_TIMEOUT, /* no line within the deadline: the worker was killed */
    CLB_CHILD_STOPPED  /* *stop became non-zero (a signal handler): nothing was killed */
} clb_child_event;
/* The longest line a worker may send (a result with all its samples and curves is far below):
 * a longer one gets the worker killed and the end described as such. */
#define CLB_CHILD_LINE_MAX (16 << 20)
/* Starts argv[0] (a path) with argv and the current environment, plus CLBENCH_PARENT_PID. */
clb_error clb_child_start(char *const argv[], clb_child **out, clb_diag *d);
/* Waits up to timeout_s for the next line, checking *stop (may be NULL) at least every second. */
clb_child_event clb_child_next_line(clb_child *c, double timeout_s, const volatile int *stop,
                                    char **line);
/* The length of the line last returned by clb_child_next_line (it may hold NUL bytes). */
size_t clb_child_line_length(const clb_child *c);
/* Kills the worker (SIGKILL) and reaps it; accepts NULL. */
void clb_child_kill(clb_child *c);
/* Once the worker ended: writes how into buf and returns the signal that killed it (0: it
 * exited; -1: killed by clb_child_next_line after its deadline). */
int clb_child_describe_end(clb_child *c, char *buf, size_t n);
void clb_child_destroy(clb_child *c);
/* clb_child_start tells its child the parent's pid in this environment variable. */
#define CLB_CHILD_PARENT_VAR "CLBENCH_PARENT_PID"
/* In a child, first thing, with the value of CLB_CHILD_PARENT_VAR (the caller reads it and
 * removes it, so that the child's own children get theirs): when not NULL, the process is
 * killed when its parent dies (PR_SET_PDEATHSIG). Returns -1 when the parent is already not
 * the process that started us (the child must exit), else 0. */
int clb_child_bind_to_parent(const char *parent_pid);

#endif
