#!/usr/bin/env bash
# No OpenCL platform (the ICD loader finds no vendor, -1001): clear message, exit 3, and
# valid JSON with zero devices when --json was asked.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/vendors"
fails=0
for cmd in "list" "info --json $tmp/info.json" "run launch.start_end --json $tmp/run.json"; do
    # shellcheck disable=SC2086
    err=$(OCL_ICD_VENDORS=$tmp/vendors "$bin" $cmd 2>&1 >/dev/null); rc=$?
    if [ "$rc" != 3 ] || ! grep -q "no OpenCL platform" <<<"$err"; then
        echo "FAIL: '$cmd' -> exit $rc, stderr: $err"; fails=$((fails+1))
    fi
done
for f in info run; do
    python3 "$check" "$tmp/$f.json" --no-devices || fails=$((fails+1))
done
echo "cli_noplatform: $fails failure(s)"
[ "$fails" = 0 ]
