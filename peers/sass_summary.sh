#!/usr/bin/env bash
# The machine code behind the GPU figures: every program clbench dumped (CLBENCH_DUMP_DIR; on
# NVIDIA the binary is PTX) through ptxas -v (registers, spills, shared memory) and cuobjdump
# -sass (the PTX kept beside them), summarised per program: registers, spill bytes, instructions in all and by opcode
# (FFMA, DFMA, LDS, STS, LDG, STG, BAR, the LDGSTS of cp.async). Writes OUT/sass.txt, the main
# loop's instruction mix per kernel (peers/sass_loops.py) as OUT/sass-loops.txt and the
# listings as OUT/sass.tar.xz. On the GPU machine (ptxas and cuobjdump from CUDA 13).
#   usage: bash peers/sass_summary.sh DUMP_DIR OUT [ARCH (sm_90)]
set -u
dump=${1:?usage: sass_summary.sh DUMP_DIR OUT [ARCH]} out=${2:?usage: sass_summary.sh DUMP_DIR OUT [ARCH]}
arch=${3:-sm_90}
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$out" "$dump/sass"
command -v ptxas >/dev/null && command -v cuobjdump >/dev/null || { echo "no ptxas or cuobjdump on PATH"; exit 2; }
one() { # PTX file -> DUMP/sass/NAME.{ptx,ptxas,sass}
    local f=$1 n; n=$(basename "$f" .bin)
    # NVIDIA's program binary is the PTX text and the NUL that ends it, which ptxas refuses
    # ("Unexpected EOF" on the last line: every dumped program on 2026-11-25, and a PTX file
    # with one NUL appended here): the NUL is stripped
    tr -d '\000' <"$f" >"$3/$n.ptx"
    # a program built with a register cap (gemm's _mrN): the driver's ptxas had the same cap
    local cap=; [[ $n =~ _mr([0-9]+)$ ]] && cap="--maxrregcount ${BASH_REMATCH[1]}"
    ptxas -arch="$2" -v $cap "$3/$n.ptx" -o "$3/$n.cubin" 2>"$3/$n.ptxas" && cuobjdump -sass "$3/$n.cubin" >"$3/$n.sass"
    rm -f "$3/$n.cubin"
}
export -f one
ls "$dump"/*.bin 2>/dev/null | xargs -r -P "$(nproc)" -I{} bash -c 'one "$1" "$2" "$3"' _ {} "$arch" "$dump/sass"
{
    printf '%-72s %5s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s\n' program:kernel regs spill total FFMA DFMA LDS STS LDG STG BAR LDGSTS
    for s in "$dump"/sass/*.sass; do
        [ -e "$s" ] || continue
        n=$(basename "$s" .sass)
        # ptxas -v: "Compiling entry function 'K'" then "Used R registers" and "S bytes spill stores"
        awk -v n="$n" '
            FNR == NR { if (match($0, /entry function .[A-Za-z0-9_]+/)) { k = substr($0, RSTART + 16, RLENGTH - 16) }
                        if (k != "" && match($0, /Used [0-9]+ registers/)) { split(substr($0, RSTART, RLENGTH), w, " "); regs[k] = w[2] }
                        if (k != "" && match($0, /[0-9]+ bytes spill stores/)) { split(substr($0, RSTART, RLENGTH), w, " "); spill[k] = w[1] }
                        next }
            /Function : / { f = $3; fs[++nf] = f }
            /^ +\/\*[0-9a-f]+\*\/ / { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); split(op, p, ".");
                                    t[f]++; c[f, p[1]]++ }
            END { for (i = 1; i <= nf; i++) { f = fs[i]
                  printf "%-72s %5s %6s %6d %6d %6d %6d %6d %6d %6d %6d %6d\n", n ":" f, (f in regs) ? regs[f] : "-",
                         (f in spill) ? spill[f] : "-", t[f], c[f, "FFMA"], c[f, "DFMA"], c[f, "LDS"], c[f, "STS"],
                         c[f, "LDG"], c[f, "STG"], c[f, "BAR"], c[f, "LDGSTS"] } }' "$dump/sass/$n.ptxas" "$s"
    done
} >"$out/sass.txt"
# the main loop of each kernel (the largest backward branch): its instruction mix
python3 "$(dirname "$0")/sass_loops.py" "$dump"/sass/*.sass >"$out/sass-loops.txt" 2>&1
grep -l fatal "$dump"/sass/*.ptxas 2>/dev/null | sed 's/^/ptxas failed: /' >>"$out/sass.txt"
tar cf - -C "$dump" sass | xz -T0 -3 >"$out/sass.tar.xz"
cat "$out/sass.txt" "$out/sass-loops.txt"
