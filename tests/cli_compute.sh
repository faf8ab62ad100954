#!/usr/bin/env bash
# compute.* end to end on the first device: every supported row is ok and validated in a
# schema-conforming document; the recorded op counts match the documented count of the
# kernel (24 steps x chains x ops per op per lane and iteration; work = global x iterations
# x width x that) and the value is work / launch time; fp16 without cl_khr_fp16 is
# `unsupported` with a reason; a rate above the theoretical peak is invalid;
# --inject-fault turns every supported row into invalid_result.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
rows=('compute.fp32.*' 'compute.fp64.*' 'compute.int32.*' 'compute.int24.*')
"$bin" run "${rows[@]}" --quick --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results 14 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
bad = 0
for r in doc["devices"][0]["results"]:
    p, name = r["params"], r["name"]
    weight = 1 if name.split(".")[-1] in ("add", "mul", "mul24") else 8 if name.endswith("dot4") else 2
    want = 24 * p["chains"] * weight
    checks = {
        "ops_per_op": p["ops_per_op"] == weight,
        "ops_per_iteration_per_lane": p["ops_per_iteration_per_lane"] == want,
        "work_per_launch": p["work_per_launch"] == p["global_work_size"] * p["scale"] * p["width"] * want,
        "iterations": p["iterations"] == p["scale"],
        "search": len(p["search"]) >= 3 and len(p["curves"]) >= 1,
        "theoretical_peak": "theoretical_peak" in p and "theoretical_peak_how" in p,
    }
    # value = median over launches of work / time; the median launch time gives it within spread
    ratio = r["value"] / (p["work_per_launch"] / p["launch_time_median_s"] * 1e-9)
    checks["value"] = 0.8 < ratio < 1.25
    for k, ok in checks.items():
        if not ok:
            print(f"FAIL: {name}: {k} (params {p.get(k)})"); bad += 1
sys.exit(1 if bad else 0)
PY
# Half precision and 8-bit dot products: unsupported with a reason unless the device has
# cl_khr_fp16 / cl_khr_integer_dot_product.
"$bin" run 'compute.fp16.*' 'compute.int8.*' --quick --json "$tmp/h.json" >/dev/null
python3 - "$tmp/h.json" <<'PY' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
exts = doc["devices"][0]["device"].get("CL_DEVICE_EXTENSIONS", "")
rs = doc["devices"][0]["results"]
assert len(rs) == 4, rs
for r in rs:
    ext = "cl_khr_integer_dot_product" if r["name"].startswith("compute.int8") else "cl_khr_fp16"
    if ext in exts:
        assert r["status"] == "ok", (r["name"], r["status"], r["reason"])
    else:
        assert r["status"] == "unsupported" and ext in r["reason"], (r["name"], r["status"], r["reason"])
PY
[ $? = 0 ] || echo "FAIL: fp16 status"
# A rate above the theoretical peak is impossible: with the clock forced to 1 MHz every
# measured rate exceeds the peak, so the runner's physical-limit guard makes the result
# invalid (the number only in params.measured_value), never a number.
CLBENCH_CLOCK_MHZ=1 "$bin" run 'compute.fp32.fma' --quick --json "$tmp/peak.json" >/dev/null
python3 "$check" "$tmp/peak.json" --min-results 1 --expect-status invalid || fails=$((fails+1))
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["devices"][0]["results"][0]; p=r["params"]; sys.exit(0 if p["measured_value"] > 0 and "physical limit" in r["reason"] else 1)' "$tmp/peak.json" || { echo "FAIL: invalid without measured_value/limit"; fails=$((fails+1)); }
# Fault injection: the corrupted output must be caught, never reported as a number.
"$bin" run "${rows[@]}" --quick --inject-fault --strict --json "$tmp/bad.json" >/dev/null; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fault run exit $rc, want 1"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad.json" --min-results 14 --expect-status invalid_result || fails=$((fails+1))
echo "cli_compute: $fails failure(s)"
[ "$fails" = 0 ]
