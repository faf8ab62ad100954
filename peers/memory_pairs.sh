#!/usr/bin/env bash
# The PoCL memory targets, measured in rounds (docs/results/memory.md): each round runs
# clbench memory.read_linear + memory.triad, then clpeak --global-bandwidth, then (on CPU
# devices) build/native_stream at the triad's array size, back to back. On a shared or
# virtual machine the DRAM bandwidth drifts by 20-30% within minutes, so one round says
# little: the summary gives every round's ratios (read / clpeak best, triad / native
# triad) and their medians.
#   usage: bash bench/memory_pairs.sh OUTDIR [ROUNDS=5] [DEVICE=0:0] [clbench-binary]
set -u
out=${1:?usage: bash bench/memory_pairs.sh OUTDIR [PAIRS] [P:D] [clbench-binary]}
pairs=${2:-5}
dev=${3:-0:0}
bin=${4:-build/clbench}
native=$(dirname "$bin")/native_stream
p=${dev%%:*}
d=${dev##*:}
mkdir -p "$out"
{ date -u; uname -a; git rev-parse HEAD 2>/dev/null; clpeak --version 2>&1 | head -1; } >"$out/provenance.txt"
lscpu >"$out/lscpu.txt" 2>&1
for i in $(seq 1 "$pairs"); do
    "$bin" run memory.read_linear memory.triad -d "$dev" --target-ms 25 \
        --json "$out/clbench_$i.json" >"$out/clbench_$i.txt" 2>&1
    echo "round $i: clbench rc=$?"
    timeout 300 clpeak -p "$p" -d "$d" --global-bandwidth >"$out/clpeak_$i.txt" 2>&1
    echo "round $i: clpeak rc=$?"
    mib=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["devices"][0]["results"] if r["name"] == "memory.triad" and r["status"] == "ok"]
print(int(r[0]["params"]["array_bytes"]) >> 20 if r and d["devices"][0]["device"].get("CL_DEVICE_TYPE", "").find("CPU") >= 0 else "")' \
        "$out/clbench_$i.json" 2>/dev/null)
    if [ -n "$mib" ] && [ -x "$native" ]; then
        "$native" "$mib" >"$out/native_$i.txt" 2>&1
        echo "round $i: native_stream rc=$?"
    fi
done

python3 - "$out" "$pairs" <<'PY' | tee "$out/summary.txt"
import json, os, re, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])

def text(name):
    try:
        return open(os.path.join(out, name)).read()
    except OSError:
        return ""

reads, triads = [], []
for i in range(1, n + 1):
    try:
        res = {r["name"]: r for r in json.load(open(os.path.join(out, f"clbench_{i}.json")))["devices"][0]["results"]}
    except (OSError, ValueError, IndexError, KeyError) as e:
        print(f"round {i}: no clbench document ({e})")
        continue
    line = f"round {i}:"
    rl, tr = res.get("memory.read_linear"), res.get("memory.triad")
    peaks = {m.group(1): float(m.group(2)) for m in re.finditer(r"(float\d*)\s*:\s*([0-9.]+)", text(f"clpeak_{i}.txt"))}
    if rl and rl["status"] == "ok" and peaks:
        best = max(peaks, key=peaks.get)
        reads.append(rl["value"] / peaks[best])
        ci = [round(x, 2) for x in rl["stats"]["ci95"]]
        line += (f" read {rl['value']:.2f} GB/s (uint{rl['params']['best_vector_width']:g}, CI {ci})"
                 f" / clpeak {peaks[best]:.2f} ({best}) = {reads[-1]:.3f}")
    else:
        line += f" read {rl and rl['status']}, clpeak {peaks or 'no figure'}"
    m = re.search(r"triad_gbs ([0-9.]+)", text(f"native_{i}.txt"))
    if tr and tr["status"] == "ok" and m:
        triads.append(tr["value"] / float(m.group(1)))
        line += f" | triad {tr['value']:.2f} / native {float(m.group(1)):.2f} = {triads[-1]:.3f}"
    print(line)
for name, v, target in (("read / clpeak", reads, 1.0), ("triad / native triad", triads, 0.9)):
    if v:
        print(f"{name}: {len(v)} rounds, median {statistics.median(v):.3f} (min {min(v):.3f}, "
              f"max {max(v):.3f}; {sum(x >= target for x in v)} of {len(v)} at >= {target})")
PY
