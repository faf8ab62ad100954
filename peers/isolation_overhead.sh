#!/bin/sh
# The cost of running benchmarks in worker processes (the target: a full characterization
# at most 5 % longer than a single-process run). Times the same runs with the workers (default)
# and with CLBENCH_ISOLATION=off (every row in the parent process, measurement only), in
# alternating order so that drift of the machine hits both alike; prints the median wall time of
# each and the overhead. About 4 minutes on an H100 with the defaults.
# usage: peers/isolation_overhead.sh OUT BUILD_DIR [PAIRS (3)] [SUBSET_PAIRS (2)]
#   OUT/times.txt     one line per run: case mode start end exit
#   OUT/summary.txt   medians and overhead per case
#   OUT/*.json        the last results document of each case and mode (all ok? compare them)
set -eu
out=$1 build=$2 pairs=${3:-3} subset_pairs=${4:-2}
clb=$build/clbench
mkdir -p "$out"
: >"$out/times.txt"
now() { date +%s.%N; }  # GNU date: nanoseconds

# case_name pairs args...: alternates isolated / in-process runs of `clbench run args`.
measure() {
    name=$1 n=$2
    shift 2
    i=0
    while [ "$i" -lt "$n" ]; do
        for mode in isolated in_process; do
            iso=on; [ $mode = in_process ] && iso=off
            t0=$(now); rc=0
            CLBENCH_ISOLATION=$iso "$clb" run "$@" --quiet --json "$out/$name-$mode.json" >/dev/null 2>>"$out/stderr.txt" || rc=$?
            t1=$(now)
            echo "$name $mode $t0 $t1 $rc" >>"$out/times.txt"
        done
        i=$((i + 1))
    done
}

"$clb" list >"$out/devices.txt" 2>&1 || true
# The quick characterization (every group, small sizes: the worker start is the largest share).
measure quick "$pairs" --quick
# Full (not --quick) groups of short rows: launch overheads and compile times.
measure launch_compile "$subset_pairs" 'launch.*' 'compile.*'

python3 - "$out/times.txt" >"$out/summary.txt" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    case, mode, t0, t1, rc = line.split()
    t.setdefault(case, {}).setdefault(mode, []).append(float(t1) - float(t0))
for case, m in t.items():
    iso, inp = statistics.median(m["isolated"]), statistics.median(m["in_process"])
    print(f"{case}: isolated median {iso:.2f} s {sorted(round(x, 2) for x in m['isolated'])}, "
          f"in-process median {inp:.2f} s {sorted(round(x, 2) for x in m['in_process'])}, "
          f"overhead {100 * (iso / inp - 1):+.1f} %")
PY
cat "$out/summary.txt"
