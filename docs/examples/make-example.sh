#!/usr/bin/env bash
# Regenerates an example report: a clbench run, its HTML report and a PNG screenshot of it
# rendered by headless Chromium.
#   bash docs/examples/make-example.sh pocl --quick -d pthread     (PoCL CPU device)
#   bash docs/examples/make-example.sh nvidia-h200 -d NVIDIA        (on the GPU machine)
#   REPORT_ONLY=1 bash docs/examples/make-example.sh nvidia-h200    (report + PNG from an
#                                                                   existing NAME.json)
# writes docs/examples/NAME.json, NAME-report.html and NAME-report.png. Run from the
# repository root with the build in build/ (CLBENCH=path overrides the binary). Without
# chromium the screenshot is skipped (take it later with REPORT_ONLY=1 where chromium is).
set -euo pipefail
name=$1; shift
bin=${CLBENCH:-build/clbench}
dir=docs/examples
if [ "${REPORT_ONLY:-0}" != 1 ]; then
    "$bin" run "$@" --json "$dir/$name.json" --quiet ||
        echo "make-example: clbench run exit $? (failed results stay visible in the report)" >&2
fi
"$bin" report "$dir/$name.json" --html "$dir/$name-report.html"
if ! command -v chromium >/dev/null; then
    echo "make-example: no chromium: $dir/$name-report.png not taken" >&2
    exit 0
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --screenshot="$dir/$name-report.png" --window-size=1400,2000 \
    "file://$PWD/$dir/$name-report.html" 2>/dev/null
echo "make-example: $dir/$name.json, $dir/$name-report.html, $dir/$name-report.png"
