#!/usr/bin/env bash
# Session 6: the README main command's characterization on the H100, once per call, isolated
# (workers, the default) or in one process (CLBENCH_ISOLATION=off), each with a fresh NVIDIA
# compute cache so that both calls compile every kernel alike (issue 19's overhead target).
# WARM=1 first runs one discarded `clbench run --quick`, so that a freshly started machine's
# first-run costs (libraries read from disk, driver set-up) do not land on the timed run.
#   usage: [WARM=1] bash peers/s6_full_pair.sh OUT BUILD on|off
set -u
out=$1 bd=$2 iso=$3
mkdir -p "$out/full"
export CUDA_CACHE_PATH; CUDA_CACHE_PATH=$(mktemp -d)
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv; } >"$out/full/env-$iso.txt" 2>&1
[ "${WARM:-0}" = 1 ] && "$bd/clbench" run --quick --json "$out/full/warm-$iso.json" >"$out/full/warm-$iso.txt" 2>&1
CUDA_CACHE_PATH=$(mktemp -d) # the timed run compiles every kernel, as in the other call
t0=$(date +%s.%N)
CLBENCH_ISOLATION=$iso "$bd/clbench" run --json "$out/full/full-$iso.json" >"$out/full/full-$iso.txt" 2>&1
rc=$?
echo "isolation=$iso rc=$rc wall_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" | tee "$out/full/wall-$iso.txt"
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv >>"$out/full/env-$iso.txt" 2>&1
