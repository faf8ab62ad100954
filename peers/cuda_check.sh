#!/usr/bin/env bash
# The CUDA twins on the GPU machine (docs/apps/cuda.md): the module's selftest, then the CUDA
# and cuBLAS rows beside the best OpenCL rows of the same app, at the default GPU sizes, in one
# clbench run per app so each is annotated against the same peers (compute.*.fma, memory.triad).
# usage: bash peers/cuda_check.sh OUT BUILD_DIR      (from the repository root; BUILD_DIR built
#        with CLBENCH_CUDA=AUTO or ON, so BUILD_DIR/libclbench_cuda.so and cuda_selftest exist)
# Writes OUT/selftest.txt, OUT/{sgemm,dgemm,saxpy}.{json,txt} (the text ends with the ladders),
# OUT/ratios.txt (OpenCL / CUDA twin per pair); each step under a time limit (about 9 min in all).
set -u
out=${1:?usage: peers/cuda_check.sh OUT BUILD_DIR} bd=${2:?usage: peers/cuda_check.sh OUT BUILD_DIR}
mkdir -p "$out"
clb=$bd/clbench
[ -x "$clb" ] && [ -x "$bd/cuda_selftest" ] || { echo "no $clb or $bd/cuda_selftest (build with CLBENCH_CUDA=ON)"; exit 2; }
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$out/cache} # the tuned rung's winner is part of the record
gpu=$("$clb" list | awk '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
      /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ /NVIDIA/) {print p":"d; exit}}')
{ echo "gpu=$gpu"; date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm --format=csv; } \
    >"$out/devices.txt" 2>&1
timeout 120 "$bd/cuda_selftest" >"$out/selftest.txt" 2>&1
echo "selftest exit $?" >>"$out/selftest.txt"
cat "$out/selftest.txt"
[ -n "$gpu" ] || { echo "no NVIDIA OpenCL device"; exit 3; }
run() { # NAME SECONDS ROWS...
    local name=$1 limit=$2; shift 2
    timeout "$limit" "$clb" run -d "$gpu" "$@" --json "$out/$name.json" >"$out/$name.txt" 2>&1
    echo "exit $?" >>"$out/$name.txt"
    cat "$out/$name.txt"
}
run sgemm 240 compute.fp32.fma app.sgemm.sequential app.sgemm.tiled app.sgemm.double_buffered \
    app.sgemm.tuned app.sgemm.clblast app.sgemm.cuda app.sgemm.cublas
run dgemm 180 compute.fp64.fma app.dgemm.sequential app.dgemm.double_buffered app.dgemm.tuned \
    app.dgemm.clblast app.dgemm.cuda app.dgemm.cublas
run saxpy 90 memory.triad app.saxpy.sequential app.saxpy.opencl app.saxpy.opencl_float4 app.saxpy.cuda
python3 - "$out" >"$out/ratios.txt" <<'PY'
import json, os, sys
pairs = [("sgemm", "app.sgemm.tuned", "app.sgemm.cuda"), ("sgemm", "app.sgemm.clblast", "app.sgemm.cublas"),
         ("dgemm", "app.dgemm.tuned", "app.dgemm.cuda"), ("dgemm", "app.dgemm.clblast", "app.dgemm.cublas"),
         ("saxpy", "app.saxpy.opencl", "app.saxpy.cuda"), ("saxpy", "app.saxpy.opencl_float4", "app.saxpy.cuda")]
for f, cl, cu in pairs:
    path = os.path.join(sys.argv[1], f + ".json")
    try:
        res = {r["name"]: r for r in json.load(open(path))["devices"][0]["results"]}
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"{cl} / {cu}: no results ({e})"); continue
    a, b = res.get(cl, {}), res.get(cu, {})
    if a.get("status") == "ok" and b.get("status") == "ok":
        print(f"{cl} / {cu} = {a['value']:.4g} / {b['value']:.4g} {a['unit']} = {a['value'] / b['value']:.3f}")
    else:
        print(f"{cl} / {cu}: {a.get('status')} / {b.get('status')} {b.get('reason', '')}")
PY
cat "$out/ratios.txt"
