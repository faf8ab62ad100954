#!/usr/bin/env bash
# clbench --version names the project's version and the commit it was built from.
# usage: pkg_version.sh CLBENCH SOURCE_DIR PROJECT_VERSION
set -u
bin=$1 src=$2 want=$3
out=$("$bin" --version) || { echo "FAIL: --version exited $?"; exit 1; }
re='^clbench ([0-9]+\.[0-9]+\.[0-9]+) \(commit ([0-9a-f]{12}(-dirty)?|unknown), schema [0-9]+\.[0-9]+\.[0-9]+\)$'
[[ $out =~ $re ]] || { echo "FAIL: --version printed '$out'"; exit 1; }
[ "${BASH_REMATCH[1]}" = "$want" ] || { echo "FAIL: version ${BASH_REMATCH[1]}, the project is $want"; exit 1; }
sha=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ "${BASH_REMATCH[2]%-dirty}" = "$sha" ] || { echo "FAIL: commit ${BASH_REMATCH[2]}, the tree is at $sha"; exit 1; }
echo "PASS: $out"
