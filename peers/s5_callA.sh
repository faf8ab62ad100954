#!/usr/bin/env bash
# Session 5, GPU call A (H100): recommend check (issue 17), suite --full (16), NVML (19).
# usage: bash peers/s5_callA.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/rec" "$out/suite" "$out/nvml"
pack() { tar czf "$out/s5a.tgz" -C "$out" rec suite nvml 2>/dev/null; }
{ date -u; nvidia-smi -L; "$bd/clbench" list; } >"$out/suite/devices.txt" 2>&1
t0=$(date +%s)
CLBENCH=$bd/clbench CLBENCH_GEMM_N=4096 timeout 200 bash peers/recommend_check.sh measure "$out/rec/h100.json" --all-devices >"$out/rec/measure.txt" 2>&1
echo "measure rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/rec/wall.txt"
CLBENCH=$bd/clbench CLBENCH_GEMM_N=4096 bash peers/recommend_check.sh check "$out/rec/check" "$out/rec/h100.json" >"$out/rec/check.txt" 2>&1
for s in 2048 8192; do "$bd/clbench" recommend --workload gemm --size $s --from "$out/rec/h100.json" >"$out/rec/gemm-$s.txt" 2>&1; done
pack
t0=$(date +%s)
timeout 300 "$bd/clbench" suite --full --json "$out/suite/full.json" --html "$out/suite/full.html" >"$out/suite/full.txt" 2>"$out/suite/full.err"
echo "suite --full rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/suite/wall.txt"
pack
timeout 60 bash peers/nvml_throttle_check.sh "$out/nvml" "$bd/clbench" >"$out/nvml/log.txt" 2>&1
echo "nvml rc=$?" >>"$out/nvml/log.txt"
pack
