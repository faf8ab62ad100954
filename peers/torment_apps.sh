#!/usr/bin/env bash
# app.mcpi and app.strmatch (seed 004, TORMENT OpenACC) on each device type present, one clbench
# invocation per device type, so that the sequential C row, the OpenCL rows and (when the CUDA
# module is built and found: app.*.cuda) the CUDA twin are measured in the same run. Prints per
# device: every row's value, speedup_vs_sequential, and per app the best OpenCL row against
# the CUDA twin (time ratio OpenCL / CUDA, target <= 1.25).
#
# usage (repository root, GPU machine after `source .gpu/activate.sh`):
#   bash peers/torment_apps.sh OUTDIR [clbench-binary]
# env: TORMENT_REPS (default 10, as the seed), TORMENT_TYPES (default "gpu cpu"),
#      CLBENCH_MCPI_N / CLBENCH_STRMATCH_BYTES to override the sizes (defaults: GPU 2^30
#      samples, CPU device 2^26; 10^7 text bytes).
set -u
set -f # row patterns are clbench globs
out=${1:?usage: torment_apps.sh OUTDIR [clbench]}
bin=${2:-build/clbench}
reps=${TORMENT_REPS:-10}
mkdir -p "$out"
[ -x "$bin" ] || { echo "no clbench binary at $bin"; exit 2; }
{ date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv 2>/dev/null
  lscpu | grep -E '^Model name|^CPU\(s\)'; } >"$out/provenance.txt"
"$bin" list >"$out/clbench-list.txt" 2>&1
for t in ${TORMENT_TYPES:-gpu cpu}; do
    "$bin" run --type "$t" --reps "$reps" 'app.mcpi.*' 'app.strmatch.*' --json "$out/torment_$t.json" \
        >"$out/torment_$t.txt" 2>&1
    echo "$t: rc=$?"
    cat "$out/torment_$t.txt"
done
python3 - "$out" >"$out/summary.md" <<'PY'
import glob, json, os, sys
print("| device | row | value | unit | speedup_vs_sequential | status |")
print("| --- | --- | --- | --- | --- | --- |")
ratios = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "torment_*.json"))):
    for dev in json.load(open(f))["devices"]:
        name = dev.get("device", {}).get("CL_DEVICE_NAME") or os.path.basename(f)
        res = dev["results"]
        for r in res:
            p = r.get("params", {})
            v = r.get("value")
            print(f"| {name} | {r['name']} | {v if v is None else f'{v:.4g}'} | {r.get('unit', '')} | "
                  f"{p.get('speedup_vs_sequential', '')} | {r['status']} {r.get('reason') or ''} |")
        for app in ("mcpi", "strmatch"):
            ok = {r["name"]: r["value"] for r in res if r["status"] == "ok" and r["name"].startswith(f"app.{app}.")}
            cl = {k: v for k, v in ok.items() if ".cl_" in k}
            cu = ok.get(f"app.{app}.cuda")
            if cl and cu:
                best = max(cl, key=cl.get)
                ratios.append(f"{name} {app}: best OpenCL {best} {cl[best]:.4g}, CUDA {cu:.4g}, "
                              f"time OpenCL/CUDA = {cu / cl[best]:.3f} (target <= 1.25)")
            elif cl:
                ratios.append(f"{name} {app}: no ok app.{app}.cuda row in this run")
print()
for line in ratios:
    print("-", line)
PY
cat "$out/summary.md"
