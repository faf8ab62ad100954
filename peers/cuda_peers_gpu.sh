#!/usr/bin/env bash
# The CUDA twins and tuned CLBlast against their OpenCL peers on an NVIDIA GPU, in one device call
# (docs/results/peers.md). usage, from the repository root after `source .gpu/activate.sh`:
#   bash peers/cuda_peers_gpu.sh OUT BUILD_DIR SECTION...
# Sections (each under its own time limit so the call always returns its files):
#   tune   clblast_tuner_xgemm for SGEMM and DGEMM (phase 1: CLBlast's fixed set, TUNE_N cubed,
#          default 4096), both at once (the tuner is bound by kernel compilation; a collision can
#          only slow a candidate, and the row measures the chosen one itself); OUT/tune/*.json
#   base   the twins and their OpenCL peers as they stand (mcpi, strmatch, sgemm, dgemm)
#   final  the twins, cuBLAS, CLBlast untuned and tuned (CLBENCH_CLBLAST_TUNING=OUT/tune/...),
#          the OpenCL peers, one clbench run (--json), same process order every time
#   iso    the isolation overhead in ISO_PAIRS (5) interleaved pairs: `clbench run -d GPU --quick`
#          with worker processes against CLBENCH_ISOLATION=off (peers/ab_pairs.sh; summary by
#          peers/ab_summary.py), no new pair after ISO_MAX_S (300) s
#   suite  clbench suite --quick on the GPU (the "vs CUDA" column with the twins and cuBLAS)
#   twins2 the SAXPY and Euler twins against their OpenCL rows: cuda_selftest (BUILD_DIR), then one
#          clbench run at full size (SAXPY's sweep to its largest size; Euler STRING f32 at
#          CLBENCH_EULER_N=TW_EULER_N (1e8), CLBENCH_EULER_STEPS=TW_EULER_STEPS (64)), --json
#   fleet  --all-devices against the longer of the two single-device runs, FLEET_PAIRS (5) rounds
#          of `clbench run --quick FLEET_ROWS` (default compute.fp32.fma memory.triad; a bounded
#          subset) on GPU and CPU alone and on both, the order rotating; one discarded warm-up
set -u
out=$1 bd=$2; shift 2
mkdir -p "$out"
clb=$(cd "$bd" && pwd)/clbench
gpu=$("$clb" list | awk '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
      /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ /NVIDIA/) {print p":"d; exit}}')
echo "gpu=$gpu" | tee "$out/devices.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv >>"$out/devices.txt" 2>&1
tune_one() { # precision, deadline (s): phase 1 only; stopped once its JSON is written
    local p=$1 lim=$2 t0=$SECONDS
    clblast_tuner_xgemm -m "${TUNE_N:-4096}" -n "${TUNE_N:-4096}" -k "${TUNE_N:-4096}" -precision "$p" \
        -runs "${TUNE_RUNS:-2}" -fraction 0.002 >"tuner-$p.log" 2>&1 &
    local pid=$!
    while kill -0 $pid 2>/dev/null && [ ! -s "clblast_xgemm_1_$p.json" ] && [ $((SECONDS - t0)) -lt "$lim" ]; do sleep 2; done
    sleep 1; kill $pid 2>/dev/null; wait $pid 2>/dev/null
    echo "tuner $p: $((SECONDS - t0)) s, $(ls clblast_xgemm_*_"$p".json 2>/dev/null)"
}
for s in "$@"; do
    t0=$(date +%s)
    case $s in
    tune) mkdir -p "$out/tune"
          ( cd "$out/tune" && { tune_one 32 "${TUNE_LIMIT:-400}" & tune_one 64 "${TUNE_LIMIT:-400}" & wait; } ) \
              2>&1 | tee "$out/tune/summary.txt" ;;
    base) timeout "${BASE_LIMIT:-150}" "$clb" run -d "$gpu" --json "$out/base.json" app.mcpi.cuda 'app.mcpi.cl_*' \
              app.strmatch.cuda 'app.strmatch.cl_*' app.sgemm.cuda app.dgemm.cuda >"$out/base.txt" 2>&1
          echo "exit $?" >>"$out/base.txt" ;;
    final) tj=$(ls "$out"/tune/clblast_xgemm_1_32.json "$out"/tune/clblast_xgemm_1_64.json 2>/dev/null | paste -sd:)
          CLBENCH_CLBLAST_TUNING=${CLBLAST_TUNING:-$tj} timeout "${FINAL_LIMIT:-480}" "$clb" run -d "$gpu" \
              --json "$out/final.json" app.mcpi.cuda 'app.mcpi.cl_*' app.strmatch.cuda 'app.strmatch.cl_*' \
              app.sgemm.cuda app.sgemm.cublas app.sgemm.warp_tiles app.sgemm.tuned app.sgemm.clblast app.sgemm.clblast_tuned \
              app.dgemm.cuda app.dgemm.cublas app.dgemm.warp_tiles app.dgemm.tuned app.dgemm.clblast app.dgemm.clblast_tuned \
              >"$out/final.txt" 2>&1
          echo "exit $?" >>"$out/final.txt" ;;
    iso) here=$(cd "$(dirname "$0")" && pwd)
         MAX_S=${ISO_MAX_S:-300} bash "$here/ab_pairs.sh" "$out/iso" "${ISO_PAIRS:-5}" \
             isolated "CLBENCH_ISOLATION=on $clb run -d $gpu --quick --quiet" \
             in_process "CLBENCH_ISOLATION=off $clb run -d $gpu --quick --quiet"
         python3 "$here/ab_summary.py" "$out/iso/times.txt" isolated in_process | tee "$out/iso/summary.txt" ;;
    suite) timeout "${SUITE_LIMIT:-240}" "$clb" suite --quick -d "$gpu" --json "$out/suite.json" >"$out/suite.txt" 2>&1
           echo "exit $?" >>"$out/suite.txt" ;;
    fleet) cpu=$("$clb" list | awk '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
               /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ /Portable/) {print p":"d; exit}}')
           rows=${FLEET_ROWS:-compute.fp32.fma memory.triad}
           mkdir -p "$out/fleet"
           "$clb" run --all-devices --quick --quiet $rows >/dev/null 2>&1 # warm-up: kernels built and cached
           now() { date +%s.%N; }
           fl() { local t0 t1 rc=0; t0=$(now); "$clb" run "$@" --quick --quiet --json "$out/fleet/$name-$i.json" $rows >/dev/null 2>>"$out/fleet/stderr.txt" || rc=$?; t1=$(now); echo "$i $name $t0 $t1 $rc" >>"$out/fleet/times.txt"; }
           st=$SECONDS
           for ((i = 0; i < ${FLEET_PAIRS:-5}; i++)); do
               [ $((SECONDS - st)) -ge "${FLEET_MAX_S:-240}" ] && break
               for k in 0 1 2; do
                   case $(( (i + k) % 3 )) in
                   0) name=all; fl --all-devices ;;
                   1) name=gpu; fl -d "$gpu" ;;
                   2) name=cpu; fl -d "$cpu" ;;
                   esac
               done
           done
           echo "rows: $rows; gpu $gpu cpu $cpu" >"$out/fleet/commands.txt"
           python3 "$(cd "$(dirname "$0")" && pwd)/ab_summary.py" "$out/fleet/times.txt" all gpu,cpu | tee "$out/fleet/summary.txt" ;;
    twins2) timeout 60 "$(cd "$bd" && pwd)/cuda_selftest" >"$out/selftest.txt" 2>&1; echo "exit $?" >>"$out/selftest.txt"
           CLBENCH_EULER_N=${TW_EULER_N:-100000000} CLBENCH_EULER_STEPS=${TW_EULER_STEPS:-64} \
           timeout "${TW_LIMIT:-240}" "$clb" run -d "$gpu" --json "$out/twins2.json" memory.copy \
               app.saxpy.opencl app.saxpy.opencl_float4 app.saxpy.cuda app.euler.string.f32.vectorized \
               app.euler.string.f32.diamond_row_korr app.euler.string.f32.honeycomb app.euler.cuda \
               >"$out/twins2.txt" 2>&1
           echo "exit $?" >>"$out/twins2.txt" ;;
    *) echo "unknown section $s" ;;
    esac
    echo "section $s: $(( $(date +%s) - t0 )) s" | tee -a "$out/devices.txt"
done
