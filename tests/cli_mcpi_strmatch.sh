#!/usr/bin/env bash
# app.mcpi and app.strmatch end to end on the default device at odd sizes: every row
# ok, the same count of points inside (mcpi) and the same first positions, equal to the planted
# ones (strmatch) in every row; the OpenCL rows carry speedup_vs_sequential; an injected fault
# makes every row invalid_result.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
export CLBENCH_MCPI_N=1000003 CLBENCH_STRMATCH_BYTES=200003
# the host and OpenCL rows; the CUDA twins (app.*.cuda) are unsupported off NVIDIA (cli_ladder)
set -f
rows="app.mcpi.[sp]* app.mcpi.cl_* app.strmatch.[sp]* app.strmatch.cl_*"
"$bin" run $rows --quick --reps 3 --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results 10 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
res = {r["name"]: r for r in json.load(open(sys.argv[1]))["devices"][0]["results"]}
bad = []
for app, key, n in (("mcpi", "inside", 5), ("strmatch", "positions", 5)):
    rows = [r for name, r in res.items() if name.startswith(f"app.{app}.") and not name.endswith(".cuda")]
    if len(rows) != n:
        bad.append(f"{app}: {len(rows)} rows, want {n}")
    got = {json.dumps(r["params"].get(key)) for r in rows}
    if len(got) != 1 or None in [r["params"].get(key) for r in rows]:
        bad.append(f"{app}: params.{key} differs between rows: {got}")
    for r in rows:
        p = r["params"]
        if "cl_" in r["name"] and not p.get("speedup_vs_sequential", 0) > 0:
            bad.append(f"{r['name']}: no speedup_vs_sequential")
        if "cl_" in r["name"] and not all(k in p for k in ("kernel", "local_size", "global_size", "atomics")):
            bad.append(f"{r['name']}: kernel geometry params missing")
sm = res["app.strmatch.sequential"]["params"]
if sm["positions"] != sm["planted_positions"] or sm["positions"][-1] != -1:
    bad.append(f"strmatch positions {sm['positions']} != planted {sm['planted_positions']}")
mc = res["app.mcpi.sequential"]["params"]
if not (mc["n"] == 1000003 and abs(mc["pi_estimate"] - 3.14159) < 0.01 and mc["pi_abs_error"] < 0.01):
    bad.append(f"mcpi: n {mc['n']}, estimate {mc['pi_estimate']}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$bin" run $rows --quick --reps 1 --inject-fault --strict --json "$tmp/bad.json" >/dev/null; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fault run exit $rc, want 1"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad.json" --min-results 10 --expect-status invalid_result || fails=$((fails+1))
echo "cli_mcpi_strmatch: $fails failure(s)"
[ "$fails" = 0 ]
