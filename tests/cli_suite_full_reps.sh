#!/usr/bin/env bash
# Seed 004's repetitions end to end (docs/seeds.md, seed 004 IV.C): `suite --full` runs one
# warm-up and then the seed's 10 runs of every app row and takes every one: suite.repetitions
# says so, each row has 10 samples (and params.reps_taken 10 where the row reports it), the
# suite's per-row times count 10; `suite --quick` keeps its budget and says so. The cheapest
# full suite that is still the full mode: --sequential-only (each app's sequential row at the
# full sizes; about 20 s on the 2-core EPYC VM, the quick one about 3 s). Plain build only.
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ref=$src/data/suite_reference.json
start=$(date +%s)
"$bin" suite --full --sequential-only --reference "$ref" --json "$tmp/full.json" >"$tmp/full.txt" 2>&1 ||
    fail "suite --full exited $?"
echo "suite --full --sequential-only took $(($(date +%s) - start)) s"
grep -qx "repetitions: 1 warm-up + 10 runs per app row, every one taken" "$tmp/full.txt" ||
    fail "the full mode does not say that it takes every run: $(grep '^repetitions' "$tmp/full.txt")"
"$bin" suite --quick --sequential-only --reference "$ref" --json "$tmp/quick.json" >"$tmp/quick.txt" 2>&1 ||
    fail "suite --quick exited $?"
grep -qx "repetitions: 1 warm-up + 10 runs per app row (quick mode: app rows stop after 3 runs once 3 s have passed)" \
    "$tmp/quick.txt" || fail "the quick mode does not say its budget: $(grep '^repetitions' "$tmp/quick.txt")"
python3 - "$tmp/full.json" "$tmp/quick.json" <<'PY' || fails=$((fails + 1))
import json, sys
bad = []
for path, mode, stop in ((sys.argv[1], "full", "none: every run is taken"),
                         (sys.argv[2], "quick", "app rows stop after 3 runs once 3 s have passed")):
    doc = json.load(open(path))
    s = doc["suite"]
    if s["mode"] != mode or s["repetitions"] != {"warmup": 1, "runs": 10, "early_stop": stop}:
        bad.append(f"{mode}: mode {s['mode']}, repetitions {s['repetitions']}")
    if mode != "full":
        continue
    results = {r["name"]: r for d in doc["devices"] for r in d["results"]}
    rows = [r for app in s["columns"][0]["apps"] for r in app["rows"] if r["role"] == "sequential"]
    if len(rows) != 5:
        bad.append(f"{len(rows)} sequential rows, want one per app (5)")
    for row in rows:
        r = results.get(row["row"], {})
        taken = r.get("params", {}).get("reps_taken", 10)
        if r.get("status") != "ok" or len(r.get("samples", [])) != 10 or taken != 10 or \
                row.get("n") != 10 or len(row.get("times_s", [])) != 10:
            bad.append(f"{row['row']}: {r.get('status')}, {len(r.get('samples', []))} samples, reps_taken {taken}, "
                       f"suite n {row.get('n')}, want 10")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "cli_suite_full_reps: $fails failure(s)"
[ "$fails" = 0 ]
