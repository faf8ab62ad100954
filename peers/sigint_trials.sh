#!/usr/bin/env bash
# The interruption target (docs/results/robustness.md): SIGINT at a random moment of a full characterization, N
# trials; each must leave valid JSON holding every result finished before the signal (exit 130).
# usage: bash peers/sigint_trials.sh OUTDIR [TRIALS=10] [MAX_DELAY_S=120] [clbench]
# AFTER_ROWS=LO-HI: instead of a delay, SIGINT a uniform 0-4 s after the run has printed a random
# number of results between LO and HI (the late part of a run, whatever the machine's speed).
set -u
out=${1:?usage: peers/sigint_trials.sh OUTDIR [TRIALS] [MAX_DELAY_S] [clbench]}
n=${2:-10} max=${3:-120} clb=${4:-build/clbench}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
good=0
for i in $(seq 1 "$n"); do
    delay=$(python3 -c "import random; print(round(random.uniform(1, $max), 1))")
    if [ -n "${AFTER_ROWS:-}" ]; then
        rows=$(python3 -c "import random; print(random.randint(${AFTER_ROWS%-*}, ${AFTER_ROWS#*-}))")
        delay=$(python3 -c "import random; print(round(random.uniform(0, 4), 1))")
        : >"$out/trial$i.out" # exists before the first count (the child opens it later)
        "$clb" run --json "$out/trial$i.json" >"$out/trial$i.out" 2>"$out/trial$i.err" & pid=$!
        t0=$SECONDS
        while kill -0 $pid 2>/dev/null &&
              [ "$(grep -cE '^[a-z0-9_]+\.[a-z0-9_.]+ +[a-z_]+ ' "$out/trial$i.out" || true)" -lt "$rows" ]; do sleep 0.5; done
        sleep "$delay"; when="$((SECONDS - t0)) s ($rows results printed, then ${delay} s)"
    else
        "$clb" run --quiet --json "$out/trial$i.json" 2>"$out/trial$i.err" & pid=$!
        sleep "$delay"; when="${delay} s"
    fi
    kill -INT $pid; wait $pid; rc=$?
    if [ $rc = 130 ] && python3 "$here/tests/check_schema.py" "$out/trial$i.json" >/dev/null 2>&1; then
        k=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['devices'][0]['results']; print(sum(x['status']!='interrupted' for x in r))" "$out/trial$i.json")
        echo "trial $i: SIGINT after $when -> exit $rc, valid JSON, $k finished results kept"
        good=$((good + 1))
    else
        echo "trial $i: SIGINT after $when -> exit $rc, results file invalid or missing"
    fi
done
echo "$good of $n trials kept valid JSON with their finished results"
[ "$good" = "$n" ]
