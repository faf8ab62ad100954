#!/bin/sh
# Runs one libFuzzer harness for CLB_FUZZ_SECONDS (default 30 in CI; longer by hand) from its seed corpus; fails on any
# crash, leak, sanitizer report, slow input (> 10 s) or memory blow-up (> 2 GiB).
# usage: run_fuzz.sh HARNESS SEED_CORPUS_DIR
set -eu
secs=${CLB_FUZZ_SECONDS:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$1" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     "$work" "$2" 2>"$work/log" || { tail -60 "$work/log"; echo "FAIL: $(basename "$1") found a problem" >&2; exit 1; }
grep -E "stat::number_of_executed_units|Done" "$work/log" | tail -2
echo "PASS: $(basename "$1") ran ${secs}s without a finding"
