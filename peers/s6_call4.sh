#!/usr/bin/env bash
# Session 6, GPU call 4 (H200 host): GEMM warp tiles on the H200 (issue 14); on the host's 16-core
# Xeon through PoCL: the write/STREAM kernels before and after the no-wrap change beside
# stream_simple's in one process (12), SGEMM against CLBlast and compute.fp32.fma (14), the
# write/scale/add rows in interleaved pairs (12); one round of the H200's memory pairs after the
# kernel change (12).  usage: bash peers/s6_call4.sh OUT BUILD
# The old kernel is not kept in the tree: first, here, `git show 642d275:lib/bench/memory/memory.cl >
# peers/experiments/memory_642d275.cl` (untracked, so it travels with the working tree).
set -u
out=$1 bd=$2
mkdir -p "$out/gemm" "$out/xeon" "$out/ab" "$out/pairs"
pack() { tar czf "$out/s6c4.tgz" -C "$out" --exclude=cache gemm xeon ab pairs 2>/dev/null; }
{ date -u; nvidia-smi -L; "$bd/clbench" list; } >"$out/xeon/devices.txt" 2>&1
step() { # name timeout command...
    local name=$1 lim=$2 t0; shift 2; t0=$(date +%s)
    timeout "$lim" "$@"
    echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$out/xeon/log.txt"
    pack
}
step gemm 140 bash peers/gemm_warp_gpu.sh "$out/gemm" "$bd" >"$out/gemm/log.txt" 2>&1
# stream_forms takes the loader's platform index: find PoCL's in clinfo -l
pocl=$(clinfo -l 2>/dev/null | awk '/^Platform #/{n=$2; sub("#","",n); sub(":","",n)} /Portable Computing Language/{print n; exit}')
STREAM_FORMS_MIB=1024 step forms 80 "$bd/stream_forms" peers/experiments/memory_642d275.cl,lib/bench/memory/memory.cl \
    20 "${pocl:-1}" wcsat >"$out/xeon/forms.txt" 2>&1
XDG_CACHE_HOME=$out/xeon/cache CLBENCH_GEMM_N=2000 step xeon-sgemm 130 "$bd/clbench" run -d 1:0 --retune \
    compute.fp32.fma app.sgemm.tuned app.sgemm.clblast --json "$out/xeon/sgemm.json" >"$out/xeon/sgemm.txt" 2>&1
HBM_GBS=4800 step h200-pairs 80 bash peers/memory_pairs.sh "$out/pairs" 1 0:0 "$bd/clbench" >"$out/pairs/log-run.txt" 2>&1
MAX_S=60 step xeon-ab 120 bash peers/memory_ab.sh "$out/ab" 6 1:0 "$bd/clbench" "write scale add" >"$out/ab/log-run.txt" 2>&1
