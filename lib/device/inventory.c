/* Platform and device discovery (clinfo -l order) and device selection. */
#include "core/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* cl_khr_icd: what the ICD loader answers when no vendor is installed. */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

struct clb_inventory {
    cl_platform_id *platforms;
    size_t nplatforms;
    clb_device_ref *devices;
    size_t ndevices;
};

void clb_inventory_destroy(clb_inventory *inv)
{
    if (!inv)
        return;
    free(inv->platforms);
    free(inv->devices);
    free(inv);
}

/* Appends the devices of platform p (index pi); a platform without devices adds none. */
static clb_error add_platform_devices(clb_inventory *inv, unsigned pi, clb_diag *d)
{
    cl_platform_id p = inv->platforms[pi];
    cl_uint n = 0;
    cl_device_id *ids = NULL;
    clb_device_ref *grown = NULL;
    cl_int rc = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    if (rc == CL_DEVICE_NOT_FOUND || n == 0)
        return CLB_OK;
    CLB_CL(d, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n));
    ids = calloc(n, sizeof *ids);
    grown = realloc(inv->devices, (inv->ndevices + n) * sizeof *grown);
    if (!ids || !grown)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory listing devices");
    inv->devices = grown;
    grown = NULL;
    CLB_CL(d, clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids, NULL));
    for (cl_uint i = 0; i < n; i++) {
        clb_device_ref *r = &inv->devices[inv->ndevices];
        memset(r, 0, sizeof *r);
        r->platform_index = pi;
        r->device_index = i;
        r->platform = p;
        r->device = ids[i];
        CLB_CL(d, clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof r->platform_name - 1,
                                    r->platform_name, NULL));
        CLB_CL(d, clGetDeviceInfo(ids[i], CL_DEVICE_NAME, sizeof r->device_name - 1,
                                  r->device_name, NULL));
        CLB_CL(d, clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof r->type, &r->type, NULL));
        inv->ndevices++;
    }
cleanup:
    free(grown);
    free(ids);
    return d->err;
}

clb_error clb_inventory_create(clb_inventory **out, clb_diag *d)
{
    clb_diag local;
    if (!d)
        d = &local;
    clb_diag_clear(d);
    *out = calloc(1, sizeof **out);
    if (!*out)
        return clb_diag_set(d, CLB_ERR_NOMEM, "out of memory");
    clb_inventory *inv = *out;
    cl_uint n = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &n);
    /* The ICD loader answers -1001 (or 0 platforms) when no vendor is installed. */
    if (rc == CL_PLATFORM_NOT_FOUND_KHR || (rc == CL_SUCCESS && n == 0))
        return clb_diag_set(d, CLB_ERR_NO_PLATFORM,
                            "no OpenCL platform found (clGetPlatformIDs: %s); install an ICD "
                            "such as pocl-opencl-icd or check OCL_ICD_VENDORS",
                            clb_cl_error_name(rc == CL_SUCCESS ? CL_PLATFORM_NOT_FOUND_KHR : rc));
    CLB_CL(d, clGetPlatformIDs(0, NULL, &n));
    inv->platforms = calloc(n, sizeof *inv->platforms);
    if (!inv->platforms)
        CLB_FAIL(d, CLB_ERR_NOMEM, "out of memory");
    CLB_CL(d, clGetPlatformIDs(n, inv->platforms, NULL));
    inv->nplatforms = n;
    for (unsigned i = 0; i < n; i++)
        if (add_platform_devices(inv, i, d) != CLB_OK)
            goto cleanup;
cleanup:
    return d->err;
}

size_t clb_inventory_platform_count(const clb_inventory *inv) { return inv ? inv->nplatforms : 0; }
size_t clb_inventory_count(const clb_inventory *inv) { return inv ? inv->ndevices : 0; }

cl_platform_id clb_inventory_platform(const clb_inventory *inv, size_t i)
{
    return inv && i < inv->nplatforms ? inv->platforms[i] : NULL;
}

const clb_device_ref *clb_inventory_at(const clb_inventory *inv, size_t i)
{
    return inv && i < inv->ndevices ? &inv->devices[i] : NULL;
}

void clb_inventory_print(const clb_inventory *inv, FILE *f)
{
    for (size_t p = 0; p < clb_inventory_platform_count(inv); p++) {
        char name[256] = "";
        clGetPlatformInfo(inv->platforms[p], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
        fprintf(f, "Platform #%zu: %s\n", p, name);
        size_t last = 0;
        for (size_t i = 0; i < inv->ndevices; i++)
            if (inv->devices[i].platform_index == p)
                last = i;
        for (size_t i = 0; i < inv->ndevices; i++) {
            const clb_device_ref *r = &inv->devices[i];
            if (r->platform_index != p)
                continue;
            fprintf(f, " %s-- Device #%u: %s\n", i == last ? "`" : "+", r->device_index,
                    r->device_name);
        }
    }
}

/* ---- selection ---- */

/* Parses a non-negative decimal integer spanning the whole string. */
static int parse_index(const char *s, unsigned long *v)
{
    if (!s || !*s || !isdigit((unsigned char)*s))
        return 0;
    char *end = NULL;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return errno == 0 && *end == '\0';
}

static int parse_type(const char *s, cl_device_type *t)
{
    static const struct { const char *name; cl_device_type type; } types[] = {
        {"cpu", CL_DEVICE_TYPE_CPU}, {"gpu", CL_DEVICE_TYPE_GPU},
        {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}, {"all", CL_DEVICE_TYPE_ALL}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(s, types[i].name) == 0) {
            *t = types[i].type;
            return 1;
        }
    return 0;
}

/* Does ref match the platform spec (index or name substring)? */
static int platform_matches(const clb_device_ref *r, const char *spec)
{
    unsigned long v;
    if (!spec)
        return 1;
    if (parse_index(spec, &v))
        return r->platform_index == v;
    return clb_contains_nocase(r->platform_name, spec);
}

/* Device spec: "P:D", a flat index (within the platform when -p is an index), or a name
 * substring. flat is the device's position in the whole inventory. */
static int device_matches(const clb_device_ref *r, size_t flat, const char *spec, int per_platform)
{
    unsigned long v, p;
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!spec)
        return 1;
    if (colon) {
        char head[32];
        size_t len = (size_t)(colon - spec);
        if (len == 0 || len >= sizeof head)
            return -1;
        memcpy(head, spec, len);
        head[len] = '\0';
        if (!parse_index(head, &p) || !parse_index(colon + 1, &v))
            return -1;
        return r->platform_index == p && r->device_index == v;
    }
    if (parse_index(spec, &v))
        return per_platform ? r->device_index == v : flat == v;
    return clb_contains_nocase(r->device_name, spec);
}

static void list_choices(const clb_inventory *inv, clb_diag *d, const char *what)
{
    size_t used = (size_t)snprintf(d->msg, sizeof d->msg, "%s; valid choices:", what);
    for (size_t i = 0; i < inv->ndevices && used < sizeof d->msg; i++) {
        const clb_device_ref *r = &inv->devices[i];
        used += (size_t)snprintf(d->msg + used, sizeof d->msg - used, "\n  -d %u:%u  (-d %zu)  %s [%s]",
                                 r->platform_index, r->device_index, i, r->device_name,
                                 r->platform_name);
    }
}

clb_error clb_select(const clb_inventory *inv, const clb_selector *sel, size_t *idx, size_t cap,
                     size_t *count, clb_diag *d)
{
    clb_diag_clear(d);
    *count = 0;
    cl_device_type type = CL_DEVICE_TYPE_ALL;
    unsigned long pv;
    if (sel->type && !parse_type(sel->type, &type))
        return clb_diag_set(d, CLB_ERR_USAGE, "--type must be cpu, gpu, accelerator or all, not '%s'",
                            sel->type);
    int per_platform = sel->platform && parse_index(sel->platform, &pv);
    int defaulted = !sel->platform && !sel->device && !sel->type;
    for (size_t i = 0; i < inv->ndevices; i++) {
        const clb_device_ref *r = &inv->devices[i];
        int dm = device_matches(r, i, sel->device, per_platform);
        if (dm < 0)
            return clb_diag_set(d, CLB_ERR_USAGE, "bad device '%s': use an index, P:D or a name",
                                sel->device);
        if (!dm || !platform_matches(r, sel->platform) || !(r->type & type))
            continue;
        if (defaulted && !(r->type & CL_DEVICE_TYPE_GPU))
            continue;
        if (*count < cap)
            idx[(*count)++] = i;
        if (defaulted)
            break;
    }
    if (defaulted && *count == 0 && inv->ndevices > 0 && cap > 0)
        idx[(*count)++] = 0; /* no GPU: the first device */
    if (*count == 0) {
        d->err = CLB_ERR_NO_DEVICE;
        list_choices(inv, d, "no device matches the selection");
        return CLB_ERR_NO_DEVICE;
    }
    return CLB_OK;
}

/* Used by selection (-d NAME) and by the device database's name matching. */
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
