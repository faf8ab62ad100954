#!/usr/bin/env bash
# Session 7, GPU calls on the H100 host.  usage: bash peers/s7_calls.sh OUT BUILD CALL
#   CALL 1: the H100's STREAM rows after the no-wrap kernel change against stream_simple and
#           clpeak (issue 12, three rounds of peers/memory_pairs.sh), then the host Xeon's
#           scale/add rows in interleaved pairs against stream_simple -o OP (peers/memory_ab.sh).
#   CALL 2: two more Xeon scale/add pairs (pooled with call 1's in docs/results/memory.md),
#           then the GEMM warp-tile check again (issue 14: did session 6's SGEMM dip repeat?).
# Calls 3 and 4 were `bash peers/gemm_warp_gpu.sh OUT/gemm BUILD` alone (docs/results/gemm.md).
set -u
out=$1 bd=$2 call=$3
mkdir -p "$out/pairs" "$out/ab" "$out/gemm"
pack() { tar czf "$out/s7c$call.tgz" -C "$out" pairs ab gemm log.txt 2>/dev/null; }
step() { # name timeout command...
    local name=$1 lim=$2 t0; shift 2; t0=$(date +%s)
    timeout "$lim" "$@"
    echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/log.txt"
    pack
}
{ date -u; nvidia-smi -L; "$bd/clbench" list; } >"$out/devices.txt" 2>&1
if [ "$call" = 1 ]; then
    HBM_GBS=3350 step h100-pairs 260 bash peers/memory_pairs.sh "$out/pairs" 3 0:0 "$bd/clbench" >"$out/pairs/log-run.txt" 2>&1
    MAX_S=150 step xeon-ab 290 bash peers/memory_ab.sh "$out/ab" 8 1:0 "$bd/clbench" "scale add" >"$out/ab/log-run.txt" 2>&1
else
    MAX_S=200 step xeon-ab 360 bash peers/memory_ab.sh "$out/ab" 2 1:0 "$bd/clbench" "scale add" >"$out/ab/log-run.txt" 2>&1
    step gemm 170 bash peers/gemm_warp_gpu.sh "$out/gemm" "$bd" >"$out/gemm/log.txt" 2>&1
fi
