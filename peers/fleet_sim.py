#!/usr/bin/env python3
"""Synthetic fleets for clbench fleet-check: one real results file becomes N devices.

Each device is a copy of the file's first device with node name, rank and device index; every ok
result gets noise drawn from its measured spread (the standard error of a median of n samples,
1.2533 cv / sqrt(n)); F devices get a planted fault: one chosen result made 5-30 % worse (in its
bad direction). Samples are dropped to keep files small. The truth (which device, which result,
how much) goes to a second file.

usage: fleet_sim.py REAL.json N OUT.json TRUTH.json [--faults F] [--seed S] [--min-fault 0.05]
                    [--max-spread CV]   (plant faults only on results whose cv is below CV)
       fleet_sim.py --evaluate FLEETCHECK_OUTPUT TRUTH.json REAL.json
"""
import copy, json, math, random, re, sys


def median_se(r):
    st = r.get("stats") or {}
    cv, n = st.get("cv") or 0.0, max(st.get("n") or 1, 1)
    return 1.2533 * cv / math.sqrt(n)


def make(real, n, faults, seed, min_fault, max_spread, out_path):
    """Writes the fleet to out_path one device at a time (10,000 devices are ~2 GB); returns the truth."""
    rnd = random.Random(seed)
    doc = json.load(open(real))
    base = doc["devices"][0]
    ok = [r for r in base["results"] if r["status"] == "ok" and r.get("value")]
    targets = [r for r in ok if ((r.get("stats") or {}).get("cv") or 1) < max_spread] or ok
    head = {k: v for k, v in doc.items() if k != "devices"}
    planted = {}
    victims = rnd.sample(range(n), min(faults, n))
    for v in victims:
        r = rnd.choice(targets)
        planted[v] = {"result": r["name"], "slowdown": round(rnd.uniform(min_fault, 0.30), 3),
                      "spread_cv": (r.get("stats") or {}).get("cv")}
    with open(out_path, "w") as out:
        out.write(json.dumps(head)[:-1] + ', "devices": [')
        for i in range(n):
            out.write((", " if i else "") + json.dumps(device(base, i, rnd, planted.get(i))))
        out.write("]}")
    return planted


def device(base, i, rnd, p):
    d = copy.deepcopy(base)
    d["node"], d["rank"] = f"node{i // 8:04d}", i
    d["selection"] = {"platform_index": 0, "device_index": i % 8}
    for r in d["results"]:
        r["samples"] = []
        if r["status"] != "ok" or not r.get("value"):
            continue
        f = 1.0 + rnd.gauss(0.0, median_se(r))
        if p and p["result"] == r["name"]:
            worse = 1.0 - p["slowdown"] if r.get("better") != "lower" else 1.0 + p["slowdown"]
            f *= worse
        r["value"] *= f
        st = r.get("stats")
        if st:
            for k in ("min", "max", "median", "mean"):
                if isinstance(st.get(k), (int, float)):
                    st[k] *= f
            st["ci95"] = [x * f if isinstance(x, (int, float)) else x for x in st.get("ci95", [])]
    return d


def evaluate(fc_out, truth, real):
    """Recall over planted faults >= 10 % on results with spread < 2 %, and false flags."""
    t = {int(k): v for k, v in json.load(open(truth)).items()}
    flags = set()
    for line in open(fc_out):
        m = re.match(r"FLAG  node\d+ rank (\d+) .*?: (\S+) ", line)
        if m:
            flags.add((int(m.group(1)), m.group(2)))
    must = {(d, p["result"]) for d, p in t.items()
            if p["slowdown"] >= 0.10 and (p["spread_cv"] or 1) < 0.02}
    found = must & flags
    false = {f for f in flags if f[0] not in t}
    wrong_result = {f for f in flags if f[0] in t and f[1] != t[f[0]]["result"]}
    print(f"planted {len(t)}; required (>= 10 %, spread < 2 %) {len(must)}, flagged {len(found)}; "
          f"healthy devices flagged {len(false)}; other results of faulty devices flagged {len(wrong_result)}")
    return len(found) == len(must) and not false


def main(a):
    if a and a[0] == "--evaluate":
        sys.exit(0 if evaluate(a[1], a[2], a[3]) else 1)
    if len(a) < 4:
        sys.exit(__doc__)
    opt = lambda k, d: type(d)(a[a.index(k) + 1]) if k in a else d
    n = int(a[1])
    planted = make(a[0], n, opt("--faults", max(1, n // 50)), opt("--seed", 1), opt("--min-fault", 0.05),
                   opt("--max-spread", 1.0), a[2])
    json.dump(planted, open(a[3], "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
