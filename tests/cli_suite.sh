#!/usr/bin/env bash
# clbench suite --quick on the local device: a non-void score with its fields, each row's times,
# best rows and scores recomputed from the samples and the reference file; an injected
# wrong result (CLBENCH_FAULT) voids the score with the app that broke it; --variant adds a
# column; compare of suite documents (same: exit 0, slower scored rows: exit 1); usage errors.
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ref=$src/data/suite_reference.json

"$bin" suite --quick --full >/dev/null 2>&1; [ $? -eq 2 ] || fail "--quick --full is not a usage error"
"$bin" suite --variant nothing >/dev/null 2>&1; [ $? -eq 2 ] || fail "--variant without = is not a usage error"
"$bin" suite --platforms some >/dev/null 2>&1; [ $? -eq 2 ] || fail "--platforms some is not a usage error"

start=$(date +%s)
"$bin" suite --quick --reference "$ref" --json "$tmp/a.json" --html "$tmp/a.html" >"$tmp/a.txt" 2>"$tmp/a.err" ||
    fail "suite --quick exited $?"
echo "suite --quick took $(($(date +%s) - start)) s"
grep -q "Peak Score" "$tmp/a.txt" || fail "no Peak Score line on stdout"
# the quick mode keeps its budget and says so; every ok row shows the total time beside the kernel
grep -q "^repetitions: 1 warm-up + 10 runs per app row (quick mode: app rows stop after 3 runs once 3 s have passed)$" "$tmp/a.txt" ||
    fail "the quick mode does not say that it stops app rows early"
grep -Eq '^app +row .* kernel s +total s$' "$tmp/a.txt" || fail "no kernel s / total s columns in the suite table"
grep -q "Suite scores" "$tmp/a.html" || fail "no suite section in the HTML"
python3 - "$tmp/a.json" "$ref" <<'PY' || fail "score fields of the quick suite"
import json, math, sys
s = json.load(open(sys.argv[1]))["suite"]
c = s["columns"][0]
sc = c["score"]
assert sc["status"] == "ok", sc
for k in ("peak", "average", "peak_geomean", "average_geomean"):
    assert sc[k] > 0, (k, sc)
assert sc["peak"] <= sc["peak_geomean"] * (1 + 1e-12), sc   # harmonic <= geometric
assert sc["apps_scored"] >= 3, sc
assert s["mode"] == "quick" and s["reference"]["status"] == "ok"
gemm = next(a for a in c["apps"] if a["app"] == "sgemm")
best = next(r for r in gemm["rows"] if r["row"] == gemm["best_opencl"])
assert best["peak_s"] <= best["avg_s"] and best["n"] >= 3 and len(best["times_s"]) == best["n"]
assert gemm["speedups"]["vs_sequential"]["peak"] > 0
assert s["repetitions"] == {"warmup": 1, "runs": 10, "early_stop": "app rows stop after 3 runs once 3 s have passed"}, s["repetitions"]
assert best["total_s"] > best["kernel_s"] > 0, best
# The scores again, from the rows and the reference file, without clbench's arithmetic: each
# OpenCL row's times proportional to its samples (1/rate), peak = best run, average = mean run;
# per app the row of lowest average time; ratio = reference / time; harmonic means over the apps.
ref = json.load(open(sys.argv[2]))["sets"]["quick"]
dev = next(d for d in json.load(open(sys.argv[1]))["devices"] if d.get("suite_column"))
results = {r["name"]: r for r in dev["results"]}
close = lambda a, b: abs(a - b) <= 1e-9 * abs(b)
inv_p = inv_a = log_p = log_a = 0.0
k = 0
for app in c["apps"]:
    if app["verdict"] != "scored":
        continue
    rows = [r for r in app["rows"] if r["role"] == "opencl"]
    assert rows and all(r["status"] == "ok" for r in rows), app["app"]
    for r in rows:
        t, smp, up = r["times_s"], results[r["row"]]["samples"], results[r["row"]]["better"] == "higher"
        work = [ti * si if up else ti / si for ti, si in zip(t, smp)]  # seconds per unit of tau
        assert len(t) == len(smp) and all(close(w, work[0]) for w in work), (r["row"], work)
        assert close(r["peak_s"], min(t)) and close(r["avg_s"], sum(t) / len(t)), r
    best = min(rows, key=lambda r: sum(r["times_s"]) / len(r["times_s"]))
    assert app["best_opencl"] == best["row"], (app["app"], app["best_opencl"], best["row"])
    rp = ref[app["app"]]["peak_s"] / min(best["times_s"])
    ra = ref[app["app"]]["avg_s"] / (sum(best["times_s"]) / len(best["times_s"]))
    inv_p, inv_a, log_p, log_a, k = inv_p + 1 / rp, inv_a + 1 / ra, log_p + math.log(rp), log_a + math.log(ra), k + 1
assert k == sc["apps_scored"], (k, sc)
assert close(sc["peak"], k / inv_p) and close(sc["average"], k / inv_a), (sc, k / inv_p, k / inv_a)
assert close(sc["peak_geomean"], math.exp(log_p / k)) and close(sc["average_geomean"], math.exp(log_a / k)), sc
gemm_n = float(s["sizes"]["CLBENCH_GEMM_N"])
r0 = next(r for r in gemm["rows"] if r["role"] == "opencl")
assert close(r0["times_s"][0] * results[r0["row"]]["samples"][0], 2 * gemm_n ** 3 * 1e-9), "GEMM work model"
print("score ok: peak %.3g average %.3g over %d apps (recomputed)" % (sc["peak"], sc["average"], sc["apps_scored"]))
# the roofline of the suite's device: ceilings from its quick characterization, the apps on it
dev = json.load(open(sys.argv[1]))["devices"][0]
rl = dev["roofline"]
assert len(rl["ceilings"]) >= 2 and any(p["row"].startswith("app.sgemm.") for p in rl["points"]), rl["ceilings"]
assert not [p for p in rl["points"] if p["verdict"] == "invalid"], "an app point above its roof"
PY

CLBENCH_FAULT=app.saxpy.opencl:wrong "$bin" suite --quick --reference "$ref" --variant fast=-cl-fast-relaxed-math \
    --json "$tmp/f.json" >"$tmp/f.txt" 2>"$tmp/f.err" || fail "faulted suite exited $?"
grep -q "VOID by SAXPY" "$tmp/f.txt" || fail "no 'VOID by SAXPY' line on stdout"
python3 - "$tmp/f.json" <<'PY' || fail "void score of the faulted suite, or the variant column"
import json, sys
c = json.load(open(sys.argv[1]))["suite"]["columns"]
assert len(c) == 2, len(c)
for col in c:
    sc = col["score"]
    assert sc["status"] == "void" and sc["void_app"] == "SAXPY" and "invalid_result" in sc["reason"], sc
    assert "peak" not in sc and "average" not in sc, sc
assert c[1]["variant"] == "fast" and c[1]["build_options"] == "-cl-fast-relaxed-math", c[1]["variant"]
PY

"$bin" compare "$tmp/a.json" "$tmp/a.json" >"$tmp/c0.txt" 2>&1; rc=$?
[ $rc -eq 0 ] || fail "compare of a suite with itself exited $rc"
grep -q "Average Score" "$tmp/c0.txt" || fail "compare printed no suite score line"
python3 - "$tmp/a.json" "$tmp/slow.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for app in d["suite"]["columns"][0]["apps"]:
    for r in app["rows"]:
        if r.get("times_s"):
            r["times_s"] = [t * 1.5 for t in r["times_s"]]
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" compare "$tmp/a.json" "$tmp/slow.json" --threshold 5% >"$tmp/c1.txt" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "compare with 1.5x slower scored rows exited $rc (want 1)"
grep -q "REGRESSION" "$tmp/c1.txt" || fail "no REGRESSION in the suite compare"
"$bin" compare "$tmp/a.json" "$tmp/f.json" >"$tmp/c2.txt" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "compare with a void score exited $rc (want 1)"

[ $fails -eq 0 ] && echo "cli_suite: all checks passed"
exit $((fails != 0))
