#!/usr/bin/env bash
# Hostile strings in the text outputs (tests/hostile/report_make_docs.py cells):
#   csv   CSV cells starting with =, +, -, @ get a leading ' (no formula), a result named -3.5
#         and the numbers stay numbers, every row has the header's number of cells;
#   term  compare, fleet-check and the suite summary send no ESC, BEL or other control byte from
#         a document to the terminal (shown as \xHH instead);
#   utf8  invalid UTF-8 from a document becomes U+FFFD in the HTML, CSV and Markdown;
#   md    the Markdown has no '<' (markup as entities), a reason with a pipe and a line break
#         stays one cell, every results row has 13 cell borders.
# usage: report_cells.sh CLBENCH SOURCE_DIR MODE
set -u
bin=$1 src=$2 mode=$3 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tests/hostile/report_make_docs.py" cells "$src/tests/data/sample.json" "$tmp" || exit 1
doc=$tmp/cells.json
case $mode in
csv)
    "$bin" report "$doc" --csv "$tmp/r.csv" || { echo "FAIL: report --csv exit $?"; exit 1; }
    python3 - "$tmp/r.csv" <<'PY'
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8", errors="replace")))
fails = []
num = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
for i, r in enumerate(rows):
    if len(r) != len(rows[0]):
        fails.append("row %d has %d cells, the header %d" % (i, len(r), len(rows[0])))
    for c in r:
        if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not num.match(c):
            fails.append("row %d: formula cell %r" % (i, c[:40]))
cells = [c for r in rows for c in r]
for want in ("'=HYPERLINK", "'+cmd|", "'@SUM(", "'-2+3"):
    if not any(c.startswith(want) for c in cells):
        fails.append("no cell starts with %r" % want)
for want in ("-3.5", "-1.25"):  # a result named -3.5 and a negative value stay numbers
    if want not in cells:
        fails.append("no cell %r" % want)
for f in fails:
    print("FAIL:", f)
if not fails:
    print("PASS: %d rows, no formula cell, numbers kept" % len(rows))
sys.exit(1 if fails else 0)
PY
    ;;
term)
    fails=0
    "$bin" compare "$doc" "$doc" >"$tmp/compare.txt" 2>&1
    cp "$doc" "$tmp/other.json"
    "$bin" fleet-check "$doc" "$tmp/other.json" >"$tmp/fleet.txt" 2>&1
    for out in compare fleet; do
        grep -q 'HYPERLINK' "$tmp/$out.txt" || { echo "FAIL: $out does not show the device name"; fails=$((fails+1)); }
        if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/$out.txt"; then
            echo "FAIL: $out sends control bytes to the terminal:"; LC_ALL=C grep -n $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/$out.txt" | cat -v | head -3
            fails=$((fails+1))
        fi
        grep -qF '\x1B]0;t\x07' "$tmp/$out.txt" || { echo "FAIL: $out does not show ESC and BEL as \\xHH"; fails=$((fails+1)); }
    done
    [ $fails = 0 ] && echo "PASS: compare and fleet-check show controls as text"
    exit $((fails > 0))
    ;;
utf8)
    fails=0
    "$bin" report "$doc" --html "$tmp/r.html" --csv "$tmp/r.csv" --markdown "$tmp/r.md" || { echo "FAIL: report exit $?"; exit 1; }
    for f in r.html r.csv r.md; do
        python3 -c 'import sys; t=open(sys.argv[1],"rb").read().decode("utf-8"); sys.exit(0 if "bad\ufffd\ufffd utf8" in t else 2)' "$tmp/$f" \
            || { echo "FAIL: $f is not valid UTF-8 with U+FFFD in place of the invalid bytes"; fails=$((fails+1)); }
    done
    [ $fails = 0 ] && echo "PASS: HTML, CSV and Markdown are valid UTF-8"
    exit $((fails > 0))
    ;;
md)
    "$bin" report "$doc" --markdown "$tmp/r.md" || { echo "FAIL: report --markdown exit $?"; exit 1; }
    python3 - "$tmp/r.md" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
fails = ["'<' in line %d: %s" % (i + 1, l[:80]) for i, l in enumerate(lines) if "<" in l]
table = [l for l in lines[:lines.index("")] if l.startswith("|")] if "" in lines else []
fails += ["row without 13 cell borders: %s" % l[:80] for l in table
          if sum(1 for k, c in enumerate(l) if c == "|" and (k == 0 or l[k - 1] != "\\")) != 13]
if len(table) < 3:
    fails.append("no results table")
if not any("&lt;i&gt;x&lt;/i&gt; next line" in l for l in table):
    fails.append("the reason with markup and a line break is not one escaped cell")
for f in fails:
    print("FAIL:", f)
if not fails:
    print("PASS: %d table rows, markup escaped" % len(table))
sys.exit(1 if fails else 0)
PY
    ;;
*) echo "usage: $0 CLBENCH SOURCE_DIR csv|term|utf8|md"; exit 2 ;;
esac
