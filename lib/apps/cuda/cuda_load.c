/* The loader of the CUDA twin module (cuda_twins.h): clbench links no CUDA library; the module
 * is found and opened at run time, so every machine without CUDA runs clbench unchanged and the
 * CUDA rows say why they did not run. */
#include "apps/cuda/cuda_twins.h"
#include "core/settings.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MODULE "libclbench_cuda.so"

/* Where the package installs the module, for programs linked with the installed library (the
 * tool finds it beside itself); never a path of the build tree. */
#ifndef CLBENCH_CUDA_INSTALL_DIR
#define CLBENCH_CUDA_INSTALL_DIR ""
#endif
static const char install_dir[] = CLBENCH_CUDA_INSTALL_DIR;

/* The directory of the running executable, or "" when /proc/self/exe cannot be read. */
static void exe_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    dir[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
}

/* dlopens path; on failure appends dlerror's text to why (the reasons of every place tried). */
static void *try_open(const char *path, char *why, size_t len)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    size_t used = strlen(why);
    if (!h && used + 1 < len)
        snprintf(why + used, len - used, "%s%s", used ? "; " : "", dlerror());
    return h;
}

static void *open_module(char *why, size_t len)
{
    const char *env = clb_settings_get()->cuda_module;
    char exe[4096], path[4200];
    void *h = NULL;
    why[0] = '\0';
    if (env && *env)
        return try_open(env, why, len); /* an explicit choice: no fallback behind its back */
    exe_dir(exe, sizeof exe);
    if (exe[0]) {
        snprintf(path, sizeof path, "%s/%s", exe, MODULE);
        h = try_open(path, why, len);
    }
    if (!h && install_dir[0] != '\0') {
        snprintf(path, sizeof path, "%s/%s", install_dir, MODULE);
        h = try_open(path, why, len);
    }
    return h;
}

const clbcu_api *clb_cuda_api(char *why, size_t len)
{
    typedef const clbcu_api *(*get_fn)(void);
    get_fn get = NULL;
    const clbcu_api *api = NULL;
    char tried[2048];
    void *h = open_module(tried, sizeof tried);
    if (!h) {
        snprintf(why, len, "the CUDA twin module is not available (built only where CMake finds nvcc; "
                           "CLBENCH_CUDA_MODULE names it): %s", tried);
        return NULL;
    }
    void *sym = dlsym(h, "clbcu_get_api");
    if (sym)
        memcpy(&get, &sym, sizeof get);
    if (!get || !(api = get())) {
        snprintf(why, len, "%s has no clbcu_get_api", MODULE);
        return NULL;
    }
    /* abi_version is the table's first member in every version, so an old module's table can
     * be read this far; its shorter table must never be used (a newer entry would be read past
     * its end). */
    if (api->abi_version != CLBCU_ABI_VERSION) {
        snprintf(why, len, "%s has ABI version %d, clbench expects %d: the module is %s than this "
                           "clbench; rebuild both from one tree (cmake --build, target clbench_cuda)",
                 MODULE, api->abi_version, CLBCU_ABI_VERSION,
                 api->abi_version < CLBCU_ABI_VERSION ? "older" : "newer");
        return NULL;
    }
    return api;
}
