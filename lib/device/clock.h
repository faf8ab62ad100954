/* The clock cycle figures are converted with, and the clock the CPU limits use: measured on
 * CPU devices (a dependent imul chain, cross-checked with cpufreq), read from NVML on NVIDIA
 * GPUs, CL_DEVICE_MAX_CLOCK_FREQUENCY on other GPUs. docs/measurement.md describes it. */
#ifndef CLB_CLOCK_H
#define CLB_CLOCK_H

#include "clbench.h"

typedef struct clb_clock {
    double mhz;      /* for cycle figures (the clock one busy core / the GPU runs at); NaN: unknown */
    double peak_mhz; /* the highest clock seen, for upper limits; NaN: unknown */
    char source[160];
    char detail[512]; /* the cross-checks */
} clb_clock;

/* Measures (CPU) or reads (GPU) the clock of dev now. Never fails: an unknown clock is NaN and
 * source says why. A CPU figure never comes from CL_DEVICE_MAX_CLOCK_FREQUENCY. */
void clb_clock_get(clb_device *dev, clb_clock *ck);

/* The calling thread's clock from `trials` short dependent imul chains (3 cycles each on x86-64
 * since Nehalem and Zen), the fastest trial: NaN off x86-64. */
double clb_clock_chain_mhz(int trials);

/* params.clock_mhz, clock_source and clock_detail of res. */
void clb_clock_to_params(clb_result *res, const clb_clock *ck);

#endif
