#!/usr/bin/env bash
# Session 7, GPU call 2 (H100 host): two more interleaved pairs of the host Xeon's scale/add rows
# (issue 12; pooled with call 1's pair in docs/results/memory.md), then the GEMM warp-tile check
# again (issue 14: did session 6's SGEMM dip from 46.3 to 44.5 TF repeat?).
#   usage: bash peers/s7_call2.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/ab" "$out/gemm"
pack() { tar czf "$out/s7c2.tgz" -C "$out" ab gemm log.txt 2>/dev/null; }
step() { # name timeout command...
    local name=$1 lim=$2 t0; shift 2; t0=$(date +%s)
    timeout "$lim" "$@"
    echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/log.txt"
    pack
}
MAX_S=200 step xeon-ab 360 bash peers/memory_ab.sh "$out/ab" 2 1:0 "$bd/clbench" "scale add" >"$out/ab/log-run.txt" 2>&1
step gemm 170 bash peers/gemm_warp_gpu.sh "$out/gemm" "$bd" >"$out/gemm/log.txt" 2>&1
