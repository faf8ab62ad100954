#!/usr/bin/env bash
# NVML readings around every row with the fake NVML of tests/fake_nvml.c, on PoCL passing for an
# NVIDIA GPU (the test-only preload library answers CL_DEVICE_VENDOR_ID 0x10de:
# CLBENCH_PRELOAD_VENDOR_ID): healthy readings -> ok with nvml_before/after;
# a thermal or power reason, or an SM clock below the default clock -> throttled, the value
# kept and the reason naming the readings; a low clock while idle -> ok; the older
# ...ClocksThrottleReasons entry point when the newer one fails; no library, the product alone
# (no preload) or another vendor's id -> ok and no nvml params; the same in-process (isolation off).
# usage: cli_nvml_throttle.sh CLBENCH FAKE_NVML CHECK PRELOAD
set -u
bin=$1 fake=$2 check=$3 preload=$4 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$preload" ] || { echo "FAIL: no preload library $preload" >&2; exit 1; }
fails=0
rows="launch.roundtrip launch.throughput"

# run NAME [ENV=VALUE...]: both rows with the fake library, the NVIDIA vendor id and the given environment.
run() {
    local name=$1; shift
    env CLBENCH_NVML_LIBRARY="$fake" LD_PRELOAD="$preload" CLBENCH_PRELOAD_VENDOR_ID=0x10de "$@" \
        "$bin" run $rows --quick --quiet --json "$tmp/$name.json" >/dev/null 2>"$tmp/$name.err" \
        || { echo "FAIL: $name: exit $?"; cat "$tmp/$name.err"; fails=$((fails+1)); }
}

# expect NAME STATUS PARAMS(yes/no) [REASON-SUBSTRING] [REASONS_MASK]
expect() {
    python3 - "$tmp/$1.json" "$@" <<'PY' || fails=$((fails+1))
import json, math, sys
path, name, status, params = sys.argv[1:5]
want_reason = sys.argv[5] if len(sys.argv) > 5 else ""
want_mask = sys.argv[6] if len(sys.argv) > 6 else ""
res = [r for d in json.load(open(path))["devices"] for r in d["results"]]
bad = 0 if len(res) == 2 else print(f"FAIL: {name}: {len(res)} results, want 2") or 1
for r in res:
    where = f"{name}: {r['name']}"
    if r["status"] != status:
        print(f"FAIL: {where}: status {r['status']} ({r.get('reason')}), want {status}"); bad += 1
    v = r.get("value")
    if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
        print(f"FAIL: {where}: value {v!r}, want the measured number"); bad += 1
    if want_reason not in (r.get("reason") or ""):
        print(f"FAIL: {where}: reason {r.get('reason')!r} lacks {want_reason!r}"); bad += 1
    p = r["params"]
    has = "nvml_before" in p and "nvml_after" in p
    if has != (params == "yes"):
        print(f"FAIL: {where}: nvml params present={has}, want {params}"); bad += 1
    for k in ("nvml_before", "nvml_after") if has else ():
        s = p[k]
        for f in ("sm_mhz", "default_sm_mhz", "max_sm_mhz", "temp_c", "power_w", "power_limit_w"):
            if not isinstance(s.get(f), (int, float)):
                print(f"FAIL: {where}: {k}.{f} = {s.get(f)!r}"); bad += 1
        if want_mask and s.get("reasons_mask") != want_mask:
            print(f"FAIL: {where}: {k}.reasons_mask {s.get('reasons_mask')!r}, want {want_mask}"); bad += 1
sys.exit(1 if bad else 0)
PY
}

run healthy
expect healthy ok yes "" 0x0
python3 "$check" "$tmp/healthy.json" --min-results 2 || fails=$((fails+1))
# field PATH EXPR WANT: a Python expression over the first result r and its params p.
field() {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["devices"][0]["results"][0]; p=r["params"]
got = eval(sys.argv[2]); sys.exit(0 if repr(got) == sys.argv[3] else print(f"FAIL: {sys.argv[1]}: {sys.argv[2]} = {got!r}, want {sys.argv[3]}") or 1)' "$@" \
        || fails=$((fails+1))
}
field "$tmp/healthy.json" 'p["nvml_after"]["sm_mhz"], p["nvml_after"]["reasons"]' '(1500, [])'

run thermal FAKE_NVML_REASONS=0x20
expect thermal throttled yes "sw_thermal_slowdown" 0x20
field "$tmp/thermal.json" 'p["nvml_before"]["reasons"]' "['sw_thermal_slowdown']"

run lowclock FAKE_NVML_SM_MHZ=900 FAKE_NVML_DEFAULT_MHZ=1500
expect lowclock throttled yes "SM clock 900 MHz below the default 1500 MHz" 0x0

run idle FAKE_NVML_SM_MHZ=300 FAKE_NVML_REASONS=0x3
expect idle ok yes "" 0x3

run oldname FAKE_NVML_OLD=1 FAKE_NVML_REASONS=0x4
expect oldname throttled yes "sw_power_cap" 0x204

run nolib CLBENCH_NVML_LIBRARY="$tmp/no-such-libnvidia-ml.so"
expect nolib ok no

run product LD_PRELOAD= FAKE_NVML_REASONS=0x20
expect product ok no

run other_vendor CLBENCH_PRELOAD_VENDOR_ID=0x1002 FAKE_NVML_REASONS=0x20
expect other_vendor ok no

run inprocess CLBENCH_ISOLATION=off FAKE_NVML_REASONS=0x40
expect inprocess throttled yes "hw_thermal_slowdown" 0x40

[ "$fails" = 0 ] && echo "cli_nvml_throttle: all passed"
exit "$fails"
