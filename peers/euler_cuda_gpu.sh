#!/usr/bin/env bash
# app.euler.cuda on the GPU machine (docs/apps/cuda.md, docs/results/euler.md): the module's selftest
# (its euler_string entry against a double run), then the twin beside the OpenCL rows
# app.euler.string.f32.coalesced and .vectorized and memory.copy (the one-step DRAM bound,
# 8 bytes per component and step) in ONE clbench run on device DEV (default 0:0) at STRING n = 1e8,
# 64 steps; then `clbench suite --quick` on the default device, whose Euler line shows the CUDA column.
# usage: bash peers/euler_cuda_gpu.sh OUT BUILD_DIR   (BUILD_DIR built with CLBENCH_CUDA=AUTO or ON)
# env: DEV (default 0:0), EULER_N (default 100000000; smaller only to try the script elsewhere)
# Writes OUT/{devices,selftest}.txt, OUT/euler_cuda.{json,txt}, OUT/ratios.txt (OpenCL / CUDA ns per
# update), OUT/suite_quick.{json,txt}, OUT/suite_euler.txt (the suite's Euler lines). About 1.5 min on an H100.
set -u
out=${1:?usage: peers/euler_cuda_gpu.sh OUT BUILD_DIR} bd=${2:?usage: peers/euler_cuda_gpu.sh OUT BUILD_DIR}
dev=${DEV:-0:0}
clb=$bd/clbench
mkdir -p "$out"
[ -x "$clb" ] || { echo "no $clb"; exit 2; }
[ -f "$bd/libclbench_cuda.so" ] || echo "warning: no $bd/libclbench_cuda.so: the twin will be unsupported"
{ date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null; "$clb" list;
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,memory.total --format=csv; } \
    >"$out/devices.txt" 2>&1
if [ -x "$bd/cuda_selftest" ]; then
    timeout 60 "$bd/cuda_selftest" >"$out/selftest.txt" 2>&1
    echo "selftest exit $?" >>"$out/selftest.txt"
    cat "$out/selftest.txt"
fi
start=$(date +%s)
CLBENCH_EULER_N=${EULER_N:-100000000} CLBENCH_EULER_STEPS=64 timeout 180 "$clb" run -d "$dev" --reps 10 memory.copy \
    app.euler.string.f32.coalesced app.euler.string.f32.vectorized app.euler.cuda \
    --json "$out/euler_cuda.json" >"$out/euler_cuda.txt" 2>&1
echo "exit $?, wall $(( $(date +%s) - start )) s" >>"$out/euler_cuda.txt"
cat "$out/euler_cuda.txt"
python3 - "$out/euler_cuda.json" >"$out/ratios.txt" <<'PY'
import json, sys
try:
    dev = json.load(open(sys.argv[1]))["devices"][0]
except (OSError, ValueError, KeyError, IndexError) as e:
    sys.exit(f"no results ({e})")
res = {r["name"]: r for r in dev["results"]}
print("device:", dev["device"].get("CL_DEVICE_NAME", "?"))
cu, cp = res.get("app.euler.cuda", {}), res.get("memory.copy", {})
for k in ("cuda_device", "cuda_device_match", "n", "steps", "max_rel_error", "tolerance"):
    print(f"app.euler.cuda {k}: {cu.get('params', {}).get(k)}")
copy = cp.get("value") if cp.get("status") == "ok" else None
print(f"memory.copy: {cp.get('status')} {copy} {cp.get('unit', '')}")
for name in ("app.euler.string.f32.coalesced", "app.euler.string.f32.vectorized", "app.euler.cuda"):
    r = res.get(name, {})
    if r.get("status") != "ok":
        print(f"{name}: {r.get('status')} {r.get('reason', '')}")
        continue
    gbs = r["params"].get("effective_bandwidth_gbs")
    bound = f", {gbs / copy:.3f} of memory.copy" if copy and gbs else ""
    print(f"{name}: {r['value']:.4g} ns/update (median, n {r['stats']['n']}), {gbs:.4g} GB/s effective{bound}")
    if name != "app.euler.cuda" and cu.get("status") == "ok":
        print(f"  {name} / app.euler.cuda = {r['value'] / cu['value']:.3f} (time ratio, > 1: CUDA faster)")
PY
cat "$out/ratios.txt"
start=$(date +%s)
timeout 240 "$clb" suite --quick --json "$out/suite_quick.json" >"$out/suite_quick.txt" 2>"$out/suite_quick.err"
echo "suite --quick exit $?, wall $(( $(date +%s) - start )) s" | tee -a "$out/suite_quick.txt"
awk '/^Euler /{t = 1; print; next} t && /^ /{print; next} {t = 0} /^speedup of the best/ || /^  Euler /{print}' \
    "$out/suite_quick.txt" >"$out/suite_euler.txt"
cat "$out/suite_euler.txt"
