#!/bin/sh
# clbench db (no OpenCL except match): list and show the built-in entries with their sources,
# add an entry from a results file (figures marked measured), and a malformed user file is a
# clear message and exit 2, never a crash. Usage: cli_db.sh CLBENCH
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$bin" db list | grep -q '^h100-sxm5 *builtin' || fail "db list lacks h100-sxm5"
"$bin" db show h200-sxm | grep -q 'https://www.nvidia.com/en-us/data-center/h200/' || fail "db show lacks the source"
"$bin" db show no-such-entry >/dev/null 2>&1; [ $? = 2 ] || fail "db show of an unknown key not exit 2"
"$bin" db frobnicate >/dev/null 2>&1; [ $? = 2 ] || fail "unknown db subcommand not exit 2"
cat >"$tmp/r.json" <<'J'
{"schema_version": "1.0.0", "devices": [{"device": {"CL_DEVICE_NAME": "Acme GPU 9", "CL_DEVICE_VENDOR": "Acme"},
 "results": [{"name": "memory.triad", "status": "ok", "value": 123.5, "unit": "GB/s"},
             {"name": "compute.fp32.fma", "status": "invalid", "reason": "above the limit"}]}]}
J
"$bin" db add --from "$tmp/r.json" >/dev/null 2>&1 || fail "db add failed"
"$bin" db show acme-gpu-9-user >"$tmp/show" || fail "the added entry is not shown"
python3 - "$tmp/show" <<'PY' || fail "the added entry is wrong: $(cat "$tmp/show")"
import json, sys
e = json.load(open(sys.argv[1]))
f = e["figures"]
assert e["origin"] == "user" and f["dram_gbps"] == {"value": 123.5, "origin": "measured", "source": f["dram_gbps"]["source"]}
assert "fp32_gflops" not in f  # an invalid result is not a figure
PY
for bad in '' '{' '[]' '{"version": 2, "entries": []}' '{"version": 1, "entries": [{"key": "k", "vendor": "v", "name": "n", "figures": {"x": {"value": -1, "origin": "measured"}}}]}' \
           '{"version": 1, "entries": [{"key": "k", "vendor": "v", "name": "n", "figures": {"x": {"value": 1, "origin": "guess"}}}]}'; do
    printf '%s' "$bad" >"$XDG_CONFIG_HOME/clbench/devdb.json"
    "$bin" db list >/dev/null 2>"$tmp/err"; rc=$?
    [ "$rc" = 2 ] && grep -q "devdb.json" "$tmp/err" || fail "malformed user file '$bad': exit $rc, $(cat "$tmp/err")"
done
echo "cli_db: $fails failure(s)"
[ "$fails" = 0 ]
