/* The CUDA twin module's loader (lib/apps/cuda/cuda_load.c) without a GPU: a module that is not
 * there gives NULL and a reason naming it; where the module was built (argv[1]) it is found by
 * clb_settings.cuda_module (the tool finds it beside itself: no path of the build tree is baked
 * in, tests/pkg_copied_binary.sh), with the ABI version clbench expects
 * and every entry point; a module of an older ABI (argv[2], tests/fake_cuda_abi1.c) is refused
 * with a reason that names both versions. */
#include "check.h"
#include "core/settings.h"
#include "apps/cuda/cuda_twins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void full_table(const clbcu_api *api)
{
    CHECK(api != NULL);
    if (!api)
        return;
    CHECK(api->abi_version == CLBCU_ABI_VERSION);
    CHECK(api->device_name && api->saxpy && api->sgemm && api->dgemm && api->mcpi && api->strmatch &&
          api->euler_string && api->configure && api->last_phases);
    /* configure refuses what it cannot hold, and takes a bus id and each tiling */
    if (api->configure) {
        char longid[80];
        memset(longid, 'f', sizeof longid - 1);
        longid[sizeof longid - 1] = '\0';
        CHECK(api->configure(longid, CLBCU_TILING_SCREEN) != 0);
        CHECK(api->configure(NULL, CLBCU_TILING_HONEYCOMB + 1) != 0);
        CHECK(api->configure("0000:01:00.0", CLBCU_TILING_DIAMOND) == 0);
        CHECK(api->configure(NULL, CLBCU_TILING_SCREEN) == 0);
    }
}

int main(int argc, char **argv)
{
    char why[4096];
    clb_settings s;
    clb_settings_default(&s);
    s.cuda_module = "/nonexistent/libclbench_cuda.so";
    clb_settings_set(&s);
    CHECK(clb_cuda_api(why, sizeof why) == NULL);
    CHECK(strstr(why, "/nonexistent/libclbench_cuda.so") != NULL);
    CHECK(strstr(why, "not available") != NULL);
    if (argc > 2) {
        s.cuda_module = argv[2];
        clb_settings_set(&s);
        CHECK(clb_cuda_api(why, sizeof why) == NULL);
        CHECK(strstr(why, "ABI version 1, clbench expects 4") != NULL);
        CHECK(strstr(why, "older") != NULL);
        printf("old module refused: %s\n", why);
    }
    if (argc > 1 && argv[1][0]) {
        s.cuda_module = argv[1];
        clb_settings_set(&s);
        full_table(clb_cuda_api(why, sizeof why));
    }
    printf("cuda_load: %d failure(s)\n", failures);
    if (failures == 0 && !(argc > 1 && argv[1][0])) { /* CTest's SKIP_RETURN_CODE */
        printf("SKIP: the CUDA module was not built (no CUDA toolkit): only the refusals were checked\n");
        return 77;
    }
    return failures != 0;
}
