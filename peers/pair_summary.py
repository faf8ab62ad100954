#!/usr/bin/env python3
"""Summary of peers/speed_gpu.sh's pairs: for each row, the per-pair ratio clbench median /
stream_simple best (the issue's reference: best of 10 after 2 warm-ups over the work-group
sweep), their median and an interval of the median (distribution-free: order statistics of
the binomial(n, 1/2), >= 95 % from 6 pairs on; its coverage is printed), and the medians of
both sides.  usage: pair_summary.py OUT"""
import glob, json, math, os, re, statistics, sys

out = sys.argv[1]


def median_ci(xs):
    """The narrowest order-statistic interval of the median covering >= 95 %, and its coverage;
    below 6 pairs none does, and the widest one (min..max, coverage 1 - 2^(1-n)) is given."""
    xs = sorted(xs)
    n = len(xs)
    best = (0, n - 1)
    for j in range(n // 2 + 1):
        k = n - 1 - j
        cover = sum(math.comb(n, i) for i in range(j + 1, k + 1)) / 2 ** n
        if cover >= 0.95:
            best = (j, k)
    j, k = best
    return xs[j], xs[k], sum(math.comb(n, i) for i in range(j + 1, k + 1)) / 2 ** n


pairs = {}
sizes = {}
for f in sorted(glob.glob(os.path.join(out, "p_*.json"))):
    m = re.match(r"p_(\w+?)_(\d+)\.json$", os.path.basename(f))
    op, i = m.group(1), int(m.group(2))
    try:
        res = [r for r in json.load(open(f))["devices"][0]["results"]
               if r["name"] == "memory." + op and r["status"] == "ok"]
    except (OSError, ValueError, KeyError, IndexError):
        res = []
    ss = open(f[:-5] + ".ss").read() if os.path.exists(f[:-5] + ".ss") else ""
    sm = re.search(r"^%s_gbs ([0-9.]+)" % re.escape(op.replace("_linear", "")), ss, re.M)
    ok = "validation ok" in ss
    if res and sm and ok:
        pairs.setdefault(op, []).append((res[0]["value"], float(sm.group(1)), i))
        sizes.setdefault(op, set()).add((res[0]["params"].get("array_bytes"),
                                         re.search(r"^array_bytes (\d+)", ss, re.M).group(1)))
for op, ps in pairs.items():
    r = [a / b for a, b, _ in ps]
    lo, hi, cover = median_ci(r)
    for a, b, i in sorted(ps, key=lambda p: p[2]):
        print(f"  {op} pair {i}: clbench {a:.1f} GB/s, stream_simple {b:.1f} GB/s, ratio {a / b:.4f}")
    print(f"{op}: {len(ps)} pairs, clbench median {statistics.median(a for a, _, _ in ps):.1f} GB/s, "
          f"stream_simple best {statistics.median(b for _, b, _ in ps):.1f} GB/s, ratio median "
          f"{statistics.median(r):.4f} (interval {lo:.4f}-{hi:.4f} covering {100 * cover:.1f} %; "
          f"min {min(r):.4f} max {max(r):.4f}); array bytes clbench/stream_simple {sorted(sizes[op])}")
