#!/usr/bin/env bash
# The GPU machine's measurements, in named sections, each under a time limit so one call of the
# device tool (10 minutes) always brings its files back: OUT/results.tgz is rewritten after every
# section, so a call cut off by its limit still returns every finished one; OUT/timing.txt has
# each section's exit status and wall time.
# usage: bash peers/gpu_session.sh OUT BUILD_DIR SECTION...      (from the repository root,
#        after `source .gpu/activate.sh`). GPU = the NVIDIA device, CPU = the PoCL device.
# Characterization:
#   full      the README main command's run (clbench run --json --html) on the default device
#   fullpair  the same run with FULL_ISOLATION=on|off (default on), a fresh NVIDIA compute cache
#             so both forms compile every kernel alike; WARM=1 first runs one discarded --quick run
#   iso       peers/isolation_overhead.sh with ISO_PAIRS (3) pairs and ISO_SUBSET_PAIRS (2) subset pairs
#   latency   latency.* on both devices (cycles at the measured clock)
#   clpeaklat clpeak --kernel-latency on the GPU;  nativelat  the native C latency probe
#   launch    peers/launch.sh (clpeak --kernel-latency beside launch.*, the gap experiment)
#   sustain   compute.fp32.fma + sustained.fp32 on the GPU, CLBENCH_SUSTAINED_S=30
#   nvml      peers/nvml_throttle_check.sh
# Memory:
#   pairs     peers/memory_pairs.sh on the GPU, PAIRS_ROUNDS (2) rounds (HBM_GBS passes through)
#   cpupairs  peers/memory_pairs.sh, 1 round, on the CPU
#   read      peers/read_linear_gpu.sh, READ_ROUNDS (3) rounds of read_linear against clpeak
#   readpeer  memory.read_linear, then clpeak --global-bandwidth, on the GPU back to back
#   cpuab     peers/memory_ab.sh on the CPU: AB_PAIRS (6) interleaved pairs of the rows AB_OPS
#             ("write scale add") against stream_simple -o OP (MAX_S passes through)
#   forms     stream_forms on the CPU: the kernel files FORMS_KERNELS (the tree's memory.cl), 20
#             rounds of write/copy/scale/add/triad beside stream_simple's kernel, one process
# Apps:
#   gemm      peers/gemm.sh for SGEMM, then DGEMM + SAXPY, on the GPU
#   sgemm     peers/gemm.sh with SGEMM_ROWS (app.sgemm.*) only
#   warp      peers/gemm_warp_gpu.sh (the warp-tile rungs and the tuned search, SGEMM and DGEMM)
#   cpusgemm  compute.fp32.fma, app.sgemm.tuned (--retune), app.sgemm.clblast on the CPU, n = 2000
#   twins     cuda_selftest, then MonteCarloPi / StringMatch (10 reps), SGEMM, DGEMM + SAXPY with
#             their CUDA twins on the GPU (the tuned winners kept in OUT/tune-cache)
#   ecuda     cuda_selftest, then the Euler CUDA twin beside the OpenCL STRING rows (n = 1e8)
#   euler     peers/euler_gpu.sh for each of EULER_PROBLEMS ("string-f32 bruss2d-f32"),
#             EULER_STEPS (256), then its summary
#   bruss2d   BRUSS2D N = 4096: memory.copy, the vectorized, coalesced and tiled_2d rows, f32 and
#             f64, 5 reps, EULER_STEPS (64) steps
# Closer to the limit (GEMM and Euler against their references, same run each; programs dumped
# as PTX to OUT/dump for closer-sass):
#   closer-string  STRING f32 n = 1e8, 96 steps: memory.copy, vectorized, honeycomb, tiled_1d
#   closer-bruss   BRUSS2D f32 N = 4096, 64 steps: memory.copy, vectorized, tiled_2d, once per
#                  tiled_2d form (local, registers)
#   closer-gemm    compute.fp32.fma, compute.fp64.fma, app.dgemm.tuned, app.sgemm.tuned,
#                  app.sgemm.cublas, --retune, the search restricted to the warp tiles (family 3)
#   closer-sass    ptxas -v and cuobjdump -sass of every dumped program: OUT/closer/sass.txt (per
#                  program: registers, spills, instruction counts), OUT/closer/sass.tar.xz
#   closer-extra   tiled_1d at 32 points per item and at s = 32; tiled_2d (registers) at 24 points
#   closer2-gemm   compute.fp32.fma, memory.copy, app.sgemm.tuned (--retune, family 3: the warp
#                  tiles with the cp.async ring), app.sgemm.cublas; then PAIRS (6) rounds of the
#                  tuned row and cuBLAS, each in its own run, order alternating (peers/row_pairs.py)
#   closer2-bruss  BRUSS2D f32 N = BRUSS_GRID (4096), 64 steps: memory.copy, vectorized, tiled_2d
#                  (form local), then tiled_2d at BRUSS_SWEEP's form:points per item:steps per
#                  launch[:work-group size] (dumped); PAIRS rounds of tiled_2d (the fastest setting)
#                  and vectorized
#   closer2-twins  the CUDA twins' rows (mcpi, strmatch, dgemm.cublas, euler) and the check
#                  that every twin row of closer2 carries params.total_s >= kernel_s
#                  (peers/twin_total_check.py)
# Suite, recommend, fleet:
#   suite     clbench suite --quick --platforms all twice, then compare at 3 %
#   suitefull clbench suite --full
#   package   a new user's tool: the binary copied alone and the cmake --install'd tree
#             (INSTALL_ROOT), each from an empty directory: --version, suite --full, suite --quick
#             on every platform (installed); OUT/package/summary.txt: the scores and the CUDA rows
#   recommend peers/recommend_check.sh measure --all-devices and check (CLBENCH_GEMM_N, 4096),
#             then recommend --workload gemm at 2048 and 8192
#   recstream the stream workload's rows on all devices, then recommend --workload stream
#   fleet     peers/fleet_gpu.sh on GPU and CPU (FLEET_ROWS, FLEET_MPI pass through)
# Seeds (docs/seeds.md):
#   seeds     on the GPU: branch.seed beside branch.running_sum, memory.caches (the database's L2),
#             the kernel binary cache (compile.binary_*), seed 002's ladder and loop orders, seed
#             001's SAXPY, seed 003's Euler variants (STRING f32)
set -u
set -f # row patterns are clbench globs
out=${1:?usage: gpu_session.sh OUT BUILD_DIR SECTION...} bd=${2:?usage: gpu_session.sh OUT BUILD_DIR SECTION...}
shift 2
mkdir -p "$out"
clb=$bd/clbench
pd_of() { "$clb" list | awk -v want="$1" '/^Platform #/{p=substr($2,2,length($2)-2); plat=$0}
          /Device #/{d=$3; sub("#","",d); sub(":","",d); if (plat ~ want) {print p":"d; exit}}'; }
gpu=${GPU_DEVICE:-$(pd_of NVIDIA)} cpu=${CPU_DEVICE:-$(pd_of Portable)}
{ echo "gpu=$gpu cpu=$cpu"; date -u +%FT%TZ; git rev-parse HEAD 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
  "$clb" list; } >"$out/devices.txt" 2>&1
pack() { tar czf "$out/../results.tgz.tmp" -C "$out" --exclude=cache --exclude=dump --exclude=results.tgz . 2>/dev/null &&
         mv "$out/../results.tgz.tmp" "$out/results.tgz"; }
# FILE LIMIT_S COMMAND...: stdout and stderr to OUT/FILE, then "FILE: exit N" into OUT/FILE.
to() { local f=$1 lim=$2; shift 2; mkdir -p "$(dirname "$out/$f")"
       timeout "$lim" "$@" >"$out/$f" 2>&1; echo "exit $?" >>"$out/$f"; }

# DIR ROUNDS LIMIT_S ROW_A ROW_B [run options]: the two rows in rounds, each in its own run
# (one run takes its rows in the registry's order), A first in even rounds, B first in odd ones;
# DIR/summary.txt: the per-round ratio's median and interval (peers/row_pairs.py)
row_pairs() {
    local dir=$1 n=$2 lim=$3 a=$4 b=$5 i r; shift 5
    for ((i = 0; i < n; i++)); do
        for r in $( ((i % 2 == 0)) && echo "$a $b" || echo "$b $a"); do
            to "$dir/round-$i-${r##*.}.txt" "$lim" "$clb" run -d "$gpu" "$@" "$r" --json "$out/$dir/round-$i-${r##*.}.json"
        done
    done
    python3 peers/row_pairs.py "$a" "$b" "$out/$dir" >"$out/$dir/summary.txt" 2>&1
}

# BRUSS2D f32 N = BRUSS_GRID (4096), 64 steps: the environment of setting FORM:POINTS:STEPS[:LOCAL]
# (points per item, steps per launch, work-group size; 0 or absent: the rule's)
bruss_env() {
    local f; IFS=: read -r -a f <<<"$1"
    echo "CLBENCH_EULER_TILE2D_FORM=${f[0]} CLBENCH_EULER_GRID=${BRUSS_GRID:-4096} CLBENCH_EULER_STEPS=64"
    [ "${f[1]:-0}" = 0 ] || echo "CLBENCH_EULER_TILE2D_POINTS=${f[1]}"
    [ "${f[2]:-0}" = 0 ] || echo "CLBENCH_EULER_TILE2D_STEPS=${f[2]}"
    [ "${f[3]:-0}" = 0 ] || echo "CLBENCH_EULER_LOCAL=${f[3]}"
}
bruss_at() { # FORM:POINTS:STEPS[:LOCAL] FILE LIMIT_S [rows...]
    local v=$1 f=$2 lim=$3; shift 3
    to "$f.txt" "$lim" env $(bruss_env "$v") "$clb" run -d "$gpu" --reps 5 "$@" --json "$out/$f.json"
}

# A new user's two ways to the tool: BUILD_DIR/clbench copied alone into an empty directory, and
# the tree installed by `cmake --install` under INSTALL_ROOT (default OUT/../install-root, the
# staged /usr of the Debian layout; the CUDA module beside the tool), each run from an empty
# directory with no variable of clbench's set: --version, suite --full (the seed's protocol) and,
# installed, suite --quick on every platform; then each document's scores and CUDA rows.
package() {
    local alone=/tmp/clbench-alone empty=/tmp/clbench-empty root=${INSTALL_ROOT:-$out/../install-root} f
    rm -rf "$alone" "$empty"; mkdir -p "$alone" "$empty" "$out/package"
    cp "$clb" "$alone/clbench"
    ls -la "$alone" "$root/usr/bin" >"$out/package/files.txt" 2>&1
    (cd "$alone" && to package/alone-version.txt 10 env -u CLBENCH_DEVICE ./clbench --version
     to package/alone-full.txt 300 env -u CLBENCH_DEVICE ./clbench suite --full --json "$out/package/alone-full.json")
    (cd "$empty" && to package/installed-version.txt 10 env -u CLBENCH_DEVICE "$root/usr/bin/clbench" --version
     to package/installed-full.txt 300 env -u CLBENCH_DEVICE "$root/usr/bin/clbench" suite --full \
         --json "$out/package/installed-full.json"
     to package/installed-quick-all.txt 200 env -u CLBENCH_DEVICE "$root/usr/bin/clbench" suite --quick --platforms all \
         --json "$out/package/installed-quick-all.json")
    ls -A "$alone" "$empty" >"$out/package/left-behind.txt" 2>&1
    for f in alone-full installed-full installed-quick-all; do
        python3 - "$out/package/$f.json" >>"$out/package/summary.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for col in d["suite"]["columns"]:
    print(sys.argv[1].rsplit("/", 1)[-1], col.get("device"), col.get("variant"), "score:",
          json.dumps(col.get("score"), sort_keys=True))
for dev in d["devices"]:
    for r in dev["results"]:
        if ".cuda" in r["name"] or ".cublas" in r["name"]:
            print("  ", r["name"], r["status"], r.get("value"), r.get("unit"), r.get("reason", ""))
    nv = sum(1 for r in dev["results"] if "nvml_before" in r.get("params", {}))
    print("  ", dev.get("device", {}).get("CL_DEVICE_NAME"), "rows with NVML readings:", nv, "of", len(dev["results"]))
PY
    done
}

closer2() {
    case $1 in
    closer2-gemm)
        export XDG_CACHE_HOME=$out/closer2/cache
        CLBENCH_DUMP_DIR=$out/dump CLBENCH_TUNE_FAMILY=3 to closer2/gemm-search.txt 200 "$clb" run -d "$gpu" --retune \
            compute.fp32.fma memory.copy app.sgemm.tuned app.sgemm.cublas --json "$out/closer2/gemm-search.json"
        row_pairs closer2/sgemm-pairs "${PAIRS:-6}" 60 app.sgemm.tuned app.sgemm.cublas --reps 5
        unset XDG_CACHE_HOME ;;
    closer2-bruss)
        CLBENCH_DUMP_DIR=$out/dump bruss_at local:0:0 closer2/bruss-local:0:0 60 memory.copy \
            app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d
        for v in ${BRUSS_SWEEP:-local_all:0:0 local_all:0:5 local_all:0:7 local_all:20:0}; do
            # one program per kernel name is dumped: the form's own setting (points and steps: the rule's)
            CLBENCH_DUMP_DIR=$([ "${v#*:}" = 0:0 ] && echo "$out/dump") bruss_at "$v" "closer2/bruss-$v" 40 \
                app.euler.bruss2d.f32.tiled_2d
        done
        # the fastest setting (ns per component-step, lower is better) for the pairs
        local best; best=$(python3 -c 'import glob, json, os, sys
v = {}
for f in glob.glob(sys.argv[1] + "/bruss-*:*:*.json"):
    for r in json.load(open(f))["devices"][0]["results"]:
        if r["name"].endswith("tiled_2d") and r["status"] == "ok":
            v[os.path.basename(f)[6:-5]] = r["value"]
print(min(v, key=v.get) if v else "local:0:0")' "$out/closer2")
        echo "fastest setting (form:points:steps, 0 = the rule's): $best" >"$out/closer2/bruss-best.txt"
        ( export $(bruss_env "$best"); row_pairs closer2/bruss-pairs "${PAIRS:-6}" 40 app.euler.bruss2d.f32.tiled_2d \
            app.euler.bruss2d.f32.vectorized --reps 5 ) ;;
    closer2-twins)
        to closer2/twins.txt 60 "$clb" run -d "$gpu" --reps 5 app.mcpi.cuda app.strmatch.cuda app.dgemm.cublas \
            app.euler.cuda --json "$out/closer2/twins.json"
        # (set -f: no globbing here)
        python3 peers/twin_total_check.py "$out/closer2/twins.json" "$out/closer2/gemm-search.json" \
            $(find "$out/closer2/sgemm-pairs" -name 'round-*-cublas.json' | sort) >"$out/closer2/twins-total.txt" 2>&1
        echo "exit $?" >>"$out/closer2/twins-total.txt" ;;
    esac
}

full_pair() {
    local iso=${FULL_ISOLATION:-on}
    mkdir -p "$out/full"
    export CUDA_CACHE_PATH; CUDA_CACHE_PATH=$(mktemp -d)
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv >"$out/full/env-$iso.txt" 2>&1
    [ "${WARM:-0}" = 1 ] && to "full/warm-$iso.txt" 300 "$clb" run --quick --json "$out/full/warm-$iso.json"
    CUDA_CACHE_PATH=$(mktemp -d) # the timed run compiles every kernel, as in the other form
    local t0; t0=$(date +%s.%N)
    to "full/full-$iso.txt" 560 env CLBENCH_ISOLATION="$iso" "$clb" run --json "$out/full/full-$iso.json"
    echo "isolation=$iso wall_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" | tee "$out/full/wall-$iso.txt"
}

twins() {
    export XDG_CACHE_HOME=$out/cache # the tuned rung's winner is part of the record
    to twins/selftest.txt 30 "$bd/cuda_selftest"
    to twins/torment.txt 90 "$clb" run -d "$gpu" --reps 10 'app.mcpi.*' 'app.strmatch.*' --json "$out/twins/torment.json"
    to twins/sgemm.txt 150 "$clb" run -d "$gpu" compute.fp32.fma app.sgemm.double_buffered app.sgemm.tuned \
        app.sgemm.clblast app.sgemm.cuda app.sgemm.cublas --json "$out/twins/sgemm.json"
    to twins/dgemm_saxpy.txt 120 "$clb" run -d "$gpu" compute.fp64.fma memory.triad app.dgemm.tuned app.dgemm.clblast \
        app.dgemm.cuda app.dgemm.cublas app.saxpy.opencl app.saxpy.opencl_float4 app.saxpy.cuda \
        --json "$out/twins/dgemm_saxpy.json"
    cp -r "$out/cache" "$out/tune-cache" 2>/dev/null
    unset XDG_CACHE_HOME
}

recommend() {
    local n=${CLBENCH_GEMM_N:-4096}
    mkdir -p "$out/rec"
    CLBENCH=$clb CLBENCH_GEMM_N=$n to rec/measure.txt 270 bash peers/recommend_check.sh measure "$out/rec/all.json" --all-devices
    CLBENCH=$clb CLBENCH_GEMM_N=$n to rec/check.txt 60 bash peers/recommend_check.sh check "$out/rec/check" "$out/rec/all.json"
    for s in 2048 8192; do
        to "rec/gemm-$s.txt" 30 "$clb" recommend --workload gemm --size $s --from "$out/rec/all.json"
    done
}

section() {
    case $1 in
    full)      to full.txt "${FULL_TIMEOUT:-380}" "$clb" run --json "$out/full.json" --html "$out/full.html" ;;
    fullpair)  full_pair ;;
    iso)       to iso/log.txt 300 sh peers/isolation_overhead.sh "$out/iso" "$bd" "${ISO_PAIRS:-3}" "${ISO_SUBSET_PAIRS:-2}" ;;
    latency)   for d in "$gpu" "$cpu"; do
                   to "latency-${d/:/_}.txt" 90 "$clb" run 'latency.*' -d "$d" --json "$out/latency-${d/:/_}.json"
               done ;;
    clpeaklat) to clpeak-latency.txt 60 clpeak -p "${gpu%%:*}" -d "${gpu##*:}" --kernel-latency ;;
    nativelat) to native-latency.txt 30 "$bd/clb_native_latency" ;;
    launch)    LAUNCH_GAP_BIN=$bd/launch_gap LAUNCH_GAP_N=5000 to launch.log 100 bash peers/launch.sh "$out/launch" "$clb" ;;
    sustain)   CLBENCH_SUSTAINED_S=30 to sustained-gpu.txt 150 "$clb" run compute.fp32.fma sustained.fp32 -d "$gpu" \
                   --json "$out/sustained-gpu.json" ;;
    nvml)      to nvml/log.txt 60 bash peers/nvml_throttle_check.sh "$out/nvml" "$clb" ;;
    pairs)     to pairs-gpu.log 260 bash peers/memory_pairs.sh "$out/pairs-gpu" "${PAIRS_ROUNDS:-2}" "$gpu" "$clb" ;;
    cpupairs)  to pairs-cpu.log 300 bash peers/memory_pairs.sh "$out/pairs-cpu" 1 "$cpu" "$clb" ;;
    read)      DEADLINE_S=110 to read/log.txt 130 bash peers/read_linear_gpu.sh "$out/read" "$bd" "${READ_ROUNDS:-3}" ;;
    readpeer)  to readpeer/read.txt 40 "$clb" run -d "$gpu" memory.read_linear --json "$out/readpeer/read.json"
               to readpeer/clpeak.txt 40 clpeak -p "${gpu%%:*}" -d "${gpu##*:}" --global-bandwidth ;;
    cpuab)     MAX_S=${MAX_S:-150} to ab/log-run.txt 360 bash peers/memory_ab.sh "$out/ab" "${AB_PAIRS:-6}" "$cpu" "$clb" \
                   "${AB_OPS:-write scale add}" ;;
    forms)     # stream_forms takes the loader's platform index: PoCL's in clinfo -l
               local pocl
               pocl=$(clinfo -l 2>/dev/null | awk '/^Platform #/{n=$2; sub("#","",n); sub(":","",n)} /Portable Computing Language/{print n; exit}')
               STREAM_FORMS_MIB=1024 to cpu/forms.txt 80 "$bd/stream_forms" "${FORMS_KERNELS:-lib/bench/memory/memory.cl}" \
                   20 "${pocl:-1}" wcsat ;;
    gemm)      GEMM_ROWS='app.sgemm.*' to sgemm.log 330 bash peers/gemm.sh "$out/sgemm" "$gpu" "$clb"
               GEMM_ROWS='app.dgemm.* app.saxpy.*' to dgemm.log 240 bash peers/gemm.sh "$out/dgemm_saxpy" "$gpu" "$clb" ;;
    sgemm)     GEMM_ROWS="${SGEMM_ROWS:-app.sgemm.*}" to sgemm.log 180 bash peers/gemm.sh "$out/sgemm" "$gpu" "$clb" ;;
    warp)      to warp/log.txt 170 bash peers/gemm_warp_gpu.sh "$out/warp" "$bd" ;;
    cpusgemm)  XDG_CACHE_HOME=$out/cpu/cache CLBENCH_GEMM_N=2000 to cpu/sgemm.txt 130 "$clb" run -d "$cpu" --retune \
                   compute.fp32.fma app.sgemm.tuned app.sgemm.clblast --json "$out/cpu/sgemm.json" ;;
    twins)     twins ;;
    seeds)     export XDG_CACHE_HOME=$out/cache
               to seeds/micro.txt 120 "$clb" run -d "$gpu" branch.seed branch.running_sum memory.caches \
                   compile.binary_cold compile.binary_cached --json "$out/seeds/micro.json"
               to seeds/gemm.txt 150 "$clb" run -d "$gpu" 'app.sgemm.seq_*' app.sgemm.naive app.sgemm.coalesced \
                   app.sgemm.private_acc app.sgemm.row app.sgemm.row_private_a app.sgemm.row_local_b \
                   app.sgemm.row_float4 app.sgemm.row_float4_noconv app.sgemm.row_float8 app.sgemm.coalesced_map \
                   app.sgemm.private_acc_map app.saxpy.seed app.saxpy.opencl --json "$out/seeds/gemm.json"
               to seeds/euler.txt 150 "$clb" run -d "$gpu" --reps 5 app.euler.string.f32.coalesced \
                   app.euler.string.f32.vectorized app.euler.string.f32.diamond_row_korr app.euler.string.f32.honeycomb \
                   app.euler.string.f32.diamond_global app.euler.string.f32.diamond_row_vectorized \
                   'app.euler.string.f32.*_volatile' --json "$out/seeds/euler.json"
               unset XDG_CACHE_HOME ;;
    ecuda)     to ecuda/selftest.txt 60 "$bd/cuda_selftest"
               CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=64 to ecuda/euler_cuda.txt 100 "$clb" run -d "$gpu" --reps 5 \
                   memory.copy app.euler.string.f32.coalesced app.euler.string.f32.vectorized app.euler.cuda \
                   --json "$out/ecuda/euler_cuda.json" ;;
    euler)     for p in ${EULER_PROBLEMS:-string-f32 bruss2d-f32}; do
                   EULER_STEPS=${EULER_STEPS:-256} timeout 280 bash peers/euler_gpu.sh "$out/euler" "$p" "$clb" >>"$out/euler.log" 2>&1
               done
               bash peers/euler_gpu.sh "$out/euler" summary >>"$out/euler.log" 2>&1 ;;
    bruss2d)   CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=${EULER_STEPS:-64} to bruss2d/bruss2d.txt 150 "$clb" run -d "$gpu" \
                   --reps 5 memory.copy app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.coalesced \
                   app.euler.bruss2d.f32.tiled_2d app.euler.bruss2d.f64.vectorized app.euler.bruss2d.f64.tiled_2d \
                   --json "$out/bruss2d/bruss2d.json" ;;
    closer-string)
               CLBENCH_DUMP_DIR=$out/dump CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=96 to closer/string.txt 120 \
                   "$clb" run -d "$gpu" --reps 5 memory.copy app.euler.string.f32.vectorized \
                   app.euler.string.f32.honeycomb app.euler.string.f32.tiled_1d --json "$out/closer/string.json" ;;
    closer-bruss)
               for form in local registers; do
                   CLBENCH_DUMP_DIR=$out/dump CLBENCH_EULER_TILE2D_FORM=$form CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=64 \
                       to "closer/bruss2d-$form.txt" 80 "$clb" run -d "$gpu" --reps 5 memory.copy \
                       app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d --json "$out/closer/bruss2d-$form.json"
               done ;;
    closer-gemm)
               CLBENCH_DUMP_DIR=$out/dump XDG_CACHE_HOME=$out/closer/cache CLBENCH_TUNE_FAMILY=3 to closer/gemm.txt 240 \
                   "$clb" run -d "$gpu" --retune compute.fp32.fma compute.fp64.fma app.dgemm.tuned app.sgemm.tuned \
                   app.sgemm.cublas --json "$out/closer/gemm.json"
               # a row that failed after its search (a lost context) runs again from the cache the search wrote
               again=$(python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["devices"][0]["results"] if r["status"] != "ok"))' "$out/closer/gemm.json" 2>/dev/null)
               [ -z "$again" ] || XDG_CACHE_HOME=$out/closer/cache to closer/gemm-again.txt 90 "$clb" run -d "$gpu" compute.fp32.fma \
                   compute.fp64.fma $again --json "$out/closer/gemm-again.json" ;;
    closer2-*) closer2 "$1" ;;
    closer-sass)
               to closer/sass-log.txt 90 bash peers/sass_summary.sh "$out/dump" "$out/closer" ;;
    closer-extra)
               for v in "CLBENCH_EULER_TILE2D_POINTS=32" "CLBENCH_EULER_TILE2D_STEPS=32"; do
                   ( export "$v"; CLBENCH_EULER_N=100000000 CLBENCH_EULER_STEPS=96 to "closer/string-${v#CLBENCH_EULER_}.txt" 60 \
                       "$clb" run -d "$gpu" --reps 5 memory.copy app.euler.string.f32.tiled_1d \
                       --json "$out/closer/string-${v#CLBENCH_EULER_}.json" )
               done
               CLBENCH_EULER_TILE2D_FORM=registers CLBENCH_EULER_TILE2D_POINTS=24 CLBENCH_EULER_GRID=4096 CLBENCH_EULER_STEPS=64 \
                   to closer/bruss2d-registers-24.txt 60 "$clb" run -d "$gpu" --reps 5 memory.copy \
                   app.euler.bruss2d.f32.vectorized app.euler.bruss2d.f32.tiled_2d --json "$out/closer/bruss2d-registers-24.json" ;;
    suite)     for i in 1 2; do
                   to "suite-quick-$i.txt" 200 "$clb" suite --quick --platforms all --json "$out/suite-quick-$i.json" \
                       --html "$out/suite-quick-$i.html"
               done
               to compare.txt 30 "$clb" compare "$out/suite-quick-1.json" "$out/suite-quick-2.json" --threshold 3% ;;
    suitefull) to suite/full.txt 300 "$clb" suite --full --json "$out/suite/full.json" --html "$out/suite/full.html" ;;
    package)   package ;;
    recommend) recommend ;;
    recstream) to rec/stream.txt 100 "$clb" run memory.triad launch.queued_end app.saxpy.opencl app.saxpy.opencl_float4 \
                   --all-devices --json "$out/rec/stream.json"
               to rec/recommend-stream.txt 30 "$clb" recommend --workload stream --size 33554432 --from "$out/rec/stream.json" ;;
    fleet)     to fleet/log.txt 420 bash peers/fleet_gpu.sh "$out/fleet" "$bd" "$gpu" "$cpu" ;;
    *)         echo "unknown section $1" | tee -a "$out/timing.txt"; return 2 ;;
    esac
}

for s in "$@"; do
    t0=$(date +%s)
    case $s in closer-* | closer2-*) mkdir -p "$out/dump" "$out/closer" "$out/closer2" ;; esac
    section "$s"
    echo "section $s: exit $?, $(( $(date +%s) - t0 )) s" | tee -a "$out/timing.txt"
    pack
done
