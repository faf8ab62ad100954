/* The suite tests' reference document (test_suite.c, test_seeds_report.c): the quick set, app i
 * with a peak time of 0.5 + 0.25 i s and an average of 0.75 + 0.5 i s, at this suite version. */
#ifndef CLB_TEST_SUITE_REF_H
#define CLB_TEST_SUITE_REF_H

#include "clbench.h"

static inline cJSON *suite_ref(void)
{
    cJSON *ref = cJSON_CreateObject();
    cJSON_AddStringToObject(ref, "suite_version", CLB_SUITE_VERSION);
    cJSON *set = cJSON_AddObjectToObject(cJSON_AddObjectToObject(ref, "sets"), "quick");
    for (size_t i = 0; i < clb_suite_app_count(); i++) {
        cJSON *o = cJSON_AddObjectToObject(set, clb_suite_app_at(i)->app);
        cJSON_AddNumberToObject(o, "peak_s", 0.5 + 0.25 * (double)i);
        cJSON_AddNumberToObject(o, "avg_s", 0.75 + 0.5 * (double)i);
    }
    return ref;
}

#endif
