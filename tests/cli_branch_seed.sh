#!/usr/bin/env bash
# branch.seed measures seed 000 4.3.4's form (the branch tests the loaded value) and
# branch.running_sum clbench's own (the branch tests the running sum); each is validated on its
# own poisoned outputs against the host's recomputation of its own form, so a row that ran the
# other row's kernel, or wrote nothing, is invalid_result, never a ratio.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$bin" run branch.seed branch.running_sum --quick --json "$tmp/out.json" >/dev/null || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
python3 "$check" "$tmp/out.json" --min-results 2 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
res = {r["name"]: r for d in json.load(open(sys.argv[1]))["devices"] for r in d["results"]}
bad = 0
for name, on in (("branch.seed", "the loaded value"), ("branch.running_sum", "the running sum")):
    r = res.get(name)
    if not r or r["status"] != "ok" or not r["value"] > 0 or not r["params"]["branch_on"].startswith(on):
        print("FAIL:", name, r and (r["status"], r.get("reason"), r["params"].get("branch_on")))
        bad += 1
    else:
        print(f"{name}: ratio {r['value']:.4f} (branch on {on})")
sys.exit(bad)
PY
# A planted fault in the output: both rows invalid_result.
"$bin" run branch.seed branch.running_sum --quick --inject-fault=wrong --json "$tmp/bad.json" >/dev/null
python3 "$check" "$tmp/bad.json" --min-results 2 --expect-status invalid_result || fails=$((fails+1))
echo "cli_branch_seed: $fails failure(s)"
[ "$fails" = 0 ]
