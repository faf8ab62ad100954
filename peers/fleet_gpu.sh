#!/usr/bin/env bash
# A fleet on one host with two different devices (the GPU machine: an NVIDIA GPU and PoCL on the
# Xeon): the same rows run (1) on each device alone, (2) on both at once with --all-devices, and
# (3) as a two-rank MPI run, one rank per device; summary.txt has the wall times and each row's
# ratio to its single-device figure (docs/results/fleet.md).
#   bash peers/fleet_gpu.sh OUT BUILD_DIR GPU_SEL CPU_SEL      (after `source .gpu/activate.sh`)
# FLEET_ROWS overrides the rows; the MPI part runs only when mpirun is on PATH (FLEET_MPI=0: never).
set -u
set -f # the rows are clbench globs
out=${1:?usage: fleet_gpu.sh OUT BUILD_DIR GPU_SEL CPU_SEL} bd=${2:?} gpu=${3:?} cpu=${4:?}
rows=${FLEET_ROWS:-compute.fp32.fma compute.fp64.fma memory.read_linear memory.triad}
clb=$bd/clbench
mkdir -p "$out"
. "$(dirname "$0")/timed.sh"
# The first run of a row builds its kernels (PoCL's and NVIDIA's caches keep them): one discarded
# run first, so that every timed run below finds the same warm caches.
[ "${FLEET_WARM:-1}" = 1 ] && timed warmup "$clb" run $rows --all-devices --json "$out/warmup.json"
timed single-gpu "$clb" run $rows -d "$gpu" --json "$out/single-gpu.json"
timed single-cpu "$clb" run $rows -d "$cpu" --json "$out/single-cpu.json"
timed all-devices "$clb" run $rows --all-devices --json "$out/all-devices.json"
if [ "${FLEET_MPI:-1}" = 1 ] && command -v mpirun >/dev/null; then
    timed mpi mpirun --allow-run-as-root --oversubscribe --bind-to none \
        -np 1 -x CLBENCH_RANK_DEVICE="$gpu" "$clb" run --mpi $rows --json "$out/mpi.json" : \
        -np 1 -x CLBENCH_RANK_DEVICE="$cpu" "$clb" run --mpi $rows --json "$out/mpi.json"
fi
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    if not os.path.exists(p):
        return []
    return json.load(open(p)).get("devices", [])
def wall(name):
    try:
        return float(open(os.path.join(out, name + ".time")).read().split("wall_s=")[1])
    except (OSError, IndexError, ValueError):
        return None
single = {}
for name in ("single-gpu", "single-cpu"):
    for dev in load(name):
        single[dev["device"]["CL_DEVICE_NAME"]] = {r["name"]: r for r in dev["results"]}
w = {n: wall(n) for n in ("single-gpu", "single-cpu", "all-devices", "mpi")}
print("wall s:", ", ".join(f"{k} {v:.1f}" for k, v in w.items() if v is not None))
longest = max(v for k, v in w.items() if k.startswith("single") and v is not None)
for k in ("all-devices", "mpi"):
    if w[k] is not None:
        print(f"{k} / longer single run: {w[k] / longest:.3f} (target <= 1.1 for all-devices)")
for run in ("all-devices", "mpi"):
    for dev in load(run):
        name = dev["device"]["CL_DEVICE_NAME"]
        ref = single.get(name, {})
        for r in dev["results"]:
            s = ref.get(r["name"])
            if r["status"] != "ok" or not s or s["status"] != "ok":
                print(f"{run} | {name[:30]} | {r['name']} | {r['status']} (single: {s and s['status']})")
                continue
            print(f"{run} | {name[:30]} | {r['name']} | {r['value']:.5g} / {s['value']:.5g} = {r['value'] / s['value']:.3f}")
PY
