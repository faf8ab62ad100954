#!/usr/bin/env bash
# The man page clbench(1), --help and docs/cli.md cannot drift: the page (written at build time
# from --help) holds every line of this binary's --help, renders without a groff warning, and
# docs/cli.md documents every command, flag and environment variable --help names.
# usage: pkg_man.sh CLBENCH MAN_PAGE(clbench.1) SOURCE_DIR
set -u
bin=$1 page=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
"$bin" --help >"$tmp/help" || fail "--help exited $?"
LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings=w -E UTF-8 -l "$page" >"$tmp/man" 2>"$tmp/warn" || fail "man -l $page exited $?"
[ -s "$tmp/warn" ] && fail "groff warns: $(head -c 400 "$tmp/warn")"
# every --help line, as rendered (leading blanks are the page's indent)
sed 's/^ *//' "$tmp/man" >"$tmp/man.flat"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    grep -qxF -- "$(sed 's/^ *//' <<<"$line")" "$tmp/man.flat" || fail "help line $n not in the man page: '$line'"
done <"$tmp/help"
[ "$n" -gt 40 ] || fail "--help has only $n lines"
for c in $(sed -n '/^commands:/,/^[a-z]/s/^  \([a-z][a-z-]*\) .*/\1/p' "$tmp/help"); do
    grep -q "^| \`$c" "$src/docs/cli.md" || fail "docs/cli.md has no row for the command $c"
done
for f in $(grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u); do
    grep -qE -- "$f([^a-z-]|\$)" "$src/docs/cli.md" || fail "docs/cli.md does not document $f"
done
for v in $(sed -n 's/^  \(CLBENCH_[A-Z0-9_]*\) .*/\1/p' "$tmp/help"); do
    grep -qw -- "$v" "$src/docs/cli.md" || fail "docs/cli.md does not document the variable $v"
done
for v in $(sed -n '/^## Environment/,/^## [A-Z]/{/^| `/p}' "$src/docs/cli.md" | grep -o 'CLBENCH_[A-Z0-9_]*' | grep -v '_$' | sort -u); do # not CLBENCH_EULER_*
    grep -q "^  $v " "$tmp/help" || fail "--help does not list $v (docs/cli.md, Environment)"
done
[ $fails -eq 0 ] && echo "PASS: clbench(1) holds all $n lines of --help; docs/cli.md documents every command and flag"
[ $fails -eq 0 ]
