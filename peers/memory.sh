#!/usr/bin/env bash
# Measures the memory.* group's targets with its peers in the same run (docs/results/memory.md).
#   usage: bash peers/memory.sh OUTDIR [clbench-binary]      (from the repository root)
# For every NVIDIA GPU and every PoCL CPU device: clbench memory.* (JSON + table) and
# `clpeak --global-bandwidth` on the same device; on CPU devices also the native OpenMP
# STREAM probe (build/native_stream, built by CMake). Writes everything under OUTDIR and
# prints a summary: clbench vs clpeak, vs the HBM specification, vs the native triad, and
# the detected cache levels next to lscpu / the API.
set -u
out=${1:?usage: bash peers/memory.sh OUTDIR [clbench-binary]}
bin=${2:-build/clbench}
native=$(dirname "$bin")/native_stream
mkdir -p "$out"
start=$(date +%s)

# The group minus memory.latency and memory.read_vs_size: memory.caches measures both
# curves again (and keeps them), so the run stays within its time budget; for the same reason
# launches are calibrated to 25 ms instead of 50 (still far above launch overheads).
benches=(memory.read_linear memory.read_reuse memory.read_strided memory.read_random
         memory.write memory.copy memory.scale memory.add memory.triad
         memory.local_read memory.local_rw memory.local_bank_conflicts
         memory.constant_broadcast memory.constant_divergent memory.latency_local memory.caches)

{ date -u; uname -a; git rev-parse HEAD 2>/dev/null; } >"$out/provenance.txt"
lscpu >"$out/lscpu.txt" 2>&1
for i in /sys/devices/system/cpu/cpu0/cache/index*; do
    echo "L$(cat "$i/level") $(cat "$i/type") $(cat "$i/size")"
done >"$out/cpu0_caches.txt" 2>/dev/null
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv \
        >"$out/nvidia-smi-clocks.txt" 2>&1
    nvidia-smi >"$out/nvidia-smi.txt" 2>&1
fi
clinfo -l >"$out/clinfo-l.txt" 2>&1

# "P D TAG" for every NVIDIA device and every PoCL CPU device, in clinfo -l numbering.
devices=$(awk '
    /^Platform #/ { p = $2; sub("#", "", p); sub(":", "", p); name = $0 }
    /Device #/    { d = $0; sub(/.*Device #/, "", d); sub(/:.*/, "", d);
                    if (name ~ /NVIDIA/) print p, d, "nvidia" p "_" d;
                    else if (name ~ /Portable Computing Language/ && $0 !~ /cuda|CUDA|NVIDIA/) print p, d, "pocl" p "_" d }
' "$out/clinfo-l.txt")
[ -n "$devices" ] || echo "memory.sh: no NVIDIA or PoCL device in clinfo -l" >&2

while read -r p d tag; do
    [ -n "${tag:-}" ] || continue
    echo "== $tag (platform $p device $d)"
    t0=$(date +%s)
    "$bin" run "${benches[@]}" -d "$p:$d" --target-ms 25 --json "$out/clbench_$tag.json" >"$out/clbench_$tag.txt" 2>&1
    echo "   clbench rc=$? in $(( $(date +%s) - t0 )) s"
    timeout 180 clpeak -p "$p" -d "$d" --global-bandwidth >"$out/clpeak_$tag.txt" 2>&1
    echo "   clpeak rc=$?"
    if [[ $tag == pocl* ]] && [ -x "$native" ]; then
        # The same array size as memory.triad used (MiB per array).
        mib=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["devices"][0]["results"] if r["name"] == "memory.triad" and r["status"] == "ok"]
print(int(r[0]["params"]["array_bytes"]) >> 20 if r else "")' "$out/clbench_$tag.json" 2>/dev/null)
        "$native" $mib >"$out/native_stream.txt" 2>&1
        echo "   native_stream rc=$?"
    fi
done <<<"$devices"

python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, json, os, re, sys
out = sys.argv[1]
# HBM specifications (GB/s): NVIDIA product pages / datasheets.
SPEC = [("H200", 4800.0), ("H100 NVL", 3900.0), ("H100 PCIe", 2000.0), ("H100", 3350.0)]

def clpeak_best(path):
    try:
        vals = [float(m.group(1)) for m in re.finditer(r"float\d*\s*:\s*([0-9.]+)", open(path).read())]
        return max(vals) if vals else None
    except OSError:
        return None

def native(path):
    try:
        return {k: float(v) for k, v in re.findall(r"(\w+_gbs) ([0-9.]+)", open(path).read())}
    except OSError:
        return {}

def ratio(a, b):
    return f"{a / b:.3f}" if a and b else "n/a"

for jf in sorted(glob.glob(os.path.join(out, "clbench_*.json"))):
    tag = os.path.basename(jf)[8:-5]
    try:
        doc = json.load(open(jf))
    except Exception as e:
        print(f"{tag}: unreadable JSON ({e})")
        continue
    for dev in doc["devices"]:
        name = dev["device"].get("CL_DEVICE_NAME", "?")
        res = {r["name"]: r for r in dev["results"]}
        def v(n):
            r = res.get(n)
            return r["value"] if r and r["status"] == "ok" else None
        print(f"\n== {tag}: {name}")
        for n, r in res.items():
            val = f"{r['value']:.4g} {r['unit']}" if r["status"] == "ok" else f"{r['status']}: {r['reason'][:100]}"
            extra = ""
            if "variant" in r["params"]:
                extra = f"  ({r['params']['variant']}, uint{r['params']['vector_width']:g}, wg {r['params']['work_group_size']})"
            elif "best_vector_width" in r["params"]:
                extra = f"  (vector width {r['params']['best_vector_width']:g})"
            print(f"  {n:30s} {val}{extra}")
        rl, cp = v("memory.read_linear"), clpeak_best(os.path.join(out, f"clpeak_{tag}.txt"))
        print(f"  read_linear {rl and round(rl, 1)} GB/s | clpeak --global-bandwidth best {cp} GB/s | ratio {ratio(rl, cp)}")
        if tag.startswith("nvidia"):
            spec = next((s for k, s in SPEC if k in name), None)
            print(f"  HBM spec {spec} GB/s | read_linear / spec {ratio(rl, spec)} (target >= 0.92)")
        else:
            nat = native(os.path.join(out, "native_stream.txt"))
            tr = v("memory.triad")
            print(f"  native triad {nat.get('triad_gbs')} GB/s | memory.triad {tr and round(tr, 1)} | ratio {ratio(tr, nat.get('triad_gbs'))} (target >= 0.90)")
            print(f"  native read {nat.get('read_gbs')} GB/s | memory.read_linear / native read {ratio(rl, nat.get('read_gbs'))}")
        c = res.get("memory.caches")
        if c and c["status"] == "ok":
            p = c["params"]
            print(f"  API: global cache {p['api']['global_mem_cache_size']:.0f} B, local {p['api']['local_mem_size']:.0f} B; agrees: {p['api_cache_size_agrees']}")
            for lv in p["levels"]:
                bw = lv["bandwidth_gbs"]
                print(f"  level up to {lv['size_bytes'] / 1024:.0f} KiB: {lv['latency_ns']:.1f} ns = {lv['latency_cycles']:.0f} cycles, {bw if bw is None else round(bw, 1)} GB/s")
            print(f"  DRAM: {p['dram_latency_ns']:.1f} ns = {p['dram_latency_cycles']:.0f} cycles")
            if "H200" in name or "H100" in name:
                print("  reference (CUDA pointer chase on the H200): ~40 cycles to 128 KiB, ~290 to 16 MiB, ~420 at 32 MiB, ~670 from 64 MiB")
            pts = next((cv["points"] for cv in p.get("curves", []) if cv.get("y_unit") == "cycles"), [])
            if pts:
                print("  latency curve (KiB:cycles): " + " ".join(f"{x / 1024:.0f}:{y:.0f}" for x, y in pts))
try:
    print("\nlscpu caches:", " | ".join(l.strip() for l in open(os.path.join(out, "lscpu.txt")) if "cache" in l))
except OSError:
    pass
try:
    print("nvidia-smi clocks:", open(os.path.join(out, "nvidia-smi-clocks.txt")).read().strip().replace("\n", " | "))
except OSError:
    pass
PY
echo "memory.sh: done in $(( $(date +%s) - start )) s; files in $out"
