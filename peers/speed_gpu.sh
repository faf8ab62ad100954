#!/usr/bin/env bash
# STREAM and MonteCarloPi against their references on the GPU machine (docs/results/
# stream-2026-11-25-h200.md, docs/apps/mcpi.md), in sections, each under a time limit so that one
# call of the device tool brings its files back. Run from a folder holding clbench, stream_simple,
# mcpi_forms, this script, pair_summary.py and mcpi/ (mcpi.cl, mcpi_rng.h), after `source .gpu/activate.sh`.
#   usage: bash speed_gpu.sh OUT BIN_DIR SECTION...
# Sections:
#   stream   stream_simple's sweep at its default size and at 1 GiB per array
#   rows     clbench's memory.write/copy/scale/add/triad/read_linear, then app.mcpi.cl_items and
#            compute.int32.mad (--json)
#   mcpi     the cl_items forms (mcpi/*.cl): PTX from the driver, SASS from ptxas + cuobjdump,
#            the opcode histogram, and each form's speed at 2^30 and 2^32 samples
#   pairs    interleaved pairs (as peers/ab_pairs.sh): clbench's STREAM rows and read_linear (one
#            process each) against stream_simple's sweep, PAIRS pairs (default 6); the summary
#            (peers/pair_summary.py) gives each row's median ratio and its 95 % interval
set -u
out=$1 bd=$2; shift 2
mkdir -p "$out"
clb=$bd/clbench
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv >"$out/device.txt" 2>&1
clinfo -l >>"$out/device.txt" 2>&1
rows="memory.write memory.copy memory.scale memory.add memory.triad memory.read_linear"
for s in "$@"; do
    t0=$(date +%s)
    case $s in
    stream)
        timeout 60 "$bd/stream_simple" >"$out/stream_default.txt" 2>&1
        for b in 268435456 2147483648 4294967296; do
            timeout 60 "$bd/stream_simple" -b $b -o write >"$out/stream_write_$b.txt" 2>&1
            timeout 60 "$bd/stream_simple" -b $b -o copy >"$out/stream_copy_$b.txt" 2>&1
        done ;;
    rows)
        timeout 300 "$clb" run $rows -d 0:0 --json "$out/rows.json" >"$out/rows.txt" 2>&1
        timeout 120 "$clb" run app.mcpi.cl_items compute.int32.mad -d 0:0 --json "$out/mcpi.json" \
            >"$out/mcpi.txt" 2>&1 ;;
    mcpi)
        mkdir -p "$out/forms"
        timeout 60 "$clb" run app.mcpi.cl_items -d 0:0 --json "$out/mcpi_row.json" >"$out/mcpi_row.txt" 2>&1
        for f in mcpi/*.cl; do
            b=$(basename "$f" .cl)
            timeout 60 "$bd/mcpi_forms" "$f" mcpi -x "$out/forms/$b.ptx" -n 1073741824 -r 10 \
                >"$out/forms/$b.txt" 2>&1
            for g in ${MCPI_GROUPS:-8 16}; do
                timeout 60 "$bd/mcpi_forms" "$f" mcpi -n 4294967296 -r 5 -g $g >>"$out/forms/$b.txt" 2>&1
            done
            tr -d '\000' <"$out/forms/$b.ptx" >"/tmp/$b.ptx"
            ptxas -v -arch=sm_90 -O3 "/tmp/$b.ptx" -o "/tmp/$b.cubin" >>"$out/forms/$b.txt" 2>&1 &&
                cuobjdump -sass "/tmp/$b.cubin" >"$out/forms/$b.sass" 2>&1
        done ;;
    pairs) # one pair = clbench's row (its own process) and stream_simple -o OP, the order
        # alternating; each pair's ratio = the row's median / stream_simple's best (PAIR_S: no
        # new pair after that many seconds per operation)
        for op in ${PAIR_OPS:-write copy scale add triad read_linear}; do
            t1=$(date +%s)
            for ((i = 0; i < ${PAIRS:-6}; i++)); do
                [ $(( $(date +%s) - t1 )) -ge "${PAIR_S:-60}" ] && break
                for who in $( ((i % 2)) && echo "ss clb" || echo "clb ss"); do
                    if [ "$who" = clb ]; then
                        timeout 120 "$clb" run "memory.$op" -d 0:0 --json "$out/p_${op}_$i.json" \
                            >"$out/p_${op}_$i.txt" 2>&1
                    else
                        timeout 60 "$bd/stream_simple" -o "${op%_linear}" >"$out/p_${op}_$i.ss" 2>&1
                    fi
                done
            done
        done
        python3 pair_summary.py "$out" | tee "$out/pairs_summary.txt" ;;
    esac
    echo "$s: $(( $(date +%s) - t0 )) s" | tee -a "$out/sections.txt"
done
