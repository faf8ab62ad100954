#!/usr/bin/env bash
# The memory.* group end to end: a quick run gives 18 ok results in a document that conforms
# to the schema, with the curves and levels the report reads; an injected fault turns every
# result into invalid_result (each kernel's validation reads what the injection corrupts).
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$bin" run 'memory.*' --quick --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results 18 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
res = {r["name"]: r for r in json.load(open(sys.argv[1]))["devices"][0]["results"]}
bad = []
def curve_ok(c):
    return all(k in c for k in ("x_name", "x_unit", "y_name", "y_unit", "x_log", "points")) and \
        len(c["points"]) >= 2 and all(len(p) == 2 and p[1] is not None and p[1] > 0 for p in c["points"])
for name in ("memory.read_vs_size", "memory.local_bank_conflicts"):
    if not curve_ok(res[name]["params"].get("curve", {})):
        bad.append(f"{name}: params.curve missing or malformed")
for name in ("memory.latency", "memory.caches"):
    cs = res[name]["params"].get("curves", [])
    if not cs or not all(curve_ok(c) and "label" in c for c in cs):
        bad.append(f"{name}: params.curves missing or malformed")
p = res["memory.caches"]["params"]
for k in ("levels", "dram_latency_ns", "api", "api_cache_size_agrees"):
    if k not in p:
        bad.append(f"memory.caches: params.{k} missing")
for lv in p.get("levels", []):
    if not all(k in lv for k in ("size_bytes", "latency_ns", "bandwidth_gbs")):
        bad.append(f"memory.caches: level without size/latency/bandwidth: {lv}")
if "vector_widths" not in res["memory.local_read"]["params"]:
    bad.append("memory.local_read: no vector width table")
# The DRAM rows: the winning variant and the table of every variant tried, each validated.
for n in ("read_linear", "write", "copy", "scale", "add", "triad", "read_strided", "read_random"):
    p = res[f"memory.{n}"]["params"]
    for k in ("variant", "vector_width", "work_group_size", "variants", "bytes_counted"):
        if k not in p:
            bad.append(f"memory.{n}: params.{k} missing")
    vs = p.get("variants", [])
    if not any(v.get("variant") == "one_per_item" for v in vs):
        bad.append(f"memory.{n}: the straightforward form is not in the family")
    if not any(v.get("variant") == p.get("variant") and "gbs" in v for v in vs):
        bad.append(f"memory.{n}: the reported variant has no full measurement in params.variants")
    if n.startswith("read_") and n != "read_linear" and "fetch_bytes_per_line" not in p:
        bad.append(f"memory.{n}: no fetch unit recorded")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$bin" run --list | awk '{print $1}' >"$tmp/names"
for n in read_linear read_reuse read_strided read_random write copy scale add triad local_read local_rw \
         local_bank_conflicts constant_broadcast constant_divergent read_vs_size latency latency_local caches; do
    grep -qx "memory.$n" "$tmp/names" || { echo "FAIL: --list lacks memory.$n"; fails=$((fails+1)); }
done
"$bin" run 'memory.*' --quick --inject-fault --strict --json "$tmp/bad.json" >/dev/null; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fault run exit $rc, want 1"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad.json" --min-results 18 --expect-status invalid_result || fails=$((fails+1))
echo "cli_memory: $fails failure(s)"
[ "$fails" = 0 ]
