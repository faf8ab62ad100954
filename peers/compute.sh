#!/usr/bin/env bash
# compute.* against its peers, in the same run, on every OpenCL device:
#   clbench run compute.<rows>     (search over width x chains x shape x work-group size)
#   clpeak -p P -d D --compute-sp --compute-dp
#   build/native_peak (AVX2/AVX-512 FMA intrinsics on all cores; CPU devices only)
#   nvidia-smi clocks before, during (1 s samples) and after the run (NVIDIA only)
# and prints clbench's best FP32/FP64, clpeak's best, their ratio, % of the native probe,
# and % of the theoretical peak (at CL_DEVICE_MAX_CLOCK_FREQUENCY and, on NVIDIA, at the
# SM clock nvidia-smi reported under load).
#
# usage: bash peers/compute.sh OUTDIR [clbench-binary]     (from the repository root)
# env:   COMPUTE_ROWS_GPU, COMPUTE_ROWS_CPU  override the benchmark globs per device type
set -u
out=${1:?usage: peers/compute.sh OUTDIR [clbench-binary]}
bin=${2:-build/clbench}
native=$(dirname "$bin")/native_peak
rows_gpu=${COMPUTE_ROWS_GPU:-"compute.fp32.fma compute.fp32.mad compute.fp64.fma compute.fp64.mad compute.int32.mad compute.int8.dot4"}
rows_cpu=${COMPUTE_ROWS_CPU:-"compute.fp32.fma compute.fp32.mad compute.fp64.fma"}
mkdir -p "$out"
[ -x "$bin" ] || { echo "no clbench binary at $bin (build first)"; exit 2; }
date -u +%FT%TZ >"$out/date.txt"
uname -a >"$out/uname.txt"
clinfo -l >"$out/clinfo-l.txt" 2>&1 || true
"$bin" list >"$out/clbench-list.txt" 2>&1 || true

# Devices as "P D TYPE NAME" from clinfo -l (clinfo's numbering is clbench's and clpeak's).
devices=$(awk '/^Platform #/ {p=$2; sub("#","",p); sub(":","",p); plat=$0; next}
              /Device #/ {d=$0; sub(/.*Device #/,"",d); split(d,a,":"); name=substr(d, index(d,":")+2);
                          type=(plat ~ /NVIDIA|CUDA/ ? "gpu" : (plat ~ /Portable|pocl/ ? "cpu" : "other"));
                          print p, a[1], type, name}' "$out/clinfo-l.txt")
echo "$devices" >"$out/devices.txt"

# The native probe once (it measures the host CPU, which is PoCL's CPU device).
if [ -x "$native" ]; then
    "$native" 2 >"$out/native_peak.json" 2>"$out/native_peak.err" || true
fi

smi_pid=
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.applications.graphics --format=csv \
        >"$out/nvidia-smi-before.csv" 2>&1 || true
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv \
        -l 1 >"$out/nvidia-smi-during.csv" 2>&1 &
    smi_pid=$!
    trap 'kill "$smi_pid" 2>/dev/null' EXIT
fi
t_start=$(date +%s)

while read -r p d type name; do
    [ -n "${p:-}" ] || continue
    tag="${p}_${d}"
    echo "== device $p:$d ($type) $name"
    rows=$rows_cpu
    [ "$type" = gpu ] && rows=$rows_gpu
    env_native=()
    [ "$type" = cpu ] && [ -s "$out/native_peak.json" ] && env_native=(CLBENCH_NATIVE_PEAK="$out/native_peak.json")
    # PoCL: a fresh kernel cache in OUTDIR, so the generated code of every configuration can
    # be inspected afterwards (pocl_asm_*.txt counts the FMA instruction forms per kernel).
    [ "$type" = cpu ] && env_native+=(POCL_CACHE_DIR="$out/pocl_cache_$tag")
    # The program binary of every finally measured configuration (NVIDIA: PTX).
    mkdir -p "$out/binaries_$tag" && env_native+=(CLBENCH_DUMP_DIR="$out/binaries_$tag")
    # shellcheck disable=SC2086
    env ${env_native[@]+"${env_native[@]}"} timeout 300 "$bin" run -d "$p:$d" $rows --reps 10 \
        --json "$out/clbench_$tag.json" >"$out/clbench_$tag.txt" 2>"$out/clbench_$tag.err" </dev/null
    echo "clbench exit $? after $(( $(date +%s) - t_start )) s" >>"$out/clbench_$tag.txt"
    timeout 240 clpeak -p "$p" -d "$d" --compute-sp --compute-dp >"$out/clpeak_$tag.txt" 2>&1 </dev/null
    echo "clpeak exit $? after $(( $(date +%s) - t_start )) s" >>"$out/clpeak_$tag.txt"
    tail -n1 "$out/clbench_$tag.txt"; tail -n1 "$out/clpeak_$tag.txt"
    # PTX: count the FMA forms of each dumped binary (fma.rn.f32, fma.rn.f64, mad.lo.s32, ...).
    for b in "$out/binaries_$tag"/*.bin; do
        [ -f "$b" ] && grep -aq '^//' "$b" && echo "$b: $(grep -aoE '\b(fma|mad)\.[a-z0-9.]+' "$b" | sort | uniq -c | tr -s ' \n' ' ')"
    done >"$out/ptx_ops_$tag.txt" 2>/dev/null
    if [ -d "$out/pocl_cache_$tag" ] && command -v objdump >/dev/null 2>&1; then
        find "$out/pocl_cache_$tag" -name '*.so' | while read -r so; do
            echo "$so: $(objdump -d --no-show-raw-insn "$so" | grep -oE 'vfmadd[0-9]+(ps|pd|ss|sd) [^,]*' \
                | sed -E 's/ %([xyz]mm)[0-9]+$/ \1/; s/ [^ ]*\(.*$/ mem/; s/vfmadd[0-9]+/vfmadd/' \
                | sort | uniq -c | tr -s ' \n' ' ')"
        done >"$out/pocl_asm_$tag.txt"
    fi
done <<<"$devices"

if [ -n "$smi_pid" ]; then
    kill "$smi_pid" 2>/dev/null
    wait "$smi_pid" 2>/dev/null
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >"$out/nvidia-smi-after.csv" 2>&1 || true
fi

python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, json, os, re, sys
out = sys.argv[1]

def clpeak_best(path):
    """Best figure of each clpeak section (GFLOPS)."""
    best, sec = {}, None
    for line in open(path, errors="replace"):
        if "Single-precision compute" in line: sec = "sp"
        elif "Double-precision compute" in line: sec = "dp"
        elif "compute" in line.lower() and "(" in line: sec = None
        m = re.match(r"\s*\w+\s*:\s*([0-9.]+)", line)
        if sec and m:
            best[sec] = max(best.get(sec, 0.0), float(m.group(1)))
    return best

def smi_load_clock(path):
    """Median SM clock (MHz) over the 1 s samples taken during the run."""
    vals = []
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"[^,]+,\s*([0-9]+) MHz", line)
            if m: vals.append(int(m.group(1)))
    vals = sorted(v for v in vals if v > 0)
    return vals[len(vals) // 2] if vals else None

native = {}
if os.path.exists(f"{out}/native_peak.json"):
    try: native = json.load(open(f"{out}/native_peak.json"))
    except ValueError: pass
smi_clock = smi_load_clock(f"{out}/nvidia-smi-during.csv")
print(f"native probe: {native.get('fp32_gflops')} / {native.get('fp64_gflops')} GFLOP/s FP32/FP64 ({native.get('isa')}, {native.get('threads')} threads)")
if smi_clock: print(f"nvidia-smi SM clock during the run (median): {smi_clock} MHz")
for path in sorted(glob.glob(f"{out}/clbench_*.json")):
    tag = path[len(out) + 9:-5]
    doc = json.load(open(path))
    dev = doc["devices"][0]
    name = dev["device"].get("CL_DEVICE_NAME")
    cl_clock = dev["device"].get("CL_DEVICE_MAX_CLOCK_FREQUENCY")
    is_cpu = "CPU" in str(dev["device"].get("CL_DEVICE_TYPE"))
    peer = clpeak_best(f"{out}/clpeak_{tag}.txt") if os.path.exists(f"{out}/clpeak_{tag}.txt") else {}
    print(f"\n== {tag}: {name} (CL clock {cl_clock} MHz)")
    print(f"{'benchmark':<22} {'status':<8} {'value':>10} {'config':<28} {'%theor':>7} {'%theor@smi':>10}")
    best = {}
    for r in dev["results"]:
        p = r.get("params") or {}
        if r["status"] != "ok":
            print(f"{r['name']:<22} {r['status']:<8} {'':>10} {(r.get('reason') or '')[:60]}")
            continue
        cfg = f"w{p.get('width')} c{p.get('chains')} {p.get('shape')} wg{p.get('work_group_size')}"
        eff = p.get("efficiency")
        theo = p.get("theoretical_peak")
        at_smi = ""
        if theo and smi_clock and cl_clock and not is_cpu:
            at_smi = f"{100 * r['value'] / (theo * smi_clock / cl_clock):.1f}%"
        print(f"{r['name']:<22} {'ok':<8} {r['value']:>10.1f} {cfg:<28} "
              f"{(f'{100*eff:.1f}%' if eff else 'n/a'):>7} {at_smi:>10}")
        prec = r["name"].split(".")[1]
        if prec in ("fp32", "fp64"):
            best[prec] = max(best.get(prec, 0.0), r["value"])
    for prec, key, nkey in (("fp32", "sp", "fp32_gflops"), ("fp64", "dp", "fp64_gflops")):
        if prec not in best: continue
        line = f"best {prec}: clbench {best[prec]:.1f} GFLOP/s"
        if peer.get(key): line += f", clpeak {peer[key]:.1f} -> ratio {best[prec] / peer[key]:.2f}x"
        if is_cpu and native.get(nkey): line += f", native probe {native[nkey]:.1f} -> {100 * best[prec] / native[nkey]:.0f}%"
        print(line)
PY
