#!/bin/sh
# The public header is the API (docs/api.md): it declares none of the private names below, the
# install puts it alone under include/, and an outside program written from it alone
# (api_outside_client.c) builds against the installed header and library with no other project
# include path, runs one cheap row on a CPU device and writes a results document that checks.
# usage: api_outside_client.sh BUILD_DIR SOURCE_DIR CC VERSION CHECK_SCHEMA
set -eu
build=$1 src=$2 cc=$3 version=$4 check=$5
# The private names, as one grep list: worker processes, NVML, the tuning service and its cache,
# the tool's settings, the embedded kernels, the SVG plots, the verdict post-passes and the
# ladder printing.
private='clb_child_|CLB_CHILD_|clb_nvml_|CLB_NVML_|clb_tune_|CLB_TUNE_|clb_settings|clb_kernel_|clb_svg_|clb_plot_|clb_report_ladder|clb_apps_annotate|clb_roofline_annotate|clb_roofline_model'
if grep -nE "$private" "$src/include/clbench.h" >&2; then
    echo "FAIL: include/clbench.h declares the private names above (docs/api.md)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
headers=$(cd "$tmp/prefix/include" && find . -type f | sort | tr '\n' ' ')
[ "$headers" = "./clbench.h " ] || { echo "FAIL: installed headers: $headers(want ./clbench.h only)" >&2; exit 1; }
libdir=$(dirname "$(find "$tmp/prefix" -name libclbench.so)")
"$cc" -std=c11 -Wall -Wextra -Werror -Werror=implicit-function-declaration -I "$tmp/prefix/include" \
    -o "$tmp/client" "$src/tests/api_outside_client.c" -L"$libdir" -lclbench -lcjson -lm \
    || { echo "FAIL: the outside client does not build from the installed header alone" >&2; exit 1; }
LD_LIBRARY_PATH="$libdir" "$tmp/client" launch.roundtrip "$version" >"$tmp/out.json"
python3 "$check" "$tmp/out.json" --min-results 1 --expect-status ok >/dev/null
echo "PASS: public header only, installed alone; the outside client ran launch.roundtrip and wrote a valid document"
