/* libFuzzer harness: the parent's side of the worker protocol (src/worker_line.c) on arbitrary
 * worker output. The first byte picks the benchmark the parent waits for (or none); the rest is
 * split at newlines into lines, as the parent reads them (NUL bytes stay inside a line). Oracle:
 * a result is accepted only for the awaited benchmark and, when measured, with a finite value;
 * a device entry is an object; anything else is refused with a reason that names the line's
 * size and holds no control byte. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const awaited[] = {"launch.roundtrip", "compute.fp32.fma", NULL, "memory.triad"};

static void check_line(const char *line, size_t len, const char *expect)
{
    cJSON *dev = NULL;
    clb_result res;
    char why[600];
    switch (cli_worker_line(line, len, expect, &dev, &res, why, sizeof why)) {
    case CLI_WLINE_RESULT:
        if (!expect || strcmp(res.name, expect) != 0)
            abort(); /* a result for a benchmark that was not running */
        if (clb_status_has_value(res.status) && !isfinite(res.value))
            abort(); /* a measured result without its number */
        if (dev)
            abort();
        clb_result_free(&res);
        break;
    case CLI_WLINE_DEVICE:
        if (!cJSON_IsObject(dev))
            abort();
        cJSON_Delete(dev);
        break;
    case CLI_WLINE_BAD:
        if (dev || !why[0] || !strstr(why, "byte(s)"))
            abort(); /* refused without saying what the line was */
        for (const char *p = why; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                abort(); /* a control byte of the worker's output reached the message */
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *expect = awaited[data[0] % (sizeof awaited / sizeof awaited[0])];
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        char *line = malloc(len + 1); /* the parent hands the parser a terminated copy */
        if (!line)
            return 0;
        memcpy(line, p, len);
        line[len] = '\0';
        check_line(line, len, expect);
        free(line);
        p += len + 1;
    }
    return 0;
}
