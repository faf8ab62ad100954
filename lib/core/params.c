/* A result's params object and JSON numbers that are never NaN or Inf (JSON has neither). */
#include "core/internal.h"

#include <math.h>

cJSON *clb_json_number(cJSON *obj, const char *key, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    if (item && obj) {
        cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
        cJSON_AddItemToObject(obj, key, item);
    }
    return item;
}

static cJSON *params_of(clb_result *res)
{
    if (!res->params)
        res->params = cJSON_CreateObject();
    return res->params;
}

void clb_param_num(clb_result *res, const char *key, double v)
{
    clb_json_number(params_of(res), key, v);
}

void clb_param_str(clb_result *res, const char *key, const char *s)
{
    cJSON *p = params_of(res);
    if (!p)
        return;
    cJSON_DeleteItemFromObjectCaseSensitive(p, key);
    cJSON_AddStringToObject(p, key, s ? s : "");
}
