#!/bin/sh
# Installs this build into a temporary prefix and builds examples/ out of tree against the
# installed copy, once with find_package(clbench) (shared and static) and once with pkg-config,
# then runs them: the library is usable by programs that are not part of this tree.
# usage: install_example.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/clbench include/clbench.h; do
    test -e "$tmp/prefix/$f" || { echo "FAIL: $f not installed" >&2; exit 1; }
done
# the libdir is lib, or lib/x86_64-linux-gnu where the build's prefix is /usr (GNUInstallDirs)
libdir=$(dirname "$(find "$tmp/prefix" -name libclbench.so)")
ls "$libdir/libclbench.a" "$libdir/libclbench.so" >/dev/null
cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
LD_LIBRARY_PATH="$libdir" "$tmp/ex/pick_device" >"$tmp/out1"
"$tmp/ex/pick_device_static" >"$tmp/out2"
grep -q "default device:" "$tmp/out1" || { echo "FAIL: shared example printed no device" >&2; cat "$tmp/out1"; exit 1; }
cmp -s "$tmp/out1" "$tmp/out2" || grep -q "default device:" "$tmp/out2"
# pkg-config
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -std=c11 -o "$tmp/pc" "$src/examples/pick_device.c" \
    $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs clbench)
LD_LIBRARY_PATH="$libdir" "$tmp/pc" | grep -q "default device:"
echo "PASS: installed tool, header, static and shared library, CMake package and pkg-config work"
