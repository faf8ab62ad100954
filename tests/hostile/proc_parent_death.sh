#!/bin/sh
# A worker never outlives its parent: `clbench run` killed with SIGKILL while its worker hangs
# (CLBENCH_FAULT=NAME:hang) takes the worker with it (PR_SET_PDEATHSIG), and a worker whose
# parent is not the process that started it (it died before the worker could bind to it) does
# not run at all. The hang comes from the test-only preload library.
# usage: proc_parent_death.sh CLBENCH PRELOAD(libclb_fault_preload.so)
set -eu
clb=$1 preload=$2
. "$(dirname "$0")/proc_lib.sh"

for round in 1 2; do
    env "$tag" LD_PRELOAD="$preload" CLBENCH_FAULT=launch.roundtrip:hang "$clb" run launch.roundtrip --quick --quiet \
        --bench-timeout 120 --json "$tmp/x.json" & parent=$!
    worker=""
    i=0
    while [ -z "$worker" ] && [ $i -lt 100 ]; do # the worker: tagged, not the parent
        worker=$(tagged | grep -vx "$parent" | head -1 || true)
        sleep 0.1; i=$((i + 1))
    done
    [ -n "$worker" ] || fail "no worker appeared within 10 s"
    sleep 0.$((round * 3)) # let the worker reach its hang
    kill -9 "$parent"
    wait "$parent" 2>/dev/null || true
    left=$(survivors 5)
    [ -z "$left" ] || fail "round $round: worker(s) outlived their killed parent: $left"
    echo "ok: round $round: parent $parent killed -9, its worker $worker ended with it"
done

# A worker told that another process started it exits at once, printing nothing.
rc=0
env "$tag" CLBENCH_PARENT_PID=1 "$clb" __worker -d 0:0 --quick -- launch.roundtrip >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] || fail "a worker whose parent is not its starter ran (exit 0)"
[ ! -s "$tmp/out" ] || fail "a worker whose parent is not its starter printed results: $(head -c 200 "$tmp/out")"
grep -q "parent" "$tmp/err" || fail "no reason given: $(cat "$tmp/err")"
echo "ok: a worker whose parent is not its starter refuses to run (exit $rc): $(cat "$tmp/err")"
left=$(survivors 2)
[ -z "$left" ] || fail "stray processes: $left"
echo "PASS: workers die with their parent"
