/* A device database entry from a measured run (`clbench db add`): the device's ok rows of the
 * four figures, read from a results document by the document layer's one rule (rj_ok_value). */
#include "device/devdb.h"
#include "doc/doc.h"

#include <math.h>
#include <stdio.h>

static const char *dev_str(const cJSON *entry, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(entry, "device"), k);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

cJSON *clb_devdb_entry_from_results(const cJSON *entry, const char *file, clb_diag *d)
{
    static const char *const rows[][3] = {{"fp32_gflops", "compute.fp32.fma", "GFLOP/s"},
                                          {"fp64_gflops", "compute.fp64.fma", "GFLOP/s"},
                                          {"dram_gbps", "memory.triad", "GB/s"},
                                          {"link_gbps", "transfer.h2d_pinned", "GB/s"}};
    const char *name = dev_str(entry, "CL_DEVICE_NAME"), *vendor = dev_str(entry, "CL_DEVICE_VENDOR");
    clb_diag_clear(d);
    if (!name || !vendor) {
        clb_diag_set(d, CLB_ERR_USAGE, "a device entry without CL_DEVICE_NAME or CL_DEVICE_VENDOR");
        return NULL;
    }
    char key[96], src[600];
    size_t k = 0;
    for (const char *p = name; *p && k + 6 < sizeof key; p++)
        key[k++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) ? *p : '-');
    snprintf(key + k, sizeof key - k, "-user");
    cJSON *e = cJSON_CreateObject(), *f;
    cJSON_AddStringToObject(e, "key", key);
    cJSON_AddStringToObject(e, "origin", "user");
    cJSON_AddStringToObject(e, "vendor", vendor);
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "product", name);
    f = cJSON_AddObjectToObject(e, "figures");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(src, sizeof src, "measured: %s median in %s", rows[i][1], file ? file : "a results document");
        clb_devdb_figure(f, rows[i][0], rj_ok_value(entry, rows[i][1], rows[i][2]), "measured", src);
    }
    if (!f->child) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: none of compute.fp32.fma, compute.fp64.fma, memory.triad, transfer.h2d_pinned is ok", name);
        cJSON_Delete(e);
        return NULL;
    }
    return e;
}
