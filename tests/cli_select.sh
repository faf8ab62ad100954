#!/usr/bin/env bash
# Device selection and bad input: clear messages and documented exit codes (docs/cli.md).
set -u
bin=$1
fails=0
expect() { # expect CODE PATTERN-IN-STDERR ARGS...
    local want=$1 pat=$2; shift 2
    local err rc
    err=$("$bin" "$@" 2>&1 >/dev/null); rc=$?
    if [ "$rc" != "$want" ] || ! grep -q -- "$pat" <<<"$err"; then
        echo "FAIL: clbench $* -> exit $rc (want $want), stderr: $err"; fails=$((fails+1))
    else
        echo "ok: clbench $* -> $rc"
    fi
}
expect 2 "valid choices" run launch.start_end -d 99
expect 2 "valid choices" run launch.start_end -d no-such-device-name
expect 2 "valid choices" run launch.start_end -d 7:0
expect 2 "valid choices" run launch.start_end -p 9
expect 2 "valid choices" info --type accelerator
expect 2 "must be cpu, gpu" info --type fpga
expect 2 "bad device" info -d 0:x
expect 2 "invalid value" run --reps 0
expect 2 "invalid value" run --reps abc
expect 2 "invalid value" run --time-budget -1
expect 2 "unknown option" run --no-such-flag
expect 2 "unknown command" frobnicate
expect 2 "missing command" --quick
expect 2 "no benchmark matches" run 'nothing.*'
expect 2 "takes no arguments" info extra
CLBENCH_DEVICE=no-such-device expect 2 "valid choices" info
# Valid selections of the same device: index, P:D, name substring in another case, type.
name=$("$bin" list | sed -n 's/^ .-- Device #0: //p' | head -n1)
sub=$(echo "${name:0:6}" | tr '[:lower:]' '[:upper:]')
for sel in "-d 0" "-d 0:0" "-p 0 -d 0" "--type all" "-d $sub"; do
    # shellcheck disable=SC2086
    out=$("$bin" info --json - $sel 2>/dev/null) || { echo "FAIL: info $sel"; fails=$((fails+1)); continue; }
    grep -q "\"CL_DEVICE_NAME\":[[:space:]]*\"$name\"" <<<"$out" || { echo "FAIL: info $sel did not select $name"; fails=$((fails+1)); }
done
CLBENCH_DEVICE=0:0 "$bin" info --json - >/dev/null 2>&1 || { echo "FAIL: CLBENCH_DEVICE=0:0"; fails=$((fails+1)); }
echo "cli_select: $fails failure(s)"
[ "$fails" = 0 ]
