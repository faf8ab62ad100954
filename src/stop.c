/* The signals that stop a run (SIGINT, SIGTERM, SIGHUP: a closed terminal or ssh session): caught
 * from the first line of main, before any device is looked at, so a signal at any moment of a
 * run leaves the results finished so far written. Commands that do not honour the flag get the
 * default actions back right after parsing (cli_release_stop_signals). A SIGHUP ignored from
 * the start (nohup) stays ignored: the user asked the run to outlive the terminal. */
#include "cli.h"

#include <signal.h>
#include <string.h>

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

/* The signal that asked the run to stop (0: none). The one piece of global state: a signal
 * handler can reach nothing else. */
static volatile int stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

/* The actions found at the start, put back by cli_release_stop_signals. */
static struct sigaction inherited[NSTOP];

void cli_catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP; i++) {
        sigaction(stop_signals[i], NULL, &inherited[i]);
        if (stop_signals[i] != SIGHUP || inherited[i].sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

void cli_release_stop_signals(void)
{
    for (size_t i = 0; i < NSTOP; i++)
        sigaction(stop_signals[i], &inherited[i], NULL);
    int sig = stop_signal;
    stop_signal = 0;
    if (sig) /* one that came while we were parsing: its own action now (ignored: forgotten) */
        raise(sig);
}

int cli_stop_signal(void) { return stop_signal; }

const volatile int *cli_stop_flag(void) { return &stop_signal; }
