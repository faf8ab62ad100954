/* A program built on the installed libclbench: lists the OpenCL devices, picks the default one
 * the way clbench does (first GPU, else first device) and prints its derived parameters.
 * Build: cmake -S examples -B build-example -DCMAKE_PREFIX_PATH=PREFIX (find_package(clbench))
 *    or: cc pick_device.c $(pkg-config --cflags --libs clbench) */
#include <clbench.h>

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    clb_diag d;
    clb_inventory *inv = NULL;
    clb_device *dev = NULL;
    cJSON *derived = NULL;
    int rc = 1;
    clb_diag_clear(&d);
    if (clb_inventory_create(&inv, &d) != CLB_OK) {
        char buf[1200];
        fprintf(stderr, "pick_device: %s\n", clb_diag_format(&d, buf, sizeof buf));
        goto cleanup;
    }
    clb_inventory_print(inv, stdout);
    size_t idx = 0, n = 0;
    clb_selector sel = {NULL, NULL, NULL};
    if (clb_select(inv, &sel, &idx, 1, &n, &d) != CLB_OK || n == 0)
        goto cleanup;
    if (clb_device_create(clb_inventory_at(inv, idx), &dev, &d) != CLB_OK)
        goto cleanup;
    derived = clb_derived_json(dev);
    char *text = derived ? cJSON_Print(derived) : NULL;
    printf("default device: %s\n%s\n", clb_device_reference(dev)->device_name, text ? text : "{}");
    free(text);
    rc = 0;
cleanup:
    cJSON_Delete(derived);
    clb_device_destroy(dev);
    clb_inventory_destroy(inv);
    return rc;
}
