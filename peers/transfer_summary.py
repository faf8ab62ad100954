#!/usr/bin/env python3
"""Summary of peers/transfer.sh: clbench transfer.* beside clpeak --transfer-bandwidth.

usage: transfer_summary.py OUTDIR TAG...   (reads OUTDIR/clbench-TAG.json, OUTDIR/clpeak-TAG.txt)

clpeak's "best transfer figure" is the best of its four enqueueWriteBuffer/enqueueReadBuffer
lines (blocking and non-blocking): those cross the link. Its map/unmap lines time a zero-copy
map (thousands of GB/s) and its memcpy lines a host memcpy into mapped memory, so they are
listed but not used as the peer figure."""
import json
import re
import sys

ROWS = ["h2d_pinned", "d2h_pinned", "h2d_pinned_nb", "d2h_pinned_nb", "h2d_pageable",
        "d2h_pageable", "h2d_pageable_nb", "d2h_pageable_nb", "h2d_unaligned", "d2h_unaligned",
        "h2d_use_host_ptr", "d2h_use_host_ptr", "map_write", "map_read", "d2d", "bidirectional"]
LINK_LINES = ["enqueueWriteBuffer", "enqueueReadBuffer", "enqueueWriteBuffer non-blocking",
              "enqueueReadBuffer non-blocking"]


def clpeak_figures(path):
    figs = {}
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return figs
    for m in re.finditer(r"^\s*(\S[^:\n]*?)\s*:\s*([0-9.]+)\s*$", text, re.M):
        figs[m.group(1)] = float(m.group(2))
    return figs


def fmt(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def device_summary(outdir, tag):
    lines = []
    try:
        doc = json.load(open(f"{outdir}/clbench-{tag}.json"))
    except (OSError, ValueError) as e:
        return [f"== {tag}: no clbench results ({e})"]
    dev = doc["devices"][0]
    results = {r["name"].split(".", 1)[1]: r for r in dev["results"]}
    lines.append(f"== {tag}: {dev['device'].get('CL_DEVICE_NAME')} "
                 f"[{dev['platform'].get('CL_PLATFORM_NAME')}]")
    link = next((r["params"]["link"] for r in results.values() if r["params"].get("link")), None)
    if link:
        lines.append(f"link {link['pci_address']} ({link['source']}): current "
                     f"{link['current_link_speed']} x{link['current_link_width']}, max "
                     f"{link['max_link_speed']} x{link['max_link_width']}; theoretical "
                     f"{fmt(link['theoretical_gbps'])} GB/s per direction "
                     f"(basis {link['theoretical_basis']})")
    else:
        reason = next((r["params"].get("link_reason") for r in results.values()
                       if r["params"].get("link_reason")), "unknown")
        lines.append(f"link: none ({reason})")
    lines.append(f"{'benchmark':<18} {'status':<14} {'value':>10} {'unit':<5} {'wall GB/s':>9} "
                 f"{'fit GB/s':>9} {'fit lat us':>10} {'4B-ref GB/s':>11} {'link %':>7}")
    for name in ROWS:
        r = results.get(name)
        if r is None:
            continue
        p = r["params"]
        fit = p.get("fit") or {}
        ref = p.get("reference_4b") or {}
        if r["status"] != "ok":
            lines.append(f"{name:<18} {r['status']:<14} {r.get('reason', '')[:90]}")
            continue
        lines.append(f"{name:<18} {'ok':<14} {r['value']:>10.3f} {r['unit']:<5} "
                     f"{fmt(p.get('wall_bandwidth_gbps')):>9} {fmt(fit.get('bandwidth_gbps')):>9} "
                     f"{fmt(fit.get('latency_us')):>10} {fmt(ref.get('bandwidth_gbps')):>11} "
                     f"{fmt(p.get('link_efficiency_pct'), '.1f'):>7}"
                     + ("  zero-copy" if p.get("zero_copy") else ""))
    figs = clpeak_figures(f"{outdir}/clpeak-{tag}.txt")
    link_figs = {k: figs[k] for k in LINK_LINES if k in figs}
    if figs:
        lines.append("clpeak --transfer-bandwidth (GBPS): " +
                     ", ".join(f"{k} {v:g}" for k, v in figs.items()
                               if k not in ("Clock frequency", "Compute units")))
    best = max(link_figs.values()) if link_figs else None
    if best is None:
        lines.append("clpeak: no transfer figures (see clpeak-%s.txt)" % tag)
    # The targets are for the NVIDIA GPU; other devices get the same ratios unjudged.
    label = "target" if tag == "nvidia" else "ratio (no target for this device)"
    for name in ["h2d_pinned", "d2h_pinned"]:
        r = results.get(name)
        if not r or r["status"] != "ok":
            lines.append(f"{label} {name}: not measured")
            continue
        eff = r["params"].get("link_efficiency_pct")
        ratio = r["value"] / best if best else None
        verdict = []
        judge = tag == "nvidia"
        if eff is not None:
            verdict.append(f"{eff:.1f}% of the link" +
                           (f" ({'meets' if eff >= 80 else 'misses'} >= 80%)" if judge else ""))
        if ratio is not None:
            verdict.append(f"{ratio:.2f}x clpeak's best {best:g} GB/s" +
                           (f" ({'meets' if ratio >= 1.5 else 'misses'} >= 1.5x)" if judge else ""))
        lines.append(f"{label} {name}: {r['value']:.2f} GB/s; " + ("; ".join(verdict) or
                     "no link, no peer figure"))
    return lines


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    outdir, tags = sys.argv[1], sys.argv[2:]
    for tag in tags:
        print("\n".join(device_summary(outdir, tag)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
