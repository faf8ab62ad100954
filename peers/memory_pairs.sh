#!/usr/bin/env bash
# The memory.* targets against independent peers, in rounds (docs/results/memory.md). One round
# runs back to back on the same device: clbench's DRAM rows (read_linear, write, copy, scale,
# add, triad, read_strided, read_random), build/stream_simple (the straightforward OpenCL
# STREAM, peers/stream_simple.c) at clbench's triad array size, clpeak --global-bandwidth, and
# on CPU devices build/native_stream (OpenMP) at the same size. On a shared or virtual machine
# the bandwidth drifts by 20-30% within minutes, so the summary gives every round's ratios and
# their medians: each STREAM row / stream_simple's op, read_linear / clpeak's best,
# each row / native_stream's (CPU), read_linear / (copy / 2), and the highest figure against
# the HBM limit (NVIDIA H100 SXM 3350, H200 4800 GB/s; HBM_GBS=... overrides).
#   usage: bash peers/memory_pairs.sh OUTDIR [ROUNDS=5] [DEVICE=0:0] [clbench-binary]
# Works on the GPU machine with binaries built here (plain x86-64); all raw output under OUTDIR.
set -u
out=${1:?usage: bash peers/memory_pairs.sh OUTDIR [ROUNDS] [P:D] [clbench-binary]}
rounds=${2:-5}
dev=${3:-0:0}
bin=${4:-build/clbench}
tools=$(dirname "$bin")
p=${dev%%:*}
d=${dev##*:}
rows=(memory.read_linear memory.write memory.copy memory.scale memory.add memory.triad
      memory.read_strided memory.read_random)
mkdir -p "$out"
{ date -u; uname -a; git rev-parse HEAD 2>/dev/null; clpeak --version 2>&1 | head -1; } >"$out/provenance.txt"
lscpu >"$out/lscpu.txt" 2>&1
clinfo -l >"$out/clinfo-l.txt" 2>&1
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >"$out/nvidia-smi.txt" 2>&1
for i in $(seq 1 "$rounds"); do
    t0=$(date +%s)
    "$bin" run "${rows[@]}" -d "$dev" --target-ms 25 --json "$out/clbench_$i.json" >"$out/clbench_$i.txt" 2>&1
    echo "round $i: clbench rc=$? in $(( $(date +%s) - t0 )) s"
    read -r bytes cpu < <(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["devices"][0]
r = [r for r in d["results"] if r["name"] == "memory.triad" and r["status"] == "ok"]
print(int(r[0]["params"]["array_bytes"]) if r else 0, int("CPU" in str(d["device"].get("CL_DEVICE_TYPE", ""))))' \
        "$out/clbench_$i.json" 2>/dev/null || echo "0 0")
    size=()
    [ "${bytes:-0}" -gt 0 ] && size=(-b "$bytes")
    "$tools/stream_simple" -p "$p" -d "$d" "${size[@]}" >"$out/stream_simple_$i.txt" 2>&1
    echo "round $i: stream_simple rc=$?"
    timeout 300 clpeak -p "$p" -d "$d" --global-bandwidth >"$out/clpeak_$i.txt" 2>&1
    echo "round $i: clpeak rc=$?"
    if [ "${cpu:-0}" = 1 ] && [ -x "$tools/native_stream" ] && [ "${bytes:-0}" -gt 0 ]; then
        "$tools/native_stream" $((bytes >> 20)) >"$out/native_$i.txt" 2>&1
        echo "round $i: native_stream rc=$?"
    fi
done

python3 - "$out" "$rounds" "${HBM_GBS:-}" <<'PY' | tee "$out/summary.txt"
import json, os, re, statistics, sys
out, n, hbm_env = sys.argv[1], int(sys.argv[2]), sys.argv[3]
STREAM = ("write", "copy", "scale", "add", "triad")
HBM = (("H200", 4800.0), ("H100 NVL", 3900.0), ("H100 PCIe", 2000.0), ("H100", 3350.0))

def text(name):
    try:
        return open(os.path.join(out, name)).read()
    except OSError:
        return ""

def figures(name, pattern):
    return {m.group(1): float(m.group(2)) for m in re.finditer(pattern, text(name))}

ratios = {}
def add(key, num, den, target):
    if num is not None and den:
        ratios.setdefault(key, (target, []))[1].append(num / den)
        return f"{key} {num / den:.3f}"
    return f"{key} n/a"

limit = None
for i in range(1, n + 1):
    try:
        doc = json.load(open(os.path.join(out, f"clbench_{i}.json")))["devices"][0]
    except (OSError, ValueError, IndexError, KeyError) as e:
        print(f"round {i}: no clbench document ({e})")
        continue
    name = doc["device"].get("CL_DEVICE_NAME", "")
    limit = float(hbm_env) if hbm_env else next((g for k, g in HBM if k in name), None)
    res = {r["name"].split(".")[1]: r for r in doc["results"]}
    val = {k: r["value"] for k, r in res.items() if r["status"] == "ok"}
    ss = figures(f"stream_simple_{i}.txt", r"(?m)^(\w+)_gbs ([0-9.]+)$")
    cp = figures(f"clpeak_{i}.txt", r"(float\d*)\s*:\s*([0-9.]+)")
    nat = figures(f"native_{i}.txt", r"(?m)^(\w+)_gbs ([0-9.]+)$")
    print(f"round {i}: " + ", ".join(f"{k} {v:.2f}" for k, v in val.items()) +
          " | failed: " + (", ".join(f"{k} ({r['status']}: {r['reason'][:80]})" for k, r in res.items() if r["status"] != "ok") or "none"))
    print(f"   stream_simple {ss} | clpeak {cp} | native {nat}")
    for k, r in res.items():
        if r["status"] == "ok" and "variant" in r["params"]:
            print(f"   {k}: {r['params']['variant']} uint{r['params']['vector_width']:g} wg {r['params']['work_group_size']}, CI {[round(x, 2) for x in r['stats']['ci95']]}")
    parts = [add(f"{k} / stream_simple", val.get(k), ss.get(k), 0.98) for k in STREAM]
    parts.append(add("read_linear / stream_simple read", val.get("read_linear"), ss.get("read"), 1.0))
    parts.append(add("read_linear / clpeak", val.get("read_linear"), max(cp.values()) if cp else None, 1.0))
    if nat:
        parts += [add(f"{k} / native {k}", val.get(k), nat.get(k), 0.9) for k in ("copy", "triad")]
        parts.append(add("read_linear / native read", val.get("read_linear"), nat.get("read"), 0.9))
    parts.append(add("read_linear / (copy/2)", val.get("read_linear"), val.get("copy", 0) / 2, 1.0))
    if limit:
        top = max(val.values()) if val else None
        parts.append(add("highest / HBM limit", top, limit, None))
    print("   " + "; ".join(parts))
print("\nmedians over rounds (target: rounds at or above it):")
for key, (target, v) in ratios.items():
    tgt = f"; {sum(x >= target for x in v)} of {len(v)} >= {target}" if target else f"; max {max(v):.3f} (must stay <= 1)"
    print(f"  {key}: median {statistics.median(v):.3f} (min {min(v):.3f}, max {max(v):.3f}{tgt})")
PY
