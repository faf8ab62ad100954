#!/usr/bin/env bash
# The microarchitecture probes end to end (branch.*, latency.*, atomics.*, sustained.*): a
# quick run gives ok results (inconclusive where nothing was found: no divergence step, no
# knee; throttled where the rate fell), validated, in a schema-conformant document, with the
# curves and inferred values in params; --inject-fault turns every result into
# invalid_result (never a number), and --strict makes that exit 1.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
groups=('branch.*' 'latency.*' 'atomics.*' 'sustained.*')
n=$("$bin" run --list | awk '{print $1}' | grep -cE '^(branch|latency|atomics|sustained)\.')
[ "$n" -ge 22 ] || { echo "FAIL: only $n microarch benchmarks listed"; fails=$((fails+1)); }
CLBENCH_SUSTAINED_S=1 "$bin" run "${groups[@]}" --quick --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results "$n" --expect-status ok,inconclusive,throttled || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
doc = json.load(open(sys.argv[1]))
res = {r["name"]: r for d in doc["devices"] for r in d["results"]}
bad = 0
def need(cond, msg):
    global bad
    if not cond:
        print("FAIL:", msg); bad += 1
div = res["branch.divergence"]["params"]
need(len(div["curve"]["points"]) >= 2, "divergence curve has points")
need("derived_simd_width" in div, "divergence compares with the derived width")
bd = res["branch.divergence"]
if bd["status"] == "ok":
    need(bd["value"] >= 1, "an inferred width >= 1")
else:  # no sentinel: no number, a reason that names both widths
    need(bd["value"] is None and "derived simd_width" in bd["reason"], "inconclusive divergence: no value, a reason")
ld = res["latency.distance"]
need(ld["status"] == "ok" and ld["value"] >= 1 or ld["status"] == "inconclusive" and ld["value"] is None and "no knee" in ld["reason"],
     "distance: a knee >= 1, or inconclusive without a number")
dist = res["latency.distance"]["params"]
need(len(dist["curve"]["points"]) == 32, "distance curve has 32 points")
for name, r in res.items():
    if name.startswith("latency.") and name != "latency.distance":
        need(r["value"] > 0 and "cycles" in r["params"] and "simd_group_ns" in r["params"], name + " has ns, cycles, SIMD group")
sus = res["sustained.fp32"]["params"]
need(len(sus["curves"][0]["points"]) >= 1 and "first_to_steady_ratio" in sus, "sustained curve and ratio")
sys.exit(bad)
PY
CLBENCH_SUSTAINED_S=1 "$bin" run "${groups[@]}" --quick --inject-fault --strict --json "$tmp/bad.json" >/dev/null; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fault run exit $rc, want 1"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad.json" --min-results "$n" --expect-status invalid_result || fails=$((fails+1))
echo "cli_microarch: $fails failure(s)"
[ "$fails" = 0 ]
