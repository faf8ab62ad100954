#!/usr/bin/env bash
# Seed 001's SAXPY as its listing 1 prints it (app.saxpy.seed): C = alpha A + B into a third
# buffer, checked at every size of the sweep on its own output (C poisoned first); a run with
# half of C never written, or C left as poison, is invalid_result without a value.
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$bin" run --quick --reps 3 app.saxpy.seed --json "$tmp/r.json" >"$tmp/out.txt" 2>&1 || fail "run exit $?"
python3 - "$tmp/r.json" <<'PY' || fail "app.saxpy.seed"
import json, sys
r = json.load(open(sys.argv[1]))["devices"][0]["results"][0]
p = r.get("params", {})
ok = (r["name"] == "app.saxpy.seed" and r["status"] == "ok" and r.get("value", 0) > 0 and
      "third buffer" in p.get("form", "") and len(p.get("curve", {}).get("points", [])) >= 3 and
      p.get("bytes_per_element") == 12)
print("app.saxpy.seed:", r["status"], r.get("value"), r.get("reason", "")) if not ok else None
sys.exit(not ok)
PY
"$bin" run --quick --reps 3 app.saxpy.seed --inject-fault=skip --json "$tmp/f.json" >/dev/null 2>&1
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["devices"][0]["results"][0]; sys.exit(not (r["status"] == "invalid_result" and r.get("value") is None))' "$tmp/f.json" || fail "the skip fault passed"
[ $fails = 0 ] || cat "$tmp/out.txt"
echo "cli_saxpy_seed: $fails failure(s)"
[ "$fails" = 0 ]
