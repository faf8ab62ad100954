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
# read_linear's other forms and every width: oclgrind_memory_forms (cli_memory_forms.sh).
echo "oclgrind_memory: $fails failure(s)"
[ "$fails" = 0 ]
