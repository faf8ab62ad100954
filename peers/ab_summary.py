#!/usr/bin/env python3
"""Summary of peers/ab_pairs.sh: per pair the wall-time ratio A/B (A, B: the names in the order
given, default the first two seen); the median ratio, a 95 % bootstrap interval of the median
(4000 resamples, fixed seed) and the distribution-free interval of the median from order
statistics (its confidence printed: with 5 pairs it is 1 - 2/2^5 = 93.8 %, the widest there is).
Pairs where either run failed (exit != 0) are left out and counted. B may name several runs of
the pair joined by ',' (e.g. gpu,cpu): the denominator is the longest of them.
usage: ab_summary.py TIMES.txt [A B]"""
import math, random, statistics, sys

rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
names = sys.argv[2:4] or list(dict.fromkeys(r[1] for r in rows))[:2]
pairs, failed = {}, 0
for i, name, t0, t1, rc in rows:
    pairs.setdefault(i, {})[name] = (float(t1) - float(t0), int(rc))
ratios, wa, wb = [], [], []
for i, p in sorted(pairs.items(), key=lambda kv: int(kv[0])):
    bs = names[1].split(",")
    if names[0] not in p or any(x not in p for x in bs) or any(rc for _, rc in p.values()):
        failed += 1
        continue
    a, b = p[names[0]][0], max(p[x][0] for x in bs)
    wa.append(a), wb.append(b), ratios.append(a / b)
n = len(ratios)
if n == 0:
    sys.exit(f"no complete pair ({failed} failed or incomplete)")
rnd = random.Random(1)
boot = sorted(statistics.median(rnd.choices(ratios, k=n)) for _ in range(4000))
lo, hi = boot[int(0.025 * 4000)], boot[int(0.975 * 4000) - 1]
s = sorted(ratios)
# order statistics: [s[k], s[n-1-k]] covers the median with prob 1 - 2 P(Bin(n, 1/2) <= k)
k, conf = 0, 1 - 2 * 0.5 ** n
for j in range(n // 2):
    c = 1 - 2 * sum(math.comb(n, t) for t in range(j + 1)) * 0.5 ** n
    if c >= 0.95:
        k, conf = j + 1, c
print(f"{names[0]} / {names[1]}: {n} pairs ({failed} left out)")
print(f"  wall {names[0]}: median {statistics.median(wa):.3f} s {[round(x, 3) for x in wa]}")
print(f"  wall {names[1]}: median {statistics.median(wb):.3f} s {[round(x, 3) for x in wb]}")
print(f"  ratio: median {statistics.median(ratios):.4f} {[round(x, 4) for x in ratios]}")
print(f"  95 % bootstrap interval of the median: [{lo:.4f}, {hi:.4f}]")
print(f"  order-statistics interval of the median: [{s[k]:.4f}, {s[n - 1 - k]:.4f}] ({100 * conf:.1f} %)")
