/* Small shared helpers: clock, random data, result parameters, JSON numbers. */
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <time.h>

double clb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t clb_rand64(uint64_t *state)
{
    /* xorshift64*: fast, and its output has no pattern a memory compressor could exploit. */
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint64_t clb_fill_random(void *buf, size_t bytes, uint64_t seed)
{
    unsigned char *p = buf;
    uint64_t s = seed;
    while (bytes >= 8) {
        uint64_t v = clb_rand64(&s);
        memcpy(p, &v, 8);
        p += 8;
        bytes -= 8;
    }
    if (bytes) {
        uint64_t v = clb_rand64(&s);
        memcpy(p, &v, bytes);
    }
    return s;
}

cJSON *clb_json_number(cJSON *obj, const char *key, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    if (item && obj) {
        cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
        cJSON_AddItemToObject(obj, key, item);
    }
    return item;
}

static cJSON *params_of(clb_result *res)
{
    if (!res->params)
        res->params = cJSON_CreateObject();
    return res->params;
}

void clb_param_num(clb_result *res, const char *key, double v)
{
    clb_json_number(params_of(res), key, v);
}

void clb_param_str(clb_result *res, const char *key, const char *s)
{
    cJSON *p = params_of(res);
    if (!p)
        return;
    cJSON_DeleteItemFromObjectCaseSensitive(p, key);
    cJSON_AddStringToObject(p, key, s ? s : "");
}

clb_error clb_event_times(cl_event ev, cl_ulong t[4], clb_diag *d)
{
    static const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED,
                                              CL_PROFILING_COMMAND_SUBMIT,
                                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    clb_diag_clear(d);
    for (int i = 0; i < 4; i++)
        CLB_CL(d, clGetEventProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL));
cleanup:
    return d->err;
}

int clb_contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return 0;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}
