#!/usr/bin/env bash
# app.sgemm.tuned is "the fastest configuration of any family": its search screens the fixed
# rungs' configurations (regblock, vectorized, double_buffered, register_vectors, warp_tiles)
# first, past the filters and within --quick's limit, so it is never below the best fixed rung
# of the same run. Asserted on the row's own tune table: every fixed rung's configuration is there
# and ok (all of them run on PoCL), the winner is the fastest ok candidate, and the row runs
# the winner's configuration.
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
fixed="regblock vectorized double_buffered register_vectors warp_tiles"
"$bin" run --quick --reps 3 app.sgemm.tuned --json "$tmp/r.json" >"$tmp/out.txt" 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
python3 - "$tmp/r.json" "$fixed" <<'PY' || fails=$((fails+1))
import json, sys
by = {r["name"]: r for r in json.load(open(sys.argv[1]))["devices"][0]["results"]}
t = by["app.sgemm.tuned"]
bad = 0
def fail(m):
    global bad
    print("FAIL:", m); bad += 1
if t["status"] != "ok":
    fail("tuned: %s %s" % (t["status"], t.get("reason")))
table = t["params"].get("tune_table", [])
for name in sys.argv[2].split():
    rows = [c for c in table if c["config"].endswith("(rung %s)" % name)]
    if not (rows and rows[0]["status"] == "ok"):
        fail("the search left out rung %s's configuration: %s" % (name, rows))
ok = [c for c in table if c["status"] == "ok"]
win = [c for c in table if c["winner"]]
if not ok or len(win) != 1 or win[0]["median_s"] != min(c["median_s"] for c in ok):
    fail("the winner is not the fastest ok candidate: %s" % win)
else:
    p = t["params"]
    prefix = {"local tiles": "tiles ", "register vectors": "vectors ", "packed panels": "packed ",
              "warp tiles": "warp tiles "}.get(p.get("kernel_family"), "?")
    if p.get("kernel_family") in ("register vectors", "packed panels"):
        prefix += "rm=%d w=%d vn=%d" % (p["rows_per_item"], p["vector_width"], p["vectors_per_row"])
    elif p.get("kernel_family") in ("local tiles", "warp tiles"):
        prefix += "%dx%dx%d" % (p["tile_m"], p["tile_n"], p["tile_k"])
    if not win[0]["config"].startswith(prefix):
        fail("tuned runs %s, the winner is %s" % (prefix, win[0]["config"]))
print("tuned %.3g GFLOP/s (%s)" % (t.get("value", 0), win and win[0]["config"]))
sys.exit(bad)
PY
[ $fails = 0 ] || cat "$tmp/out.txt"
echo "cli_gemm_tuned_fixed: $fails failure(s)"
[ "$fails" = 0 ]
