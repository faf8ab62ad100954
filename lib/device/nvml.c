/* NVML through dlopen: the few entry points clbench needs, declared here. */
#include "device/nvml.h"

#include "core/internal.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *nvml_dev;
struct clb_nvml {
    void *lib;
    nvml_dev dev;
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_index)(unsigned, nvml_dev *);
    int (*by_bus)(const char *, nvml_dev *);
    int (*clock)(nvml_dev, int, unsigned *);
    int (*max_clock)(nvml_dev, int, unsigned *);
    int (*temp)(nvml_dev, int, unsigned *);
    int (*power)(nvml_dev, unsigned *);
    int (*power_limit)(nvml_dev, unsigned *);
    int (*reasons_new)(nvml_dev, unsigned long long *); /* ...ClocksEventReasons (newer drivers) */
    int (*reasons_old)(nvml_dev, unsigned long long *); /* ...ClocksThrottleReasons */
    int (*clock_id)(nvml_dev, int, int, unsigned *);
    int (*default_app)(nvml_dev, int, unsigned *);
    int inited;
    char match[96];
};

enum { NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0, NVML_CLOCK_ID_APP_CLOCK_DEFAULT = 2 };
#define CLB_DEVICE_PCI_BUS_ID_NV 0x4008
#define CLB_DEVICE_PCI_SLOT_ID_NV 0x4009
#define CLB_DEVICE_PCI_DOMAIN_ID_NV 0x400A

/* POSIX dlsym returns an object pointer; converting it to a function pointer goes through
 * memcpy so that -Wpedantic builds stay quiet. */
static void sym(void *lib, const char *name, void *fn_ptr, size_t size)
{
    void *p = dlsym(lib, name);
    memcpy(fn_ptr, &p, size);
}

static cl_uint nv_attr(cl_device_id id, cl_device_info what)
{
    cl_uint v = 0;
    return clGetDeviceInfo(id, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0xffffffffu;
}

/* clb_settings.nvml_library (CLBENCH_NVML_LIBRARY, docs/cli.md) names another library, e.g. the tests' fake NVML. */
static const char *lib_name(void)
{
    const char *env = clb_settings_get()->nvml_library;
    return env && *env ? env : "libnvidia-ml.so.1";
}

static void load_watch_syms(clb_nvml *m)
{
    sym(m->lib, "nvmlDeviceGetEnforcedPowerLimit", &m->power_limit, sizeof m->power_limit);
    sym(m->lib, "nvmlDeviceGetCurrentClocksEventReasons", &m->reasons_new, sizeof m->reasons_new);
    sym(m->lib, "nvmlDeviceGetCurrentClocksThrottleReasons", &m->reasons_old,
        sizeof m->reasons_old);
    sym(m->lib, "nvmlDeviceGetClock", &m->clock_id, sizeof m->clock_id);
    sym(m->lib, "nvmlDeviceGetDefaultApplicationsClock", &m->default_app, sizeof m->default_app);
}

static int load(clb_nvml *m)
{
    m->lib = dlopen(lib_name(), RTLD_NOW | RTLD_LOCAL);
    if (!m->lib)
        return -1;
    sym(m->lib, "nvmlInit_v2", &m->init, sizeof m->init);
    sym(m->lib, "nvmlShutdown", &m->shutdown, sizeof m->shutdown);
    sym(m->lib, "nvmlDeviceGetHandleByIndex_v2", &m->by_index, sizeof m->by_index);
    sym(m->lib, "nvmlDeviceGetHandleByPciBusId_v2", &m->by_bus, sizeof m->by_bus);
    sym(m->lib, "nvmlDeviceGetClockInfo", &m->clock, sizeof m->clock);
    sym(m->lib, "nvmlDeviceGetMaxClockInfo", &m->max_clock, sizeof m->max_clock);
    sym(m->lib, "nvmlDeviceGetTemperature", &m->temp, sizeof m->temp);
    sym(m->lib, "nvmlDeviceGetPowerUsage", &m->power, sizeof m->power);
    load_watch_syms(m);
    m->inited = m->init && m->shutdown && m->init() == 0;
    return m->inited ? 0 : -1;
}

/* The OpenCL device's NVML handle: by PCI bus id when the NV attributes give it, else index 0. */
static int find_device(clb_nvml *m, cl_device_id id)
{
    cl_uint bus = nv_attr(id, CLB_DEVICE_PCI_BUS_ID_NV), slot = nv_attr(id, CLB_DEVICE_PCI_SLOT_ID_NV),
            dom = nv_attr(id, CLB_DEVICE_PCI_DOMAIN_ID_NV);
    char busid[64];
    /* The slot attribute is the PCI device number: an H100 and an H200 at 0000:00:06.0 both
     * report bus 0, slot 6 (function 0 assumed; the packed device << 3 | function reading
     * found no device there). */
    snprintf(busid, sizeof busid, "%08x:%02x:%02x.0", dom == 0xffffffffu ? 0 : dom, bus & 0xffu,
             slot & 0xffu);
    if (bus != 0xffffffffu && slot != 0xffffffffu && m->by_bus && m->by_bus(busid, &m->dev) == 0) {
        snprintf(m->match, sizeof m->match, "NVML by PCI bus id %s", busid);
        return 0;
    }
    if (m->by_index && m->by_index(0, &m->dev) == 0) {
        snprintf(m->match, sizeof m->match, "NVML device index 0 (PCI bus id not available)");
        return 0;
    }
    return -1;
}

clb_nvml *clb_nvml_open(clb_device *dev, char *why, size_t why_n)
{
    clb_nvml *m = NULL;
    const char *fail = NULL;
    if (!clb_device_is_nvidia(dev))
        fail = "not an NVIDIA device (CL_DEVICE_VENDOR_ID is not 0x10de)";
    else if (!(m = calloc(1, sizeof *m)))
        fail = "out of memory";
    else if (load(m) != 0)
        fail = m->lib ? "nvmlInit_v2 failed"
                      : "libnvidia-ml.so.1 (or $CLBENCH_NVML_LIBRARY) not loadable";
    else if (find_device(m, clb_device_reference(dev)->device) != 0)
        fail = "no NVML device matches the OpenCL device";
    if (fail) {
        snprintf(why, why_n, "no NVML: %s", fail);
        clb_nvml_close(m);
        return NULL;
    }
    return m;
}

void clb_nvml_close(clb_nvml *m)
{
    if (!m)
        return;
    if (m->inited)
        m->shutdown();
    if (m->lib)
        dlclose(m->lib);
    free(m);
}

const char *clb_nvml_match(const clb_nvml *m)
{
    return m ? m->match : "no NVML";
}

int clb_nvml_sm_clock(const clb_nvml *m, double *cur_mhz, double *max_mhz)
{
    unsigned v = 0;
    *cur_mhz = *max_mhz = NAN;
    if (!m)
        return -1;
    if (m->clock && m->clock(m->dev, NVML_CLOCK_SM, &v) == 0)
        *cur_mhz = v;
    if (m->max_clock && m->max_clock(m->dev, NVML_CLOCK_SM, &v) == 0)
        *max_mhz = v;
    return isfinite(*cur_mhz) && isfinite(*max_mhz) ? 0 : -1;
}

void clb_nvml_read(const clb_nvml *m, double *mhz, double *temp_c, double *watts)
{
    unsigned v = 0;
    *mhz = *temp_c = *watts = NAN;
    if (!m)
        return;
    if (m->clock && m->clock(m->dev, NVML_CLOCK_SM, &v) == 0)
        *mhz = v;
    if (m->temp && m->temp(m->dev, NVML_TEMPERATURE_GPU, &v) == 0)
        *temp_c = v;
    if (m->power && m->power(m->dev, &v) == 0)
        *watts = 1e-3 * v;
}

/* The default (base) SM clock: the default applications clock, by either entry point. */
static double default_sm_clock(const clb_nvml *m)
{
    unsigned v = 0;
    if (m->clock_id && m->clock_id(m->dev, NVML_CLOCK_SM, NVML_CLOCK_ID_APP_CLOCK_DEFAULT, &v) == 0)
        return v;
    if (m->default_app && m->default_app(m->dev, NVML_CLOCK_SM, &v) == 0)
        return v;
    return NAN;
}

/* The clock-event (throttle) reasons, newer name first; 0 when read. */
static int read_reasons(const clb_nvml *m, unsigned long long *mask)
{
    if (m->reasons_new && m->reasons_new(m->dev, mask) == 0)
        return 0;
    if (m->reasons_old && m->reasons_old(m->dev, mask) == 0)
        return 0;
    return -1;
}

void clb_nvml_sample_read(const clb_nvml *m, clb_nvml_sample *s)
{
    unsigned v = 0;
    memset(s, 0, sizeof *s);
    clb_nvml_read(m, &s->sm_mhz, &s->temp_c, &s->power_w);
    s->max_sm_mhz = s->default_sm_mhz = s->power_limit_w = NAN;
    if (!m)
        return;
    if (m->max_clock && m->max_clock(m->dev, NVML_CLOCK_SM, &v) == 0)
        s->max_sm_mhz = v;
    if (m->power_limit && m->power_limit(m->dev, &v) == 0)
        s->power_limit_w = 1e-3 * v;
    s->default_sm_mhz = default_sm_clock(m);
    s->have_reasons = read_reasons(m, &s->reasons) == 0;
}
