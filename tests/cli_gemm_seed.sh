#!/usr/bin/env bash
# Seed 002's GEMM ladder as the seed builds it (docs/apps/gemm.md): its nine rungs in its order
# (rung_index 2..10), B column-major from rung 2 on (params.b_layout), the seed's own speedups
# (params.seed_speedup on this device's kind), clbench's swapped-mapping variants beside the
# ladder (no rung_index, B row-major), and the seed's sequential loop orders as host rows. Every
# row must be ok: each is checked on its own output (poisoned first), so a rung that reads B in
# the wrong layout is invalid_result. n = 101: every element checked, padding in K (to 4 and 8)
# and in rows (to 16 and 64) with the transposed B.
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
rungs="naive coalesced private_acc row row_private_a row_local_b row_float4 row_float4_noconv row_float8"
extra="coalesced_map private_acc_map"
loops="seq_ijk seq_ikj seq_jik seq_jki seq_kij seq_kji seq_blocked"
names=""
for r in $rungs $extra $loops; do names="$names app.sgemm.$r"; done
CLBENCH_GEMM_LADDER_N=101 "$bin" run --quick --reps 2 $names app.dgemm.coalesced app.dgemm.row_float8 \
    app.dgemm.seq_kji --json "$tmp/r.json" >"$tmp/out.txt" 2>&1 || fail "run exit $?"
python3 - "$tmp/r.json" "$rungs" "$extra" "$loops" <<'PY' || fail "seed ladder rows"
import json, sys
doc = json.load(open(sys.argv[1]))
res = [r for d in doc["devices"] for r in d["results"]]
by = {r["name"]: r for r in res}
cpu = "CPU" in str(doc["devices"][0]["device"].get("CL_DEVICE_TYPE"))
rungs, extra, loops = (a.split() for a in sys.argv[2:5])
# The seed's CPUTime / GPUTotalTime: (its CPU, its HD 4870), sections 2.2-2.8.
seed = {"naive": (12.479, 9.002), "coalesced": (16.207, 7.176), "private_acc": (24.863, 69.541),
        "row": (17.385, 55.119), "row_private_a": (18.587, 69.242), "row_local_b": (17.630, 58.069),
        "row_float4": (18.657, 78.079), "row_float4_noconv": (24.480, 185.605), "row_float8": (45.226, 170.115)}
bad = 0
def fail(msg):
    global bad
    print("FAIL:", msg); bad += 1
names = ["app.sgemm." + r for r in rungs + extra + loops] + ["app.dgemm.coalesced", "app.dgemm.row_float8", "app.dgemm.seq_kji"]
for n in names:
    r = by.get(n)
    if not r or r["status"] != "ok" or not r.get("value", 0) > 0:
        fail("%s: %s %s" % (n, r and r["status"], r and r.get("reason")))
for i, name in enumerate(rungs):
    p = by.get("app.sgemm." + name, {}).get("params", {})
    if p.get("rung_index") != i + 2:
        fail("%s rung_index %s, want %d" % (name, p.get("rung_index"), i + 2))
    want = "row-major" if name == "naive" else "column-major"
    if not str(p.get("b_layout", "")).startswith(want):
        fail("%s b_layout %r, want %s" % (name, p.get("b_layout"), want))
    if p.get("seed_speedup") != seed[name][0 if cpu else 1]:
        fail("%s seed_speedup %s" % (name, p.get("seed_speedup")))
    if p.get("seed_sequential_row") != "app.sgemm.seq_jik" or not p.get("speedup_vs_seed_sequential", 0) > 0:
        fail("%s lacks its speedup over the seed's sequential loop" % name)
if "seed_speedup" in by.get("app.dgemm.coalesced", {}).get("params", {}):
    fail("app.dgemm.coalesced carries the seed's figure: the seed measured float only")
for name in extra + loops:
    p = by.get("app.sgemm." + name, {}).get("params", {})
    if "rung_index" in p or "seed_speedup" in p:
        fail("%s is not a seed rung, yet carries a rung_index or a seed figure" % name)
for name in extra:
    if by.get("app.sgemm." + name, {}).get("params", {}).get("b_layout") != "row-major":
        fail("%s: B must stay row-major" % name)
for name in loops:
    p = by.get("app.sgemm." + name, {}).get("params", {})
    if p.get("loop_order") != name[4:] or p.get("n") != 101:
        fail("%s: loop_order %s n %s" % (name, p.get("loop_order"), p.get("n")))
sys.exit(bad)
PY
[ $fails = 0 ] || cat "$tmp/out.txt"
echo "cli_gemm_seed: $fails failure(s)"
[ "$fails" = 0 ]
