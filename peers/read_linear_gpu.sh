#!/usr/bin/env bash
# memory.read_linear against clpeak --global-bandwidth on one GPU, in alternating rounds (the
# target: read_linear >= 1.0x clpeak's best on the H100). Per round: `clbench run memory.read_linear`
# (full size, default options: the straightforward forms read 1 GiB on GPUs), then clpeak's
# global-bandwidth test on the same device, then (AB_BYTES, default 268435456; empty: off)
# read_linear again with CLBENCH_READ_BYTES=AB_BYTES, the array size before 2026-11-23, to show
# what the launch length does. Prints every family member's screening and full-measurement
# GB/s (params.variants) with its ratio to the same round's clpeak best, the reported value,
# its guard (limit, efficiency) and the median ratio over the rounds. A part starts only when
# its allowance fits before DEADLINE_S (default 110) seconds, so the call stays under 2 minutes.
# On the H100 (2026-11-23): read_linear 7 s, clpeak 4 s; expect ~30 s a round (3 rounds).
#   bash peers/read_linear_gpu.sh OUT BUILD_DIR [ROUNDS=3]   (after `source .gpu/activate.sh`)
# DEV=P:D picks another device (default 0:0: NVIDIA's platform comes first after activate.sh).
# clpeak comes from the GPU kit (.gpu/debs/clpeak_1.1.2, on PATH after activate.sh).
set -u
out=${1:?usage: read_linear_gpu.sh OUT BUILD_DIR [ROUNDS]} bd=${2:?usage: read_linear_gpu.sh OUT BUILD_DIR}
rounds=${3:-3} dev=${DEV:-0:0} deadline=${DEADLINE_S:-110} ab=${AB_BYTES-268435456}
clpeak=$(command -v clpeak || echo .gpu/bin/clpeak)
mkdir -p "$out"
{ date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null; "$clpeak" --version 2>&1 | head -1
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
      --format=csv 2>&1; } >"$out/provenance.txt"
[ -x "$clpeak" ] || echo "read_linear_gpu: no clpeak in the kit or on PATH: ratios are missing" | tee -a "$out/provenance.txt"
t0=$SECONDS
part() { # NAME NEED_S COMMAND...: runs when NEED_S fit before the deadline, killed at it
    local name=$1 need=$2 left=$((deadline - (SECONDS - t0))) t=$SECONDS
    shift 2
    [ "$left" -ge "$need" ] || { echo "$name: not started (${left} s left)"; return; }
    timeout "$left" "$@" >"$out/$name.txt" 2>&1
    echo "$name: rc=$? in $((SECONDS - t)) s"
}
for i in $(seq 1 "$rounds"); do
    part "clbench_$i" 20 "$bd/clbench" run -d "$dev" memory.read_linear --json "$out/clbench_$i.json"
    part "clpeak_$i" 6 "$clpeak" -p "${dev%%:*}" -d "${dev##*:}" --global-bandwidth
    [ -n "$ab" ] && part "clbench_ab_$i" 15 env CLBENCH_READ_BYTES="$ab" "$bd/clbench" run -d "$dev" \
        memory.read_linear --json "$out/clbench_ab_$i.json"
done
python3 - "$out" "$rounds" <<'PY' | tee "$out/summary.txt"
import json, os, re, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])
ratios = {"": [], "_ab": []}
for i, tag in ((i, tag) for i in range(1, n + 1) for tag in ("", "_ab")):
    try:
        r = json.load(open(os.path.join(out, f"clbench{tag}_{i}.json")))["devices"][0]["results"][0]
    except (OSError, ValueError, IndexError, KeyError):
        print(f"round {i}{tag}: no clbench result")
        continue
    try:
        peak = dict(re.findall(r"^\s*(float\d*)\s*:\s*([\d.]+)", open(os.path.join(out, f"clpeak_{i}.txt")).read(), re.M))
    except OSError:
        peak = {}
    best = max((float(v) for v in peak.values()), default=None)
    p = r.get("params", {})
    lim = (p.get("limit") or {}).get("value")
    print(f"round {i}{tag}: memory.read_linear {r['status']} {r.get('value') or 0:.1f} GB/s, "
          f"array {p.get('array_bytes', 0) / 2**20:.0f} MiB "
          f"(winner {p.get('variant')} {p.get('fetch_layout', '')} uint{p.get('vector_width')} "
          f"wg {p.get('work_group_size')}; limit {lim}, efficiency {p.get('efficiency', 'n/a')}) "
          f"{r.get('reason') or ''}")
    print(f"  clpeak: {' '.join(f'{k} {v}' for k, v in peak.items()) or 'no figures'}; best {best}")
    if best and r["status"] == "ok":
        ratios[tag].append(r["value"] / best)
        print(f"  read_linear / clpeak best = {ratios[tag][-1]:.3f}")
    for v in sorted(p.get("variants", []), key=lambda v: -v.get("screen_gbs", 0)):
        s, g = v.get("screen_gbs"), v.get("gbs")
        name = f"{v['variant']} {v.get('fetch_layout', '')}".strip()
        cols = [f"{name:34s} uint{v['vector_width']:<2} x{v.get('vectors_per_work_item', '-')!s:<2} "
                f"wg {v['work_group_size']!s:>6}"]
        cols.append(f"screen {s:8.1f}" + (f" ({s / best:.3f}x)" if best else "") if s else f"skipped: {v.get('skipped')}")
        if g:
            cols.append(f"full {g:8.1f}" + (f" ({g / best:.3f}x)" if best else ""))
        if lim and max(s or 0, g or 0) > 1.03 * lim:
            cols.append("ABOVE THE LIMIT")
        print("    " + "  ".join(cols))
for tag, what in (("", "default size"), ("_ab", "AB_BYTES size")):
    x = ratios[tag]
    if x:
        print(f"median read_linear ({what}) / clpeak best over {len(x)} round(s): "
              f"{statistics.median(x):.3f} (rounds: {', '.join(f'{v:.3f}' for v in x)}; target >= 1.0)")
PY
