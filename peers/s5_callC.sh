#!/usr/bin/env bash
# Session 5, GPU call C (H100): read_linear vs clpeak (issue 12), recommend measure+check (17),
# fleet with warm caches and --bind-to none (21).  usage: bash peers/s5_callC.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/read" "$out/rec" "$out/fleet"
pack() { tar czf "$out/s5c.tgz" -C "$out" read rec fleet 2>/dev/null; }
DEADLINE_S=110 bash peers/read_linear_gpu.sh "$out/read" "$bd" 3 >"$out/read/log.txt" 2>&1
pack
t0=$(date +%s)
CLBENCH=$bd/clbench CLBENCH_GEMM_N=4096 timeout 220 bash peers/recommend_check.sh measure "$out/rec/h100.json" --all-devices >"$out/rec/measure.txt" 2>&1
echo "measure rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/rec/wall.txt"
CLBENCH=$bd/clbench CLBENCH_GEMM_N=4096 bash peers/recommend_check.sh check "$out/rec/check" "$out/rec/h100.json" >"$out/rec/check.txt" 2>&1
for s in 2048 8192; do "$bd/clbench" recommend --workload gemm --size $s --from "$out/rec/h100.json" >"$out/rec/gemm-$s.txt" 2>&1; done
pack
t0=$(date +%s)
timeout 240 bash peers/fleet_gpu.sh "$out/fleet" "$bd" 0:0 1:0 >"$out/fleet/log.txt" 2>&1
echo "fleet rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/fleet/log.txt"
pack
