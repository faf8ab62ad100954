#!/usr/bin/env bash
# clbench report against golden files: CSV and Markdown of the hand-written documents in
# tests/data must match tests/golden byte for byte; the HTML report escapes every string
# from the JSON and shows failed and unsupported results.
# Regenerate after an intended format change: UPDATE_GOLDEN=1 ctest -R report_golden (shows the
# diff, writes the new files and fails once; the next run passes).
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
data=$src/tests/data golden=$src/tests/golden
# The inputs themselves conform to the schema (they stand for real documents).
for f in sample.json sample2.json; do
    python3 "$src/tests/check_schema.py" "$data/$f" >/dev/null || { echo "FAIL: tests/data/$f does not conform"; fails=$((fails+1)); }
done
"$bin" report "$data/sample.json" "$data/sample2.json" --csv "$tmp/report.csv" \
    --markdown "$tmp/report.md" --html "$tmp/report.html" || { echo "FAIL: report exit $?"; fails=$((fails+1)); }
# UPDATE_GOLDEN=1 diffs first (the diff is the review), then writes the new golden file and
# still fails this run, so a variable left set can never turn a difference into a pass.
for f in report.csv report.md; do
    diff -u "$golden/$f" "$tmp/$f" && continue
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$tmp/$f" "$golden/$f"
        echo "FAIL: tests/golden/$f updated with the changes above: review them (git diff tests/golden), then rerun"
    else
        echo "FAIL: $f differs from tests/golden/$f (after an intended change: UPDATE_GOLDEN=1)"
    fi
    fails=$((fails+1))
done
html=$tmp/report.html
# Escaping: the device name "<X1>" and the host's "<8 cores> & \"friends\"" must not appear raw.
grep -q 'Example GPU &lt;X1&gt;' "$html" || { echo "FAIL: escaped device name missing"; fails=$((fails+1)); }
grep -q '<X1>' "$html" && { echo "FAIL: raw <X1> in HTML"; fails=$((fails+1)); }
grep -q '&lt;8 cores&gt; &amp; &quot;friends&quot;' "$html" || { echo "FAIL: host cpu not escaped"; fails=$((fails+1)); }
# Failed and unsupported results stay visible; no network resources.
for s in 'st-unsupported">unsupported' 'st-bad">invalid_result' 'st-bad">error' 'not measured'; do
    grep -q "$s" "$html" || { echo "FAIL: HTML lacks '$s'"; fails=$((fails+1)); }
done
grep -Eq '(src|href)=|@import|url\(' "$html" && { echo "FAIL: HTML references external resources"; fails=$((fails+1)); }
n=$(grep -c '<svg ' "$html")
[ "$n" = 2 ] || { echo "FAIL: $n plots, want 2 (compute.fp32_peak, memory.bandwidth)"; fails=$((fails+1)); }
# Usage errors.
"$bin" report "$data/sample.json" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || { echo "FAIL: report without an output: exit $rc, want 2"; fails=$((fails+1)); }
echo "report_golden: $fails failure(s)"
[ "$fails" = 0 ]
