#!/usr/bin/env bash
# app.euler.cuda (the Euler twin, docs/apps/cuda.md) off NVIDIA: listed in the app.euler group,
# and on the default (PoCL) device unsupported with a reason naming the device, no value and no
# samples, exit 0; the OpenCL Euler row beside it in the same run is unaffected (ok).
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$bin" run --list | grep -Eq '^app\.euler\.cuda +app\.euler +.*CUDA twin' || fail "app.euler.cuda not listed in group app.euler"
CLBENCH_EULER_N=4096 CLBENCH_EULER_STEPS=8 "$bin" run --reps 3 app.euler.cuda app.euler.string.f32.coalesced \
    --json "$tmp/r.json" >"$tmp/out.txt" 2>&1 || fail "run exit $?"
cat "$tmp/out.txt"
python3 - "$tmp/r.json" <<'PY' || fail "results"
import json, sys
res = {r["name"]: r for r in json.load(open(sys.argv[1]))["devices"][0]["results"]}
cu, cl = res.get("app.euler.cuda", {}), res.get("app.euler.string.f32.coalesced", {})
bad = []
if cu.get("status") != "unsupported" or "NVIDIA" not in cu.get("reason", ""):
    bad.append(f"twin: {cu.get('status')} {cu.get('reason')}")
if cu.get("value") is not None or cu.get("samples"):
    bad.append("the unsupported twin carries a value or samples")
if cl.get("status") != "ok" or cl.get("params", {}).get("n") != 4096:
    bad.append(f"coalesced: {cl.get('status')} {cl.get('reason')}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
echo "cli_euler_cuda: $fails failure(s)"
[ "$fails" = 0 ]
