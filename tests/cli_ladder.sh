#!/usr/bin/env bash
# The ladder tables on the default device with --quick app rows: one table per app
# after the results, rows in rung order, "x previous" = value / the previous ok rung's value,
# the CUDA twin unsupported off NVIDIA (status with a reason, no value), the same table in
# `report --markdown`, and no table when no app row ran.
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$bin" run --quick --reps 3 app.sgemm.sequential app.sgemm.naive app.sgemm.tiled app.sgemm.cuda \
    app.saxpy.opencl compute.fp32.fma --json "$tmp/r.json" >"$tmp/out.txt" || fail "run exit $?"
cat "$tmp/out.txt"
grep -q '^-- ladder: sgemm on .*(GFLOP/s; % of compute.fp32.fma)$' "$tmp/out.txt" || fail "no sgemm ladder title"
grep -q '^-- ladder: saxpy on ' "$tmp/out.txt" || fail "no saxpy ladder"
[ "$(grep -c '^-- ladder:' "$tmp/out.txt")" = 2 ] || fail "want exactly 2 ladders (sgemm, saxpy)"
# The sgemm table: its rungs in order, and x previous of tiled = tiled / naive (4 digits shown).
awk '/^-- ladder: sgemm/{t=1; next} /^-- ladder/{t=0} t && $1 != "rung" && NF {print $1}' "$tmp/out.txt" | tr '\n' ' ' >"$tmp/order"
[ "$(cat "$tmp/order")" = "sequential naive tiled cuda " ] || fail "sgemm rung order: $(cat "$tmp/order")"
awk '/^-- ladder: sgemm/{t=1} t && $1 == "naive" {n=$3} t && $1 == "tiled" {v=$3; p=$5}
     END {r = v / n; if (!(n > 0 && p > 0 && (p - r) / r < 0.02 && (r - p) / r < 0.02)) { print "x previous " p " vs " r; exit 1 } }' \
    "$tmp/out.txt" || fail "tiled's x previous is not tiled / naive"
grep -Eq '^  cuda +unsupported +- +- +- +- +- +-$' "$tmp/out.txt" || fail "cuda twin row is not an unsupported line without numbers"
python3 - "$tmp/r.json" <<'PY' || fail "app.sgemm.cuda in JSON"
import json, sys
r = {x["name"]: x for x in json.load(open(sys.argv[1]))["devices"][0]["results"]}["app.sgemm.cuda"]
sys.exit(not (r["status"] == "unsupported" and "NVIDIA" in r["reason"] and r.get("value") is None))
PY
"$bin" report "$tmp/r.json" --markdown "$tmp/r.md" || fail "report exit $?"
grep -q '^### Ladder: sgemm on ' "$tmp/r.md" || fail "no ladder in the Markdown report"
grep -Eq '^\| tiled \| ok \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.e+-]+ \| [0-9.e+-]+ \|$' "$tmp/r.md" || fail "Markdown tiled row incomplete"
# The seeds' total time (setup + one run's kernel + read-back) beside the kernel time: in every
# ok app row, kernel_s the median run (work / kernel_s = the median rate), the table shows both.
python3 - "$tmp/r.json" "$tmp/out.txt" <<'PY' || fail "kernel_s / total_s"
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
table = open(sys.argv[2]).read().splitlines()
bad = []
for r in res:
    p = r.get("params", {})
    if not r["name"].startswith("app.") or r["status"] != "ok":
        continue
    k, s, rb, t = (p.get(x) for x in ("kernel_s", "setup_s", "readback_s", "total_s"))
    if None in (k, s, rb, t) or not (k > 0 and s > 0 and rb >= 0) or abs(t - (s + k + rb)) > 1e-9 * t:
        bad.append(f"{r['name']}: setup {s} kernel {k} readback {rb} total {t}")
        continue
    if "runs_on" not in p and not rb > 0:
        bad.append(f"{r['name']}: no read-back time for a device row")
    if "work_per_run" in p and abs(p["work_per_run"] / k * 1e-9 - r["value"]) > 1e-6 * r["value"]:
        bad.append(f"{r['name']}: kernel_s {k} is not the median run ({p['work_per_run']} flops at {r['value']})")
    rung = r["name"].split(".", 2)[2]
    cells = [l.split() for l in table if l.split()[:2] == [rung, "ok"]]
    if not cells or cells[0][-2:] != ["%.4g" % k, "%.4g" % t]:
        bad.append(f"{r['name']}: table shows {cells[0][-2:] if cells else None}, want {'%.4g' % k} {'%.4g' % t}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$bin" run --quick --reps 3 launch.start_end >"$tmp/plain.txt" 2>&1 || true
grep -q 'ladder' "$tmp/plain.txt" && fail "a ladder without app rows"
echo "cli_ladder: $fails failure(s)"
[ "$fails" = 0 ]
