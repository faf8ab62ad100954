#!/usr/bin/env bash
# The files a command names are checked before anything runs (exit 2, naming the flag): an output
# that is also an input (the same path, another path to it, a symlink to it) for every command
# that reads files, and the user files clbench keeps (tuning cache, device database) for all; an
# output in a directory that does not exist (before run measures anything); more than one output
# to stdout. The inputs keep their bytes.
# usage: io_output_checks.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
cp "$src/tests/data/sample.json" "$tmp/r.json"
cp "$src/tests/data/sample2.json" "$tmp/r2.json"
ln -s r.json "$tmp/link.json"
mkdir "$tmp/sub"
sum=$(cksum <"$tmp/r.json")

# refused WANT-PATTERN ARGS...: exit 2 within seconds, the message matches, r.json unchanged.
# -d no-such-device: were the check missing, the command would stop at device selection instead.
refused() {
    local pat=$1; shift
    local rc=0; timeout 60 "$bin" "$@" >"$tmp/log" 2>&1 || rc=$?
    [ "$rc" = 2 ] && grep -Eq -- "$pat" "$tmp/log" || fail "$* -> exit $rc (want 2, /$pat/): $(head -c 300 "$tmp/log")"
    [ "$(cksum <"$tmp/r.json")" = "$sum" ] || { fail "$* changed the input"; cp "$src/tests/data/sample.json" "$tmp/r.json"; }
}
same='is also an input'
cd "$tmp" || exit 1
refused "$same" suite -d no-such-device --reference r.json --json r.json
refused "$same" suite -d no-such-device --reference ./r.json --json sub/../r.json
refused "$same" suite -d no-such-device --reference link.json --json r.json
CLBENCH_SUITE_REFERENCE=$tmp/r.json refused "$same" suite -d no-such-device --html r.json
refused "$same" report r2.json link.json --csv r.json
refused "$same" report r.json --markdown "$tmp/sub/../r.json"
refused "$same" compare r2.json r.json --json link.json
refused "$same" fleet-check r2.json r.json --csv ./r.json
refused "$same" recommend -d no-such-device --workload stream --from r.json --json r.json
refused "$same" db -d no-such-device add --from link.json --json r.json
refused 'name the same file' report r2.json --csv out.csv --markdown ./out.csv
# The user files clbench keeps are inputs of every command (tune and run read the tuning cache,
# db and recommend the device database's user file).
mkdir -p cache/clbench cfg/clbench && echo '{"version": 2, "entries": {}}' >cache/clbench/tune.json
ln -s cache/clbench/tune.json tunelink.json
export XDG_CACHE_HOME=$tmp/cache XDG_CONFIG_HOME=$tmp/cfg
refused "$same" tune gemm -d no-such-device --json tunelink.json
refused "$same" run -d no-such-device 'app.sgemm.tuned' --html ./cache/clbench/../clbench/tune.json
refused "$same" db -d no-such-device match --json cfg/clbench/devdb.json
unset XDG_CACHE_HOME XDG_CONFIG_HOME
[ "$(cat cache/clbench/tune.json)" = '{"version": 2, "entries": {}}' ] || fail "the tuning cache was overwritten"

# An output in a directory that does not exist: refused before the first benchmark.
start=$(date +%s)
refused '--json /nonexistent-dir/x.json: cannot create files in /nonexistent-dir' run 'launch.*' --quick --json /nonexistent-dir/x.json
refused '--html: cannot write r.json/x.html: Not a directory' run 'launch.*' --quick --html r.json/x.html
[ $(( $(date +%s) - start )) -le 10 ] || fail "run took $(( $(date +%s) - start )) s before refusing: it measured first"
[ -e /nonexistent-dir ] && fail "/nonexistent-dir exists"

# At most one output to stdout.
refused 'only one output may go to stdout' report r.json --json - --html - --csv -
refused 'only one output may go to stdout' report r.json --csv - --markdown -
rc=0; "$bin" report r.json --csv - >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -q compute.fp32_peak "$tmp/out" || fail "report --csv - alone: exit $rc"

[ "$fails" = 0 ] && echo "PASS: outputs checked against inputs, directories and stdout before anything runs"
exit $((fails > 0))
