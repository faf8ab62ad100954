#!/usr/bin/env bash
# clbench run --html/--csv: the report of a real run in one go, equal to what clbench report
# makes from the run's JSON; compare of a run with itself finds no regression.
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$bin" run launch.roundtrip compile.short --quick --quiet --json "$tmp/run.json" \
    --html "$tmp/run.html" --csv "$tmp/run.csv" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
for s in launch.roundtrip compile.short 'st st-ok'; do
    grep -q "$s" "$tmp/run.html" || { echo "FAIL: run --html lacks '$s'"; fails=$((fails+1)); }
done
n=$(grep -c ',ok,' "$tmp/run.csv")
[ "$n" -ge 2 ] || { echo "FAIL: run --csv has $n ok rows, want >= 2"; fails=$((fails+1)); }
"$bin" report "$tmp/run.json" --csv "$tmp/again.csv" || { echo "FAIL: report exit $?"; fails=$((fails+1)); }
cmp -s "$tmp/run.csv" "$tmp/again.csv" || { echo "FAIL: run --csv differs from report --csv"; diff "$tmp/run.csv" "$tmp/again.csv"; fails=$((fails+1)); }
# Without --json the report is still written.
"$bin" run launch.roundtrip --quick --quiet --html "$tmp/only.html" && grep -q launch.roundtrip "$tmp/only.html" \
    || { echo "FAIL: run --html without --json"; fails=$((fails+1)); }
"$bin" compare "$tmp/run.json" "$tmp/run.json" >"$tmp/cmp.txt"; rc=$?
[ "$rc" = 0 ] && grep -q 'no regression' "$tmp/cmp.txt" || { echo "FAIL: self-compare exit $rc"; cat "$tmp/cmp.txt"; fails=$((fails+1)); }
echo "cli_run_report: $fails failure(s)"
[ "$fails" = 0 ]
