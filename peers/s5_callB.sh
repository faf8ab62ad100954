#!/usr/bin/env bash
# Session 5, GPU call B (H100): fleet with MPI (issue 21), Euler STRING f32 all rows at the
# 4-groups-per-SM default (15).  usage: bash peers/s5_callB.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/fleet" "$out/euler"
pack() { tar czf "$out/s5b.tgz" -C "$out" fleet euler 2>/dev/null; }
t0=$(date +%s)
timeout 330 bash peers/fleet_gpu.sh "$out/fleet" "$bd" 0:0 1:0 >"$out/fleet/log.txt" 2>&1
echo "fleet rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/fleet/log.txt"
pack
t0=$(date +%s)
EULER_STEPS=64 timeout 230 bash peers/euler_gpu.sh "$out/euler" string-f32 "$bd/clbench" >"$out/euler/log.txt" 2>&1
echo "euler rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/euler/log.txt"
pack
