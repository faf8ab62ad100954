#!/usr/bin/env bash
# The warp-tile GEMM kernels (family 3) under Oclgrind: no out-of-bounds access, no data race
# between the two local buffers, no API misuse, every result validated. All the family's
# candidates that fit Oclgrind's 32 KB of local memory are screened at n = 100 (one K slice
# short of a tile, padded). Checked by hand that it bites: storing the next slice into the
# buffer being read is reported as a read-write data race in gemm_warp_tiles; so is dropping
# the one-buffer candidates' barrier before the store (DGEMM 128x64x16 / 64x128x16 one_buffer,
# which then also fail the check); and issuing the cp.async ring's next copy before the slice's
# barrier (the plain copy that stands in for cp.async off NVIDIA) is reported as read-write races
# in gemm_tuned (the run then outlasts CTest's limit: the test fails either way).
#   usage: oclgrind_warp_tiles.sh CLBENCH CHECK_SCHEMA
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v oclgrind >/dev/null || { echo "SKIP: oclgrind is not installed"; exit 77; }
export XDG_CACHE_HOME=$tmp/cache
fails=0
CLBENCH_TUNE_FAMILY=3 CLBENCH_GEMM_N=100 oclgrind --check-api --data-races --log "$tmp/oclgrind.log" \
    "$bin" run app.sgemm.tuned app.dgemm.tuned app.sgemm.warp_tiles --retune --reps 1 --watchdog-ms 60000 \
    --json "$tmp/out.json" >"$tmp/table.txt" 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
cat "$tmp/table.txt"
if [ -s "$tmp/oclgrind.log" ]; then
    echo "FAIL: oclgrind reported:"
    head -40 "$tmp/oclgrind.log"
    fails=$((fails+1))
fi
python3 "$check" "$tmp/out.json" --min-results 3 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, sys
for r in json.load(open(sys.argv[1]))["devices"][0]["results"]:
    p = r["params"]
    if "tune_table" in p and not (p["tune_valid"] == p["tune_candidates"] >= 3):
        print("FAIL:", r["name"], "valid", p["tune_valid"], "of", p["tune_candidates"]); sys.exit(1)
PY
echo "oclgrind_warp_tiles: $fails failure(s)"
[ "$fails" = 0 ]
