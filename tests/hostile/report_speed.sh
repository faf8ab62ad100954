#!/usr/bin/env bash
# Report and compare stay near-linear in their input: the HTML report of one result with a
# 100,000-point curve and compare of two documents of 20,000 results each, median of three runs,
# each within the target of 2 s (docs/results/report-speed.md; quadratic code took minutes).
# usage: report_speed.sh CLBENCH SOURCE_DIR [LIMIT_S]
set -u
bin=$1 src=$2 limit=${3:-2} tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tests/hostile/report_make_docs.py" big "$src/tests/data/sample.json" "$tmp" || exit 1
median() { # command... : prints the median wall time of three runs (a run past 60 s counts as 60)
    local t=()
    for _ in 1 2 3; do
        local s e
        s=$(date +%s.%N)
        timeout 60 "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        t+=("$(echo "$e - $s" | bc)")
    done
    printf '%s\n' "${t[@]}" | sort -g | sed -n 2p
}
fails=0
for what in curve compare; do
    if [ $what = curve ]; then
        m=$(median "$bin" report "$tmp/curve.json" --html "$tmp/curve.html")
    else
        m=$(median "$bin" compare "$tmp/many_a.json" "$tmp/many_b.json")
    fi
    printf '%s: median %.2f s (limit %s s)\n' "$what" "$m" "$limit"
    [ "$(echo "$m <= $limit" | bc)" = 1 ] || { echo "FAIL: $what took $m s"; fails=$((fails+1)); }
done
grep -q '<polyline' "$tmp/curve.html" || { echo "FAIL: the curve report has no plot"; fails=$((fails+1)); }
[ $fails = 0 ] && echo "PASS: 100,000-point curve report and 20,000-result compare within ${limit} s"
exit $((fails > 0))
