/* The parent's side of the worker protocol: what one line from a worker is. A worker writes
 * only JSON lines on its protocol stream (its stdout; the driver's own chatter goes to stderr,
 * src/cmd_worker.c): the device entry when asked, then one result per benchmark, in the order
 * asked. Anything else means the worker cannot be trusted: the caller kills it and the
 * benchmark it was running fails with the reason written here. */
#include "cli.h"

#include <math.h>
#include <string.h>

/* The first bytes of a line for a message: printable ASCII as is, everything else \xNN. */
static void preview(const char *line, size_t len, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < len && i < 40 && k + 5 < n; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[k++] = (char)c;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", c);
    }
    snprintf(out + k, n - k, "%s", len > 40 ? "..." : "");
}

/* The status named s, or -1 when there is none of that name. */
static int status_named(const char *s)
{
    for (int i = 0; i < CLB_STATUS_COUNT_; i++)
        if (strcmp(s, clb_status_name((clb_status)i)) == 0)
            return i;
    return -1;
}

/* Why j is no acceptable result for `expect`, or NULL when it is one. */
static const char *result_problem(const cJSON *j, const char *expect)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(j, "value");
    if (!cJSON_IsString(name) || !cJSON_IsString(status) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "group")))
        return "JSON that is neither a result nor a device entry";
    if (!expect)
        return "a result nobody asked for";
    if (strcmp(name->valuestring, expect) != 0)
        return "a result for another benchmark";
    int st = status_named(status->valuestring);
    if (st < 0)
        return "a result with an unknown status";
    if (clb_status_has_value((clb_status)st) && !(cJSON_IsNumber(value) && isfinite(value->valuedouble)))
        return "a measured result without a finite value";
    return NULL;
}

cli_wline cli_worker_line(const char *line, size_t len, const char *expect, cJSON **device,
                          clb_result *res, char *why, size_t n)
{
    *device = NULL;
    why[0] = '\0';
    const char *end = NULL;
    cJSON *j = len ? cJSON_ParseWithLengthOpts(line, len, &end, 0) : NULL;
    const char *problem = NULL;
    cli_wline kind = CLI_WLINE_BAD;
    if (!len)
        problem = "an empty line";
    else if (!j || end != line + len)
        problem = "a line that is not one JSON document";
    else if (!cJSON_IsObject(j))
        problem = "JSON that is neither a result nor a device entry";
    else if (cJSON_GetArraySize(j) == 1 && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "device"))) {
        *device = cJSON_DetachItemFromObjectCaseSensitive(j, "device");
        kind = CLI_WLINE_DEVICE;
    } else if (!(problem = result_problem(j, expect))) {
        if (clb_result_from_json(j, res) == CLB_OK)
            kind = CLI_WLINE_RESULT;
        else {
            clb_result_free(res);
            problem = "a result that could not be read (out of memory)";
        }
    }
    if (problem) {
        char p[200];
        preview(line, len, p, sizeof p);
        snprintf(why, n, "%s (%zu byte(s): \"%s\")", problem, len, p);
    }
    cJSON_Delete(j);
    return kind;
}
