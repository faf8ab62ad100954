#!/usr/bin/env bash
# The roofline end to end on the default device (docs/roofline.md): a quick run of compute and
# memory rows with the SAXPY and SGEMM rows writes a roofline object whose ceilings come from
# the run, with one point per app row, none above its roof; the report draws it from the saved
# file, and from a file without the object (older runs) too; the page shows no host paths
# unless --provenance-paths.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
"$bin" run compute.fp32.fma compute.fp64.fma memory.triad memory.copy memory.read_reuse 'app.saxpy.*' 'app.sgemm.*' \
    --quick --quiet --json "$tmp/out.json" || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
python3 "$check" "$tmp/out.json" --min-results 20 || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
dev = json.load(open(sys.argv[1]))["devices"][0]
bad = 0
def fail(*a):
    global bad; print("FAIL:", *a); bad += 1
rl = dev.get("roofline")
if not isinstance(rl, dict):
    fail("no roofline object"); sys.exit(1)
names = {c["name"]: c for c in rl["ceilings"]}
for want in ("fp32 peak", "DRAM"):
    if want not in names or not names[want]["value"] > 0:
        fail("no ceiling", want, list(names))
rows = {r["name"]: r for r in dev["results"]}
if names.get("DRAM", {}).get("row") not in ("memory.triad", "memory.copy"):
    fail("DRAM ceiling from", names.get("DRAM", {}).get("row"))
if abs(names["fp32 peak"]["value"] - rows["compute.fp32.fma"]["value"]) > 1e-9 * rows["compute.fp32.fma"]["value"]:
    fail("fp32 ceiling is not the compute.fp32.fma value")
pts = {p["row"]: p for p in rl["points"]}
apps = [n for n in rows if n.startswith("app.") and rows[n]["status"] == "ok"]
for n in apps:
    p = pts.get(n)
    if not p:
        fail(n, "is not a point (flops/bytes params missing?)"); continue
    if not (p["intensity"] > 0 and p["performance"] > 0):
        fail(n, "intensity/performance", p["intensity"], p["performance"])
for n, r in rows.items():
    if r["status"] == "invalid" or pts.get(n, {}).get("verdict") == "invalid":
        fail(n, "is invalid:", r.get("reason") or pts[n].get("reason"))
g = pts.get("app.sgemm.naive", {})
n = rows["app.sgemm.naive"]["params"]["n"]
if g.get("flops") != 2 * n**3 or g.get("bytes") != 3 * n * n * 4:
    fail("sgemm point flops/bytes", g.get("flops"), g.get("bytes"))
if len(apps) < 10:
    fail("only", len(apps), "ok app rows")
print("cli_roofline: %d points, verdicts %s" % (len(pts), sorted({p["verdict"] for p in pts.values()})))
sys.exit(bad != 0)
PY
"$bin" report "$tmp/out.json" --html "$tmp/r.html" || { echo "FAIL: report exit $?"; fails=$((fails+1)); }
grep -q 'class="plot roofline"' "$tmp/r.html" || { echo "FAIL: no roofline svg in the report"; fails=$((fails+1)); }
# No absolute host paths in the page unless asked for (--provenance-paths).
grep -qF "$tmp" "$tmp/r.html" && { echo "FAIL: the report shows the host path $tmp"; fails=$((fails+1)); }
"$bin" report "$tmp/out.json" --html "$tmp/rp.html" --provenance-paths || { echo "FAIL: report --provenance-paths exit $?"; fails=$((fails+1)); }
grep -qF "$tmp/out.json" "$tmp/rp.html" || { echo "FAIL: --provenance-paths does not show $tmp/out.json"; fails=$((fails+1)); }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["devices"][0].pop("roofline"); json.dump(d,open(sys.argv[2],"w"))' \
    "$tmp/out.json" "$tmp/old.json"
"$bin" report "$tmp/old.json" --html "$tmp/old.html" || { echo "FAIL: report of old.json exit $?"; fails=$((fails+1)); }
grep -q 'computed by the report' "$tmp/old.html" && grep -q 'class="plot roofline"' "$tmp/old.html" \
    || { echo "FAIL: a file without the roofline object gets no plot"; fails=$((fails+1)); }
echo "cli_roofline: $fails failure(s)"
[ "$fails" = 0 ]
