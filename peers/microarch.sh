#!/usr/bin/env bash
# Microarchitecture probes (branch.*, latency.*, atomics.*, sustained.*) on every device,
# with their peers in the same run: the native C latency probe on the host CPU (the device
# PoCL exposes), clpeak --compute-sp for the sustained FP32 rate, nvidia-smi clocks, and the
# generated code (PTX on NVIDIA, the PoCL kernel library's machine code) checked for the
# instructions the chains are meant to time.
# usage: bash peers/microarch.sh OUTDIR [clbench-binary]     (from the repository root)
# env: MICROARCH_SUSTAINED_GPU_S (20), MICROARCH_SUSTAINED_CPU_S (10)
set -u
out=${1:?usage: peers/microarch.sh OUTDIR [clbench]}
bin=${2:-build/clbench}
native=$(dirname "$bin")/clb_native_latency
mkdir -p "$out"
out=$(cd "$out" && pwd)
smi() {
    command -v nvidia-smi >/dev/null || return 0
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv >"$out/nvidia-smi-$1.csv" 2>&1
    echo "nvidia-smi ($1):"; cat "$out/nvidia-smi-$1.csv"
}
smi before
clinfo -l >"$out/clinfo-l.txt" 2>&1
"$bin" list | tee "$out/clbench-list.txt"
[ -x "$native" ] && "$native" >"$out/native-latency.txt" 2>/dev/null && { echo "native C latency probe (host CPU, ns/op):"; cat "$out/native-latency.txt"; }
"$bin" list | awk '/^Platform #/{p=substr($2,2,length($2)-2); sub(/^Platform #[0-9]+: /,""); pn=$0} /Device #/{d=$3; sub("#","",d); sub(":","",d); print p":"d"\t"pn}' >"$out/devices.tsv"
while IFS=$'\t' read -r pd pname; do
    tag=${pd/:/_}
    case "$pname" in
        *NVIDIA*) secs=${MICROARCH_SUSTAINED_GPU_S:-20}; kind=nvidia ;;
        *) secs=${MICROARCH_SUSTAINED_CPU_S:-10}; kind=other ;;
    esac
    echo "== $pd ($pname): sustained ${secs} s"
    mkdir -p "$out/dump-$tag" "$out/pocl-cache-$tag"
    CLBENCH_DUMP_DIR="$out/dump-$tag" CLBENCH_SUSTAINED_S=$secs \
    POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES=1 POCL_CACHE_DIR="$out/pocl-cache-$tag" \
        "$bin" run 'branch.*' 'latency.*' 'atomics.*' 'sustained.*' -d "$pd" --json "$out/microarch-$tag.json" \
        | tee "$out/microarch-$tag.txt"
    smi "after-$tag"
    # Peer for sustained.fp32: clpeak's single-precision compute (same device, same run).
    timeout 90 clpeak -p "${pd%%:*}" -d "${pd##*:}" --compute-sp >"$out/clpeak-sp-$tag.txt" 2>&1 ||
        echo "clpeak --compute-sp: exit $? (see $out/clpeak-sp-$tag.txt)"
    # The generated code: what the fp32 fma chain and the divergence kernel compiled to.
    {
        if [ "$kind" = nvidia ]; then
            f="$out/dump-$tag/latency.fp32_fma.bin"
            [ -f "$f" ] && echo "PTX latency.fp32_fma: $(grep -c 'fma.rn.f32' "$f") fma.rn.f32, $(grep -cE '^\s*(add|mul)\.(rn\.)?f32' "$f") separate add/mul.f32"
            f="$out/dump-$tag/latency.int32_add.bin"
            [ -f "$f" ] && echo "PTX latency.int32_add: $(grep -cE '^\s*add\.[su]32' "$f") add.s32/u32, $(grep -cE '^\s*(shl|mad)\.' "$f") shl/mad (a reassociated chain would show these)"
            f="$out/dump-$tag/latency.int32_mul.bin"
            [ -f "$f" ] && echo "PTX latency.int32_mul: $(grep -cE '^\s*mul\.lo\.[su]32' "$f") mul.lo"
            f="$out/dump-$tag/branch.bin"
            [ -f "$f" ] && echo "PTX branch: $(grep -cE '@%p[0-9]+ bra' "$f") predicated branches, $(grep -c 'fma.rn.f32' "$f") fma.rn.f32, $(grep -c 'selp' "$f") selp"
        else
            # Work-group-size specializations (1-1-1, 8-1-1, 1024-1-1) of each kernel; of the 12
            # `chain` programs (one per op) only those with FMAs (fp32/fp64 fma) are shown.
            for k in chain diverge branch_seed dist_1 dist_8 dist_32; do
                for so in $(find "$out/pocl-cache-$tag" -name "$k.so" -path '*-1-1-*' 2>/dev/null); do
                    dis=$(objdump -d "$so" 2>/dev/null)
                    ss=$(grep -cE 'vfmadd[0-9]+s[sd]' <<<"$dis") ps=$(grep -cE 'vfmadd[0-9]+p[sd]' <<<"$dis")
                    [ "$k" = chain ] && [ $((ss + ps)) = 0 ] && continue
                    echo "PoCL $k ($(basename "$(dirname "$so")")): scalar vfmadd*ss/sd $ss, vector vfmadd*ps/pd $ps, vblendv $(grep -c vblendv <<<"$dis"), vaddss $(grep -c vaddss <<<"$dis")"
                done
            done
        fi
    } | tee "$out/code-$tag.txt"
    # The PoCL kernel cache and binary dumps are large; keep them only on request.
    [ "${MICROARCH_KEEP_CACHE:-0}" = 1 ] || rm -rf "$out/pocl-cache-$tag" $([ "$kind" = nvidia ] || echo "$out/dump-$tag")
    python3 - "$out/microarch-$tag.json" "$out/native-latency.txt" "$out/clpeak-sp-$tag.txt" "$out/nvidia-smi-after-$tag.csv" "$kind" <<'PY' | tee "$out/summary-$tag.txt"
import json, re, sys, os
doc = json.load(open(sys.argv[1])); native_f, clpeak_f, smi_f, kind = sys.argv[2:6]
dev = doc["devices"][0]; name = dev["device"].get("CL_DEVICE_NAME")
res = {r["name"]: r for r in dev["results"]}
def val(n): r = res.get(n); return r["value"] if r and r["status"] == "ok" else None
def par(n, k): r = res.get(n); return (r or {}).get("params", {}).get(k)
print(f"summary for {name}")
w = val("branch.divergence")
print(f"  inferred SIMD width {w}  derived simd_width {par('branch.divergence','derived_simd_width')}  agrees {par('branch.divergence','agrees_with_derived')}  penalty {par('branch.divergence','penalty')}")
print(f"  branch.seed ratio {val('branch.seed')}")
ns, cyc = val("latency.fp32_fma"), par("latency.fp32_fma", "cycles")
smi_mhz = None
if os.path.exists(smi_f):
    rows = [l for l in open(smi_f) if re.search(r"\d+ MHz", l)]
    if rows: smi_mhz = float(re.findall(r"(\d+) MHz", rows[0])[0])
ref = 4.0 if kind == "nvidia" else None
print(f"  fp32 fma latency {ns} ns = {cyc} cycles at CL_DEVICE_MAX_CLOCK_FREQUENCY {par('latency.fp32_fma','clock_mhz')} MHz"
      + (f"; reference {ref} cycles (published Hopper microbenchmarks), ratio {cyc/ref:.3f}" if ref and cyc else ""))
if os.path.exists(native_f) and kind != "nvidia":
    nat = {l.split()[0]: float(l.split()[1]) for l in open(native_f) if l[0] != "#" and len(l.split()) == 2}
    # A dependent int32 add takes one cycle on every x86 core since the Pentium Pro (Agner
    # Fog's tables), so the native chain gives the core's actual clock.
    ghz = 1.0 / nat["int32_add"] if nat.get("int32_add") else None
    if ghz: print(f"  effective core clock from the native 1-cycle int add chain: {ghz:.3f} GHz; clbench fp32 fma at it: {ns*ghz:.2f} cycles (reference: Agner Fog, FMA 4 cycles on Zen 3/4 and Intel since Skylake, 5 on Zen 1/2)")
    for op in ("fp32_fma", "fp64_fma", "fp32_add", "fp32_mul", "int32_add", "int32_mul", "fp32_div", "fp32_sqrt"):
        v = val("latency." + op)
        if v and op in nat: print(f"  {op:10s} clbench {v:.4f} ns  native C {nat[op]:.4f} ns  ratio {v/nat[op]:.3f}")
for op in ("fp32_add","fp32_mul","fp64_fma","int32_add","int32_mul","fp32_div","fp32_native_divide","fp32_sqrt","fp32_native_sqrt","fp32_exp","fp32_native_exp"):
    print(f"  latency.{op:18s} {val('latency.'+op)} ns  {par('latency.'+op,'cycles')} cycles  SIMD group {par('latency.'+op,'simd_group_lanes')} lanes {par('latency.'+op,'simd_group_ns')} ns")
print(f"  distance knee {val('latency.distance')} (median curve {par('latency.distance','median_curve_knee')}), d=1 latency {par('latency.distance','latency_cycles_at_distance_1')} cycles, peak {par('latency.distance','peak_gops')} Gop/s")
for a in ("global_add_uncontended","global_add_contended","local_add_uncontended","local_add_contended","global_add_latency","local_add_latency"):
    r = res.get("atomics." + a, {})
    print(f"  atomics.{a:24s} {val('atomics.'+a)} {r.get('unit')}")
s = val("sustained.fp32")
cp = None
if os.path.exists(clpeak_f):
    m = re.findall(r"float\d*\s*:\s*([\d.]+)", open(clpeak_f).read())
    if m: cp = max(float(x) for x in m)
print(f"  sustained.fp32 steady {s} GFLOP/s, first/steady {par('sustained.fp32','first_to_steady_ratio')}, telemetry {par('sustained.fp32','telemetry')}"
      + (f", SM clock {par('sustained.fp32','sm_clock_first_mhz')} -> {par('sustained.fp32','sm_clock_last_mhz')} MHz, max {par('sustained.fp32','temperature_max_c')} C, {par('sustained.fp32','power_mean_w')} W" if par('sustained.fp32','sm_clock_first_mhz') else ""))
if cp and s: print(f"  clpeak --compute-sp best float {cp} GFLOP/s; clbench/clpeak {s/cp:.3f}")
if smi_mhz: print(f"  nvidia-smi SM clock after the run {smi_mhz} MHz; fp32 fma cycles at it {ns*smi_mhz*1e-3 if ns else None}")
bad = [n for n, r in res.items() if r["status"] != "ok"]
print(f"  not ok: {bad if bad else 'none'}")
PY
done <"$out/devices.tsv"
echo "outputs in $out"
