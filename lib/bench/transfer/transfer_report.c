/* transfer.*: what a result carries besides its headline: configuration, the curve, the
 * latency + bandwidth fit, the seed's 4-byte reference subtraction, zero-copy recognition and
 * the PCIe link with the efficiency (keys documented in docs/schema.md, "transfer.*"). */
#include "bench/transfer/transfer_fit.h"
#include "bench/transfer/transfer.h"

#include <math.h>
#include <string.h>

#ifndef CL_DEVICE_PCI_BUS_INFO_KHR
#define CL_DEVICE_PCI_BUS_INFO_KHR 0x410F
#endif
#define XF_PCI_BUS_ID_NV 0x4008
#define XF_PCI_SLOT_ID_NV 0x4009
#define XF_PCI_DOMAIN_ID_NV 0x400A

static const char *const dir_names[] = {"h2d", "d2h", "d2d", "bidirectional"};
static const char *const host_names[] = {
    "pageable (malloc, 64-byte aligned)", "pageable, deliberately unaligned (64-byte aligned + 1)",
    "pinned (CL_MEM_ALLOC_HOST_PTR buffer mapped once, its pointer used by read/write)",
    ("CL_MEM_USE_HOST_PTR buffer over page-aligned memory: map/unmap to synchronize the host "
     "side + clEnqueueCopyBuffer to/from a device buffer"),
    "clEnqueueMapBuffer + clEnqueueUnmapMemObject of a device buffer",
    "none (clEnqueueCopyBuffer between two device buffers)"};

const char *xfer_timer_name(const transfer_variant *v)
{
    if (v->host == XF_MAPPED)
        return "cl_event_profiling START->END of map + unmap, summed";
    if (v->host == XF_USE_HOST_PTR)
        return "cl_event_profiling START->END of map + unmap + copy, summed";
    if (v->dir == XF_BIDIR)
        return "cl_event_profiling first START->last END over both queues";
    return "cl_event_profiling START->END of the transfer command";
}

static cJSON *curve(const xfer_sweep *sw, const double *t, int as_time, const char *label)
{
    cJSON *c = clb_curve_new(sw->bidirectional ? "bytes moved (both directions)" : "transfer size", "B",
                             as_time ? "time" : "bandwidth", as_time ? "us" : "GB/s", 1, label);
    cJSON *pts = clb_curve_points(c);
    for (size_t i = 0; pts && i < sw->n; i++)
        clb_curve_push(pts, sw->bytes[i], as_time ? 1e6 * t[i] : sw->bytes[i] / t[i] / 1e9);
    return c;
}

static void add_curves(const xfer_sweep *sw, int as_time, clb_result *res)
{
    cJSON *both = cJSON_CreateArray();
    cJSON_AddItemToArray(both, curve(sw, sw->ev_med, as_time, "profiling event"));
    cJSON_AddItemToArray(both, curve(sw, sw->wall_med, as_time, "wall clock"));
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "curve");
    cJSON_AddItemToObject(res->params, "curve", curve(sw, sw->ev_med, as_time, NULL));
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "curves");
    cJSON_AddItemToObject(res->params, "curves", both);
}

static void add_fit(const xfer_sweep *sw, int zero_copy, clb_result *res)
{
    clb_linfit f;
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "fit");
    if (zero_copy || clb_fit_latency_bandwidth(sw->bytes, sw->ev_med, sw->n, &f) != 0) {
        cJSON_AddNullToObject(res->params, "fit");
        clb_param_str(res, "fit_reason", zero_copy ? "zero-copy: no data moves, no bandwidth to fit"
                                                   : "the time does not grow with the size");
        return;
    }
    cJSON *o = cJSON_CreateObject();
    clb_json_number(o, "latency_us", 1e6 * f.latency_s);
    clb_json_number(o, "bandwidth_gbps", f.bandwidth_Bps / 1e9);
    clb_json_number(o, "rel_rms", f.rel_rms);
    cJSON_AddBoolToObject(o, "latency_clamped", f.clamped);
    clb_json_number(o, "points", (double)f.n);
    cJSON_AddStringToObject(o, "method",
                            "time = latency + bytes / bandwidth; weighted least squares (weights "
                            "1/t^2: relative residuals) over the median profiling time per size");
    cJSON_AddItemToObject(res->params, "fit", o);
}

static void add_reference(const xfer_sweep *sw, int zero_copy, clb_result *res)
{
    size_t last = sw->n - 1;
    double bw = clb_reference_bandwidth(sw->bytes[last], sw->ev_med[last], sw->ev_med[0]);
    bw = zero_copy ? -1 : bw; /* no data moves: no bandwidth to derive */
    cJSON *o = cJSON_CreateObject();
    clb_json_number(o, "ref_bytes", sw->bytes[0]);
    clb_json_number(o, "ref_time_us", 1e6 * sw->ev_med[0]);
    clb_json_number(o, "bytes", sw->bytes[last]);
    clb_json_number(o, "time_us", 1e6 * sw->ev_med[last]);
    clb_json_number(o, "bandwidth_gbps", bw > 0 ? bw / 1e9 : NAN);
    cJSON_AddStringToObject(o, "method", "bytes / (t(bytes) - t(4 B)), seed 000 section 4.3.3");
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "reference_4b");
    cJSON_AddItemToObject(res->params, "reference_4b", o);
}

/* 1 when the query succeeded (optional properties: a refusal is an answer, not an error). */
static int query(cl_device_id id, cl_device_info what, void *out, size_t n)
{
    clb_diag d;
    clb_diag_clear(&d);
    CLB_CL(&d, clGetDeviceInfo(id, what, n, out, NULL));
cleanup:
    return d.err == CLB_OK;
}

/* Map/unmap: zero-copy when the time does not grow with size (measured). The device's
 * CL_DEVICE_HOST_UNIFIED_MEMORY is recorded beside it but alone proves nothing: unified
 * devices may still copy on map (misaligned or non-ALLOC_HOST_PTR buffers). */
static int add_zero_copy(clb_ctx *c, const xfer_sweep *sw, clb_result *res)
{
    cl_bool unified = CL_FALSE;
    size_t last = sw->n - 1;
    int zc = clb_time_size_independent(sw->bytes[0], sw->ev_med[0], sw->bytes[last],
                                       sw->ev_med[last]);
    int known = query(clb_device_reference(c->dev)->device, CL_DEVICE_HOST_UNIFIED_MEMORY,
                      &unified, sizeof unified);
    cJSON_AddBoolToObject(res->params, "zero_copy", zc);
    if (known)
        cJSON_AddBoolToObject(res->params, "host_unified_memory", unified == CL_TRUE);
    clb_param_str(res, "note",
                  zc ? (unified ? "zero-copy: map/unmap time does not grow with size and the device "
                                  "reports CL_DEVICE_HOST_UNIFIED_MEMORY; no data moves, so the "
                                  "headline is the map + unmap time at the largest size, not a "
                                  "bandwidth"
                                : "zero-copy: map/unmap time does not grow with size; no data "
                                  "moves, so the headline is the map + unmap time, not a bandwidth")
                     : (unified ? "map/unmap time grows with size although the device reports "
                                  "CL_DEVICE_HOST_UNIFIED_MEMORY: the map copies"
                                : "map/unmap copies: reported as a bandwidth"));
    return zc;
}

int xfer_report(clb_ctx *c, const xfer *x, const xfer_sweep *sw, clb_result *res)
{
    size_t last = sw->n - 1;
    int zc = x->v->host == XF_MAPPED ? add_zero_copy(c, sw, res) : 0;
    clb_param_str(res, "direction", dir_names[x->v->dir]);
    clb_param_str(res, "host_memory", host_names[x->v->host]);
    cJSON_AddBoolToObject(res->params, "blocking", x->v->blocking);
    clb_param_num(res, "host_offset_bytes", x->v->host == XF_UNALIGNED ? 1 : 0);
    clb_param_num(res, "bytes", sw->bytes[last]);
    clb_param_num(res, "sizes", (double)sw->n);
    if (x->headline_only)
        clb_param_str(res, "sweep", "4 B and the largest size only (--largest-only: a concurrent pass)");
    clb_param_num(res, "reps_per_size", sw->nlast);
    clb_param_str(res, "max_bytes_limit", x->max_reason);
    clb_param_str(res, "verification",
                  "every size: one transfer's data compared by checksum with the random data sent");
    clb_param_num(res, "event_time_median_us", 1e6 * sw->ev_med[last]);
    clb_param_num(res, "wall_time_median_us", 1e6 * sw->wall_med[last]);
    clb_param_num(res, "wall_bandwidth_gbps",
                  zc ? NAN : sw->bytes[last] / sw->wall_med[last] / 1e9);
    if (x->v->dir == XF_BIDIR)
        clb_param_str(res, "bytes_counted", "both directions: 2 x size per step");
    if (x->v->dir == XF_D2D)
        clb_param_str(res, "bytes_counted", "bytes copied (each is read and written once)");
    add_curves(sw, zc, res);
    add_fit(sw, zc, res);
    add_reference(sw, zc, res);
    return zc;
}

/* ---- the link ---- */

static int pci_address(clb_ctx *c, clb_pci_addr *a, const char **source)
{
    cl_device_id id = clb_device_reference(c->dev)->device;
    cl_uint v[4] = {0, 0, 0, 0}, dom = 0;
    if (clb_device_has_extension(c->dev, "cl_khr_pci_bus_info") &&
        query(id, CL_DEVICE_PCI_BUS_INFO_KHR, v, sizeof v)) {
        clb_pci_addr k = {v[0], v[1], v[2], v[3]};
        *a = k;
        *source = "cl_khr_pci_bus_info";
        return 1;
    }
    if (clb_device_has_extension(c->dev, "cl_nv_device_attribute_query") &&
        query(id, XF_PCI_BUS_ID_NV, &v[0], sizeof v[0]) &&
        query(id, XF_PCI_SLOT_ID_NV, &v[1], sizeof v[1])) {
        if (!query(id, XF_PCI_DOMAIN_ID_NV, &dom, sizeof dom)) /* older drivers: domain 0 */
            dom = 0;
        *a = clb_pci_from_nv(dom, v[0], v[1]);
        *source = "cl_nv_device_attribute_query";
        return 1;
    }
    return 0;
}

static void no_link(clb_result *res, const char *why)
{
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "link");
    cJSON_AddNullToObject(res->params, "link");
    clb_param_str(res, "link_reason", why);
}

/* Link attributes and theoretical bandwidth. The current speed is read after the transfers;
 * GPUs drop the link to a slower rate when idle, so when the measurement beats the current
 * rate's theoretical bandwidth the link was already downclocked and the maximum is used. */
static void add_link(const clb_pci_link *l, double measured_Bps, double factor, cJSON *o,
                     clb_result *res)
{
    double cur = factor * clb_pcie_bandwidth_Bps(clb_pcie_gts(l->current_speed), l->current_width);
    double max = factor * clb_pcie_bandwidth_Bps(clb_pcie_gts(l->max_speed), l->max_width);
    int use_max = max > 0 && (cur <= 0 || measured_Bps > cur);
    double th = use_max ? max : cur;
    cJSON_AddStringToObject(o, "current_link_speed", l->current_speed);
    clb_json_number(o, "current_link_width", l->current_width);
    cJSON_AddStringToObject(o, "max_link_speed", l->max_speed);
    clb_json_number(o, "max_link_width", l->max_width);
    clb_json_number(o, "generation", clb_pcie_generation(clb_pcie_gts(
                                         use_max ? l->max_speed : l->current_speed)));
    clb_json_number(o, "theoretical_gbps", th > 0 ? th / 1e9 : NAN);
    cJSON_AddStringToObject(o, "theoretical_basis", use_max ? "max_link" : "current_link");
    clb_json_number(o, "directions", factor);
    clb_json_number(o, "efficiency_pct", th > 0 && measured_Bps > 0 ? 100 * measured_Bps / th
                                                                     : NAN);
    clb_param_num(res, "link_efficiency_pct", th > 0 && measured_Bps > 0 ? 100 * measured_Bps / th
                                                                          : NAN);
    if (th > 0 && measured_Bps > 1.05 * th)
        clb_param_str(res, "link_note", "faster than the link can carry: not all of the data "
                                        "crossed the link (a device-side copy or cache)");
}

void xfer_report_link(clb_ctx *c, const xfer *x, clb_result *res)
{
    clb_pci_addr a;
    clb_pci_link l;
    const char *source = NULL;
    char addr[32], why[160];
    if (x->v->dir == XF_D2D)
        {
        no_link(res, "a device-to-device copy does not cross the host link");
        return;
    }
    if (!pci_address(c, &a, &source))
        {
        no_link(res, "the device reports no PCI address (no cl_khr_pci_bus_info, no "
                            "cl_nv_device_attribute_query), e.g. a CPU device: no host link");
        return;
    }
    clb_pci_format(&a, addr, sizeof addr);
    if (clb_pci_read_link("/sys", &a, &l) != 0) {
        snprintf(why, sizeof why, "no /sys/bus/pci/devices/%s/current_link_speed", addr);
        {
        no_link(res, why);
        return;
    }
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "pci_address", addr);
    cJSON_AddStringToObject(o, "source", source);
    int bw = res->status == CLB_STATUS_OK && strcmp(res->unit, "GB/s") == 0;
    add_link(&l, bw ? res->value * 1e9 : 0, x->v->dir == XF_BIDIR ? 2 : 1, o, res);
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "link");
    cJSON_AddItemToObject(res->params, "link", o);
}
