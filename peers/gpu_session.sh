#!/usr/bin/env bash
# The GPU machine's measurements, in sections, each under a time limit so one call of the device
# tool (10 minutes) always brings its files back; everything is packed into OUT/results.tgz.
# usage: bash peers/gpu_session.sh OUT BUILD_DIR SECTION...      (from the repository root,
#        after `source .gpu/activate.sh`). Sections:
#   full     the README main command's run (clbench run --json --html) on the default device
#   pairs    peers/memory_pairs.sh, 2 rounds, on the NVIDIA device (stream_simple, clpeak)
#   cpupairs peers/memory_pairs.sh, 1 round, on the PoCL CPU device
#   latency  latency.* on every device (cycles at the measured clock)
#   launch   peers/launch.sh (clpeak --kernel-latency beside launch.*, the gap experiment)
#   sustain  compute.fp32.fma + sustained.fp32 on the NVIDIA device, CLBENCH_SUSTAINED_S=30
#   gemm     peers/gemm.sh for SGEMM, then DGEMM + SAXPY, on the NVIDIA device
#   euler    peers/euler_gpu.sh string-f32 and bruss2d-f32 (EULER_STEPS, default 256), summary
set -u
out=$1 bd=$2; shift 2
mkdir -p "$out"
clb=$bd/clbench
pd_of() { "$clb" list | awk -v want="$1" '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
          /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ want) {print p":"d; exit}}'; }
gpu=$(pd_of NVIDIA) cpu=$(pd_of Portable)
echo "gpu=$gpu cpu=$cpu" | tee "$out/devices.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv >>"$out/devices.txt" 2>&1
for s in "$@"; do
    t0=$(date +%s)
    case $s in
    full)    timeout "${FULL_TIMEOUT:-380}" "$clb" run --json "$out/full.json" --html "$out/full.html" >"$out/full.txt" 2>&1
             echo "exit $?" >"$out/full-exit.txt" ;;
    pairs)   timeout 240 bash peers/memory_pairs.sh "$out/pairs-gpu" 2 "$gpu" "$clb" >"$out/pairs-gpu.log" 2>&1 ;;
    cpupairs) timeout 300 bash peers/memory_pairs.sh "$out/pairs-cpu" 1 "$cpu" "$clb" >"$out/pairs-cpu.log" 2>&1 ;;
    latency) for d in "$gpu" "$cpu"; do
                 timeout 90 "$clb" run 'latency.*' -d "$d" --json "$out/latency-${d/:/_}.json" >"$out/latency-${d/:/_}.txt" 2>&1
             done ;;
    launch)  LAUNCH_GAP_BIN=$bd/launch_gap LAUNCH_GAP_N=5000 timeout 100 bash peers/launch.sh "$out/launch" "$clb" >"$out/launch.log" 2>&1 ;;
    sustain) CLBENCH_SUSTAINED_S=30 timeout 150 "$clb" run compute.fp32.fma sustained.fp32 -d "$gpu" \
                 --json "$out/sustained-gpu.json" >"$out/sustained-gpu.txt" 2>&1 ;;
    gemm)    GEMM_ROWS='app.sgemm.*' timeout 330 bash peers/gemm.sh "$out/sgemm" "$gpu" "$clb" >"$out/sgemm.log" 2>&1
             GEMM_ROWS='app.dgemm.* app.saxpy.*' timeout 240 bash peers/gemm.sh "$out/dgemm_saxpy" "$gpu" "$clb" >"$out/dgemm.log" 2>&1 ;;
    clpeaklat) timeout 60 clpeak -p "${gpu%%:*}" -d "${gpu##*:}" --kernel-latency >"$out/clpeak-latency.txt" 2>&1 ;;
    nativelat) timeout 30 "$bd/clb_native_latency" >"$out/native-latency.txt" 2>&1 ;;
    sgemm)   GEMM_ROWS="${SGEMM_ROWS:-app.sgemm.*}" timeout 180 bash peers/gemm.sh "$out/sgemm" "$gpu" "$clb" >"$out/sgemm.log" 2>&1 ;;
    euler)   for p in string-f32 bruss2d-f32; do
                 EULER_STEPS=${EULER_STEPS:-256} timeout 280 bash peers/euler_gpu.sh "$out/euler" $p "$clb" >>"$out/euler.log" 2>&1
             done
             bash peers/euler_gpu.sh "$out/euler" summary >>"$out/euler.log" 2>&1 ;;
    *)       echo "unknown section $s" ;;
    esac
    echo "section $s: $(( $(date +%s) - t0 )) s" | tee -a "$out/timing.txt"
done
tar czf "$out/../results.tgz" -C "$out" . 2>/dev/null && mv "$out/../results.tgz" "$out/results.tgz"
