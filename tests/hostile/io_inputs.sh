#!/usr/bin/env bash
# The readers of user files: one input limit (--max-input; default 1 GiB) with the size in the
# message, devices refused without reading, a pipe that never ends stopped at the limit; one
# reader, one set of messages: a UTF-8 byte order mark is accepted by report, compare and
# fleet-check alike, bytes after a complete document are named as such (not "truncated?") by
# every reader, the suite's reference included. The device database's user file is read by the
# same reader.
# usage: io_inputs.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
writer=
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
cd "$tmp" || exit 1
cp "$src/tests/data/sample.json" r.json
size=$(stat -c %s r.json)

# expect WANT-RC PATTERN ARGS...: the exit code and a line of the output (-: any output).
expect() {
    local want=$1 pat=$2; shift 2
    local rc=0; timeout 30 "$bin" "$@" >log 2>&1 || rc=$?
    [ "$rc" = "$want" ] && { [ "$pat" = - ] || grep -Eq -- "$pat" log; } || fail "$* -> exit $rc (want $want, /$pat/): $(head -c 300 log)"
}

# 1. The limit: a file above it is refused with its size; a raised limit reads it.
expect 2 "r.json: $size bytes, larger than the input limit of 1024 bytes" report r.json --csv o.csv --max-input 1K
expect 2 "r.json: $size bytes, larger than the input limit" fleet-check r.json --max-input 1024
expect 0 - report r.json --csv o.csv --max-input 1M
expect 2 "invalid value '1X'" report r.json --csv o.csv --max-input 1X
truncate -s 1073741825 huge.json   # sparse: 1 GiB + 1 byte, nothing to read from disk
expect 2 "huge.json: 1073741825 bytes, larger than the input limit of 1073741824 bytes" report huge.json --csv o.csv
# 2. A device is refused without reading it (the cap alone would read a limit's worth).
expect 2 "/dev/zero: a character device" report /dev/zero --csv o.csv --max-input 1K
# 3. A pipe that never ends is read up to the limit, then refused.
mkfifo endless
( while :; do printf '{"schema_version": "1.0", "pad": "%0200d"}\n' 0 || exit; sleep 0.01; done >endless ) 2>/dev/null &
writer=$!
expect 2 "endless: larger than the input limit of 4096 bytes" report endless --csv o.csv --max-input 4K
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null; writer=

# The device database's user file goes through the same reader: its limit, no directories.
mkdir -p cfg/clbench
python3 -c 'import json; print(json.dumps({"version": 1, "entries": [], "pad": "x" * 2000}))' >cfg/clbench/devdb.json
XDG_CONFIG_HOME=$tmp/cfg expect 0 - db list
XDG_CONFIG_HOME=$tmp/cfg expect 2 "devdb.json: [0-9]+ bytes, larger than the input limit of 1024 bytes" db list --max-input 1K
rm cfg/clbench/devdb.json && mkdir cfg/clbench/devdb.json
XDG_CONFIG_HOME=$tmp/cfg expect 2 "devdb.json: a directory, not a file to read" db list

# 4. A byte order mark: every reader accepts it.
printf '\357\273\277' | cat - r.json >bom.json
expect 0 - report bom.json --csv o.csv
expect 0 - compare r.json bom.json
rc=0; "$bin" fleet-check bom.json r.json >log 2>&1 || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "fleet-check with a byte order mark: exit $rc: $(head -c 300 log)"

# 5. Bytes after a complete document: the same message from every reader.
cat r.json >trail.json; echo 'garbage' >>trail.json
lines=$(wc -l <r.json)
msg="trail.json:$((lines + 1)):1: 8 bytes after the end of the JSON document, from 'garbage'"
for cmd in "report trail.json --csv o.csv" "compare r.json trail.json" "fleet-check trail.json" \
           "suite -d no-such-device --reference trail.json"; do
    rc=0; "$bin" $cmd >log 2>&1 || rc=$?
    [ "$rc" = 2 ] && grep -qF -- "$msg" log && ! grep -q 'truncated' log || fail "$cmd -> exit $rc, want 2 and \"$msg\": $(head -c 300 log)"
done
# and a truncated one still says so
head -c $((size / 2)) r.json >half.json
expect 2 "half.json:.*truncated" fleet-check half.json
expect 2 "half.json:.*truncated" report half.json --csv o.csv

[ "$fails" = 0 ] && echo "PASS: one input limit, one reader, one set of messages"
exit $((fails > 0))
