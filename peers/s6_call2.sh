#!/usr/bin/env bash
# Session 6, GPU call 2 (H100 host): --all-devices wall time against the longer single run with
# warm kernel caches (issue 21), Euler BRUSS2D N = 4096 vectorized rows after the row-walk
# change (issue 15).  usage: bash peers/s6_call2.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/fleet" "$out/euler"
pack() { tar czf "$out/s6c2.tgz" -C "$out" fleet euler 2>/dev/null; }
t0=$(date +%s)
CLBENCH_GEMM_N=2048 CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=16 timeout 100 "$bd/clbench" run -d 0:0 --reps 5 \
    memory.copy app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f64.vectorized app.euler.bruss2d.f32.coalesced \
    --json "$out/euler/bruss2d.json" >"$out/euler/bruss2d.txt" 2>&1
echo "euler rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/euler/log.txt"
pack
t0=$(date +%s)
FLEET_MPI=0 FLEET_ROWS="compute.fp32.fma memory.triad" timeout 420 bash peers/fleet_gpu.sh "$out/fleet" "$bd" 0:0 1:0 >"$out/fleet/log.txt" 2>&1
echo "fleet rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/fleet/log.txt"
pack
