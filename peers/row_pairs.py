#!/usr/bin/env python3
"""Two rows measured in rounds, each row in its own clbench run, the rounds run with the two
runs' order alternating (A B, then B A: a drift of the machine hits both alike; one run would
take its rows in the registry's order): the files DIR/round-N-*.json are round N's, their rows
pooled. Per round the ratio of the
rows' medians (A's speed over B's: value_A / value_B when higher is better, value_B / value_A
when lower is), then the median ratio and the distribution-free interval of the median (order
statistics; its coverage printed: below 6 rounds the widest, 1 - 2^(1 - n)). A round where
either row is not ok is left out and counted.
usage: row_pairs.py ROW_A ROW_B DIR"""
import glob, json, math, os, re, statistics, sys


def median_ci(xs):
    xs = sorted(xs)
    n = len(xs)
    best = (0, n - 1)
    for j in range(n // 2 + 1):
        k = n - 1 - j
        if sum(math.comb(n, i) for i in range(j + 1, k + 1)) / 2 ** n >= 0.95:
            best = (j, k)
    j, k = best
    return xs[j], xs[k], sum(math.comb(n, i) for i in range(j + 1, k + 1)) / 2 ** n


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    a, b, d = sys.argv[1:4]
    rounds = {}
    for f in glob.glob(os.path.join(d, "round-*-*.json")):
        rounds.setdefault(int(re.match(r"round-(\d+)-", os.path.basename(f)).group(1)), []).append(f)
    ratios, va, vb, left = [], [], [], 0
    for n in sorted(rounds):
        f, rows = f"round {n}", {}
        try:
            for x in rounds[n]:
                rows.update({r["name"]: r for r in json.load(open(x))["devices"][0]["results"]})
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"{f}: unreadable ({e})")
            left += 1
            continue
        ra, rb = rows.get(a), rows.get(b)
        if not ra or not rb or ra["status"] != "ok" or rb["status"] != "ok":
            print(f"{f}: {a} {ra and ra['status']}, {b} {rb and rb['status']}: left out")
            left += 1
            continue
        x, y = ra["value"], rb["value"]
        r = x / y if ra.get("better", "higher") == "higher" else y / x
        print(f"{f}: {a} {x:.6g} {b} {y:.6g} ratio {r:.4f}")
        ratios.append(r), va.append(x), vb.append(y)
    if not ratios:
        sys.exit(f"no complete round ({left} left out)")
    lo, hi, cover = median_ci(ratios)
    print(f"{a} / {b}: median ratio {statistics.median(ratios):.4f}, interval [{lo:.4f}, {hi:.4f}] "
          f"(coverage {cover:.3f}), {len(ratios)} rounds, {left} left out; medians {statistics.median(va):.6g} "
          f"/ {statistics.median(vb):.6g}")


main()
