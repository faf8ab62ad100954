/* The document layer's one rule for "the row's number" (lib/doc/doc_access.c): the first result
 * of a name counts, only when ok with a finite value; a unit asked for must match. */
#include "doc/doc.h"

#include <math.h>
#include <string.h>
#include "check.h"

static const char *const text =
    "{\"results\":["
    "{\"name\":\"a\",\"status\":\"ok\",\"value\":2.5,\"unit\":\"GB/s\"},"
    "{\"name\":\"b\",\"status\":\"invalid\",\"value\":null,\"unit\":\"GB/s\"},"
    "{\"name\":\"b\",\"status\":\"ok\",\"value\":9,\"unit\":\"GB/s\"},"
    "{\"name\":\"c\",\"status\":\"ok\",\"value\":null,\"unit\":\"us\"},"
    "{\"name\":\"d\",\"status\":\"ok\",\"value\":\"7\",\"unit\":\"us\"},"
    "{\"name\":\"a\",\"status\":\"ok\",\"value\":4,\"unit\":\"GB/s\"},"
    "{\"name\":\"e\",\"value\":1,\"unit\":\"us\"}]}";

int main(void)
{
    cJSON *dev = cJSON_Parse(text);
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(dev, "results");
    CHECK(dev != NULL);
    const cJSON *a = rj_ok_in(res, "a");
    CHECK(a == cJSON_GetArrayItem(res, 0)); /* the first of its name, not the later one */
    CHECK(rj_ok_result(dev, "a") == a);
    CHECK(rj_ok_value(dev, "a", "GB/s") == 2.5);
    CHECK(rj_ok_value(dev, "a", NULL) == 2.5);
    CHECK(isnan(rj_ok_value(dev, "a", "us")));  /* another unit */
    CHECK(rj_ok_result(dev, "b") == NULL);       /* its first row is not ok: a later one does not count */
    CHECK(isnan(rj_ok_value(dev, "b", "GB/s")));
    CHECK(rj_ok_result(dev, "c") == NULL);       /* ok without a number */
    CHECK(rj_ok_result(dev, "d") == NULL);       /* a string is not a value */
    CHECK(rj_ok_result(dev, "e") == NULL);       /* no status */
    CHECK(rj_ok_result(dev, "zz") == NULL);
    CHECK(rj_ok_in(dev, "a") == NULL);           /* not an array */
    CHECK(rj_ok_result(NULL, "a") == NULL && isnan(rj_ok_value(NULL, "a", NULL)));
    cJSON_Delete(dev);
    return check_done("test_doc_access");
}
