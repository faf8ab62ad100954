#!/usr/bin/env bash
# Script injection into the HTML report: every string of two results documents (device, platform,
# results, params and their keys, curves, provenance, roofline, suite) and their file names carry
# payloads for text, attribute and SVG <title> contexts that mark the page when they run
# (tests/hostile/report_make_docs.py). Headless Chromium renders the report; the DOM it dumps must
# hold every payload as text and no mark, <script>, <img> or event-handler attribute.
# usage: report_injection.sh CLBENCH SOURCE_DIR. Skipped (77) when no chromium is installed.
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: chromium not installed"; exit 77; }
fails=0
evil=$(python3 "$src/tests/hostile/report_make_docs.py" inject "$src/tests/data/sample.json" "$tmp") || exit 1
"$bin" report "$evil" "$tmp/structural.json" --html "$tmp/report.html" || { echo "FAIL: report exit $?"; exit 1; }
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --virtual-time-budget=2000 \
    --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" 2>"$tmp/chrome.log"
[ -s "$tmp/dom.html" ] || { echo "FAIL: no DOM from chromium"; tail -5 "$tmp/chrome.log"; exit 1; }
if grep -oE '<html[^>]*data-pwned="[^"]*"' "$tmp/dom.html"; then
    echo "FAIL: a payload ran (the attribute names the field it came from)"; fails=$((fails+1))
fi
if grep -qE '<(script|img)[ >]' "$tmp/dom.html"; then
    echo "FAIL: markup from a document became an element:"; grep -oE '<(script|img)[^>]{0,80}' "$tmp/dom.html" | head -3
    fails=$((fails+1))
fi
# An attribute value left through an unescaped quote turns payload text into attributes of the
# writer's element (an event handler that waits for the user): no element may carry one.
if grep -oE '<[a-zA-Z][^<>]*[[:space:]]on[a-z]+="' "$tmp/dom.html" | head -3 | grep .; then
    echo "FAIL: an element carries an event handler from a document"; fails=$((fails+1))
fi
# Each field was rendered (as text): its payload names it.
for field in devices.0.device.CL_DEVICE_NAME devices.0.platform.CL_PLATFORM_NAME devices.0.results.1.name \
             devices.0.results.1.unit devices.0.results.2.reason devices.0.results.1.params.curve.label \
             devices.0.results.1.params.curve.y_name devices.0.results.3.params.limit.source params-key \
             provenance.host.cpu provenance.command_line.0 devices.0.roofline.points.0.unit \
             devices.0.roofline.points.0.row devices.0.roofline.points.1.reason devices.0.roofline.ceilings.0.name \
             suite.columns.0.device suite.columns.0.apps.0.rows.1.reason suite.system.cpu file-name \
             devices.0.results.1.status devices.0.roofline.points.0.verdict; do
    grep -qF "pwned='$field'" "$tmp/dom.html" || { echo "FAIL: the payload of $field is not shown as text"; fails=$((fails+1)); }
done
[ $fails = 0 ] && echo "PASS: no payload ran; every field shown as text"
exit $((fails > 0))
