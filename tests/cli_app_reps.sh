#!/usr/bin/env bash
# Repetitions of app rows (seed 004: one warm-up, then 10 runs). With runs of about 0.5 s and a
# 1 s budget (CLBENCH_APP_REP_BUDGET_S), a plain run stops early (after 3 once the budget has
# passed) and --all-reps, which the suite's full mode passes to its workers, takes all 10 and
# says so in params.reps_taken. About 15 s (runs of 0.5 s, so that a faster host still stops early).
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
export CLBENCH_APP_REP_BUDGET_S=1 CLBENCH_MCPI_N=268435456
count() {
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["devices"][0]["results"][0]
print(len(r.get("samples", [])), int(r["params"].get("reps_taken", -1)), r["status"])' "$1"
}
"$bin" run app.mcpi.sequential --reps 10 --all-reps --json "$tmp/all.json" >/dev/null 2>&1 || { echo "FAIL: run --all-reps exit $?"; fails=$((fails+1)); }
read -r n taken st < <(count "$tmp/all.json")
[ "$n" = 10 ] && [ "$taken" = 10 ] && [ "$st" = ok ] || { echo "FAIL: --all-reps took $n samples ($taken reps, $st), want 10"; fails=$((fails+1)); }
"$bin" run app.mcpi.sequential --reps 10 --json "$tmp/budget.json" >/dev/null 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
read -r n taken st < <(count "$tmp/budget.json")
[ "$n" -ge 3 ] && [ "$n" -lt 10 ] && [ "$st" = ok ] || { echo "FAIL: without --all-reps $n samples ($st), want 3 .. 9 (the 1 s budget)"; fails=$((fails+1)); }
echo "cli_app_reps: $fails failure(s)"
[ "$fails" = 0 ]
