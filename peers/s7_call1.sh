#!/usr/bin/env bash
# Session 7, GPU call 1 (H100 host): the H100's STREAM rows after the no-wrap kernel change against
# stream_simple and clpeak (issue 12, three rounds of peers/memory_pairs.sh), then the host Xeon's
# scale/add rows in interleaved pairs against stream_simple -o OP (peers/memory_ab.sh).
#   usage: bash peers/s7_call1.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/pairs" "$out/ab"
pack() { tar czf "$out/s7c1.tgz" -C "$out" pairs ab log.txt 2>/dev/null; }
step() { # name timeout command...
    local name=$1 lim=$2 t0; shift 2; t0=$(date +%s)
    timeout "$lim" "$@"
    echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/log.txt"
    pack
}
{ date -u; nvidia-smi -L; "$bd/clbench" list; } >"$out/devices.txt" 2>&1
HBM_GBS=3350 step h100-pairs 260 bash peers/memory_pairs.sh "$out/pairs" 3 0:0 "$bd/clbench" >"$out/pairs/log-run.txt" 2>&1
MAX_S=150 step xeon-ab 290 bash peers/memory_ab.sh "$out/ab" 8 1:0 "$bd/clbench" "scale add" >"$out/ab/log-run.txt" 2>&1
