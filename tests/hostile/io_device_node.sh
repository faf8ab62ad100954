#!/usr/bin/env bash
# A character device at an output path (root only: mknod of a null device in a temp dir, never
# /dev/null itself) is written in place and stays a device; every output of report, and --json of
# info, through it. Exit 77 (skip) when not root or mknod is not allowed.
# usage: io_device_node.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ "$(id -u)" = 0 ] || { echo "SKIP: not root (mknod)"; exit 77; }
mknod "$tmp/null" c 1 3 2>/dev/null && [ -c "$tmp/null" ] || { echo "SKIP: mknod refused"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
for out in --csv --markdown --html; do
    "$bin" report "$src/tests/data/sample.json" $out "$tmp/null" >"$tmp/log" 2>&1 || fail "report $out DEVICE: exit $? ($(cat "$tmp/log"))"
    [ -c "$tmp/null" ] || { fail "report $out replaced the device node by a $(stat -c %F "$tmp/null")"; break; }
done
ls -A "$tmp" | grep -v -e '^null$' -e '^log$' && fail "files left beside the device node"
[ "$fails" = 0 ] && echo "PASS: a device node at the output path is written in place"
exit $((fails > 0))
