#!/usr/bin/env bash
# The memory.* kernels under Oclgrind (a simulator that checks every access): no
# out-of-bounds access, no data race, no API misuse, and every result still validates.
# Oclgrind reports a device of every type, so the CPU layouts (tiles, blocked slices) are the
# ones checked. The constant and bank-conflict rows are left out: simulated, one launch of
# theirs takes seconds. (Checked by hand that it bites: a tile loop one slice too long is
# reported as "Invalid read of size 16" in mem_read.) The watchdog is 20 s: on a loaded 2-core
# machine a simulated local_read launch took 4.3-8.6 s (the test checks accesses, not speed).
#   usage: oclgrind_memory.sh CLBENCH CHECK_SCHEMA
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v oclgrind >/dev/null || { echo "SKIP: oclgrind is not installed"; exit 77; }
rows=(memory.read_linear memory.read_strided memory.read_random memory.read_reuse memory.write
      memory.copy memory.scale memory.add memory.triad memory.local_read memory.local_rw
      memory.latency memory.latency_local)
fails=0
oclgrind --check-api --data-races --log "$tmp/oclgrind.log" \
    "$bin" run "${rows[@]}" --quick --reps 3 --watchdog-ms 20000 --json "$tmp/out.json" \
    >"$tmp/table.txt" 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
if [ -s "$tmp/oclgrind.log" ]; then
    echo "FAIL: oclgrind reported:"
    head -40 "$tmp/oclgrind.log"
    fails=$((fails+1))
fi
python3 "$check" "$tmp/out.json" --min-results ${#rows[@]} --expect-status ok || fails=$((fails+1))
# read_linear's forms with 16 vectors per work-item (per_item_sum in both layouts: the one
# argument `total` strides the global-offset one), which --quick does not screen by default.
CLBENCH_READ_FORMS=per_item_sum,several_per_item oclgrind --check-api --data-races \
    --log "$tmp/forms.log" "$bin" run memory.read_linear --quick --reps 3 --watchdog-ms 20000 \
    --json "$tmp/forms.json" >"$tmp/forms.txt" 2>&1 || { echo "FAIL: forms run exit $?"; fails=$((fails+1)); }
cat "$tmp/forms.txt"
[ -s "$tmp/forms.log" ] && { echo "FAIL: oclgrind reported:"; head -40 "$tmp/forms.log"; fails=$((fails+1)); }
python3 "$check" "$tmp/forms.json" --min-results 1 --expect-status ok || fails=$((fails+1))
python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))["devices"][0]["results"][0]["params"]["variants"]
got = sorted((x["variant"], x.get("fetch_layout", "")) for x in v if "screen_gbs" in x)
want = [("per_item_sum", "global_offset"), ("per_item_sum", "local_offset"), ("several_per_item", "")]
sys.exit(0 if got == want else print("FAIL: forms screened:", got) or 1)' "$tmp/forms.json" || fails=$((fails+1))
echo "oclgrind_memory: $fails failure(s)"
[ "$fails" = 0 ]
