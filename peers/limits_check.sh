#!/usr/bin/env bash
# Physical limits and the measured clock on every device: `clbench info`'s matched
# database row and limits, latency.* in cycles with the clock and its source, and the rows the
# guard checks (status, % of the limit) -- with nvidia-smi's SM clock and lscpu as peers.
# usage: bash peers/limits_check.sh OUTDIR [clbench-binary]     (from the repository root)
# env: LIMITS_GUARD_ROWS (default: FP32/FP64 FMA and add, DRAM read and triad, pinned
#      transfers and bidirectional), LIMITS_QUICK=1 for --quick runs.
set -u
out=${1:?usage: peers/limits_check.sh OUTDIR [clbench]}
bin=${2:-build/clbench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
quick=()
[ "${LIMITS_QUICK:-0}" = 1 ] && quick=(--quick)
read -r -a guard_rows <<<"${LIMITS_GUARD_ROWS:-compute.fp32.fma compute.fp32.add compute.fp64.fma memory.read_linear memory.triad transfer.h2d_pinned transfer.d2h_pinned transfer.bidirectional}"
command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv >"$out/nvidia-smi-before.csv" 2>&1
lscpu >"$out/lscpu.txt" 2>&1
grep -m1 "model name" /proc/cpuinfo
"$bin" list | tee "$out/clbench-list.txt"
"$bin" list | awk '/Device #/{d=$3; sub("#","",d); sub(":","",d); print p":"d} /^Platform #/{p=substr($2,2,length($2)-2)}' >"$out/devices.txt"

# Prints the derived device_database and limit_* entries of an info document.
show_info() {
    python3 - "$1" <<'PY'
import json, sys
for dev in json.load(open(sys.argv[1]))["devices"]:
    d = dev.get("derived", {})
    print("  device_database:", d.get("device_database", {}).get("value"), "--", d.get("device_database", {}).get("how"))
    for k in ("limit_fp32", "limit_fp64", "limit_dram", "limit_link"):
        e = d.get(k, {})
        print(f"  {k}: {e.get('value')} {e.get('unit')} -- {e.get('how')}")
PY
}

# Prints every result: status, value, cycles with clock and source, or limit and efficiency.
show_results() {
    python3 - "$1" <<'PY'
import json, sys
for dev in json.load(open(sys.argv[1]))["devices"]:
    for r in dev["results"]:
        p = r.get("params") or {}
        line = f"  {r['name']:28s} {r['status']:10s} {r.get('value')!s:>22} {r.get('unit', '')}"
        cyc = p.get("cycles", p.get("latency_cycles_at_distance_1"))
        if "clock_mhz" in p:
            line += f" | {cyc} cycles at {p['clock_mhz']} MHz ({p.get('clock_source')})"
        if "limit" in p:
            line += f" | {p['efficiency']:.1f}% of {p['limit']['value']:.5g} {p['limit']['unit']}"
        if r["status"] != "ok":
            line += f" | {r.get('reason')}"
        print(line)
        if "clock_detail" in p and r["name"] in ("latency.fp32_fma", "latency.distance"):
            print("      clock_detail:", p["clock_detail"])
        if "limit" in p and r["name"] in ("compute.fp32.fma", "memory.read_linear", "transfer.h2d_pinned"):
            print("      limit source:", p["limit"]["source"])
PY
}

while read -r pd; do
    tag=${pd/:/_}
    echo "== device $pd: clbench info"
    "$bin" info -d "$pd" --json "$out/info-$tag.json" >"$out/info-$tag.txt" 2>&1
    show_info "$out/info-$tag.json" | tee "$out/info-limits-$tag.txt"
    echo "== device $pd: latency.*"
    "$bin" run 'latency.*' -d "$pd" "${quick[@]}" --json "$out/latency-$tag.json" >"$out/latency-$tag.txt" 2>&1
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv >"$out/nvidia-smi-after-latency-$tag.csv" 2>&1
    show_results "$out/latency-$tag.json" | tee "$out/latency-summary-$tag.txt"
    echo "== device $pd: rows with a physical limit"
    "$bin" run "${guard_rows[@]}" -d "$pd" "${quick[@]}" --json "$out/guard-$tag.json" >"$out/guard-$tag.txt" 2>&1
    show_results "$out/guard-$tag.json" | tee "$out/guard-summary-$tag.txt"
done <"$out/devices.txt"
echo "outputs in $out"
