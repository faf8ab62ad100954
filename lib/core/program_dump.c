/* The program binary of a measured kernel (NVIDIA: PTX; PoCL: its bitcode), written where
 * the settings' dump_dir says (CLBENCH_DUMP_DIR in the tool): the evidence of what the compiler made of the kernel. One writer for
 * every row that dumps. */
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>

int clb_dump_program_binary(cl_program prog, const char *file, char *path, size_t n)
{
    const char *dir = clb_settings_get()->dump_dir;
    size_t size = 0;
    unsigned char *bin = NULL;
    int written = 0;
    if (!dir || !*dir || !prog)
        return 0;
    /* One device per program: one binary. */
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
        size == 0 || !(bin = malloc(size)))
        return 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        snprintf(path, n, "%s/%s.bin", dir, file);
        FILE *f = fopen(path, "wb");
        if (f) {
            written = fwrite(bin, 1, size, f) == size;
            written = fclose(f) == 0 && written;
        }
    }
    free(bin);
    return written;
}
