#!/usr/bin/env bash
# Two commands timed in interleaved pairs (A B, then B A, ...: a linear drift of the machine
# hits both alike), one line per run in OUT/times.txt (pair name start end exit); the verdict is
# the per-pair ratio A/B: peers/ab_summary.py OUT/times.txt gives its median and 95 % intervals.
#   usage: bash peers/ab_pairs.sh OUT PAIRS NAME_A 'CMD_A' NAME_B 'CMD_B'   (MAX_S=n: no new pair after n s)
set -u
out=$1 pairs=$2 na=$3 ca=$4 nb=$5 cb=$6
mkdir -p "$out"
now() { date +%s.%N; }
one() { # name command
    local t0 t1 rc=0
    t0=$(now); bash -c "$2" >>"$out/$1.log" 2>&1 || rc=$?; t1=$(now)
    echo "$i $1 $t0 $t1 $rc" >>"$out/times.txt"
}
start=$SECONDS
for ((i = 0; i < pairs; i++)); do
    [ -n "${MAX_S:-}" ] && [ $((SECONDS - start)) -ge "$MAX_S" ] && break
    if ((i % 2 == 0)); then one "$na" "$ca"; one "$nb" "$cb"; else one "$nb" "$cb"; one "$na" "$ca"; fi
done
echo "$na: $ca" >"$out/commands.txt"; echo "$nb: $cb" >>"$out/commands.txt"
