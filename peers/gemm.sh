#!/usr/bin/env bash
# The application rows against their peers in one clbench run per device:
#   clbench run 'app.*' compute.fp32.fma compute.fp64.fma memory.triad
# so every app row is annotated (speedup over sequential and over the previous rung, % of
# compute.fp32/fp64.fma or of memory.triad, ratio to CLBlast). Writes OUT/apps-P_D.json, the
# table, and OUT/ladder-P_D.md: one ladder table per device.
#
# usage: bash peers/gemm.sh OUT [P:D] [clbench-binary]    (from the repository root)
# env:   CLBENCH_GEMM_N, CLBENCH_GEMM_LADDER_N  sizes (docs/apps/gemm.md); GEMM_RETUNE=1 adds --retune
#        GEMM_ROWS  row globs instead of 'app.*' (e.g. 'app.sgemm.*')
set -u
out=${1:?usage: peers/gemm.sh OUT [P:D] [clbench-binary]}
dev=${2:-}
bin=${3:-build/clbench}
mkdir -p "$out"
[ -x "$bin" ] || { echo "no clbench binary at $bin (build first)"; exit 2; }
date -u +%FT%TZ >"$out/date.txt"
clinfo -l >"$out/clinfo-l.txt" 2>&1 || true
nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
tag=${dev:-default}; tag=${tag//:/_}
# The tuner's cache lands in OUT, so the winner is part of the record.
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$out/cache}
rows=${GEMM_ROWS:-app.*}
# shellcheck disable=SC2086
"$bin" run $rows compute.fp32.fma compute.fp64.fma memory.triad ${dev:+-d "$dev"} \
    ${GEMM_RETUNE:+--retune} --json "$out/apps-$tag.json" | tee "$out/apps-$tag.txt"
rc=${PIPESTATUS[0]}
python3 - "$out/apps-$tag.json" >"$out/ladder-$tag.md" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def f(v, fmt="{:.2f}"):
    return fmt.format(v) if isinstance(v, (int, float)) else "-"
for dev in doc["devices"]:
    res = dev["results"]
    print(f"## {dev['device'].get('CL_DEVICE_NAME', '?') if isinstance(dev.get('device'), dict) else '?'}\n")
    peers = {r["name"]: r for r in res if not r["name"].startswith("app.")}
    for n, r in peers.items():
        print(f"- {n}: {f(r.get('value'))} {r.get('unit', '')} ({r['status']})")
    print("\n| row | n | status | value | unit | x sequential | x previous rung | % of peak/triad | x CLBlast |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in res:
        if not r["name"].startswith("app."):
            continue
        p = r.get("params", {})
        pct = p.get("pct_of_compute_peak", p.get("pct_of_triad"))
        print(f"| {r['name']} | {p.get('n', '-')} | {r['status']} | {f(r.get('value'))} | {r.get('unit', '')} | "
              f"{f(p.get('speedup_vs_sequential'))} | {f(p.get('speedup_vs_previous_rung'))} | {f(pct, '{:.1f}')} | "
              f"{f(p.get('ratio_vs_clblast'))} |")
PY
cat "$out/ladder-$tag.md"
exit "$rc"
