#!/bin/sh
# Work-group limits: on a device that allows only small work-groups (PoCL with
# POCL_MAX_WORK_GROUP_SIZE, default 64 here), every row of the quick characterization and every
# app row either measures (its local size clamped to the kernel's and the device's limits) or
# says honestly why it cannot: ok, unsupported, inconclusive -- never build_failed, error,
# crashed or timeout. Skips (77) without PoCL.
# usage: cli_wg_limit.sh CLBENCH [MAX_WORK_GROUP_SIZE]
set -eu
clb=$1 wg=${2:-64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_MAX_WORK_GROUP_SIZE=$wg XDG_CACHE_HOME=$tmp/cache
"$clb" list 2>/dev/null | grep -qi "portable computing language\|pocl" || { echo "SKIP: no PoCL"; exit 77; }
# --strict: exit 1 exactly when a result is not ok, unsupported or inconclusive, which is what
# this test asserts, so both runs must exit 0 (1: a row failed; 2, 3, 4: the run itself).
rc1=0 rc2=0
"$clb" run --quick --quiet --strict --json "$tmp/quick.json" || rc1=$?
"$clb" run 'app.*' --quick --quiet --strict --json "$tmp/app.json" || rc2=$?
python3 - "$tmp/quick.json" "$tmp/app.json" "$wg" <<'PY'
import json, sys
wg, bad, n = int(sys.argv[3]), [], 0
for f in sys.argv[1:3]:
    dev = json.load(open(f))["devices"][0]
    got = dev["device"]["CL_DEVICE_MAX_WORK_GROUP_SIZE"]
    assert got == wg, f"{f}: the device allows {got}, not {wg}: POCL_MAX_WORK_GROUP_SIZE had no effect"
    for r in dev["results"]:
        n += 1
        if r["status"] not in ("ok", "unsupported", "inconclusive"):
            bad.append((r["name"], r["status"], (r.get("reason") or "")[:160]))
        elif r["status"] == "unsupported" and not r.get("reason"):
            bad.append((r["name"], "unsupported without a reason", ""))
for b in bad:
    print("FAIL:", *b)
assert n > 150, f"only {n} results"
sys.exit(1 if bad else 0)
PY
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || { echo "FAIL: run --strict exit $rc1 (quick), $rc2 (app.*), want 0"; exit 1; }
echo "PASS: work-groups of at most $wg: every result ok or honestly not measured"
