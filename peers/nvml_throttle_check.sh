#!/usr/bin/env bash
# NVML readings around every row on an NVIDIA GPU: runs ROWS on DEVICE, prints each
# result's status, reason and the nvml_before/nvml_after readings, with nvidia-smi's clocks,
# throttle reasons and power as the peer read before and after the run.
# usage: bash peers/nvml_throttle_check.sh OUTDIR [clbench-binary]     (from the repository root)
# env: NVML_ROWS (default: compute.fp32.fma memory.triad), NVML_DEVICE (default 0:0).
set -u
out=${1:?usage: peers/nvml_throttle_check.sh OUTDIR [clbench]}
bin=${2:-build/clbench}
mkdir -p "$out"
read -r -a rows <<<"${NVML_ROWS:-compute.fp32.fma memory.triad}"
smi() {
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.max.sm,clocks.applications.graphics,clocks.default_applications.graphics,temperature.gpu,power.draw,power.limit,clocks_throttle_reasons.active --format=csv >"$out/nvidia-smi-$1.csv" 2>&1
}
smi before
"$bin" run "${rows[@]}" -d "${NVML_DEVICE:-0:0}" --json "$out/r.json" 2>&1 | tee "$out/run.txt"
smi after
python3 - "$out/r.json" <<'PY' | tee "$out/summary.txt"
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    for r in d["results"]:
        p = r["params"]
        print(f"{r['name']}: {r['status']} value={r.get('value')} reason={r.get('reason')}")
        print(f"  nvml_device: {p.get('nvml_device', 'ABSENT')}")
        for k in ("nvml_before", "nvml_after"):
            print(f"  {k}: {json.dumps(p.get(k, 'ABSENT'))}")
PY
cat "$out"/nvidia-smi-*.csv 2>/dev/null
