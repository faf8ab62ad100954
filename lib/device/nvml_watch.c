/* NVML readings around every benchmark row (docs/measurement.md "Clocks, throttling"):
 * on NVIDIA GPUs the worker samples SM clock, default and maximum SM clock, temperature, power
 * and the clocks-event (throttle) reasons before and after each row, adds them to the params,
 * and marks an ok result `throttled` when either sample saw a thermal/power reason or an SM
 * clock below the default (base) clock while the GPU was not idle. */
#include "core/internal.h"
#include "device/nvml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clb_nvml_watch {
    clb_nvml *nvml;
    clb_nvml_sample before;
};

/* NVML's nvmlClocksEventReason bits; `counts` marks a thermal or power limit. */
static const struct {
    unsigned long long bit;
    const char *name;
    int counts;
} reason_bits[] = {
    {0x1ull, "gpu_idle", 0},           {0x2ull, "applications_clocks_setting", 0},
    {0x4ull, "sw_power_cap", 1},       {0x8ull, "hw_slowdown", 1},
    {0x10ull, "sync_boost", 0},        {0x20ull, "sw_thermal_slowdown", 1},
    {0x40ull, "hw_thermal_slowdown", 1}, {0x80ull, "hw_power_brake", 1},
    {0x100ull, "display_clock_setting", 0},
};
#define NREASONS (sizeof reason_bits / sizeof reason_bits[0])
#define GPU_IDLE 0x1ull

clb_nvml_watch *clb_nvml_watch_open(clb_device *dev)
{
    char why[256];
    clb_nvml_watch *w = calloc(1, sizeof *w);
    if (w)
        w->nvml = clb_nvml_open(dev, why, sizeof why);
    if (w && w->nvml)
        return w;
    free(w);
    return NULL;
}

void clb_nvml_watch_close(clb_nvml_watch *w)
{
    if (!w)
        return;
    clb_nvml_close(w->nvml);
    free(w);
}

void clb_nvml_watch_before(clb_nvml_watch *w)
{
    if (w)
        clb_nvml_sample_read(w->nvml, &w->before);
}

static void add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
}

static cJSON *sample_json(const clb_nvml_sample *s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_num(o, "sm_mhz", s->sm_mhz);
    add_num(o, "default_sm_mhz", s->default_sm_mhz);
    add_num(o, "max_sm_mhz", s->max_sm_mhz);
    add_num(o, "temp_c", s->temp_c);
    add_num(o, "power_w", s->power_w);
    add_num(o, "power_limit_w", s->power_limit_w);
    if (s->have_reasons) {
        char hex[32];
        snprintf(hex, sizeof hex, "0x%llx", s->reasons);
        cJSON_AddStringToObject(o, "reasons_mask", hex);
        cJSON *names = cJSON_AddArrayToObject(o, "reasons");
        for (size_t i = 0; names && i < NREASONS; i++)
            if (s->reasons & reason_bits[i].bit)
                cJSON_AddItemToArray(names, cJSON_CreateString(reason_bits[i].name));
    }
    return o;
}

/* What in s makes a result throttled, appended to out; 1 when anything did. */
static int throttle_cause(const char *when, const clb_nvml_sample *s, char *out, size_t n)
{
    char lim[160] = "", clk[96] = "";
    size_t len = 0;
    for (size_t i = 0; s->have_reasons && i < NREASONS; i++)
        if (reason_bits[i].counts && (s->reasons & reason_bits[i].bit) && len < sizeof lim)
            len += (size_t)snprintf(lim + len, sizeof lim - len, "%s%s", len ? "+" : "",
                                    reason_bits[i].name);
    int idle = s->have_reasons && (s->reasons & GPU_IDLE);
    if (!idle && s->sm_mhz < s->default_sm_mhz) /* false when either is NaN */
        snprintf(clk, sizeof clk, "SM clock %.0f MHz below the default %.0f MHz", s->sm_mhz,
                 s->default_sm_mhz);
    if (!lim[0] && !clk[0])
        return 0;
    char temp[32] = "", power[32] = "";
    if (isfinite(s->temp_c))
        snprintf(temp, sizeof temp, ", %.0f C", s->temp_c);
    if (isfinite(s->power_w))
        snprintf(power, sizeof power, ", %.0f W", s->power_w);
    size_t used = strlen(out);
    snprintf(out + used, n - used, "%s%s: %s%s%s%s%s", used ? "; " : "", when, lim,
             lim[0] && clk[0] ? ", " : "", clk, temp, power);
    return 1;
}

void clb_nvml_watch_after(clb_nvml_watch *w, clb_result *res)
{
    if (!w || !res->params)
        return;
    clb_nvml_sample after;
    clb_nvml_sample_read(w->nvml, &after);
    cJSON_AddItemToObject(res->params, "nvml_before", sample_json(&w->before));
    cJSON_AddItemToObject(res->params, "nvml_after", sample_json(&after));
    cJSON_AddStringToObject(res->params, "nvml_device", clb_nvml_match(w->nvml));
    char why[512] = "";
    int hit = throttle_cause("NVML before", &w->before, why, sizeof why);
    hit |= throttle_cause("NVML after", &after, why, sizeof why);
    if (!hit || res->status != CLB_STATUS_OK)
        return;
    res->status = CLB_STATUS_THROTTLED;
    snprintf(res->reason, sizeof res->reason, "ran at a clock or power limit: %s", why);
}
