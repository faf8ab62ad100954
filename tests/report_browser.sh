#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium renders the report of the sample
# documents to a PNG without console errors, and the DOM it built holds the device names,
# the result names, one <svg> per result with a curve, and the status texts.
# Skipped (exit 77) only when no chromium is installed (Debian package `chromium`).
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
fails=0
"$bin" report "$src/tests/data/sample.json" "$src/tests/data/sample2.json" --html "$tmp/report.html" \
    || { echo "FAIL: report exit $?"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --enable-logging=stderr --v=0)
timeout 120 "$chrome" "${flags[@]}" --user-data-dir="$tmp/profile1" --window-size=1400,2000 \
    --screenshot="$tmp/report.png" "file://$tmp/report.html" >"$tmp/shot.log" 2>&1
[ -s "$tmp/report.png" ] || { echo "FAIL: no screenshot"; cat "$tmp/shot.log"; fails=$((fails+1)); }
# A PNG of the requested size: width 1400 in the IHDR chunk.
python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); sys.exit(not (d[:8]==b"\x89PNG\r\n\x1a\n" and struct.unpack(">I",d[16:20])[0]==1400))' \
    "$tmp/report.png" || { echo "FAIL: screenshot is not a 1400-wide PNG"; fails=$((fails+1)); }
timeout 120 "$chrome" "${flags[@]}" --user-data-dir="$tmp/profile2" --dump-dom \
    "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/dom.log"
# Console errors (script errors, bad SVG attributes) show up in the log.
if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(|Error: <' "$tmp/shot.log" "$tmp/dom.log"; then
    echo "FAIL: console errors while rendering"; fails=$((fails+1))
fi
for s in 'Example GPU &lt;X1&gt;' 'Example CPU' launch.roundtrip compute.fp32_peak compute.fp64_peak \
         memory.bandwidth memory.latency transfer.h2d '>unsupported<' '>invalid_result<' '>error<' \
         'not measured' 'not in this run' 'Peak FP32' '80.0% of theoretical' 'working set (B)' \
         'float4 fma'; do
    grep -qF -- "$s" "$tmp/dom.html" || { echo "FAIL: rendered DOM lacks '$s'"; fails=$((fails+1)); }
done
# Two results carry curves (compute.fp32_peak, memory.bandwidth): one <svg> each, with their
# series (2 devices x 1 curve, 2 devices x 2 curves) as polylines.
n=$(grep -o '<svg' "$tmp/dom.html" | wc -l) p=$(grep -o '<polyline' "$tmp/dom.html" | wc -l)
[ "$n" = 2 ] || { echo "FAIL: $n <svg> in the DOM, want 2"; fails=$((fails+1)); }
[ "$p" = 6 ] || { echo "FAIL: $p <polyline> in the DOM, want 6"; fails=$((fails+1)); }
# Strings from result files are untrusted: a device name and a driver version that carry markup
# must be shown as text, never run or parsed (the report itself has no <script> at all).
python3 - "$src/tests/data/sample.json" "$tmp/evil.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
evil = "<script>document.title='PWNED'</script>\"'><img src=x onerror=\"document.title='PWNED'\">"
for d in doc["devices"]:
    d["device"]["CL_DEVICE_NAME"] = "GPU " + evil
    d["device"]["CL_DRIVER_VERSION"] = evil
    for r in d["results"]:
        if r.get("reason"):
            r["reason"] = evil
json.dump(doc, open(sys.argv[2], "w"))
PY
"$bin" report "$tmp/evil.json" --html "$tmp/evil.html" || { echo "FAIL: report of evil.json"; fails=$((fails+1)); }
timeout 120 "$chrome" "${flags[@]}" --user-data-dir="$tmp/profile3" --dump-dom \
    "file://$tmp/evil.html" >"$tmp/evil-dom.html" 2>"$tmp/evil.log"
if grep -qE '<script|<img' "$tmp/evil-dom.html" || grep -q 'PWNED</title>' "$tmp/evil-dom.html"; then
    echo "FAIL: markup from a result file became part of the page"; fails=$((fails+1))
fi
grep -qF '&lt;script&gt;document.title' "$tmp/evil-dom.html" \
    || { echo "FAIL: the hostile device name is not shown as text"; fails=$((fails+1)); }
echo "report_browser: $fails failure(s)"
[ "$fails" = 0 ]
