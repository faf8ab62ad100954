#!/usr/bin/env bash
# Session 6, GPU call 3 (H100 host): GEMM warp tiles with the DGEMM-only candidates (issue 14),
# BRUSS2D N = 4096 tiled_2d against vectorized (15), the recommend check's measurement on both
# devices (17), then the tiled_2d steps sweep if time is left.  usage: bash peers/s6_call3.sh OUT BUILD
set -u
out=$1 bd=$2
mkdir -p "$out/gemm" "$out/euler" "$out/rec"
pack() { tar czf "$out/s6c3.tgz" -C "$out" gemm euler rec 2>/dev/null; }
t0=$(date +%s)
timeout 170 bash peers/gemm_warp_gpu.sh "$out/gemm" "$bd" >"$out/gemm/log.txt" 2>&1
echo "gemm rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/gemm/log.txt"
pack
t0=$(date +%s)
CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=64 timeout 100 "$bd/clbench" run -d 0:0 --reps 5 memory.copy \
    app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d app.euler.bruss2d.f64.vectorized \
    app.euler.bruss2d.f64.tiled_2d --json "$out/euler/bruss2d-2d.json" >"$out/euler/bruss2d-2d.txt" 2>&1
echo "euler rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/euler/log.txt"
pack
t0=$(date +%s)
CLBENCH=$bd/clbench CLBENCH_GEMM_N=2048 timeout 270 sh peers/recommend_check.sh measure "$out/rec/h100.json" --all-devices >"$out/rec/measure.txt" 2>&1
echo "measure rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/rec/wall.txt"
CLBENCH=$bd/clbench CLBENCH_GEMM_N=2048 sh peers/recommend_check.sh check "$out/rec/check" "$out/rec/h100.json" >"$out/rec/check.txt" 2>&1
pack
t0=$(date +%s)
EULER_STEPS=64 timeout 45 bash peers/euler_gpu.sh "$out/euler" bruss2d-2d-steps "$bd/clbench" >"$out/euler/steps-log.txt" 2>&1
echo "steps rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/euler/log.txt"
pack
