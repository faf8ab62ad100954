#!/usr/bin/env bash
# Session 5, GPU call D (H100): warp-tile GEMM (issue 14), the Euler CUDA twin (15/16), the stream
# workload's recommend check on both devices (17), fleet wall times with two rows (21).
# usage: bash peers/s5_callD.sh OUT BUILD
set -u
set -f
out=$1 bd=$2
mkdir -p "$out/warp" "$out/ecuda" "$out/rec" "$out/fleet"
pack() { tar czf "$out/s5d.tgz" -C "$out" warp ecuda rec fleet 2>/dev/null; }
bash peers/gemm_warp_gpu.sh "$out/warp" "$bd" >"$out/warp/log.txt" 2>&1
pack
timeout 60 "$bd/cuda_selftest" >"$out/ecuda/selftest.txt" 2>&1; echo "selftest rc=$?" >>"$out/ecuda/selftest.txt"
CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=64 timeout 100 "$bd/clbench" run -d 0:0 --reps 5 memory.copy \
    app.euler.string.f32.coalesced app.euler.string.f32.vectorized app.euler.cuda \
    --json "$out/ecuda/euler_cuda.json" >"$out/ecuda/euler_cuda.txt" 2>&1
echo "euler cuda rc=$?" >>"$out/ecuda/euler_cuda.txt"
pack
t0=$(date +%s)
timeout 100 "$bd/clbench" run memory.triad launch.queued_end app.saxpy.opencl app.saxpy.opencl_float4 \
    --all-devices --json "$out/rec/stream.json" >"$out/rec/stream.txt" 2>&1
echo "stream measure rc=$? $(( $(date +%s) - t0 )) s" >>"$out/rec/stream.txt"
"$bd/clbench" recommend --workload stream --size 33554432 --from "$out/rec/stream.json" >"$out/rec/recommend-stream.txt" 2>&1
pack
t0=$(date +%s)
FLEET_ROWS="compute.fp32.fma memory.triad" timeout 150 bash peers/fleet_gpu.sh "$out/fleet" "$bd" 0:0 1:0 >"$out/fleet/log.txt" 2>&1
echo "fleet rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/fleet/log.txt"
pack
