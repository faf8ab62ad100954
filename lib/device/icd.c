/* The installed OpenCL platforms and where they come from (seed 000: which platforms are
 * present and where), as clinfo's loader section: the ICD files of the vendors directory,
 * the library each names and whether the loader has it loaded (and from where), the loader's
 * own name and version (ocl-icd's clGetICDLoaderInfoOCLICD, looked up at run time), and each
 * platform with the library its objects live in. The caller says where the vendors directory
 * is (the library reads no environment). */
#define _GNU_SOURCE
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clGetExtensionFunctionAddress: the ocl-icd lookup */
#include "clbench.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ICD_MAX_BYTES = 4096, ICD_MAX_FILES = 256 };

/* ocl-icd's loader query (its cl_icdl.h): names of the values it answers. */
typedef cl_int (*icdl_info_fn)(cl_uint, size_t, void *, size_t *);
static const struct {
    cl_uint id;
    const char *key;
} loader_keys[] = {{1, "ocl_version"}, {2, "version"}, {3, "name"}, {4, "vendor"}};

/* Printable ASCII copy of s (others as '?'), for names that go into JSON and terminals. */
static void printable(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    out[i] = '\0';
}

static void entry_fail(cJSON *o, const char *reason)
{
    cJSON_AddStringToObject(o, "status", "invalid");
    cJSON_AddStringToObject(o, "reason", reason);
}

/* Reads the first line of an ICD file (the library name) into lib; a reason when the file is
 * no ICD file: not a regular file (a FIFO never blocks us: O_NONBLOCK), too large, empty, or
 * holding bytes that are not printable ASCII. */
static const char *read_icd(const char *path, char *lib, size_t cap, char *why, size_t whycap)
{
    char buf[ICD_MAX_BYTES + 1];
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whycap, "cannot open: %s", strerror(errno));
        return why;
    }
    ssize_t got = -1;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        snprintf(why, whycap, "a FIFO, not a file: the ICD loader would block opening it");
    else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        snprintf(why, whycap, "not a regular file");
    else if (st.st_size > ICD_MAX_BYTES)
        snprintf(why, whycap, "%lld bytes: larger than %d, not an ICD file", (long long)st.st_size, ICD_MAX_BYTES);
    else if ((got = read(fd, buf, ICD_MAX_BYTES)) < 0)
        snprintf(why, whycap, "cannot read: %s", strerror(errno));
    close(fd);
    if (got < 0)
        return why;
    size_t n = (size_t)got;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        n--;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
            return "holds a line break or bytes that are not printable ASCII: an ICD file is one library name";
    if (n == 0)
        return "empty: names no library";
    if (n >= cap)
        return "the library name is longer than a path can be";
    memcpy(lib, buf, n);
    lib[n] = '\0';
    return NULL;
}

/* Whether the named library is loaded in this process (RTLD_NOLOAD: nothing is loaded or run
 * here), and from which file. */
static void loaded_from(cJSON *o, const char *lib)
{
    void *h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
    struct link_map *lm = NULL;
    cJSON_AddBoolToObject(o, "loaded", h != NULL);
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
        cJSON_AddStringToObject(o, "loaded_path", lm->l_name);
    if (h)
        dlclose(h);
}

static cJSON *icd_entry(const char *dir, const char *name)
{
    char path[4096], shown[256], lib[1024], whybuf[160];
    cJSON *o = cJSON_CreateObject();
    printable(name, shown, sizeof shown);
    cJSON_AddStringToObject(o, "file", shown);
    if (dir)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else
        snprintf(path, sizeof path, "%s", name);
    const char *why = read_icd(path, lib, sizeof lib, whybuf, sizeof whybuf);
    if (why) {
        entry_fail(o, why);
        return o;
    }
    cJSON_AddStringToObject(o, "library", lib);
    return o;
}

/* After the loader has run: each named library loaded or not. */
static void mark_loaded(cJSON *files)
{
    cJSON *o;
    cJSON_ArrayForEach(o, files) {
        const char *lib = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "library"));
        if (!lib)
            continue;
        loaded_from(o, lib);
        int yes = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "loaded"));
        cJSON_AddStringToObject(o, "status", yes ? "ok" : "not_loaded");
        if (!yes)
            cJSON_AddStringToObject(o, "reason", "the loader did not load this library (missing, not a library, "
                                                 "or no platform in it): dlopen it by hand to see why");
    }
}

/* A file the loader would hang on (a FIFO): then the loader is not asked at all. */
static const char *loader_blocker(const cJSON *files)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, files) {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "reason"));
        if (why && strstr(why, "would block"))
            return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "file"));
    }
    return NULL;
}

static int is_icd_name(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".icd") == 0;
}

/* The .icd files of dir (a directory, or one .icd file), sorted by name. */
static cJSON *icd_files(const char *dir, cJSON *icd)
{
    cJSON *arr = cJSON_CreateArray();
    struct stat st;
    if (stat(dir, &st) != 0) {
        char why[300];
        snprintf(why, sizeof why, "cannot open the vendors directory: %s", strerror(errno));
        cJSON_AddStringToObject(icd, "vendors_dir_error", why);
        return arr;
    }
    if (S_ISREG(st.st_mode)) {
        cJSON_AddItemToArray(arr, icd_entry(NULL, dir));
        return arr;
    }
    struct dirent **names = NULL;
    int n = scandir(dir, &names, is_icd_name, alphasort);
    if (n < 0) {
        char why[300];
        snprintf(why, sizeof why, "cannot read the vendors directory: %s", strerror(errno));
        cJSON_AddStringToObject(icd, "vendors_dir_error", why);
        return arr;
    }
    for (int i = 0; i < n; i++) {
        if (i < ICD_MAX_FILES)
            cJSON_AddItemToArray(arr, icd_entry(dir, names[i]->d_name));
        free(names[i]);
    }
    free(names);
    if (n > ICD_MAX_FILES)
        cJSON_AddNumberToObject(icd, "files_left_out", n - ICD_MAX_FILES);
    return arr;
}

/* The loader: the file it was loaded from and, where it is ocl-icd, its own description. */
static cJSON *loader_json(void)
{
    cJSON *o = cJSON_CreateObject();
    Dl_info di;
    if (dladdr((void *)(uintptr_t)clGetPlatformIDs, &di) && di.dli_fname)
        cJSON_AddStringToObject(o, "library_path", di.dli_fname);
    void *fp = clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD");
    icdl_info_fn info;
    memcpy(&info, &fp, sizeof info);
    cJSON_AddBoolToObject(o, "ocl_icd", fp != NULL);
    if (!fp) {
        cJSON_AddStringToObject(o, "reason", "the loader offers no clGetICDLoaderInfoOCLICD: not ocl-icd, so "
                                             "its name and version are unknown");
        return o;
    }
    for (size_t k = 0; k < sizeof loader_keys / sizeof loader_keys[0]; k++) {
        char buf[256] = "", shown[256];
        if (info(loader_keys[k].id, sizeof buf - 1, buf, NULL) == CL_SUCCESS) {
            printable(buf, shown, sizeof shown);
            cJSON_AddStringToObject(o, loader_keys[k].key, shown);
        }
    }
    return o;
}

static void platform_str(cJSON *o, cl_platform_id p, cl_platform_info what, const char *key)
{
    char buf[512] = "", shown[512];
    if (clGetPlatformInfo(p, what, sizeof buf - 1, buf, NULL) == CL_SUCCESS) {
        printable(buf, shown, sizeof shown);
        cJSON_AddStringToObject(o, key, shown);
    }
}

/* Every platform the loader offers and the library its objects live in: an ICD object starts
 * with its dispatch table, which lies in the vendor's library (cl_khr_icd). */
static cJSON *platforms_json(void)
{
    cl_platform_id ids[32];
    cl_uint n = 0;
    cJSON *arr = cJSON_CreateArray();
    if (clGetPlatformIDs(32, ids, &n) != CL_SUCCESS)
        return arr;
    for (cl_uint i = 0; i < n && i < 32; i++) {
        cJSON *o = cJSON_CreateObject();
        platform_str(o, ids[i], CL_PLATFORM_NAME, "name");
        platform_str(o, ids[i], CL_PLATFORM_VENDOR, "vendor");
        platform_str(o, ids[i], CL_PLATFORM_VERSION, "version");
        platform_str(o, ids[i], 0x0920 /* CL_PLATFORM_ICD_SUFFIX_KHR */, "icd_suffix");
        Dl_info di;
        void *dispatch = *(void **)ids[i];
        if (dispatch && dladdr(dispatch, &di) && di.dli_fname)
            cJSON_AddStringToObject(o, "library_path", di.dli_fname);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

cJSON *clb_icd_json(const char *vendors_dir, const char *source)
{
    cJSON *icd = cJSON_CreateObject();
    cJSON_AddStringToObject(icd, "vendors_dir", vendors_dir);
    cJSON_AddStringToObject(icd, "vendors_dir_source", source);
    cJSON *files = icd_files(vendors_dir, icd);
    cJSON_AddItemToObject(icd, "files", files);
    const char *block = loader_blocker(files);
    if (block) {
        char why[400];
        snprintf(why, sizeof why, "%s in the vendors directory would block the ICD loader: it was not asked "
                                  "for platforms", block);
        cJSON_AddStringToObject(icd, "loader_not_asked", why);
        cJSON_AddItemToObject(icd, "platforms", cJSON_CreateArray());
        cJSON *o;
        cJSON_ArrayForEach(o, files)
            if (!cJSON_GetObjectItemCaseSensitive(o, "status"))
                cJSON_AddStringToObject(o, "status", "not_checked");
        return icd;
    }
    /* The loader loads the ICDs when first asked for platforms; then we see what it loaded. */
    cJSON_AddItemToObject(icd, "platforms", platforms_json());
    mark_loaded(files);
    cJSON_AddItemToObject(icd, "loader", loader_json());
    return icd;
}

static const char *js(const cJSON *o, const char *k)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
    return s ? s : "";
}

void clb_icd_print(const cJSON *icd, FILE *f)
{
    const cJSON *ld = cJSON_GetObjectItemCaseSensitive(icd, "loader"), *e;
    if (ld)
        fprintf(f, "ICD loader: %s %s (%s), %s, from %s\n", js(ld, "name"), js(ld, "version"), js(ld, "vendor"),
                js(ld, "ocl_version"), js(ld, "library_path"));
    else
        fprintf(f, "ICD loader: not asked: %s\n", js(icd, "loader_not_asked"));
    if (ld && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ld, "ocl_icd")))
        fprintf(f, "  %s\n", js(ld, "reason"));
    fprintf(f, "vendors directory: %s (%s)\n", js(icd, "vendors_dir"), js(icd, "vendors_dir_source"));
    if (*js(icd, "vendors_dir_error"))
        fprintf(f, "  %s\n", js(icd, "vendors_dir_error"));
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(icd, "files")) {
        fprintf(f, "  %-24s %-11s %s", js(e, "file"), js(e, "status"), js(e, "library"));
        if (*js(e, "loaded_path"))
            fprintf(f, " -> %s", js(e, "loaded_path"));
        if (*js(e, "reason"))
            fprintf(f, "%s%s", *js(e, "library") ? ": " : "", js(e, "reason"));
        fputc('\n', f);
    }
    if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(icd, "files")) && !*js(icd, "vendors_dir_error"))
        fputs("  no .icd files\n", f);
    fputs("platforms:\n", f);
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(icd, "platforms"))
        fprintf(f, "  %s (%s, suffix %s): %s\n", js(e, "name"), js(e, "version"), js(e, "icd_suffix"),
                js(e, "library_path"));
    if (!ld)
        fputs("  not asked (above)\n", f);
    else if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(icd, "platforms")))
        fputs("  none: the loader found no platform in the files above\n", f);
}
