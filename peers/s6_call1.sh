#!/usr/bin/env bash
# Session 6, GPU call 1 (H100): isolation overhead (issue 19), Euler BRUSS2D N = 4096 f32 untiled
# rows against the one-step DRAM bound (issue 15).  usage: bash peers/s6_call1.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/iso" "$out/euler"
pack() { tar czf "$out/s6c1.tgz" -C "$out" iso euler 2>/dev/null; }
{ date -u; nvidia-smi -L; nvidia-smi -q -d CLOCK | head -30; "$bd/clbench" list; } >"$out/iso/devices.txt" 2>&1
t0=$(date +%s)
timeout 300 sh peers/isolation_overhead.sh "$out/iso" "$bd" 3 2 >"$out/iso/log.txt" 2>&1
echo "iso rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/iso/log.txt"
pack
t0=$(date +%s)
EULER_STEPS=16 timeout 200 bash peers/euler_gpu.sh "$out/euler" bruss2d-f32 "$bd/clbench" >"$out/euler/log.txt" 2>&1
echo "euler rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/euler/log.txt"
pack
