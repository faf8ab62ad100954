#!/usr/bin/env bash
# Host-device transfer measurements with the peer in the same run.
#
# usage: bash peers/transfer.sh OUTDIR [clbench-binary]      (from the repository root)
#
# For the NVIDIA GPU (when an NVIDIA platform exists) and for PoCL's CPU device:
#   clbench run 'transfer.*'            -> OUTDIR/clbench-TAG.json, OUTDIR/clbench-TAG.txt
#   clpeak --transfer-bandwidth -p P -d 0 -> OUTDIR/clpeak-TAG.txt
#   the PCIe link from sysfs            -> OUTDIR/link-TAG.txt
# plus nvidia-smi clocks and link state before and after (OUTDIR/nvidia-smi.csv), and a summary
# (OUTDIR/summary.txt, also printed): clbench's pinned and pageable figures, the fit, the
# link's theoretical bandwidth and efficiency, clpeak's figures and the ratios the issue's
# targets name (pinned >= 80% of the link, >= 1.5x clpeak's best transfer figure).
#
# The CPU device's sweep is bounded at 256 MiB (CLBENCH_TRANSFER_MAX_BYTES) to keep the whole
# script under ~4 minutes; the GPU sweeps the full 4 B .. 1 GiB.
set -u
out=${1:?usage: bash peers/transfer.sh OUTDIR [clbench-binary]}
bin=${2:-build/clbench}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
[ -x "$bin" ] || { echo "transfer.sh: no clbench binary at $bin (build first)" >&2; exit 2; }
command -v clinfo >/dev/null || { echo "transfer.sh: clinfo not on PATH" >&2; exit 2; }

# Platform index (clinfo -l numbering) whose name contains $1; empty when none.
platform_index() {
    clinfo -l 2>/dev/null | sed -n "s/^Platform #\([0-9]*\): .*$1.*/\1/p" | head -n 1
}

smi() {
    command -v nvidia-smi >/dev/null || return 0
    echo "# $1" >>"$out/nvidia-smi.csv"
    nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max \
        --format=csv >>"$out/nvidia-smi.csv" 2>&1
}

# sysfs link attributes of the PCI address clbench found (params.link.pci_address).
dump_link() {
    local tag=$1 addr
    addr=$(python3 -c '
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    for r in d["results"]:
        l = r["params"].get("link")
        if l: print(l["pci_address"]); sys.exit(0)' "$out/clbench-$tag.json" 2>/dev/null)
    {
        echo "pci_address: ${addr:-none (no PCI address: no host link)}"
        if [ -n "$addr" ]; then
            for f in current_link_speed current_link_width max_link_speed max_link_width; do
                echo "$f: $(cat "/sys/bus/pci/devices/$addr/$f" 2>/dev/null || echo missing)"
            done
        fi
    } >"$out/link-$tag.txt"
}

# One device: clbench's sweep, then clpeak on the same device.
measure() {
    local tag=$1 p=$2 limit=$3 max=$4
    echo "== $tag: platform $p device 0"
    CLBENCH_TRANSFER_MAX_BYTES=$max timeout "$limit" "$bin" run 'transfer.*' -d "$p:0" \
        --json "$out/clbench-$tag.json" >"$out/clbench-$tag.txt" 2>&1
    echo "clbench exit $?" >>"$out/clbench-$tag.txt"
    dump_link "$tag"
    if command -v clpeak >/dev/null; then
        timeout 90 clpeak --transfer-bandwidth -p "$p" -d 0 >"$out/clpeak-$tag.txt" 2>&1
        echo "clpeak exit $?" >>"$out/clpeak-$tag.txt"
    else
        echo "clpeak not on PATH" >"$out/clpeak-$tag.txt"
    fi
}

date -u +"start %Y-%m-%dT%H:%M:%SZ" >"$out/times.txt"
clinfo -l >"$out/clinfo-l.txt" 2>&1
tags=""
nv=$(platform_index NVIDIA)
if [ -n "$nv" ]; then
    smi "before"
    measure nvidia "$nv" 170 1073741824
    smi "after"
    tags="$tags nvidia"
else
    echo "no NVIDIA platform: GPU part skipped" | tee "$out/nvidia-skipped.txt"
fi
cpu=$(platform_index "Portable Computing Language")
if [ -n "$cpu" ]; then
    measure pocl "$cpu" 90 268435456
    tags="$tags pocl"
fi
date -u +"end %Y-%m-%dT%H:%M:%SZ" >>"$out/times.txt"
python3 "$here/transfer_summary.py" "$out" $tags | tee "$out/summary.txt"
