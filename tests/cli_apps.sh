#!/usr/bin/env bash
# The app rows end to end on the default device: every row of a quick run is ok (CLBlast's
# may be unsupported), in a schema-valid document, annotated against its peers; sizes that
# are no multiple of any tile (67, and 517 for the Freivalds path) are handled; a plain
# `run --list` still lists the app rows. Every row's check under the planted faults is
# cli_app_faults' (partial and skip: one wrong word, 1/16 skipped).
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0 seen=
"$bin" run 'app.*' compute.fp32.fma memory.triad --quick --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results 40 || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
bad = 0
for r in res:
    if r["status"] != "ok" and not (r["name"].endswith((".clblast", ".clblast_tuned", ".cuda", ".cublas")) and r["status"] == "unsupported"):
        print("FAIL:", r["name"], r["status"], r.get("reason")); bad += 1
by = {r["name"]: r for r in res}
p = by["app.sgemm.tiled"]["params"]
for k in ("speedup_vs_sequential", "speedup_vs_previous_rung", "pct_of_compute_peak"):
    if not isinstance(p.get(k), (int, float)) or p[k] <= 0:
        print("FAIL: app.sgemm.tiled lacks", k); bad += 1
if not by["app.saxpy.opencl"]["params"].get("pct_of_triad", 0) > 0:
    print("FAIL: app.saxpy.opencl lacks pct_of_triad"); bad += 1
if len(by["app.saxpy.opencl"]["params"]["curve"]["points"]) < 3:
    print("FAIL: saxpy curve has fewer than 3 sizes"); bad += 1
sys.exit(bad != 0)
PY
for n in 67 517; do
    CLBENCH_GEMM_N=$n CLBENCH_GEMM_LADDER_N=$n "$bin" run 'app.sgemm.tiled' 'app.sgemm.row_float8' 'app.?gemm.double_buffered' 'app.sgemm.register_vectors' 'app.sgemm.tuned' --quick --reps 2 --json "$tmp/n$n.json" >/dev/null \
        || { echo "FAIL: n=$n run exit $?"; fails=$((fails+1)); }
    python3 "$check" "$tmp/n$n.json" --min-results 6 --expect-status ok || fails=$((fails+1))
done
# The tuned rung's cache: a search, then the cached winner, then --retune searches again.
for want in search cache search; do
    extra=; [ "$want$seen" = searchyes ] && extra=--retune
    CLBENCH_GEMM_N=96 "$bin" run app.sgemm.tuned --reps 1 $extra --json "$tmp/tune.json" >/dev/null || { echo "FAIL: tuned run exit $?"; fails=$((fails+1)); }
    got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["devices"][0]["results"][0]; print(r["status"], r["params"].get("tune_source"))' "$tmp/tune.json")
    [ "$got" = "ok $want" ] || { echo "FAIL: tuned run gave '$got', want 'ok $want'"; fails=$((fails+1)); }
    seen=yes
done
# The whole search at a size no tile divides, K above the packed panels' K slice (256): every
# candidate is checked, and none may fail its check (packed panels included, where offered).
CLBENCH_GEMM_N=517 "$bin" run app.sgemm.tuned --reps 1 --retune --json "$tmp/t517.json" >/dev/null || { echo "FAIL: n=517 search exit $?"; fails=$((fails+1)); }
python3 - "$tmp/t517.json" <<'PY' || fails=$((fails+1))
import json, sys
p = json.load(open(sys.argv[1]))["devices"][0]["results"][0]["params"]
bad = [t["config"] + ": " + t["status"] for t in p["tune_table"] if t["status"] not in ("ok", "unsupported")]
bad += [t["config"] + ": " + t["status"] for t in p["tune_table"] if t["config"].startswith("packed") and t["status"] == "unsupported"]
print("FAIL: n=517 search:", bad) if bad else None
sys.exit(bool(bad) or len(p["tune_table"]) < 3)
PY
grep -q '"screen_gflops"' "$tmp/cache/clbench/tune.json" || { echo "FAIL: no cache file"; fails=$((fails+1)); }
"$bin" run --list | awk '{print $1}' | grep -qx app.sgemm.tuned || { echo "FAIL: --list lacks app.sgemm.tuned"; fails=$((fails+1)); }
echo "cli_apps: $fails failure(s)"
[ "$fails" = 0 ]
