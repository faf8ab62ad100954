#!/usr/bin/env bash
# memory.read_linear's reduction-free form (per_item_sum, lib/bench/memory/memory.cl PER_ITEM):
# screened alone (CLBENCH_READ_FORMS) it runs and validates in both layouts, and so does the
# straightforward one_per_item (the group sums' check); a corrupted output
# (--inject-fault) makes the row invalid_result; --quick without the variable keeps its family
# (chunked + one_per_item, uint4) and validates. That a wrong host sum is caught is proven by
# the mutants memory_stream.* of tests/mutation/env.tsv, not by a hook in the product.
#   usage: cli_read_forms.sh CLBENCH CHECK_SCHEMA
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
run() { # OUT.json [VAR=VALUE...] [-- CLBENCH-ARGS...]
    local out=$1 vars=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    env "${vars[@]}" "$bin" run memory.read_linear --quick "$@" --json "$tmp/$out" >"$tmp/$out.txt" 2>&1
}
run ok.json CLBENCH_READ_FORMS=per_item_sum || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
python3 "$check" "$tmp/ok.json" --min-results 1 --expect-status ok || fails=$((fails+1))
run one.json CLBENCH_READ_FORMS=one_per_item
run fault.json CLBENCH_READ_FORMS=per_item_sum -- --inject-fault
run quick.json
python3 - "$tmp" <<'PY' || fails=$((fails+1))
import json, os, sys
t = sys.argv[1]
def row(name):
    return json.load(open(os.path.join(t, name)))["devices"][0]["results"][0]
bad = []
r = row("ok.json")
p = r["params"]
if r["status"] != "ok" or p.get("variant") != "per_item_sum":
    bad.append(f"per_item_sum alone: {r['status']} {p.get('variant')} {r.get('reason')}")
lays = sorted(v.get("fetch_layout", "") for v in p.get("variants", []) if "screen_gbs" in v)
if lays != ["global_offset", "local_offset"]:
    bad.append(f"both layouts screened and validated: {lays}")
if p.get("bytes_per_launch") != p.get("work_items", 0) * 16 * 4 * p.get("vector_width", 0):
    bad.append(f"bytes counted: {p.get('bytes_per_launch')} for {p.get('work_items')} items")
if p.get("output_bytes_per_launch") != p.get("work_items", 0) * 4 or "output_bytes_counted" not in p:
    bad.append("the per-item output write is not noted in params")
r = row("one.json")
if r["status"] != "ok" or r["params"].get("variant") != "one_per_item":
    bad.append(f"one_per_item alone: {r['status']} {r['params'].get('variant')} {r.get('reason')}")
for f, why in (("fault.json", ""),):
    r = row(f)
    if r["status"] != "invalid_result" or why not in r.get("reason", ""):
        bad.append(f"{f}: {r['status']} {r.get('reason')} (want invalid_result)")
r = row("quick.json")
if r["status"] != "ok":
    bad.append(f"--quick: {r['status']} {r.get('reason')} (want ok)")
vs = {(v["variant"], v["vector_width"]) for v in r["params"].get("variants", [])}
if vs != {("chunked", 4), ("one_per_item", 4)}:
    bad.append(f"--quick family changed: {sorted(vs)}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "cli_read_forms: $fails failure(s)"
[ "$fails" = 0 ]
