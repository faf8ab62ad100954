#!/bin/sh
# The environment the tool reads (src/options_env.c, docs/cli.md "Environment"): a value of the
# wrong kind stops the command with exit 2 and a message naming the variable; an empty one is
# unset; a value reaches the library in the worker process (CLBENCH_BUILD_OPTIONS is recorded
# in the row's params.extra_build_options) and is recorded in provenance.environment.
# usage: cli_env.sh CLBENCH
set -u
clb=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
bad() { # VAR=VALUE EXPECTED-TEXT
    rc=0
    env "$1" "$clb" run --list >/dev/null 2>"$tmp/err" || rc=$?
    [ "$rc" = 2 ] || fail "$1: exit $rc, expected 2"
    grep -qF "clbench: $1: expected $2" "$tmp/err" || fail "$1: message: $(head -c 300 "$tmp/err")"
}
bad CLBENCH_GEMM_N=abc "a positive integer"
bad CLBENCH_EULER_STEPS=12x "a positive integer"
bad CLBENCH_SUSTAINED_S=-1 "a positive number"
bad CLBENCH_TUNE_FAMILY=two "an integer"
bad CLBENCH_ISOLATION=maybe "off or on"
rc=0
CLBENCH_GEMM_N= CLBENCH_ISOLATION= "$clb" run --list >"$tmp/list" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] && [ -s "$tmp/list" ] || fail "empty variables: exit $rc $(head -c 300 "$tmp/err")"
rc=0
CLBENCH_BUILD_OPTIONS=-DCLB_ENV_REACHES_WORKER "$clb" run launch.roundtrip --quick --quiet \
    --json "$tmp/r.json" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "run: exit $rc $(head -c 300 "$tmp/err")"
python3 - "$tmp/r.json" <<'PY' || fail "the worker's row does not carry CLBENCH_BUILD_OPTIONS"
import json, sys
doc = json.load(open(sys.argv[1]))
env = doc["provenance"]["environment"]
assert env.get("CLBENCH_BUILD_OPTIONS") == "-DCLB_ENV_REACHES_WORKER", f"provenance.environment: {env}"
r = doc["devices"][0]["results"][0]
assert r["status"] == "ok", r
assert r["params"].get("extra_build_options") == "-DCLB_ENV_REACHES_WORKER", r["params"]
PY
[ "$fails" = 0 ] && echo "PASS: bad values refused with exit 2, empty ones unset, a value reaches the worker's library"
[ "$fails" = 0 ]
