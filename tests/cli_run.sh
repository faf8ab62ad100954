#!/usr/bin/env bash
# The first benchmarks end to end: every launch.* and compile.* result is ok, validated,
# with all statistics, in a document that conforms to the schema; --list prints the registry;
# an injected fault is caught by every benchmark's validation; exit 1 only with --strict.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
"$bin" run 'launch.*' 'compile.*' --quick --json "$tmp/out.json" >"$tmp/table.txt" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
python3 "$check" "$tmp/out.json" --min-results 8 --expect-status ok || fails=$((fails+1))
# --list: one registry row per line, the benchmark name first.
"$bin" run --list | awk '{print $1}' >"$tmp/names"
for n in launch.queued_submit launch.queued_end launch.submit_start launch.start_end launch.roundtrip launch.throughput compile.short compile.long; do
    grep -qx "$n" "$tmp/names" || { echo "FAIL: --list lacks $n"; fails=$((fails+1)); }
done
# Fault injection: the corrupted output must be caught, never reported as a number.
"$bin" run 'launch.*' 'compile.*' --quick --inject-fault --strict --json "$tmp/bad.json" >/dev/null; rc=$?
[ "$rc" = 1 ] || { echo "FAIL: fault run exit $rc, want 1"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad.json" --min-results 8 --expect-status invalid_result || fails=$((fails+1))
# Without --strict a completed run exits 0 whatever its statuses (docs/cli.md), and says them.
"$bin" run 'launch.start_end' --quick --inject-fault --json "$tmp/bad2.json" >/dev/null; rc=$?
[ "$rc" = 0 ] || { echo "FAIL: fault run without --strict exit $rc, want 0"; fails=$((fails+1)); }
python3 "$check" "$tmp/bad2.json" --min-results 1 --expect-status invalid_result || fails=$((fails+1))
echo "cli_run: $fails failure(s)"
[ "$fails" = 0 ]
