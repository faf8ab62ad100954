/* A fake libnvidia-ml for tests/cli_nvml_throttle.sh: the entry points lib/device/nvml.c uses,
 * with readings from the environment (FAKE_NVML_SM_MHZ, FAKE_NVML_DEFAULT_MHZ, FAKE_NVML_MAX_MHZ,
 * FAKE_NVML_TEMP_C, FAKE_NVML_POWER_MW, FAKE_NVML_REASONS as 0x...). FAKE_NVML_OLD=1 makes the
 * newer nvmlDeviceGetCurrentClocksEventReasons fail, as drivers before it do, so the reader
 * must fall back to nvmlDeviceGetCurrentClocksThrottleReasons. */
#include <stdlib.h>
#include <string.h>

enum { OK = 0, NOT_FOUND = 6, FUNCTION_NOT_FOUND = 13 };

static unsigned long long env_num(const char *name, unsigned long long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 0) : dflt;
}

int nvmlInit_v2(void) { return OK; }
int nvmlShutdown(void) { return OK; }

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **dev)
{
    *dev = (void *)0x1;
    return i == 0 ? OK : NOT_FOUND;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
    (void)bus;
    (void)dev;
    return NOT_FOUND;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz)
{
    (void)dev;
    (void)type;
    *mhz = (unsigned)env_num("FAKE_NVML_SM_MHZ", 1500);
    return OK;
}

int nvmlDeviceGetMaxClockInfo(void *dev, int type, unsigned *mhz)
{
    (void)dev;
    (void)type;
    *mhz = (unsigned)env_num("FAKE_NVML_MAX_MHZ", 1900);
    return OK;
}

/* clockId 2: NVML_CLOCK_ID_APP_CLOCK_DEFAULT */
int nvmlDeviceGetClock(void *dev, int type, int id, unsigned *mhz)
{
    (void)dev;
    (void)type;
    *mhz = (unsigned)env_num("FAKE_NVML_DEFAULT_MHZ", 1500);
    return id == 2 ? OK : FUNCTION_NOT_FOUND;
}

int nvmlDeviceGetTemperature(void *dev, int sensor, unsigned *c)
{
    (void)dev;
    (void)sensor;
    *c = (unsigned)env_num("FAKE_NVML_TEMP_C", 55);
    return OK;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw)
{
    (void)dev;
    *mw = (unsigned)env_num("FAKE_NVML_POWER_MW", 250000);
    return OK;
}

int nvmlDeviceGetEnforcedPowerLimit(void *dev, unsigned *mw)
{
    (void)dev;
    *mw = 700000;
    return OK;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *dev, unsigned long long *mask)
{
    (void)dev;
    if (env_num("FAKE_NVML_OLD", 0))
        return FUNCTION_NOT_FOUND;
    *mask = env_num("FAKE_NVML_REASONS", 0);
    return OK;
}

/* The older name: reports bit 0x200 in addition, so the test sees which entry point answered. */
int nvmlDeviceGetCurrentClocksThrottleReasons(void *dev, unsigned long long *mask)
{
    (void)dev;
    *mask = env_num("FAKE_NVML_REASONS", 0) | 0x200ull;
    return OK;
}
