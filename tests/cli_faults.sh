#!/bin/sh
# The fault suite: in every benchmark group, each injected fault -- allocation
# failure, build failure, a kernel that never ends, SIGSEGV, SIGABRT, a wrong kernel result --
# yields exactly one non-ok result (the victim, with the right status), every other result of
# the run is intact, and `run --strict` exits 1. The victim is the group's first row that runs on this
# device; its neighbour in the registry runs in the same worker after it. The OpenCL failures
# and the worker faults (alloc, build, stall, segv, abort) come from the test-only preload
# library (tests/preload/); wrong, partial and skip are the product's own (--inject-fault).
# usage: cli_faults.sh CLBENCH PRELOAD
set -eu
clb=$1 preload=$2
[ -f "$preload" ] || { echo "FAIL: no preload library $preload" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$clb" run --list | awk '{print $1, $2}' >"$tmp/list"
groups=$(awk '{print $2}' "$tmp/list" | awk '!seen[$0]++' | grep -v '^app')
total=0
for g in $groups; do
    rows=$(awk -v g="$g" '$2 == g {print $1}' "$tmp/list")
    victim=$(echo "$rows" | head -1); other=$(echo "$rows" | sed -n 2p)
    [ -n "$other" ] || other=$(awk '$2 == "launch" {print $1; exit}' "$tmp/list")
    # the wrong-result fault in turn as wrong (the whole output), partial (one word) and skip
    # (1/16 left as the poison), one per group: cli_fault_kinds runs the last two on every row
    i=$(( ${i:-0} + 1 )); result=$(echo "wrong partial skip" | cut -d' ' -f$(( i % 3 + 1 )))
    for kind in alloc build stall segv abort $result; do
        # transfer rows build no program: a build fault cannot touch them
        [ "$g" = transfer ] && [ "$kind" = build ] && continue
        case $kind in alloc) want=error;; build) want=build_failed;; stall) want=timeout;;
                      segv|abort) want=crashed;; wrong|partial|skip) want=invalid_result;; esac
        deadline=60; [ $kind = stall ] && deadline=8   # the stalled worker is killed after 8 s
        # the product's own kinds without the preload library, every other one with it
        pre=$preload; case $kind in wrong|partial|skip) pre=;; esac
        rc=0
        LD_PRELOAD=$pre CLBENCH_FAULT=$victim:$kind "$clb" run "$victim" "$other" --quick --strict --quiet --bench-timeout $deadline \
            --json "$tmp/r.json" 2>"$tmp/err" || rc=$?
        [ "$rc" = 1 ] || { cat "$tmp/err"; fail "$victim:$kind: exit $rc, expected 1"; }
        python3 - "$tmp/r.json" "$victim" "$want" <<'PY' || fail "$victim:$kind"
import json, sys
dev = json.load(open(sys.argv[1]))["devices"][0]
res, victim, want = dev["results"], sys.argv[2], sys.argv[3]
# the worker's device entry comes before the victim runs: no fault reaches it
assert dev["derived"]["simd_width"]["value"] is not None, dev["derived"]["simd_width"]
bad = [r for r in res if r["status"] not in ("ok", "unsupported", "inconclusive", "throttled")]
assert len(res) == 2, f"{len(res)} results"
assert [r["name"] for r in bad] == [victim], f"non-ok: {[(r['name'], r['status'], r['reason']) for r in bad]}"
assert bad[0]["status"] == want, f"{victim}: {bad[0]['status']} ({bad[0]['reason']}), expected {want}"
PY
        total=$((total + 1))
    done
    echo "ok: group $g ($victim, then $other): every fault hit $victim alone"
done
echo "PASS: $total injected faults, each exactly one non-ok result"
