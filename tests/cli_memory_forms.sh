#!/usr/bin/env bash
# Every form of the DRAM families validated, not only --quick's uint4 one: with
# CLBENCH_READ_FORMS=all a quick run screens every width (1-16) of every form (one vector per
# work-item, the chunked layout at 1/4/16, read_linear's 16-per-item and per-item-sum forms in
# both layouts) of write, copy, scale, add, triad and the reads. Each variant runs from a
# poisoned output and is validated on what it wrote; the test requires every one of them
# screened and none failed or left out, so a wide variant that skips work fails it even when
# it would never win. With OCLGRIND=1 the same under Oclgrind at 256 KiB arrays (its access
# and race checks), for the rows given.
#   usage: cli_memory_forms.sh CLBENCH CHECK_SCHEMA [ROW...]
set -u
bin=$1 check=$2; shift 2
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(memory.read_linear memory.read_strided memory.read_random memory.write
                               memory.copy memory.scale memory.add memory.triad)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
run=("$bin" run "${rows[@]}" --quick --json "$tmp/out.json")
if [ "${OCLGRIND:-0}" = 1 ]; then
    command -v oclgrind >/dev/null || { echo "SKIP: oclgrind is not installed"; exit 77; }
    export CLBENCH_QUICK_BYTES=262144
    run=(oclgrind --check-api --data-races --log "$tmp/oclgrind.log" "${run[@]}" --reps 1 --watchdog-ms 20000)
fi
CLBENCH_READ_FORMS=all "${run[@]}" >"$tmp/table.txt" 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
if [ -s "$tmp/oclgrind.log" ]; then
    echo "FAIL: oclgrind reported:"; head -40 "$tmp/oclgrind.log"; fails=$((fails+1))
fi
python3 "$check" "$tmp/out.json" --min-results ${#rows[@]} --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
W = [1, 2, 4, 8, 16]
bad = []
for r in json.load(open(sys.argv[1]))["devices"][0]["results"]:
    n = r["name"].split(".")[1]
    vs = r["params"].get("variants", [])
    want = {("one_per_item", w, "") for w in W}
    if n not in ("read_strided", "read_random"):
        want |= {("chunked", w, "") for w in (1, 4, 16)}
    if n == "read_linear":
        want |= {("several_per_item", w, "") for w in W}
        want |= {("per_item_sum", w, l) for w in W for l in ("local_offset", "global_offset")}
    got = {(v["variant"], v["vector_width"], v.get("fetch_layout", "")) for v in vs}
    if got != want:
        bad.append(f"{r['name']}: forms {sorted(got ^ want)} differ from every width and form")
    for v in vs:
        if "screen_gbs" not in v or "failed" in v or "skipped" in v:
            bad.append(f"{r['name']}: variant {v} not validated: "
                       f"{v.get('failed') or v.get('skipped') or 'no screening figure'}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "cli_memory_forms: $fails failure(s)"
[ "$fails" = 0 ]
