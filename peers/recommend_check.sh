#!/bin/sh
# Checks `clbench recommend` against reality (docs/decide.md, docs/results/decide.md).
#   recommend_check.sh measure OUT.json [SELECTION...]   the rows the models need and the suite's
#        own app rows for the same workloads, on the selected devices (default --all-devices)
#   recommend_check.sh check OUTDIR FILE...               recommend for the five workload classes
#        on the files; OUTDIR/recommend-W.txt each, OUTDIR/summary.txt one line per workload
# Sizes: gemm at the n the tuned rung ran (CLBENCH_GEMM_N, default 2048 here), stream at 2^25
# elements (within app.saxpy's curve), transfer 64 MiB, stencil 2^19 components, latency 1024 loads (memory.chase_roundtrip measures that workload).
# Environment: CLBENCH (default build/clbench), CLBENCH_GEMM_N.
bin=${CLBENCH:-build/clbench}
n=${CLBENCH_GEMM_N:-2048}
rows="memory.triad memory.copy memory.latency launch.queued_end launch.roundtrip transfer.h2d_pageable
transfer.d2h_pageable compute.fp32.fma app.saxpy.opencl app.saxpy.opencl_float4 app.sgemm.tuned
app.euler.string.f32.linear app.euler.string.f32.coalesced app.euler.string.f32.vectorized
memory.read_linear memory.chase_roundtrip"
case $1 in
measure)
    out=$2; shift 2
    [ $# -gt 0 ] || set -- --all-devices
    # shellcheck disable=SC2086
    CLBENCH_GEMM_N=$n "$bin" run $rows "$@" --json "$out" ;;
check)
    dir=$1; dir=$2; shift 2
    mkdir -p "$dir"
    : >"$dir/summary.txt"
    for w in stream:33554432 gemm:$n stencil:524288 transfer:67108864 latency:1024; do
        name=${w%%:*}; size=${w#*:}
        args=; for f in "$@"; do args="$args --from $f"; done
        # shellcheck disable=SC2086
        sel=$("$bin" recommend --workload "$name" --size "$size" $args 2>"$dir/recommend-$name.txt")
        rc=$?
        verdict=$(grep '^check:' "$dir/recommend-$name.txt")
        ratios=$(grep -o 'predicted/measured [0-9.]*' "$dir/recommend-$name.txt" | awk '{printf "%s ", $2}')
        echo "$name size=$size chosen=$sel exit=$rc predicted/measured: ${ratios:-none}; $verdict" | tee -a "$dir/summary.txt"
    done ;;
*)
    sed -n '2,9p' "$0"; exit 2 ;;
esac
