/* Files under the user's XDG directories (the tuning cache, the device database's user
 * file): one place that picks the directory and creates it. */
#include "core/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Creates the last two levels of dir ("$XDG_*_HOME/clbench" or "$HOME/.xxx/clbench"): the
 * XDG directory itself may not exist yet on a fresh machine. */
static int make_two_levels(char *dir)
{
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    int ok = mkdir(dir, 0755) == 0 || errno == EEXIST;
    *slash = '/';
    return ok && (mkdir(dir, 0755) == 0 || errno == EEXIST);
}

clb_error clb_user_file(char *buf, size_t n, const char *xdg, const char *xdg_var,
                        const char *home_sub, const char *file, int create, clb_diag *d)
{
    const char *home = clb_settings_get()->home;
    int o = xdg && *xdg ? snprintf(buf, n, "%s/clbench", xdg)
            : home && *home ? snprintf(buf, n, "%s/%s/clbench", home, home_sub) : -1;
    if (o < 0 || (size_t)o + strlen(file) + 2 > n)
        return clb_diag_set(d, CLB_ERR_IO, "no directory for %s: neither %s nor HOME is set", file, xdg_var);
    if (create && !make_two_levels(buf))
        return clb_diag_set(d, CLB_ERR_IO, "cannot create %s: %s", buf, strerror(errno));
    snprintf(buf + o, n - (size_t)o, "/%s", file);
    return CLB_OK;
}

cJSON *clb_user_json_parse(const char *buf, size_t len, const char *what, int version, int entries_object,
                           const char *(*check)(const cJSON *doc), clb_diag *d)
{
    clb_diag_clear(d);
    cJSON *j = buf ? cJSON_ParseWithLength(buf, len) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "version");
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(j, "entries");
    const char *why = !j ? "malformed JSON" : !cJSON_IsObject(j) ? "not a JSON object" : NULL;
    if (!why && (!cJSON_IsNumber(v) || v->valuedouble != version)) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: no \"version\": %d", what, version);
        cJSON_Delete(j);
        return NULL;
    }
    if (!why && !(entries_object ? cJSON_IsObject(es) : cJSON_IsArray(es)))
        why = entries_object ? "no \"entries\" object" : "no \"entries\" array";
    if (!why && check)
        why = check(j);
    if (why) {
        clb_diag_set(d, CLB_ERR_USAGE, "%s: %s", what, why);
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}
