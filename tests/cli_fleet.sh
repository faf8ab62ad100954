#!/bin/sh
# fleet-check on synthetic fleets made from a real results file (peers/fleet_sim.py): every
# planted fault of >= 10 % on a result with spread < 2 % is flagged, no healthy device is,
# exit 1 when something is flagged and 0 for a healthy fleet; unusable input exits 2.
# usage: cli_fleet.sh CLBENCH SOURCE_DIR
set -eu
clb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
real=$src/docs/examples/pocl.json
for seed in 1 2 3; do
    python3 "$src/peers/fleet_sim.py" "$real" 40 "$tmp/f.json" "$tmp/t.json" --faults 4 --seed $seed \
        --min-fault 0.10 --max-spread 0.02
    rc=0; "$clb" fleet-check "$tmp/f.json" >"$tmp/out" || rc=$?
    [ "$rc" = 1 ] || fail "seed $seed: exit $rc with planted faults"
    python3 "$src/peers/fleet_sim.py" --evaluate "$tmp/out" "$tmp/t.json" "$real" || fail "seed $seed: recall/false flags"
    python3 "$src/peers/fleet_sim.py" "$real" 40 "$tmp/h.json" "$tmp/ht.json" --faults 0 --seed $seed
    rc=0; "$clb" fleet-check "$tmp/h.json" >"$tmp/hout" || rc=$?
    [ "$rc" = 0 ] || { cat "$tmp/hout"; fail "seed $seed: healthy fleet flagged (exit $rc)"; }
done
grep -q "FLAG  node" "$tmp/out" && grep -q "below the fleet median" "$tmp/out" || fail "flag lines lack their reason"
# Eight identical devices but for three planted differences (peers/fleet_sim.py draws noise; this
# fleet has none): node5 7 % slow on a steady rate (higher is better) and node2 7 % slow on a steady
# time (lower is better), both beyond the 5 % default; node6 30 % slow on a result whose run-to-run
# spread (10 %) is above --max-cv's 3 %: not judged, so not flagged.
python3 - "$real" "$tmp/e.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
base = d["devices"][0]
ok = [r for r in base["results"] if r["status"] == "ok" and r.get("value") and r.get("stats")]
rate = next(r for r in ok if r.get("better") == "higher")
time = next(r for r in ok if r.get("better") == "lower")
noisy = next(r for r in ok if r.get("better") == "higher" and r is not rate)
for r in ok:
    r["stats"]["cv"], r["stats"]["n"] = (0.10 if r is noisy else 0.001), 10
devs = []
for i in range(8):
    x = copy.deepcopy(base)
    x["node"] = "node%d" % i
    res = {r["name"]: r for r in x["results"]}
    if i == 5: res[rate["name"]]["value"] *= 0.93
    if i == 2: res[time["name"]]["value"] *= 1.07
    if i == 6: res[noisy["name"]]["value"] *= 0.70
    devs.append(x)
d["devices"] = devs
json.dump(d, open(sys.argv[2], "w"))
print(rate["name"], time["name"], noisy["name"])
PY
rc=0; "$clb" fleet-check "$tmp/e.json" >"$tmp/eout" || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/eout"; fail "edge fleet: exit $rc, want 1"; }
[ "$(grep -c '^FLAG' "$tmp/eout")" = 2 ] && grep -q '^FLAG  node5 .*7 % below the fleet median' "$tmp/eout" &&
    grep -q '^FLAG  node2 .*7 % above the fleet median' "$tmp/eout" && grep -q '; 1 result(s) not judged' "$tmp/eout" ||
    { cat "$tmp/eout"; fail "edge fleet: want node5 and node2 flagged at 7 %, node6's noisy result not judged"; }
# Two devices have no median: the slower is judged against its peer (7 % below it is flagged).
python3 - "$tmp/e.json" "$tmp/pair.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["devices"] = [d["devices"][0], d["devices"][5]]  # node0 and node5, 7 % slow on one steady rate
json.dump(d, open(sys.argv[2], "w"))
PY
rc=0; "$clb" fleet-check "$tmp/pair.json" >"$tmp/pout" || rc=$?
[ "$rc" = 1 ] && [ "$(grep -c '^FLAG' "$tmp/pout")" = 1 ] && grep -q "^FLAG  node5 .*7 % below its peer's" "$tmp/pout" ||
    { cat "$tmp/pout"; fail "pair: exit $rc, want node5 flagged 7 % below its peer"; }
echo '{"schema_version": "1.0.0"}' >"$tmp/bad.json"
rc=0; "$clb" fleet-check "$tmp/bad.json" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "unusable input: exit $rc, expected 2"
echo "PASS: fleet-check flags the planted faults and no healthy device"
