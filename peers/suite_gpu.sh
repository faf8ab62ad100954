#!/bin/sh
# On the GPU machine: clbench suite --quick, then --full, on the GPU and PoCL
# (--platforms all), each twice for reproducibility; JSON, HTML, stdout and wall times under OUT,
# then the compare of the two runs of each mode (score deltas with their intervals).
# usage: peers/suite_gpu.sh OUT BUILD_DIR
# env: SUITE_MODES (default "quick full"), SUITE_ARGS (default "--platforms all"; "" = the
#      default device only)
set -u
OUT=${1:?usage: suite_gpu.sh OUT BUILD_DIR}
BUILD=${2:?usage: suite_gpu.sh OUT BUILD_DIR}
mkdir -p "$OUT"
{ "$BUILD/clbench" list; nvidia-smi -L 2>/dev/null; lscpu | sed -n '1,20p'; } >"$OUT/devices.txt" 2>&1
for mode in ${SUITE_MODES:-quick full}; do
    for i in 1 2; do
        start=$(date +%s.%N)
        "$BUILD/clbench" suite --$mode ${SUITE_ARGS---platforms all} --json "$OUT/suite-$mode-$i.json" \
            --html "$OUT/suite-$mode-$i.html" >"$OUT/suite-$mode-$i.txt" 2>"$OUT/suite-$mode-$i.err"
        rc=$?
        end=$(date +%s.%N)
        echo "suite --$mode run $i: exit $rc, wall $(awk -v a="$start" -v b="$end" 'BEGIN{print b - a}') s" | tee -a "$OUT/wall.txt"
    done
    "$BUILD/clbench" compare "$OUT/suite-$mode-1.json" "$OUT/suite-$mode-2.json" --threshold 3% \
        >"$OUT/compare-$mode.txt" 2>&1
    echo "compare --$mode run 1 vs 2 (3%): exit $?" | tee -a "$OUT/wall.txt"
done
