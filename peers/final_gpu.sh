#!/usr/bin/env bash
# One device-tool call's worth of measurements for issues 12, 14, 16 and 17 on the GPU machine
# (session 4), every part under its own time limit, in priority order; OUT/timing.txt has each
# part's wall time. Needs a build with CLBENCH_CUDA=ON (the twins) and, for `recommend`, nothing
# else: its check runs afterwards on the suite's JSON (no device needed).
#   bash peers/final_gpu.sh OUT BUILD_DIR [TGZ]    (after `source .gpu/activate.sh`)
# TGZ (e.g. $OUT/final.tgz of the device tool) is rewritten after every part, so a call cut off
# by its time limit still brings back every finished part.
set -u
set -f # row patterns are clbench globs
out=${1:?usage: final_gpu.sh OUT BUILD_DIR} bd=${2:?usage: final_gpu.sh OUT BUILD_DIR}
clb=$bd/clbench
tgz=${3:-$out/../final.tgz}
mkdir -p "$out"
export XDG_CACHE_HOME=$out/cache # the tuned rung's winner is part of the record
pd_of() { "$clb" list | awk -v want="$1" '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
          /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ want) {print p":"d; exit}}'; }
gpu=${FINAL_GPU:-$(pd_of NVIDIA)} cpu=$(pd_of Portable)
{ echo "gpu=$gpu cpu=$cpu"; date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,temperature.gpu --format=csv; } >"$out/devices.txt" 2>&1
part() { # NAME LIMIT_S COMMAND...: stdout+stderr to OUT/NAME.txt
    local name=$1 limit=$2 t0=$SECONDS; shift 2
    timeout "$limit" "$@" >"$out/$name.txt" 2>&1
    echo "$name: exit $? in $((SECONDS - t0)) s" | tee -a "$out/timing.txt"
    tar czf "$tgz.tmp" -C "$out" --exclude=cache . && mv "$tgz.tmp" "$tgz"
}
part selftest 30 "$bd/cuda_selftest"
part torment 90 "$clb" run -d "$gpu" --reps 10 'app.mcpi.*' 'app.strmatch.*' --json "$out/torment.json"
part sgemm 150 "$clb" run -d "$gpu" compute.fp32.fma app.sgemm.double_buffered app.sgemm.tuned \
    app.sgemm.clblast app.sgemm.cuda app.sgemm.cublas --json "$out/sgemm.json"
part dgemm_saxpy 120 "$clb" run -d "$gpu" compute.fp64.fma memory.triad app.dgemm.tuned app.dgemm.clblast \
    app.dgemm.cuda app.dgemm.cublas app.saxpy.opencl app.saxpy.opencl_float4 app.saxpy.cuda --json "$out/dgemm_saxpy.json"
part read 40 "$clb" run -d "$gpu" memory.read_linear --json "$out/read.json"
part clpeak 40 clpeak -p "${gpu%%:*}" -d "${gpu##*:}" --global-bandwidth
for i in 1 2; do
    part suite-quick-$i 200 "$clb" suite --quick --platforms all --json "$out/suite-quick-$i.json" \
        --html "$out/suite-quick-$i.html"
done
part compare 30 "$clb" compare "$out/suite-quick-1.json" "$out/suite-quick-2.json" --threshold 3%
cp -r "$out/cache" "$out/tune-cache" 2>/dev/null
tar czf "$tgz.tmp" -C "$out" --exclude=cache . && mv "$tgz.tmp" "$tgz"
