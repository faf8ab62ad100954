#!/bin/sh
# Benchmarks run in worker processes: a worker that crashes, aborts, exits or hangs costs only
# the benchmark it was running (crashed / timeout), every other result of the run is present,
# and `run --strict` exits 1 (a benchmark failed). SIGINT/SIGTERM mid-run: valid JSON with the results
# finished so far, exit 130/143. The faults come from the test-only preload library.
# usage: cli_isolation.sh CLBENCH CHECK_SCHEMA PRELOAD(libclb_fault_preload.so)
set -eu
clb=$1 check=$2 preload=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
nlaunch=$("$clb" run --list | grep -c '^launch\.')

expect() { # FAULT EXPECTED_STATUS
    rc=0
    LD_PRELOAD=$preload CLBENCH_FAULT=$1 "$clb" run 'launch.*' --quick --strict --bench-timeout 5 --quiet --json "$tmp/f.json" || rc=$?
    [ "$rc" = 1 ] || fail "$1: exit $rc, expected 1"
    python3 "$check" "$tmp/f.json" >/dev/null || fail "$1: schema"
    python3 - "$tmp/f.json" "${1%%:*}" "$2" "$nlaunch" <<'PY' || fail "$1: statuses"
import json, sys
doc, victim, want = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
res = doc["devices"][0]["results"]
assert len(res) == int(sys.argv[4]), f"{len(res)} results, expected {sys.argv[4]}"
for r in res:
    if r["name"] == victim:
        assert r["status"] == want and r["value"] is None and r["reason"], r
    else:
        assert r["status"] == "ok", r
PY
    echo "ok: CLBENCH_FAULT=$1 -> $2, the other $((nlaunch - 1)) results intact"
}
expect launch.start_end:segv crashed
expect launch.queued_submit:abort crashed
expect launch.throughput:exit crashed
expect launch.roundtrip:hang timeout

# A lost device (CL_DEVICE_NOT_AVAILABLE) is retried once in a fresh worker.
rc=0
LD_PRELOAD=$preload CLBENCH_FAULT=launch.start_end:lost CLBENCH_FAULT_STATE="$tmp/lost" \
    "$clb" run 'launch.*' --quick --quiet --json "$tmp/l.json" || rc=$?
[ "$rc" = 0 ] && [ -e "$tmp/lost" ] || fail "lost device: exit $rc, or the fault never fired"
python3 - "$tmp/l.json" "$nlaunch" <<'PY' || fail "lost device: not retried"
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
assert [r["status"] for r in res] == ["ok"] * int(sys.argv[2]), res
assert [r["name"] for r in res if r["params"].get("retried_in_fresh_worker")] == ["launch.start_end"]
PY
echo "ok: a lost device is retried once in a fresh worker"

# Interrupted runs keep their results (3 trials at different moments).
for sig in INT TERM INT; do
    delay=$(python3 -c "import random; print(round(random.uniform(0.8, 3.0), 2))")
    "$clb" run 'launch.*' 'compile.*' 'atomics.*' --quiet --json "$tmp/i.json" & pid=$!
    sleep "$delay"
    kill -$sig $pid
    rc=0; wait $pid || rc=$?
    want=130; [ $sig = TERM ] && want=143
    [ "$rc" = "$want" ] || fail "SIG$sig after ${delay}s: exit $rc, expected $want"
    python3 "$check" "$tmp/i.json" >/dev/null || fail "SIG$sig: results file is not valid"
    python3 - "$tmp/i.json" <<'PY' || fail "SIG$sig: not marked interrupted"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["provenance"]["interrupted_by_signal"] in (2, 15)
res = doc["devices"][0]["results"]
assert all(r["status"] in ("ok", "interrupted") for r in res), res
PY
    echo "ok: SIG$sig after ${delay}s -> exit $rc, valid JSON, $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['devices'][0]['results']))" "$tmp/i.json") results kept"
done
# An output that names an input (or another output) is refused before anything is written.
cp "$tmp/i.json" "$tmp/in.json"; cp "$tmp/in.json" "$tmp/orig.json"
rc=0; "$clb" report "$tmp/in.json" --html "$tmp/in.json" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "report overwriting its input: exit $rc, expected 2"
cmp -s "$tmp/in.json" "$tmp/orig.json" || fail "report overwrote its input"
rc=0; "$clb" run 'launch.roundtrip' --quick --json "$tmp/o.json" --html "$tmp/o.json" 2>/dev/null || rc=$?
[ "$rc" = 2 ] && [ ! -e "$tmp/o.json" ] || fail "two outputs with one path: exit $rc"
echo "ok: outputs naming inputs or each other are refused (exit 2)"
echo "PASS: isolation"
