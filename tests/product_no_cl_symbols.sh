#!/bin/sh
# No test hook of the OpenCL level in the product: the tool and the shared library define no
# OpenCL entry point (cl[A-Z]*), so every OpenCL call of the library reaches the real driver
# (fault injection lives in the test-only tests/preload/). Both the symbol table and the
# dynamic one are read; undefined (imported) symbols are fine. Nor do the removed test hooks
# come back: no file's strings name CLBENCH_CUDA_ANY_DEVICE or CLBENCH_NVML_ANY_DEVICE (an
# NVIDIA device for the tests' fake CUDA module and NVML comes from the preload library's
# CLBENCH_PRELOAD_VENDOR_ID).
# usage: product_no_cl_symbols.sh FILE...
set -eu
command -v nm >/dev/null || { echo "FAIL: nm (binutils) not found" >&2; exit 1; }
command -v strings >/dev/null || { echo "FAIL: strings (binutils) not found" >&2; exit 1; }
bad=0
for f in "$@"; do
    [ -f "$f" ] || { echo "FAIL: $f: no such file" >&2; exit 1; }
    n=$(nm --defined-only "$f" 2>/dev/null | wc -l)
    [ "$n" -gt 0 ] || n=$(nm -D --defined-only "$f" | wc -l)   # a stripped file: its exports
    [ "$n" -gt 0 ] || { echo "FAIL: $f: nm lists no symbol at all" >&2; exit 1; }
    defs=$({ nm --defined-only "$f" 2>/dev/null || true; nm -D --defined-only "$f"; } |
           awk '$NF ~ /^cl[A-Z]/ {print $NF}' | sort -u)
    if [ -n "$defs" ]; then
        echo "FAIL: $f defines OpenCL symbols:" $defs >&2
        bad=1
    else
        echo "ok: $f: $n defined symbols, none of them cl[A-Z]*"
    fi
    text=$(strings -a "$f")
    # a listing without the NVML variable the product does read would prove nothing
    printf '%s\n' "$text" | grep -q CLBENCH_NVML_LIBRARY ||
        { echo "FAIL: $f: strings lists no CLBENCH_NVML_LIBRARY" >&2; bad=1; }
    hooks=$(printf '%s\n' "$text" | grep -oE 'CLBENCH_(CUDA|NVML)_ANY_DEVICE' | sort -u || true)
    if [ -n "$hooks" ]; then
        echo "FAIL: $f names test hooks:" $hooks >&2
        bad=1
    else
        echo "ok: $f: no CLBENCH_CUDA_ANY_DEVICE, no CLBENCH_NVML_ANY_DEVICE"
    fi
done
[ "$bad" = 0 ] && echo "PASS: no OpenCL symbol defined in the product, no test hook named"
