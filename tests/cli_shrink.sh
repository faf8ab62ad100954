#!/bin/sh
# Shrink-and-retry: a device that cannot allocate the planned buffers (injected:
# CLBENCH_FAULT=NAME:alloc_above=BYTES with the test-only preload library tests/preload/ fails
# every clCreateBuffer above BYTES) makes memory,
# transfer and app rows halve their size and retry: the result is ok, measured at the smaller
# size, with size_shrunk_from/to and the failure in params. Below the floor the row fails.
# usage: cli_shrink.sh CLBENCH PRELOAD
set -eu
clb=$1 preload=$2
[ -f "$preload" ] || { echo "FAIL: no preload library $preload" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { # NAME BYTES WANT(ok|error)
    rc=0
    LD_PRELOAD=$preload CLBENCH_FAULT=$1:alloc_above=$2 "$clb" run "$1" --quick --quiet --json "$tmp/r.json" 2>"$tmp/err" || rc=$?
    python3 - "$tmp/r.json" "$1" "$3" <<'PY' || { cat "$tmp/err"; fail "$1 above $2"; }
import json, sys
r = json.load(open(sys.argv[1]))["devices"][0]["results"][0]
name, want, p = sys.argv[2], sys.argv[3], r.get("params") or {}
assert r["name"] == name and r["status"] == want, f"{name}: {r['status']} ({r['reason']}), expected {want}"
if want == "ok":
    assert p["size_shrunk_to"] < p["size_shrunk_from"], p
    assert "CL_MEM_OBJECT_ALLOCATION_FAILURE" in p["size_shrunk_reason"], p
    assert r["value"] > 0 and r["samples"], "no measurement"
else:
    assert "CL_MEM_OBJECT_ALLOCATION_FAILURE" in r["reason"], r["reason"]
print(f"ok: {name}: {r['status']}", {k: v for k, v in p.items() if k in ("size_shrunk_from", "size_shrunk_to")})
PY
}
check memory.read_linear 300000 ok      # 1 MiB arrays (--quick) -> 256 KiB
check memory.triad 600000 ok            # the STREAM family: 3 arrays of 512 KiB
check transfer.h2d_pageable 9000000 ok  # the sweep stops at 8 MiB instead of 16
check app.saxpy.opencl 1000000 ok
check app.sgemm.tiled 30000 ok          # n = 100 -> 50
check app.euler.string.f32.linear 20000 ok
check memory.read_linear 1000 error     # below the floor (1/8 of the planned size)
echo "PASS: memory, transfer and app rows shrink and measure; below the floor they fail"
