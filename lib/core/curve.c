/* The curve object of docs/schema.md (params.curve, and each of params.curves): one writer for
 * every sweep, so the fields and their order are the same wherever a curve comes from. */
#include "core/internal.h"

cJSON *clb_curve_new(const char *x_name, const char *x_unit, const char *y_name, const char *y_unit,
                     int x_log, const char *label)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "x_name", x_name);
    cJSON_AddStringToObject(o, "x_unit", x_unit);
    cJSON_AddStringToObject(o, "y_name", y_name);
    cJSON_AddStringToObject(o, "y_unit", y_unit);
    cJSON_AddBoolToObject(o, "x_log", x_log);
    if (label)
        cJSON_AddStringToObject(o, "label", label);
    if (!cJSON_AddArrayToObject(o, "points")) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *clb_curve_points(cJSON *curve)
{
    return cJSON_GetObjectItemCaseSensitive(curve, "points");
}

void clb_curve_push(cJSON *points, double x, double y)
{
    cJSON *p = cJSON_CreateArray();
    cJSON_AddItemToArray(p, clb_json_number(NULL, NULL, x));
    cJSON_AddItemToArray(p, clb_json_number(NULL, NULL, y));
    cJSON_AddItemToArray(points, p);
}

cJSON *clb_curve(const char *x_name, const char *x_unit, const char *y_name, const char *y_unit,
                 int x_log, const char *label, const double *x, const double *y, size_t n)
{
    cJSON *o = clb_curve_new(x_name, x_unit, y_name, y_unit, x_log, label);
    cJSON *pts = clb_curve_points(o);
    for (size_t i = 0; pts && i < n; i++)
        clb_curve_push(pts, x[i], y[i]);
    return o;
}
