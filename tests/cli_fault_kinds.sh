#!/usr/bin/env bash
# Partial and skipped work never passes: every non-app row run with --quick under
# --inject-fault=partial (one 4-byte word of the output overwritten at a random place) and
# under --inject-fault=skip (1/16 of the output left as the poison) reports invalid_result.
# A validator that samples, or a fault planted where the validator does not look, leaves some
# row ok and fails this test. Rows the device cannot run report unsupported instead.
#   usage: cli_fault_kinds.sh CLBENCH
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Rows with no kernel output to corrupt, exempt from the rule (name: why). Empty: every
# non-app row's number comes from a kernel whose output its validator reads -- launch.* and
# compile.* validate what their kernels write, transfer.* the bytes that arrived, the
# microarch and memory sweeps the output of their last launch.
exempt=()
fails=0
for kind in partial skip; do
    "$bin" run --quick --inject-fault=$kind --json "$tmp/$kind.json" >"$tmp/$kind.txt" 2>&1
    python3 - "$tmp/$kind.json" "$kind" "${exempt[@]}" <<'PY' || fails=$((fails+1))
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
kind, exempt = sys.argv[2], set(sys.argv[3:])
bad = [f"{r['name']}: {r['status']} ({(r.get('reason') or '')[:120]})" for r in res
       if r["name"] not in exempt and not r["name"].startswith("app.")
       and r["status"] not in ("invalid_result", "unsupported")]
if len(res) < 60:
    bad.append(f"only {len(res)} rows ran")
for b in bad:
    print(f"FAIL: --inject-fault={kind}: {b}")
print(f"{kind}: {len(res)} rows, {len(bad)} not invalid_result")
sys.exit(1 if bad else 0)
PY
done
echo "cli_fault_kinds: $fails failure(s)"
[ "$fails" = 0 ]
