#!/usr/bin/env bash
# clbench compare on doctored copies of tests/data/sample.json: a 10% slowdown is detected
# (exit 1), noise within the CIs is not (exit 0), a different schema major version, nothing
# in common, malformed and truncated files are unusable (exit 2, with file:line:column).
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
base=$src/tests/data/sample.json

# doctor OUT PYTHON-STATEMENTS: a copy of the base document changed by the statements,
# which see the document as d and the first device's results by name as r.
doctor() {
    python3 - "$base" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["devices"][0]["results"]}
def scale(x, f):  # value, median, CI and samples by f: the same measurement, slower or faster
    x["value"] *= f
    x["stats"]["median"] *= f
    x["stats"]["ci95"] = [v * f for v in x["stats"]["ci95"]]
    x["samples"] = [v * f for v in x["samples"]]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
}

# expect WANT-RC GREP-PATTERN ARGS...: runs compare, checks the exit code and the output.
expect() {
    local want=$1 pat=$2; shift 2
    "$bin" compare "$@" >"$tmp/out" 2>&1; local rc=$?
    if [ "$rc" != "$want" ] || ! grep -Eq -- "$pat" "$tmp/out"; then
        echo "FAIL: compare $* -> exit $rc (want $want), output lacks /$pat/:"; cat "$tmp/out"
        fails=$((fails+1))
    fi
}

doctor "$tmp/slow.json" 'scale(r["launch.roundtrip"], 1.10)'
expect 1 'launch.roundtrip .*1\.100  REGRESSION' "$base" "$tmp/slow.json"
doctor "$tmp/slowpeak.json" 'scale(r["compute.fp32_peak"], 0.90)'
expect 1 'compute.fp32_peak .*0\.900  REGRESSION' "$base" "$tmp/slowpeak.json"
# The same slowdown under a larger threshold is not a regression.
expect 0 'no regression' "$base" "$tmp/slow.json" --threshold 15%
# Faster is an improvement, not a regression.
expect 0 'improvement' "$tmp/slow.json" "$base"
# Noise: 3% (within the threshold), and 10% whose wide CIs overlap.
doctor "$tmp/noise.json" 'scale(r["launch.roundtrip"], 1.03); scale(r["memory.bandwidth"], 0.98)'
expect 0 'unchanged' "$base" "$tmp/noise.json"
doctor "$tmp/wide.json" 'scale(r["launch.roundtrip"], 1.10); r["launch.roundtrip"]["stats"]["ci95"] = [11.0, 16.0]'
expect 0 'within noise' "$base" "$tmp/wide.json"
# A result that was ok and now fails is a regression.
doctor "$tmp/broken.json" 'x = r["memory.bandwidth"]; x.update(status="invalid_result", reason="mismatch", value=None, stats=None, samples=[])'
expect 1 'now failing' "$base" "$tmp/broken.json"
# Unusable inputs.
doctor "$tmp/major.json" 'd["schema_version"] = "2.0.0"'
expect 2 'major version' "$base" "$tmp/major.json"
doctor "$tmp/other.json" 'd["devices"][0]["device"]["CL_DEVICE_NAME"] = "Another device"'
expect 2 'nothing in common' "$base" "$tmp/other.json"
expect 2 'cannot open' "$base" "$tmp/does-not-exist.json"
expect 2 'exactly two' "$base"
# Malformed: line 20 replaced by garbage -> the error names line 20.
awk 'NR == 20 {print "    @@@ not json"; next} {print}' "$base" >"$tmp/garbage.json"
expect 2 'garbage\.json:20:[0-9]+: malformed JSON' "$base" "$tmp/garbage.json"
: >"$tmp/empty.json"
expect 2 'empty\.json:1:1: malformed JSON' "$tmp/empty.json" "$base"
# Truncated at many points: always exit 2 with file:line:column, never a crash.
size=$(wc -c <"$base")
for cut in $(seq 1 173 "$((size - 2))"); do
    head -c "$cut" "$base" >"$tmp/trunc.json"
    expect 2 'trunc\.json:[0-9]+:[0-9]+: malformed JSON' "$base" "$tmp/trunc.json"
done
echo "cli_compare: $fails failure(s)"
[ "$fails" = 0 ]
