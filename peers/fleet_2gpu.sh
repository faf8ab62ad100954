#!/usr/bin/env bash
# Two identical devices of one host (nvidia-h200-x2), docs/results/fleet.md.
#   bash peers/fleet_2gpu.sh OUT BUILD_DIR [TYPE]        (after `source .gpu/activate.sh` there)
# TYPE (default gpu) is the --type that selects the two devices; a local rehearsal uses two
# identical PoCL devices: POCL_DEVICES="pthread pthread" bash peers/fleet_2gpu.sh OUT build cpu.
# Steps: each device alone, both in one run (--type TYPE), a two-rank MPI run where each rank
# takes the device of its local rank, fleet-check on it, and the same MPI run with rank 1 slowed
# (CLBENCH_SLOWDOWN, read by the test-only preload library BUILD_DIR/tests/libclb_fault_preload.so
# alone) and fleet-check again. summary.txt: wall times, each row's ratio to its
# single-device run (devices told apart by UUID, else by selector; a row the run re-ran alone
# also shows its concurrent figure), fleet-check's verdicts.
# FLEET_ROWS overrides the rows, FLEET_OPTS adds run options and
# FLEET_CHECK_OPTS fleet-check options (a rehearsal: --quick; --threshold 15% --max-spread 40%); FLEET_SLOW (default 0.8) is rank 1's slow-down factor.
set -u
set -f # the rows are clbench globs
# multicast can take the host's GPUs out of service: off in every command
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
out=${1:?usage: fleet_2gpu.sh OUT BUILD_DIR [TYPE]} bd=${2:?} type=${3:-gpu}
rows=${FLEET_ROWS:-compute.fp32.fma compute.fp64.fma memory.read_linear memory.triad memory.copy transfer.h2d_pinned transfer.d2h_pinned}
slow=${FLEET_SLOW:-0.8} opts=${FLEET_OPTS:-} copts=${FLEET_CHECK_OPTS:-}
clb=$bd/clbench
mkdir -p "$out"
. "$(dirname "$0")/timed.sh"
{ date -u; nvidia-smi --query-gpu=index,pci.bus_id,uuid,name --format=csv 2>/dev/null; "$clb" list; } \
    >"$out/devices.txt" 2>&1
sels=$("$clb" info --type "$type" --json - 2>/dev/null | python3 -c '
import json, sys
print(" ".join("%d:%d" % (d["selection"]["platform_index"], d["selection"]["device_index"])
               for d in json.load(sys.stdin)["devices"]))')
set -- $sels
if [ $# -lt 2 ]; then echo "fleet_2gpu: --type $type selects $# device(s), need 2" | tee "$out/summary.txt"; exit 2; fi
echo "devices: $sels" | tee -a "$out/devices.txt"
# The first run of a row builds its kernels: one discarded run, so every timed run finds warm caches.
timed warmup "$clb" run $rows $opts --type "$type" --json "$out/warmup.json"
timed single-a "$clb" run $rows $opts -d "$1" --json "$out/single-a.json"
timed single-b "$clb" run $rows $opts -d "$2" --json "$out/single-b.json"
timed together "$clb" run $rows $opts --type "$type" --json "$out/together.json" --html "$out/together.html"
if command -v mpirun >/dev/null; then
    mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
    timed mpi "${mpi[@]}" -np 2 "$clb" run --mpi $rows $opts --type "$type" --json "$out/mpi.json" --html "$out/mpi.html"
    timed check-healthy "$clb" fleet-check $copts "$out/mpi.json"
    timed mpi-slow "${mpi[@]}" -np 1 "$clb" run --mpi $rows $opts --type "$type" --json "$out/mpi-slow.json" : \
        -np 1 -x LD_PRELOAD="$bd/tests/libclb_fault_preload.so" -x CLBENCH_SLOWDOWN="$slow" "$clb" run --mpi $rows $opts --type "$type" --json "$out/mpi-slow.json"
    timed check-slow "$clb" fleet-check $copts "$out/mpi-slow.json"
fi
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import json, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    return json.load(open(p)).get("devices", []) if os.path.exists(p) else []
def sel(dev):
    s = dev.get("selection", {})
    return f"{s.get('platform_index', '?')}:{s.get('device_index', '?')}"
def key(dev): # identical devices differ only in their UUID (or, without one, their selector)
    return dev["device"].get("CL_DEVICE_UUID_KHR") or sel(dev)
def label(dev):
    where = f" rank {dev['rank']} local {dev['local_rank']}" if "rank" in dev else ""
    return f"{sel(dev)} {key(dev)[:13]}{where}"
def timing(name):
    try:
        t = open(os.path.join(out, name + ".time")).read()
        return int(t.split("rc=")[1].split()[0]), float(t.split("wall_s=")[1])
    except (OSError, IndexError, ValueError):
        return None, None
single = {}
for name in ("single-a", "single-b"):
    for dev in load(name):
        single[key(dev)] = {r["name"]: r for r in dev["results"]}
names = ("single-a", "single-b", "together", "mpi", "mpi-slow", "check-healthy", "check-slow")
t = {n: timing(n) for n in names}
print("rc / wall s:", ", ".join(f"{n} {rc} / {w:.1f}" for n, (rc, w) in t.items() if w is not None))
singles = [t[n][1] for n in ("single-a", "single-b") if t[n][1] is not None]
for n in ("together", "mpi"):
    if t[n][1] is not None and singles:
        print(f"{n} / longer single run: {t[n][1] / max(singles):.3f} (target <= 1.2)")
print(f"fleet-check healthy pair: exit {t['check-healthy'][0]} (0 = nothing flagged)")
print(f"fleet-check, rank 1 slowed: exit {t['check-slow'][0]} (1 = flagged)")
for run in ("together", "mpi"):
    for dev in load(run):
        ref = single.get(key(dev), {})
        for r in dev["results"]:
            s = ref.get(r["name"])
            if r["status"] != "ok" or not s or s["status"] != "ok":
                print(f"{run} | {label(dev)} | {r['name']} | {r['status']} (single: {s and s['status']})")
                continue
            conc = r.get("params", {}).get("concurrent")
            extra = ""
            if isinstance(conc, dict) and isinstance(conc.get("value"), (int, float)):
                extra = f" | concurrent figure {conc['value']:.5g} = {conc['value'] / s['value']:.3f}"
            print(f"{run} | {label(dev)} | {r['name']} | {r['value']:.5g} / {s['value']:.5g} = "
                  f"{r['value'] / s['value']:.3f}{extra}")
PY
