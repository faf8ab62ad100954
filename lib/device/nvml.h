/* NVML, loaded with dlopen at run time (no NVML headers or library needed to build): the SM
 * clock, temperature and power of the NVIDIA GPU behind an OpenCL device. Everything is
 * optional: without the library, or for a device that is not NVIDIA's, open returns NULL and
 * says why. */
#ifndef CLB_NVML_H
#define CLB_NVML_H

#include "clbench.h"

typedef struct clb_nvml clb_nvml;

/* Opens NVML for dev when it is an NVIDIA device (clb_device_is_nvidia), matched by PCI bus id
 * (CL_DEVICE_PCI_BUS_ID_NV, _SLOT_ID_NV, _DOMAIN_ID_NV) when the driver gives it, else NVML
 * device index 0. NULL with the reason in why. */
clb_nvml *clb_nvml_open(clb_device *dev, char *why, size_t why_n);
void clb_nvml_close(clb_nvml *m); /* accepts NULL */
/* How the device was matched, e.g. "NVML by PCI bus id 00000000:19:00.0" (static per m). */
const char *clb_nvml_match(const clb_nvml *m);
/* Current and maximum SM clock in MHz (NaN where unreadable); 0 when both were read. */
int clb_nvml_sm_clock(const clb_nvml *m, double *cur_mhz, double *max_mhz);
/* Current SM clock (MHz), GPU temperature (C), power (W); NaN where unreadable. */
void clb_nvml_read(const clb_nvml *m, double *mhz, double *temp_c, double *watts);

/* One reading for the throttling check around each benchmark (nvml_watch.c); NaN where
 * unreadable, reasons valid when have_reasons (NVML's clocks-event-reason bitmask). */
typedef struct clb_nvml_sample {
    double sm_mhz, max_sm_mhz, default_sm_mhz, temp_c, power_w, power_limit_w;
    unsigned long long reasons;
    int have_reasons;
} clb_nvml_sample;
void clb_nvml_sample_read(const clb_nvml *m, clb_nvml_sample *s);

/* NVML readings around each row on NVIDIA GPUs (lib/device/nvml_watch.c): open once per worker
 * (NULL, and nothing changes, without NVML or on other devices), sample before a row, and after it add params nvml_before /
 * nvml_after and mark an ok result throttled at a thermal/power limit or below the base clock.
 * All accept NULL. */
typedef struct clb_nvml_watch clb_nvml_watch;
clb_nvml_watch *clb_nvml_watch_open(clb_device *dev);
void clb_nvml_watch_before(clb_nvml_watch *w);
void clb_nvml_watch_after(clb_nvml_watch *w, clb_result *res);
void clb_nvml_watch_close(clb_nvml_watch *w);

#endif
