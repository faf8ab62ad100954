#!/usr/bin/env bash
# The warp-tile GEMM family (family 3 of the tuned rung, GPUs only) on the default device:
# with CLBENCH_TUNE_FAMILY=3 the search screens only its candidates, here too, at sizes that
# are no multiple of any tile; every candidate must build, run and pass the output check
# (exact at this size), SGEMM and DGEMM. The winner must come back from the cache as a
# family-3 entry; the default search on a CPU device screens no family-3 candidate but the
# warp_tiles rung's own configuration (every fixed rung's is screened, tests/cli_gemm_tuned_fixed.sh).
#   usage: cli_warp_tiles.sh CLBENCH CHECK_SCHEMA
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
CLBENCH_TUNE_FAMILY=3 CLBENCH_GEMM_N=200 "$bin" run app.sgemm.tuned app.dgemm.tuned --retune --reps 1 \
    --json "$tmp/f3.json" >"$tmp/f3.txt" || fail "family-3 search exit $?"
CLBENCH_GEMM_N=200 "$bin" run app.sgemm.tuned --reps 1 --json "$tmp/cached.json" >/dev/null || fail "cached run exit $?"
CLBENCH_GEMM_N=67 "$bin" run app.sgemm.warp_tiles app.dgemm.warp_tiles --reps 1 --json "$tmp/rows.json" >/dev/null ||
    fail "warp_tiles rows exit $?"
CLBENCH_GEMM_N=64 "$bin" run app.sgemm.tuned --retune --reps 1 --json "$tmp/default.json" >/dev/null || fail "default search exit $?"
for f in f3 cached rows default; do python3 "$check" "$tmp/$f.json" || fail "$f.json schema"; done
python3 - "$tmp" <<'PY' || fails=$((fails+1))
import json, sys
t = sys.argv[1]
def rows(f):
    return {r["name"]: r for r in json.load(open(f"{t}/{f}.json"))["devices"][0]["results"]}
bad = 0
def expect(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1
for name, r in rows("f3").items():
    p = r["params"]
    table = p.get("tune_table", [])
    expect(r["status"] == "ok", f"{name} {r['status']} {r.get('reason')}")
    expect(p.get("kernel_family") == "warp tiles", f"{name} family {p.get('kernel_family')}")
    expect(len(table) >= 3 and all(c["config"].startswith("warp tiles") for c in table), f"{name} table {table}")
    for c in table:
        expect(c["status"] == "ok", f"{name} candidate {c['config']}: {c['status']} {c.get('reason')}")
    expect(p.get("tune_valid") == p.get("tune_candidates") == len(table), f"{name} valid {p.get('tune_valid')}")
c = rows("cached")["app.sgemm.tuned"]
expect(c["status"] == "ok" and c["params"].get("tune_source") == "cache" and
       c["params"].get("kernel_family") == "warp tiles", f"cached entry: {c['status']} {c['params'].get('tune_source')} {c['params'].get('kernel_family')}")
for name, r in rows("rows").items():
    expect(r["status"] in ("ok", "unsupported"), f"{name} {r['status']} {r.get('reason')}")
expect(rows("rows")["app.sgemm.warp_tiles"]["status"] == "ok", "app.sgemm.warp_tiles not ok")
d = rows("default")["app.sgemm.tuned"]
expect(d["status"] == "ok", f"default search {d['status']}")
warp = [c["config"] for c in d["params"].get("tune_table", []) if c["config"].startswith("warp tiles")
        and not c["config"].endswith("(rung warp_tiles)")]
expect(not warp, f"the default search on a CPU device screened {warp}")
sys.exit(bad != 0)
PY
echo "cli_warp_tiles: $fails failure(s)"
[ "$fails" = 0 ]
