#!/usr/bin/env bash
# Flag errors name the flag given (fleet-check --max-spread abc says --max-spread), and list
# does not depend on CLBENCH_DEVICE: a stale one gets a note on stderr, the same devices and
# exit code as without it.
# usage: cli_flags.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
r=$src/tests/data/sample.json

for flag in --max-spread --threshold; do
    rc=0; "$bin" fleet-check "$r" $flag abc >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" = 2 ] && grep -q -- "^clbench: $flag: invalid value 'abc'" "$tmp/err" || fail "fleet-check $flag abc: exit $rc: $(cat "$tmp/err")"
done
rc=0; "$bin" compare "$r" "$r" --threshold 5%x >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- "--threshold: invalid value '5%x'" "$tmp/err" || fail "compare --threshold 5%x: exit $rc: $(cat "$tmp/err")"

rc0=0; env -u CLBENCH_DEVICE "$bin" list >"$tmp/plain" 2>/dev/null || rc0=$?
rc=0; CLBENCH_DEVICE=no-such-device-anywhere "$bin" list >"$tmp/stale" 2>"$tmp/err" || rc=$?
[ "$rc" = "$rc0" ] || fail "list with a stale CLBENCH_DEVICE: exit $rc, without it $rc0: $(cat "$tmp/err")"
cmp -s "$tmp/plain" "$tmp/stale" || fail "list with a stale CLBENCH_DEVICE printed other devices"
if [ "$rc0" = 0 ]; then
    grep -q "note: CLBENCH_DEVICE=no-such-device-anywhere selects no device" "$tmp/err" || fail "no note about the stale CLBENCH_DEVICE: $(cat "$tmp/err")"
    rc=0; CLBENCH_DEVICE=0 "$bin" list >"$tmp/good" 2>"$tmp/err" || rc=$?
    [ "$rc" = 0 ] && cmp -s "$tmp/plain" "$tmp/good" && ! grep -q note "$tmp/err" || fail "list with a valid CLBENCH_DEVICE: exit $rc, note: $(cat "$tmp/err")"
fi

[ "$fails" = 0 ] && echo "PASS: flag errors name their flag; list ignores CLBENCH_DEVICE"
exit $((fails > 0))
