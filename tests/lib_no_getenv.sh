#!/bin/sh
# The library reads no environment variable: libclbench (shared and static) imports neither
# getenv nor secure_getenv, and no C source or header under lib/ calls them. Options reach the
# library in clb_settings, which the tool fills from its one table (src/options_env.c). The
# CUDA twin module's sources (lib/apps/cuda/*.cu, *.cuh: its own shared object) call none
# either: the device and the Euler tiling come through its ABI's configure. Nothing under lib/
# writes the environment (setenv, unsetenv, putenv) to pass a value on.
# usage: lib_no_getenv.sh LIBCLBENCH.so LIBCLBENCH.a SOURCE_DIR
set -eu
so=$1 a=$2 src=$3
command -v nm >/dev/null || { echo "FAIL: nm (binutils) not found" >&2; exit 1; }
bad=0
check() { # WHAT UNDEFINED-SYMBOLS
    n=$(printf '%s\n' "$2" | grep -c . || true)
    # a listing without the OpenCL imports would prove nothing
    printf '%s\n' "$2" | grep -q '^clCreateBuffer$' || { echo "FAIL: $1: nm lists no clCreateBuffer import ($n symbols)" >&2; bad=1; return; }
    hits=$(printf '%s\n' "$2" | grep -E '^(secure_|__secure_)?getenv(@.*)?$' || true)
    if [ -n "$hits" ]; then
        echo "FAIL: $1 imports" $hits >&2
        bad=1
    else
        echo "ok: $1: $n undefined symbols, no getenv"
    fi
}
check "$so" "$(nm -D --undefined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u)"
check "$a" "$(nm -u "$a" 2>/dev/null | awk 'NF {print $NF}' | sed 's/@.*//' | sort -u)"
nsrc=$(find "$src/lib" -name '*.[ch]' | wc -l)
[ "$nsrc" -gt 50 ] || { echo "FAIL: only $nsrc C files under $src/lib" >&2; bad=1; }
calls=$(grep -rnE '(^|[^A-Za-z0-9_])((secure_)?getenv|setenv|unsetenv|putenv)[[:space:]]*\(' --include='*.c' --include='*.h' \
        --include='*.cu' --include='*.cuh' "$src/lib" || true)
if [ -n "$calls" ]; then
    echo "FAIL: the environment read or written in lib/ (use clb_settings, lib/core/settings.h):" >&2
    echo "$calls" >&2
    bad=1
else
    echo "ok: $nsrc C files under lib/, no getenv"
fi
[ "$bad" = 0 ] && echo "PASS: the library reads no environment variable"
[ "$bad" = 0 ]
