#!/usr/bin/env bash
# clbench's STREAM rows against the straightforward OpenCL STREAM (build/stream_simple), in
# tight interleaved pairs (docs/results/memory.md, "PoCL here, interleaved pairs"). For each
# pair and each operation: `clbench run memory.OP` (the whole row: family screening, the two
# finalists in full, the reported median) and `stream_simple -o OP` (the same operation only,
# at the row's own array_bytes, 10 timed repetitions, median) back to back, the order
# alternating between pairs (ABBA: a linear drift of the machine cancels); on CPU devices then
# build/native_stream at the same size (OpenMP, all ops). A machine whose DRAM bandwidth
# swings 2-3x within minutes moves both sides of a pair together, so each pair's ratio is the
# unit: the summary gives per operation the median of the ratios, a 95% bootstrap CI (4000
# resamples) and the distribution-free CI of the median (order statistics), with both sides'
# array sizes, byte counting, timers, statistics and clbench's winning variants.
#   usage: bash peers/memory_ab.sh OUTDIR [PAIRS=15] [DEVICE=0:0] [clbench-binary] [OPS]
#   OPS: a quoted list, default "write copy scale add triad"; NATIVE=0 skips native_stream;
#   SUMMARY_ONLY=1 only summarizes OUTDIR (e.g. the pairs done so far of a run cut short);
#   MAX_S=n starts no new pair after n seconds (a time-boxed call: PAIRS is then an upper bound).
# A pair of all five operations takes about 3-4 minutes on the 2-vCPU PoCL VM (the clbench row
# is ~90% of it); on a 16-core Xeon about a minute.
set -u
out=${1:?usage: bash peers/memory_ab.sh OUTDIR [PAIRS] [P:D] [clbench-binary] [OPS]}
pairs=${2:-15}
dev=${3:-0:0}
bin=${4:-build/clbench}
read -r -a ops <<<"${5:-write copy scale add triad}"
tools=$(dirname "$bin")
p=${dev%%:*}
d=${dev##*:}
mkdir -p "$out"
[ "${SUMMARY_ONLY:-0}" = 1 ] && pairs_run=0 || pairs_run=$pairs
[ "$pairs_run" = 0 ] || { date -u; uname -a; git rev-parse HEAD 2>/dev/null; git status --short 2>/dev/null | head -20; uptime; } >"$out/provenance.txt"
if [ "$pairs_run" != 0 ]; then
    lscpu >"$out/lscpu.txt" 2>&1
    clinfo -l >"$out/clinfo-l.txt" 2>&1
    : >"$out/log.txt"
fi

bytes_of() { # the array_bytes and device type of a clbench JSON
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["devices"][0]
r = [r for r in d["results"] if r["status"] == "ok"]
print(int(r[0]["params"]["array_bytes"]) if r else 0, int("CPU" in str(d["device"].get("CL_DEVICE_TYPE", ""))))' "$1" 2>/dev/null || echo "0 0"
}
run_cb() {
    local t0 rc
    t0=$(date +%s.%N)
    "$bin" run "memory.$1" -d "$dev" --target-ms 25 --json "$out/cb_$1_$2.json" >"$out/cb_$1_$2.txt" 2>&1
    rc=$?
    echo "pair $2 $1 clbench start $t0 end $(date +%s.%N) rc $rc" >>"$out/log.txt"
}
run_ss() {
    local t0 rc
    t0=$(date +%s.%N)
    "$tools/stream_simple" -p "$p" -d "$d" -b "$3" -r 10 -o "$1" >"$out/ss_$1_$2.txt" 2>&1
    rc=$?
    echo "pair $2 $1 stream_simple start $t0 end $(date +%s.%N) rc $rc" >>"$out/log.txt"
}

declare -A size
cpu=0
t_start=$(date +%s)
for i in $(seq 1 "$pairs_run"); do
    if [ -n "${MAX_S:-}" ] && [ $(( $(date +%s) - t_start )) -ge "$MAX_S" ]; then
        echo "MAX_S=$MAX_S reached: $((i - 1)) pairs"
        pairs=$((i - 1))
        break
    fi
    for op in "${ops[@]}"; do
        if [ -z "${size[$op]:-}" ]; then # the first pair learns the row's array size
            run_cb "$op" "$i"
            read -r b c < <(bytes_of "$out/cb_${op}_$i.json")
            size[$op]=${b:-0}
            [ "${c:-0}" = 1 ] && cpu=1
            run_ss "$op" "$i" "${size[$op]}"
        elif [ $((i % 2)) = 1 ]; then
            run_cb "$op" "$i"
            run_ss "$op" "$i" "${size[$op]}"
        else
            run_ss "$op" "$i" "${size[$op]}"
            run_cb "$op" "$i"
        fi
    done
    if [ "$cpu" = 1 ] && [ "${NATIVE:-1}" != 0 ] && [ -x "$tools/native_stream" ]; then
        "$tools/native_stream" $((${size[${ops[0]}]} >> 20)) >"$out/native_$i.txt" 2>&1
        echo "pair $i native rc $?" >>"$out/log.txt"
    fi
    echo "pair $i done $(date -u +%H:%M:%S)"
done
[ "$pairs_run" = 0 ] || uptime >>"$out/provenance.txt"

python3 - "$out" "$pairs" "${ops[*]}" <<'PY' | tee "$out/summary.txt"
import collections, json, os, random, re, statistics, sys
from math import comb
out, n, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()

def text(name):
    try:
        return open(os.path.join(out, name)).read()
    except OSError:
        return ""

def figs(name):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"(?m)^(\w+?)_gbs ([0-9.]+)$", text(name))}

def boot_ci(v, reps=4000):
    rng = random.Random(12)
    m = sorted(statistics.median(rng.choices(v, k=len(v))) for _ in range(reps))
    return m[int(0.025 * reps)], m[int(0.975 * reps) - 1]

def order_ci(v):
    """Distribution-free CI of the median: order statistics (k, n+1-k), coverage >= 95% where n allows."""
    s, m = sorted(v), len(v)
    best = None
    for k in range(1, m // 2 + 1):
        cover = 1 - 2 * sum(comb(m, j) for j in range(k)) / 2 ** m
        if cover >= 0.95:
            best = (s[k - 1], s[m - k], cover)
    return best

log = text("log.txt")
starts = {}
for m in re.finditer(r"pair (\d+) (\w+) (clbench|stream_simple) start ([0-9.]+) end ([0-9.]+) rc (\d+)", log):
    starts[(int(m.group(1)), m.group(2), m.group(3))] = (float(m.group(4)), float(m.group(5)), int(m.group(6)))
print(f"{n} pairs; operations {' '.join(ops)}")
for op in ops:
    ratios, nat, winners, gaps, sizes, info = [], [], collections.Counter(), [], set(), {}
    cbv, ssv = [], []
    for i in range(1, n + 1):
        try:
            doc = json.load(open(os.path.join(out, f"cb_{op}_{i}.json")))["devices"][0]
            r = doc["results"][0]
        except (OSError, ValueError, IndexError, KeyError):
            continue
        ss = figs(f"ss_{op}_{i}.txt")
        ok_ss = "validation ok" in text(f"ss_{op}_{i}.txt")
        if r["status"] != "ok" or op not in ss or not ok_ss:
            print(f"  {op} pair {i}: skipped (clbench {r['status']}, stream_simple {'ok' if ok_ss else 'failed'})")
            continue
        p = r["params"]
        ratios.append(r["value"] / ss[op])
        cbv.append(r["value"])
        ssv.append(ss[op])
        winners[f"{p.get('variant')} uint{p.get('vector_width', 0):g} wg {p.get('work_group_size')}"] += 1
        sizes.add((int(p["array_bytes"]), int(re.search(r"array_bytes (\d+)", text(f"ss_{op}_{i}.txt")).group(1))))
        info = {"timer": r.get("timer"), "n": r["stats"]["n"], "bytes_counted": p.get("bytes_counted"),
                "arrays": p.get("arrays"), "device": doc["device"].get("CL_DEVICE_NAME")}
        a, b = starts.get((i, op, "clbench")), starts.get((i, op, "stream_simple"))
        if a and b:
            gaps.append(abs(a[1] - b[1]))
        nt = figs(f"native_{i}.txt")
        if op in nt:
            nat.append(r["value"] / nt[op])
    if not ratios:
        print(f"{op}: no valid pair")
        continue
    lo, hi = boot_ci(ratios)
    oc = order_ci(ratios)
    print(f"\n{op}: clbench memory.{op} / stream_simple {op}, {len(ratios)} pairs")
    print(f"  median ratio {statistics.median(ratios):.3f}, bootstrap 95% CI [{lo:.3f}, {hi:.3f}]" +
          (f", order-statistic CI [{oc[0]:.3f}, {oc[1]:.3f}] ({100 * oc[2]:.1f}%)" if oc else "") +
          f"; {sum(x >= 0.98 for x in ratios)} of {len(ratios)} pairs >= 0.98; min {min(ratios):.3f} max {max(ratios):.3f}")
    print(f"  GB/s: clbench median {statistics.median(cbv):.2f} (range {min(cbv):.2f}-{max(cbv):.2f}), "
          f"stream_simple median {statistics.median(ssv):.2f} (range {min(ssv):.2f}-{max(ssv):.2f})")
    print(f"  array bytes (clbench, stream_simple): {sorted(sizes)}; clbench arrays {info.get('arrays')}, "
          f"bytes counted: {info.get('bytes_counted')}; stream_simple: STREAM's counts (write 1, copy/scale 2, add/triad 3 arrays), no write-allocate on either side")
    print(f"  timers: clbench {info.get('timer')}, median of {info.get('n')} launches of ~25 ms; "
          f"stream_simple cl_event_profiling START->END, median of 10 whole-array launches")
    print(f"  clbench winners: {dict(winners)}")
    if gaps:
        print(f"  seconds between the two runs' ends: median {statistics.median(gaps):.1f}")
    if nat:
        lo, hi = boot_ci(nat)
        print(f"  clbench / native_stream {op} (OpenMP, same pair): median {statistics.median(nat):.3f}, "
              f"bootstrap 95% CI [{lo:.3f}, {hi:.3f}]; {sum(x >= 0.9 for x in nat)} of {len(nat)} >= 0.9")
PY
