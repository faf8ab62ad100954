#!/bin/sh
# The worker protocol against a worker that breaks it (CLBENCH_FAULT=NAME:KIND makes the real
# worker misbehave before benchmark NAME): garbage, a 10 MB line, another benchmark's result, a
# torn line, nothing at all, an endless line. Each costs exactly one row (failed, with a reason
# that says what happened, control bytes escaped); the other benchmark of the batch, run in a
# fresh worker, is intact; no worker survives. A line a driver prints on the worker's stdout
# costs nothing (the protocol has a stream of its own). The faults come from the test-only
# preload library.  usage: proc_protocol.sh CLBENCH PRELOAD(libclb_fault_preload.so)
set -eu
clb=$1 preload=$2
. "$(dirname "$0")/proc_lib.sh"
victim=launch.start_end

check() { # KIND STATUS REASON_PATTERN [BENCH_TIMEOUT]
    start=$(date +%s)
    rc=0
    env "$tag" LD_PRELOAD="$preload" CLBENCH_FAULT=$victim:$1 "$clb" run launch.start_end launch.roundtrip --quick --quiet \
        --bench-timeout "${4:-30}" --json "$tmp/$1.json" 2>"$tmp/$1.err" || rc=$?
    secs=$(($(date +%s) - start))
    [ "$rc" = 0 ] || { cat "$tmp/$1.err"; fail "$1: exit $rc"; }
    python3 - "$tmp/$1.json" "$victim" "$2" "$3" <<'PY' || fail "$1: rows"
import json, re, sys
path, victim, status, pattern = sys.argv[1:]
res = json.load(open(path))["devices"][0]["results"]
names = sorted(r["name"] for r in res)
assert names == ["launch.roundtrip", "launch.start_end"], names
for r in res:
    if r["name"] == victim:
        if status == "ok":
            assert r["status"] == "ok", r
            continue
        assert r["status"] == status, (r["status"], r["reason"])
        assert r["value"] is None, r
        assert re.search(pattern, r["reason"]), r["reason"]
        assert not re.search(r"[\x00-\x1f\x7f]", r["reason"]), repr(r["reason"])
        print("   reason:", r["reason"][:160])
    else:
        assert r["status"] == "ok", r
PY
    left=$(survivors 3)
    [ -z "$left" ] || fail "$1: worker(s) left running: $left"
    echo "ok: $1 -> the row $2 (${secs} s), the other intact, no worker left"
}
check garbage error 'broke the protocol .*not one JSON document .*hello \\x1b\[31m\\x07'
check bigline error 'broke the protocol .*not one JSON document \(10000000 byte'
check foreign error 'broke the protocol .*a result for another benchmark'
check halfline crashed 'exited with code 0, leaving an unfinished line of [0-9]+ byte'
check silent crashed 'exited with code 0 while running launch.start_end'
check flood crashed 'line longer than 16 MiB' 8 # without the cap: timeout, 100 MB read
check chatter ok ''
echo "PASS: a worker that breaks the protocol costs one row, with the reason"
