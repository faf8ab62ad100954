/* libFuzzer harness: the command-line parser (src/cli.c) on arbitrary argument vectors; the
 * input is split at NUL and newline bytes into argv[1..]. Every input must end in an exit code,
 * never a crash. Output of the parser (usage, messages) goes to /dev/null. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char *argv[66];
    int argc = 0;
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = "clbench";
    char *p = buf;
    for (size_t i = 0; i <= size && argc < 64; i++) {
        if (buf[i] == '\n' || buf[i] == '\0') {
            buf[i] = '\0';
            argv[argc++] = p;
            p = buf + i + 1;
        }
    }
    argv[argc] = NULL;
    static FILE *null_out;
    if (!null_out && (null_out = fopen("/dev/null", "w")) != NULL) {
        stdout = null_out; /* usage text and --version go nowhere */
        stderr = null_out;
    }
    cli_opts o;
    extern int optind;
    optind = 0; /* getopt keeps state between calls: restart it (GNU: 0 re-initializes) */
    cli_parse(argc, argv, &o);
    free(buf);
    return 0;
}
