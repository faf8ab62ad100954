#!/usr/bin/env bash
# Launch overhead and compile time on every device, next to clpeak --kernel-latency measured
# in the same run on the same device, and the gap experiment (peers/experiments/launch_gap.c,
# docs/results/launch.md). usage: bash peers/launch.sh OUTDIR [clbench-binary]
# env: LAUNCH_GAP_N (launches per variant of the experiment, default 20000; 0 skips it)
set -u
out=${1:?usage: peers/launch.sh OUTDIR [clbench]}
bin=${2:-build/clbench}
mkdir -p "$out"
gap=$out/launch_gap
if [ -n "${LAUNCH_GAP_BIN:-}" ]; then gap=$LAUNCH_GAP_BIN   # prebuilt (the GPU machine has no OpenCL headers)
else [ "${LAUNCH_GAP_N:-20000}" != 0 ] && gcc -O2 -std=c11 -o "$gap" "$(dirname "$0")/experiments/launch_gap.c" -lOpenCL || gap=; fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$out/nvidia-smi.csv"
clinfo -l | tee "$out/clinfo-l.txt"
"$bin" list | tee "$out/clbench-list.txt"
diff "$out/clinfo-l.txt" "$out/clbench-list.txt" && echo "list: identical to clinfo -l"
# Every device: P:D pairs from clbench list.
"$bin" list | awk '/^Platform #/{p=substr($2,2,length($2)-2)} /Device #/{d=$3; sub("#","",d); sub(":","",d); print p":"d}' |
while read -r pd; do
    tag=${pd/:/_}
    "$bin" info -d "$pd" --json "$out/info-$tag.json" >"$out/info-$tag.txt" 2>&1 || echo "info $pd failed: $?"
    "$bin" run 'launch.*' 'compile.*' -d "$pd" --reps 30 --json "$out/launch-$tag.json" | tee "$out/launch-$tag.txt"
    clpeak -p "${pd%%:*}" -d "${pd##*:}" --kernel-latency 2>&1 | tee "$out/clpeak-latency-$tag.txt" | grep -i "latency"
    # The experiment takes the platform's first device.
    [ -n "$gap" ] && [ "${pd##*:}" = 0 ] && "$gap" "${pd%%:*}" "${LAUNCH_GAP_N:-20000}" -t | tee "$out/launch-gap-$tag.txt"
done
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >>"$out/nvidia-smi.csv"
true
