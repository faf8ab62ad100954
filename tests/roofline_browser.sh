#!/usr/bin/env bash
# The roofline plot in a real browser (docs/roofline.md): headless Chromium renders the report
# of a document with compute, memory and eight app rows without console errors; the DOM holds
# one roofline <svg> with both axis labels, the ceiling labels, one marker and one label per
# point (no two point labels overlapping), and the sections come in reading order. Curve plots
# carry the physical limit and the same-run peer as labelled lines, one plot per y unit, and no
# empty legend entry.
# Skipped (exit 77) only when no chromium is installed (Debian package `chromium`).
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
fails=0
python3 - "$src/tests/data/sample.json" "$tmp/roof.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
dev = doc["devices"][0]
dev["derived"]["limit_fp32"] = {"value": 20000, "unit": "GFLOP/s", "how": "datasheet"}
dev["derived"]["limit_dram"] = {"value": 1000, "unit": "GB/s", "how": "datasheet"}
def row(name, value, unit, **params):
    return {"name": name, "group": name.split(".")[0], "status": "ok", "reason": None, "value": value,
            "unit": unit, "better": "higher", "timer": "t", "params": params, "samples": [value],
            "stats": {"n": 1, "min": value, "max": value, "median": value, "mean": value, "stddev": 0,
                      "mad": 0, "cv": 0, "ci95": [value, value], "ci95_level": 0.95}}
dev["results"] = [
    row("compute.fp32.fma", 15000, "GFLOP/s"), row("compute.fp64.fma", 7000, "GFLOP/s"),
    row("memory.triad", 800, "GB/s"), row("memory.local_read", 9000, "GB/s"),
    row("memory.caches", 300, "ns", levels=[{"size_bytes": 131072, "bandwidth_gbs": 12000},
                                            {"size_bytes": 4194304, "bandwidth_gbs": 3000}]),
    row("app.sgemm.naive", 300, "GFLOP/s", flops=2 * 4096**3, bytes=3 * 4096**2 * 4),
    row("app.sgemm.tiled", 2500, "GFLOP/s", flops=2 * 4096**3, bytes=3 * 4096**2 * 4),
    row("app.sgemm.tuned", 11000, "GFLOP/s", flops=2 * 4096**3, bytes=3 * 4096**2 * 4),
    row("app.dgemm.tiled", 1500, "GFLOP/s", flops=2 * 2048**3, bytes=3 * 2048**2 * 8),
    row("app.saxpy.opencl", 700, "GB/s", flops=2e8, bytes=1.2e9),
    row("app.saxpy.sequential", 20, "GB/s", flops=2e8, bytes=1.2e9, runs_on="host CPU"),
    row("app.mcpi.opencl", 5000, "GFLOP/s", flops=1e12, bytes=0),
    row("app.euler.string.linear", 0.1, "ns", flops=4e9, bytes=8e9, gflops=40, precision="f32"),
    # curve plots: one unit with its limit and same-run peer lines; two units -> two plots
    row("memory.read_vs_size", 900, "GB/s", curve={"x_name": "working set", "x_unit": "bytes", "y_name": "read bandwidth",
        "y_unit": "GB/s", "x_log": True, "points": [[4096, 500], [65536, 900], [1 << 28, 700]]}),
    row("memory.latency", 300, "ns", curves=[
        {"x_name": "working set", "x_unit": "bytes", "y_name": "latency", "y_unit": "ns", "x_log": True,
         "points": [[4096, 20], [1 << 28, 300]]},
        {"x_name": "working set", "x_unit": "bytes", "y_name": "latency", "y_unit": "cycles", "x_log": True,
         "label": "cycles", "points": [[4096, 40], [1 << 28, 600]]}]),
]
json.dump(doc, open(sys.argv[2], "w"))
PY
"$bin" report "$tmp/roof.json" --html "$tmp/roof.html" || { echo "FAIL: report exit $?"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --enable-logging=stderr --v=0)
timeout 120 "$chrome" "${flags[@]}" --user-data-dir="$tmp/p1" --window-size=1400,2000 \
    --screenshot="$tmp/roof.png" "file://$tmp/roof.html" >"$tmp/shot.log" 2>&1
python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); sys.exit(not (d[:8]==b"\x89PNG\r\n\x1a\n" and struct.unpack(">I",d[16:20])[0]==1400))' \
    "$tmp/roof.png" || { echo "FAIL: no 1400-wide screenshot"; cat "$tmp/shot.log"; fails=$((fails+1)); }
timeout 120 "$chrome" "${flags[@]}" --user-data-dir="$tmp/p2" --dump-dom "file://$tmp/roof.html" \
    >"$tmp/dom.html" 2>"$tmp/dom.log"
if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(|Error: <' "$tmp/shot.log" "$tmp/dom.log"; then
    echo "FAIL: console errors while rendering"; fails=$((fails+1))
fi
python3 - "$tmp/dom.html" <<'PY' || fails=$((fails+1))
import re, sys, html
dom = open(sys.argv[1]).read()
bad = 0
def fail(*a):
    global bad; print("FAIL:", *a); bad += 1
svgs = re.findall(r'<svg[^>]*class="plot roofline".*?</svg>', dom, re.S)
if len(svgs) != 1:
    fail(len(svgs), "roofline svgs, want 1"); sys.exit(1)
svg = svgs[0]
for s in ("arithmetic intensity (flop/byte)", "performance (GFLOP/s)", "fp32 peak 15000 GFLOP/s, 75% of limit",
          "DRAM 800 GB/s, 80% of limit", "fp32 datasheet", "cache L1 128 KiB", "local memory",
          "mcpi.opencl (compute-only)", "sgemm.tuned", "euler.string.linear"):
    if s not in html.unescape(svg):
        fail("roofline svg lacks", repr(s))
pts = re.findall(r'<circle class="pt"', svg)
if len(pts) != 8:
    fail(len(pts), "point markers, want 8")
labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(start|end)" class="plabel">([^<]*)</text>', svg)
if len(labels) != 8:
    fail(len(labels), "point labels, want 8")
boxes = []
for x, y, anchor, t in labels:
    w = 5.6 * len(html.unescape(t)) + 2
    x0 = float(x) - w if anchor == "end" else float(x)
    boxes.append((x0, float(y) - 8, w, 11, t))
for i, a in enumerate(boxes):
    for b in boxes[i + 1:]:
        if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]:
            fail("labels overlap:", a[4], b[4])
plots = {re.search(r"<title>(.*?)</title>", s).group(1): s for s in re.findall(r"<svg.*?</svg>", dom, re.S)}
rvs = plots.get("memory.read_vs_size", "")
for s in ("physical limit 1000 GB/s", "same run: memory.triad 800 GB/s"):
    if s not in rvs:
        fail("memory.read_vs_size plot lacks the line", repr(s))
if not ("memory.latency (ns)" in plots and "memory.latency (cycles)" in plots):
    fail("curves in two units share one plot:", sorted(plots))
if re.search(r'class="legend">(series)?</text>', dom):
    fail("an empty legend entry")
# Reading order: headline figures, roofline, groups' plots and results, then devices, provenance.
order = [dom.find('id="%s"' % s) for s in ("summary", "roofline", "plots", "results", "devices", "provenance")]
if -1 in order or order != sorted(order):
    fail("section order", order)
sys.exit(bad != 0)
PY
echo "roofline_browser: $fails failure(s)"
[ "$fails" = 0 ]
