#!/usr/bin/env bash
# docs/suite.md's table "What runs" is what `clbench suite --list` prints from suite_apps[]
# (lib/apps/suite.c): rows, scored rows, sizes and work models cannot drift from the code.
# The listing needs no OpenCL platform (it opens no device). Regenerate the doc's table with
# the command when the suite changes.
# usage: suite_doc_table.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir "$tmp/vendors"
OCL_ICD_VENDORS=$tmp/vendors "$bin" suite --list >"$tmp/list" 2>"$tmp/err" ||
    fail "suite --list exited $? without a platform: $(head -c 400 "$tmp/err")"
[ -s "$tmp/err" ] && fail "suite --list wrote to stderr: $(head -c 400 "$tmp/err")"
# the table: the lines starting with '|' after the heading, up to the first other line
awk '/^## What runs$/ {on = 1; next} on && /^\|/ {print; seen = 1; next} seen {exit}' \
    "$src/docs/suite.md" >"$tmp/doc"
[ "$(wc -l <"$tmp/list")" -gt 2 ] || fail "suite --list printed $(wc -l <"$tmp/list") lines"
if ! diff -u --label docs/suite.md --label "clbench suite --list" "$tmp/doc" "$tmp/list"; then
    fail "docs/suite.md's table differs from clbench suite --list (the diff above: - doc, + command)"
fi
[ $fails -eq 0 ] && echo "PASS: docs/suite.md's table is clbench suite --list ($(($(wc -l <"$tmp/list") - 2)) apps)"
[ $fails -eq 0 ]
