#!/usr/bin/env bash
# The warp-tile GEMM family on the GPU, in one clbench run with its peers:
#   clbench run -d 0:0 --retune compute.fp32.fma compute.fp64.fma app.sgemm.warp_tiles
#       app.sgemm.tuned app.sgemm.clblast app.dgemm.warp_tiles app.dgemm.tuned app.dgemm.clblast
# at the rows' GPU sizes (SGEMM n = 8192, DGEMM n = 4096). --retune searches again (every
# candidate screened at n = 2048; the winner runs at the row's size); the tuning cache lands in
# OUT/cache. Prints every screened candidate (GFLOP/s or why not, the winner marked) and the
# targets' ratios: SGEMM >= 40 TFLOPS, >= 1.2x CLBlast, >= 65 % of compute.fp32.fma; DGEMM
# >= 17.7 TFLOPS, >= 1.5x CLBlast. About 1-2 minutes on an H100.
#   usage: bash peers/gemm_warp_gpu.sh OUT BUILD_DIR      (from the repository root)
#   env:   WARP_DEV (default 0:0)
set -u
set -f # row names are clbench globs
out=${1:?usage: gemm_warp_gpu.sh OUT BUILD_DIR} bd=${2:?usage: gemm_warp_gpu.sh OUT BUILD_DIR}
clb=$bd/clbench dev=${WARP_DEV:-0:0}
[ -x "$clb" ] || { echo "no clbench binary at $clb (build first)"; exit 2; }
mkdir -p "$out"
export XDG_CACHE_HOME=$out/cache
{ date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null; "$clb" list
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv; } >"$out/devices.txt" 2>&1
t0=$SECONDS
timeout 300 "$clb" run -d "$dev" --retune compute.fp32.fma compute.fp64.fma \
    app.sgemm.warp_tiles app.sgemm.tuned app.sgemm.clblast \
    app.dgemm.warp_tiles app.dgemm.tuned app.dgemm.clblast \
    --json "$out/gemm_warp.json" 2>&1 | tee "$out/gemm_warp.txt"
rc=${PIPESTATUS[0]}
echo "clbench exit $rc in $((SECONDS - t0)) s" | tee -a "$out/gemm_warp.txt"
python3 - "$out/gemm_warp.json" <<'PY' | tee "$out/summary.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
res = {r["name"]: r for r in doc["devices"][0]["results"]}
def val(n):
    r = res.get(n)
    return r["value"] if r and r["status"] == "ok" else None
def show(v, fmt="{:,.0f}"):
    return fmt.format(v) if v is not None else "-"
for prec, peak, tf_target, blas_target in (("sgemm", "compute.fp32.fma", 40000, 1.2),
                                            ("dgemm", "compute.fp64.fma", 17700, 1.5)):
    t = res.get(f"app.{prec}.tuned")
    print(f"== {prec}: tuning search (n = {t['params'].get('tune_screen_n', '?') if t else '?'})")
    for c in (t or {}).get("params", {}).get("tune_table", []):
        rate = show(c.get("rate")) + " GFLOP/s" if c["status"] == "ok" else f"{c['status']}: {c.get('reason', '')[:90]}"
        print(f"  {'WIN ' if c['winner'] else '    '}{c['config']:<48} {rate}")
    if t:
        p = t["params"]
        tiles = f" {p['tile_m']}x{p['tile_n']}x{p['tile_k']}" if "tile_m" in p else ""
        print(f"  tuned row: {t['status']} {show(val(f'app.{prec}.tuned'))} GFLOP/s at n = {p.get('n')},"
              f" family {p.get('kernel_family')}{tiles}")
    best = max((x for x in (val(f"app.{prec}.tuned"), val(f"app.{prec}.warp_tiles")) if x is not None), default=None)
    pk, bl = val(peak), val(f"app.{prec}.clblast")
    print(f"  warp_tiles {show(val(f'app.{prec}.warp_tiles'))}  clblast {show(bl)}  {peak} {show(pk)} (GFLOP/s)")
    if best is not None:
        print(f"  best OpenCL {show(best)}: target {tf_target:,} -> {'met' if best >= tf_target else 'NOT met'};"
              f" x CLBlast {show(best / bl, '{:.2f}') if bl else '-'} (target {blas_target});"
              f" % of {peak} {show(100 * best / pk, '{:.1f}') if pk else '-'}")
PY
exit "$rc"
