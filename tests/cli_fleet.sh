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
echo '{"schema_version": "1.0.0"}' >"$tmp/bad.json"
rc=0; "$clb" fleet-check "$tmp/bad.json" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "unusable input: exit $rc, expected 2"
echo "PASS: fleet-check flags the planted faults and no healthy device"
