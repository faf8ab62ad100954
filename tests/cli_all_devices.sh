#!/bin/sh
# Several devices in one run: PoCL with two device configurations (POCL_DEVICES="pthread basic")
# and --all-devices; both devices characterized, concurrently, each entry marked, the shared
# rows (transfer, launch: a CPU device is present) re-run alone with the concurrent figure kept.
# usage: cli_all_devices.sh CLBENCH CHECK_SCHEMA
set -eu
clb=$1 check=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_DEVICES="pthread basic"
n=$("$clb" list | grep -c 'Device #') || true
[ "$n" -ge 2 ] || { echo "SKIP: PoCL does not expose two devices here"; exit 77; }
"$clb" run 'launch.queued_end' 'transfer.h2d_pageable' 'compute.fp32.fma' --quick --all-devices \
    --quiet --json "$tmp/all.json"
python3 "$check" "$tmp/all.json" >/dev/null
python3 - "$tmp/all.json" <<'PY'
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
assert len(devs) >= 2, f"{len(devs)} devices"
for d in devs:
    assert d.get("ran_concurrently") is True, d.keys()
    res = {r["name"]: r for r in d["results"]}
    assert list(res) == ["launch.queued_end", "transfer.h2d_pageable", "compute.fp32.fma"], list(res)
    for name in ("launch.queued_end", "transfer.h2d_pageable"):
        c = res[name]["params"].get("concurrent")
        assert c and c["with_devices"] == len(devs), (name, c)
    assert "concurrent" not in res["compute.fp32.fma"]["params"]
    assert all(r["status"] == "ok" for r in d["results"]), [(r["name"], r["status"], r["reason"]) for r in d["results"]]
PY
# Without --quick the concurrent pass measures a sweep's headline size only (--largest-only in
# its workers); the alone re-run, which is the result, measures the whole curve.
CLBENCH_TRANSFER_MAX_BYTES=65536 "$clb" run 'transfer.h2d_pinned' --reps 3 --all-devices --quiet \
    --json "$tmp/sweep.json"
python3 - "$tmp/sweep.json" <<'PY'
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
for d in devs:
    r = d["results"][0]
    assert r["status"] == "ok" and r["params"]["sizes"] == 15 and "sweep" not in r["params"], r["params"].get("sizes")
    c = r["params"]["concurrent"]
    assert c["status"] == "ok" and "largest size only" in c.get("sweep", ""), c
print("PASS: %d devices concurrently, shared rows re-run alone with their whole sweep" % len(devs))
PY
