#!/bin/sh
# `clbench run --list` must print exactly tests/golden/run-list.txt: the registry is the
# product's table of contents, and a refactoring must not change it. Adding a benchmark
# updates the golden file in the same commit.
# usage: cli_list_golden.sh CLBENCH SOURCE_DIR
set -eu
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" run --list >"$out"
if ! diff -u "$2/tests/golden/run-list.txt" "$out"; then
    echo "FAIL: run --list differs from tests/golden/run-list.txt" >&2
    exit 1
fi
test "$(wc -l <"$out")" -gt 10 || { echo "FAIL: run --list printed too few rows" >&2; exit 1; }
echo "PASS: run --list matches the golden registry ($(wc -l <"$out") lines)"
