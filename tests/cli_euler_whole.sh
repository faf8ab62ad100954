#!/usr/bin/env bash
# app.euler's validation covers every component: the tiled rows at a size where a few windows
# would cover under a tenth of the vector (n = 131072, 8 steps) are ok with
# params.validated_components = n, so a tile a kernel skips anywhere is caught (mutants
# euler.tile_row_skips_a_tile, euler.honeycomb_skips_a_tile).
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLBENCH_EULER_N=131072 CLBENCH_EULER_STEPS=8
"$bin" run app.euler.string.f32.diamond_row_korr app.euler.string.f32.diamond_col app.euler.string.f32.honeycomb \
    --reps 2 --json "$tmp/out.json" >/dev/null; rc=$?
python3 - "$tmp/out.json" "$rc" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
bad = [] if sys.argv[2] == "0" else [f"run exit {sys.argv[2]}"]
for r in res:
    p = r["params"]
    if r["status"] != "ok" or p.get("validated_components") != p.get("n") or p.get("n") != 131072:
        bad.append(f'{r["name"]}: {r["status"]} {r.get("reason")}, {p.get("validated_components")} of {p.get("n")} components checked')
if len(res) != 3:
    bad.append(f"{len(res)} rows, want 3")
for b in bad:
    print("FAIL:", b)
print(f"cli_euler_whole: {len(bad)} failure(s)")
sys.exit(bool(bad))
PY
