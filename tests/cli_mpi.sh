#!/bin/sh
# run --mpi under mpirun (2 ranks, oversubscribed, PoCL with one core per rank so the ranks do not
# compete): rank 0's JSON holds both devices with node, rank and local rank; fleet-check passes
# the healthy pair and flags the rank made slower with CLBENCH_SLOWDOWN, with its reason.
# Skipped (77) when clbench was built without MPI or mpirun is missing.
# CLBENCH_SLOWDOWN lives in the test-only preload library.
# usage: cli_mpi.sh CLBENCH CHECK_SCHEMA PRELOAD(libclb_fault_preload.so)
set -eu
clb=$1 check=$2 preload=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
if "$clb" run launch.roundtrip --mpi --json "$tmp/x.json" 2>&1 | grep -q "built without MPI"; then
    echo "SKIP: clbench built without MPI"; exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Two devices (PoCL's pthread device twice), both selected: one per rank, as ranks never share
# one (tests/hostile/proc_mpi_shared.sh).
export POCL_MAX_PTHREAD_COUNT=1 POCL_DEVICES="pthread pthread"
args="run compute.fp32.fma --quick --reps 20 --quiet --mpi --type cpu"
mpirun -np 2 "$clb" $args --json "$tmp/healthy.json" --html "$tmp/healthy.html"
python3 "$check" "$tmp/healthy.json" >/dev/null
python3 - "$tmp/healthy.json" <<'PY' || fail "merged document"
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
assert sorted(d["rank"] for d in devs) == [0, 1], [d.get("rank") for d in devs]
for d in devs:
    assert d["node"] and d["local_rank"] in (0, 1) and d["local_rank_from"], d.keys()
    assert [r["status"] for r in d["results"]] == ["ok"], d["results"]
PY
# The HTML of the merged document: one column per rank, each rank's result ok in its own cell.
python3 - "$tmp/healthy.json" "$tmp/healthy.html" <<'PY' || fail "the HTML report does not show both ranks"
import json, re, sys
devs = json.load(open(sys.argv[1]))["devices"]
html = open(sys.argv[2]).read()
sec = html[html.index('<section id="results">'):]
sec = sec[:sec.index("</section>")]
head = re.search(r"<tr><th>benchmark</th>(.*?)</tr>", sec).group(1)
cols = re.findall(r"<th>(.*?)</th>", head)
assert len(cols) == len(devs) == 2, f"{len(cols)} result columns for {len(devs)} ranks: {cols}"
row = re.search(r"<tr><th><code>compute\.fp32\.fma</code></th>(.*?)</tr>", sec, re.S).group(1)
cells = re.findall(r"<td>(.*?)</td>", row, re.S)
assert len(cells) == 2 and all('<span class="st st-ok">ok</span>' in c for c in cells), f"{len(cells)} cells, not 2 ok"
PY
rc=0; "$clb" fleet-check "$tmp/healthy.json" --threshold 15% --max-spread 40% >"$tmp/h.txt" || rc=$?
if [ "$rc" != 0 ]; then # a busy 2-core machine can slow one rank's short run: one more pair
    cat "$tmp/h.txt"; echo "healthy pair flagged once (exit $rc): running the pair again"
    mpirun -np 2 "$clb" $args --json "$tmp/healthy2.json"
    rc=0; "$clb" fleet-check "$tmp/healthy2.json" --threshold 15% --max-spread 40% >"$tmp/h.txt" || rc=$?
fi
[ "$rc" = 0 ] || { cat "$tmp/h.txt"; fail "healthy pair flagged twice (exit $rc)"; }
mpirun -np 1 "$clb" $args --json "$tmp/slow.json" : -np 1 -x LD_PRELOAD="$preload" -x CLBENCH_SLOWDOWN=0.5 "$clb" $args --json "$tmp/slow.json"
rc=0; "$clb" fleet-check "$tmp/slow.json" --threshold 15% --max-spread 40% >"$tmp/s.txt" || rc=$?
cat "$tmp/s.txt"
[ "$rc" = 1 ] || fail "slowed rank not flagged (exit $rc)"
grep -q "FLAG  .* rank 1 .*compute.fp32.fma .*below its peer's" "$tmp/s.txt" || fail "the flag names the wrong rank or no reason"
# Two identical devices (PoCL's pthread device twice, as two GPUs of one host): without
# CLBENCH_RANK_DEVICE each rank takes the device at its node-local index of the selection, and
# the ranks of the node take turns to run the rows that share the host (transfers) alone.
POCL_DEVICES="pthread pthread" timeout 300 mpirun -np 2 -x POCL_DEVICES "$clb" run compute.fp32.fma \
    transfer.h2d_pinned --quick --reps 5 --quiet --mpi --type cpu --json "$tmp/two.json" ||
    fail "two-device MPI run (exit $?)"
python3 - "$tmp/two.json" <<'PY' || fail "ranks did not take their own devices, or no turns for the shared rows"
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
got = sorted((d["local_rank"], d["selection"]["device_index"], d["local_rank_from"]) for d in devs)
assert got == [(0, 0, "OMPI_COMM_WORLD_LOCAL_RANK"), (1, 1, "OMPI_COMM_WORLD_LOCAL_RANK")], got
for d in devs:
    assert d.get("ran_concurrently") is True, d.keys()
    rows = {r["name"]: r for r in d["results"]}
    conc = rows["transfer.h2d_pinned"]["params"].get("concurrent")
    assert conc and conc["with_devices"] == 2 and conc["status"], conc
    assert "concurrent" not in rows["compute.fp32.fma"]["params"]
PY
echo "PASS: run --mpi gathers both ranks, each on the device of its local rank, shared rows in turns; fleet-check flags the slowed rank and not the healthy pair"
