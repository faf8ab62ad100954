#!/usr/bin/env bash
# The empirical roofline on a GPU (docs/roofline.md, docs/results/roofline.md). Each part runs the
# ceiling rows and its app rows in ONE clbench invocation, so every point is judged against
# ceilings measured in the same run; each part stays under 10 minutes:
#   bash peers/roofline_gpu.sh OUTDIR sgemm|dgemm|euler|summary [clbench] [device]
#     sgemm    ceilings + app.sgemm.* + app.saxpy.*        (n = 8192 blocked rungs, 2000 seed ladder)
#     dgemm    ceilings + app.dgemm.*                      (n = 4096 / 2000)
#     euler    ceilings + app.euler.string.{f32,f64} rows  (n = 1e8, 256 steps; no sweeps)
#     summary  every roofline_*.json in OUTDIR: summary.md (ceilings, % of limit, each point's
#              verdict) and roofline.html (clbench report of all parts); exit 1 on an invalid point
# device: a clbench -d selector (default: the first GPU, `--type gpu`).
set -u
set -f # the row patterns are clbench globs, not file names
out=${1:?usage: roofline_gpu.sh OUTDIR PART [clbench] [device]}
part=${2:?usage: roofline_gpu.sh OUTDIR PART [clbench] [device]}
bin=${3:-build/clbench}
sel=${4:+-d $4}
sel=${sel:---type gpu}
mkdir -p "$out"
ceilings="compute.fp32.fma compute.fp64.fma compute.int32.mad memory.triad memory.copy memory.read_linear
          memory.caches memory.read_reuse memory.local_read"
run() { # name, timeout, env..., patterns...
    local name=$1 limit=$2; shift 2
    { date -u; git rev-parse HEAD 2>/dev/null; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv 2>/dev/null; } \
        >"$out/provenance_$name.txt"
    timeout "$limit" env "$@" --json "$out/roofline_$name.json" >"$out/roofline_$name.txt" 2>&1
    echo "$name: rc=$?"
    tail -n 40 "$out/roofline_$name.txt"
}
case $part in
sgemm) run sgemm 560 "$bin" run $sel $ceilings 'app.sgemm.*' 'app.saxpy.*' ;;
dgemm) run dgemm 560 "$bin" run $sel $ceilings 'app.dgemm.*' ;;
euler) run euler 560 CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=256 "$bin" run $sel $ceilings \
           'app.euler.string.f32.[!s]*' 'app.euler.string.f64.[!s]*' ;;
summary)
    set +f
    "$bin" report "$out"/roofline_*.json --html "$out/roofline.html" || echo "report failed: $?"
    python3 - "$out" "$out"/roofline_*.json <<'PY'
import json, sys
out, files = sys.argv[1], sys.argv[2:]
lines, invalid = [], 0
for f in files:
    for dev in json.load(open(f))["devices"]:
        rl = dev.get("roofline") or {}
        lines.append(f"## {f.split('/')[-1]}: {dev['device'].get('CL_DEVICE_NAME')}\n")
        lines.append("| ceiling | value | row | % of physical limit |\n| --- | --- | --- | --- |")
        for c in rl.get("ceilings", []):
            pct = c.get("pct_of_physical")
            lines.append(f"| {c['name']} | {c['value']:.6g} {c['unit']} | {c['row']} | {'' if pct is None else f'{pct:.1f}'} |")
        lines.append("\n| point | flop/byte | performance | % of roof | verdict | reason |\n| --- | --- | --- | --- | --- | --- |")
        for p in rl.get("points", []):
            invalid += p["verdict"] == "invalid"
            ai = "compute-only" if p["intensity"] is None else f"{p['intensity']:.4g}"
            roof = p.get("pct_of_roof")
            lines.append(f"| {p['row']} | {ai} | {p['performance']:.5g} {p['unit']} | "
                         f"{'' if roof is None else f'{roof:.1f}'} | {p['verdict']} | {p['reason']} |")
        lines.append("")
lines.append(f"invalid points: {invalid}")
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(invalid != 0)
PY
    ;;
*) echo "unknown part $part"; exit 2 ;;
esac
