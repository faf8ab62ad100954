#!/usr/bin/env bash
# app.euler on a GPU (docs/results/euler.md): each part runs memory.copy and the app rows in
# ONE clbench invocation, so the one-step DRAM bound (2 sizeof(T) bytes per component and step
# at memory.copy's bandwidth) comes from the same run. Parts stay under 10 minutes each:
#   bash peers/euler_gpu.sh OUTDIR string-f32|string-f64|string-f32-occupancy|bruss2d-f32|bruss2d-f64|
#                                    bruss2d-2d|bruss2d-2d-steps|bruss2d-2d-points|
#                                    sweep-groups|sweep-local|sweep-honeycomb|sweep-strategies|summary [clbench]
# Sizes: STRING n = 1e8, 2048 steps; BRUSS2D N = 4096 (n = 2 N^2 = 33.5M), 256 steps (EULER_STEPS
# overrides both: the rows report ns per update, so fewer steps shorten the sequential row); sweeps at
# STRING n = 1e8 f32. bruss2d-2d: memory.copy, vectorized and tiled_2d in f32 and f64 only (no
# sequential row: a minute); bruss2d-2d-steps: the same f32 pair at tiled_2d halos s = 2 .. 12 (one
# invocation per s, CLBENCH_EULER_TILE2D_STEPS); bruss2d-2d-points: the same at 8, 24 and 32 points
# per work-item (CLBENCH_EULER_TILE2D_POINTS; the default is 16). `summary` reads every euler_*.json
# in OUTDIR and writes summary.md.
set -u
set -f # the row patterns are clbench globs, not file names
out=${1:?usage: euler_gpu.sh OUTDIR PART [clbench]}
part=${2:?usage: euler_gpu.sh OUTDIR PART [clbench]}
bin=${3:-build/clbench}
mkdir -p "$out"
run() { # name, env..., patterns...
    local name=$1; shift
    { date -u; git rev-parse HEAD 2>/dev/null; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv 2>/dev/null; } >"$out/provenance_$name.txt"
    env "$@" --json "$out/euler_$name.json" >"$out/euler_$name.txt" 2>&1
    echo "$name: rc=$?"
    tail -n 30 "$out/euler_$name.txt"
}
rows() { # problem precision: every row but the sweeps
    echo "app.euler.$1.$2.seq" "app.euler.$1.$2.[!s]*"
}
case $part in
string-f32|string-f64)
    p=${part#string-}
    run "$part" CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=${EULER_STEPS:-2048} "$bin" run --reps 5 memory.copy \
        $(rows string "$p") ;;
bruss2d-f32|bruss2d-f64)
    p=${part#bruss2d-}
    run "$part" CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=${EULER_STEPS:-256} "$bin" run --reps 5 memory.copy \
        $(rows bruss2d "$p") ;;
bruss2d-2d)
    run "$part" CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=${EULER_STEPS:-256} "$bin" run --reps 5 memory.copy \
        'app.euler.bruss2d.f*.vectorized' 'app.euler.bruss2d.f*.tiled_2d' ;;
bruss2d-2d-steps)
    for s in 2 3 4 5 6 8 10 12; do
        run "$part-s$s" CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=${EULER_STEPS:-256} CLBENCH_EULER_TILE2D_STEPS=$s \
            "$bin" run --reps 5 memory.copy app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d
    done ;;
bruss2d-2d-points)
    for pts in 8 24 32; do
        run "$part-p$pts" CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=${EULER_STEPS:-256} CLBENCH_EULER_TILE2D_POINTS=$pts \
            "$bin" run --reps 5 memory.copy app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d
    done ;;
string-f32-occupancy) # the tiled rows with 4 work-groups per compute unit instead of the seed's 1
    run "$part" CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=${EULER_STEPS:-2048} CLBENCH_EULER_TILE_GROUPS_PER_CU=4 \
        "$bin" run --reps 5 memory.copy 'app.euler.string.f32.diamond*' app.euler.string.f32.honeycomb ;;
sweep-groups|sweep-local|sweep-honeycomb|sweep-strategies) # one sweep row per part
    run "$part" CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=${EULER_STEPS:-2048} "$bin" run --reps 3 \
        "app.euler.string.f32.sweep_${part#sweep-}" ;;
summary)
    python3 - "$out" <<'PY' | tee "$out/summary.md"
import glob, json, os, sys
out = sys.argv[1]
print("| run | row | status | ns/update | GB/s eff. | vs DRAM bound | note |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for path in sorted(glob.glob(os.path.join(out, "euler_*.json"))):
    doc = json.load(open(path))
    dev = doc["devices"][0]
    res = {r["name"]: r for r in dev["results"]}
    copy = res.get("memory.copy", {})
    copy_gbs = copy.get("value") if copy.get("status") == "ok" else None
    run = os.path.basename(path)[6:-5]
    print(f"| {run} | memory.copy | {copy.get('status')} | | {copy_gbs} | | {dev['device'].get('CL_DEVICE_NAME', '')} |")
    eu = {n: r for n, r in res.items() if n.startswith("app.euler.")}
    ok = {n: r for n, r in eu.items() if r["status"] == "ok"}
    for n, r in eu.items():
        p = r.get("params", {})
        if r["status"] != "ok":
            print(f"| {run} | {n} | {r['status']} | | | | {r.get('reason', '')[:120]} |")
            continue
        ns = r["value"]
        elem = 8 if ".f64." in n else 4
        bound = 2 * elem / copy_gbs if copy_gbs else None  # ns per update at memory.copy GB/s
        frac = f"{bound / ns:.2f}" if bound else ""
        print(f"| {run} | {n} | ok | {ns:.4g} | {p.get('effective_bandwidth_gbs', 0):.4g} | {frac} | err {p.get('max_rel_error', 0):.2g} |")
    for key in sorted({n.rsplit(".", 1)[0] for n in ok}):  # per problem and precision
        grp = {n: r for n, r in ok.items() if n.rsplit(".", 1)[0] == key}
        untiled = [r["value"] for n, r in grp.items() if n.rsplit(".", 1)[1] in ("linear", "coalesced", "vectorized")]
        tiled = [r["value"] for n, r in grp.items() if "diamond" in n or n.endswith("honeycomb") or n.endswith("tiled_2d")]
        seq = [r["value"] for n, r in grp.items() if n.endswith(".seq")]
        if untiled and tiled:
            print(f"| {run} | {key}: best tiled vs best untiled | | | | | {min(untiled) / min(tiled):.2f}x (target >= 1.5x) |")
        if seq and tiled:
            print(f"| {run} | {key}: best tiled vs seq | | | | | {seq[0] / min(tiled):.0f}x (target >= 100x) |")
        if seq and untiled:
            print(f"| {run} | {key}: best untiled vs seq | | | | | {seq[0] / min(untiled):.0f}x |")
PY
    ;;
*) echo "unknown part $part" >&2; exit 2 ;;
esac
