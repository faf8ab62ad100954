#!/bin/sh
# The fleet simulator at scale (peers/fleet_sim.py --runs): one document per run date that
# conforms to the schema; in every run fleet-check flags each slow card and each device drifted
# by then, and no healthy device; the drift test over every (device, row) history finds each
# planted drift at its run and no other move.
# usage: cli_fleet_scale.sh CLBENCH TEST_DRIFT SOURCE_DIR
set -eu
clb=$1 drift=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
sim=$src/peers/fleet_sim.py real=$src/docs/examples/pocl.json
python3 "$sim" "$real" 64 "$tmp/fleet" "$tmp/truth.json" --runs 8 --rows 120 --faults 3 --drifts 4 --seed 5 \
    --series "$tmp/series.bin"
[ "$(ls "$tmp/fleet" | wc -l)" = 8 ] || fail "want 8 run documents: $(ls "$tmp/fleet")"
python3 "$src/tests/check_schema.py" "$tmp/fleet/fleet-2026-09-06.json" --min-results 7680 || fail "schema"
run=0
for f in "$tmp"/fleet/fleet-*.json; do
    rc=0; "$clb" fleet-check "$f" >"$tmp/out" || rc=$?
    [ "$rc" = 1 ] || { cat "$tmp/out"; fail "$f: exit $rc with slow cards"; }
    python3 "$sim" --evaluate "$tmp/out" "$tmp/truth.json" "$real" $run || fail "$f: recall/false flags"
    run=$((run + 1))
done
"$drift" --series "$tmp/series.bin" 64 120 8 3 >"$tmp/moved" || fail "test_drift --series"
python3 "$sim" --evaluate-drift "$tmp/moved" "$tmp/truth.json" || fail "drifts"
echo "PASS: the simulated fleet conforms; slow cards, drifts and no false flag"
