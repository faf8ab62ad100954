#!/usr/bin/env python3
"""Synthetic fleets for clbench fleet-check: one real results file becomes N devices.

Each device is a copy of the file's first device with node name, rank and device index; every ok
result gets noise drawn from its measured spread (the standard error of a median of n samples,
1.2533 cv / sqrt(n)); F devices get a planted fault: one chosen result made 5-30 % worse (in its
bad direction). Samples are dropped to keep files small. The truth (which device, which result,
how much) goes to a second file.

usage: fleet_sim.py REAL.json N OUT.json TRUTH.json [--faults F] [--seed S] [--min-fault 0.05]
                    [--max-spread CV]   (plant faults only on results whose cv is below CV)
       fleet_sim.py REAL.json N OUTDIR TRUTH.json --runs T [--rows R] [--drifts D] [--samples K]
                    [--faults F] [--seed S] [--min-fault 0.10] [--max-spread 0.02] [--series FILE]
       fleet_sim.py --evaluate FLEETCHECK_OUTPUT TRUTH.json REAL.json

At scale (any of --runs, --rows, --drifts, --samples): T documents, one per run date (weekly from
2026-09-06: OUTDIR/fleet-2026-09-06.json ...), each N devices x R rows (default: the file's ok
rows; more rows repeat them as NAME.xK), written as a stream (one result at a time, no document
tree in memory). Every result conforms to docs/schema.md with K samples (default 3) placed
symmetrically about the median so that their cv is the real row's; each device's value draws
noise from that spread (the standard error of a median of K samples, a normal truncated at 4 of
them, so that no healthy device is beyond fleet-check's 4.5 robust z; rows whose value is not
positive are left out); F devices are slow on one row in every run (slow cards), D (device,
row) pairs step worse by 10-30 % from a run with at least 3 runs before it and 3 from it on
(drifts). Faults and drifts go on rows whose cv is below --max-spread. TRUTH.json: {"slow": {device: ...}, "drifts": [...], "runs": [...]}.
--series FILE: also every written median as float64 in the order run, device, row, then each
row's cv (R doubles): the input of `test_drift --series` (the drift test over every history).
"""
import array, copy, datetime, json, math, os, random, re, sys


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


def evaluate(fc_out, truth, real, run=None):
    """Recall over planted faults >= 10 % on results with spread < 2 %, and false flags. At scale,
    run: the run the output judged; the devices drifted by then count as planted there."""
    t = json.load(open(truth))
    drifts = t.get("drifts", [])
    t = {int(k): v for k, v in t.get("slow", t).items()}
    for d in drifts:
        if run is not None and d["run"] <= run and d["device"] not in t:
            t[d["device"]] = {"result": d["result"], "slowdown": d["shift"], "spread_cv": d["spread_cv"]}
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


SCALE_OPTS = ("--runs", "--rows", "--drifts", "--samples")


def scale_rows(base, rows, k):
    """The rows of every device: name, the format of its result text, the samples' factors, v0,
    cv, se, the noise's cut, higher. Real ok rows with stats, repeated as NAME.xJ past their count."""
    ok = [r for r in base["results"] if r["status"] == "ok" and (r.get("value") or 0) > 0 and r.get("stats")]
    z = [j - (k - 1) / 2 for j in range(k)]
    sz = math.sqrt(sum(x * x for x in z) / (k - 1)) if k > 1 else 1.0
    z = [x / sz for x in z]  # sample sd 1, median 0 (k odd)
    mad = sorted(abs(x) for x in z)[k // 2]
    level = 1 - 2 * 0.5 ** k  # coverage of [min, max] as a CI of the median
    out = []
    for j in range(rows):
        b = ok[j % len(ok)]
        name = b["name"] if j < len(ok) else f"{b['name']}.x{j // len(ok)}"
        cv = min(max((b["stats"].get("cv") or 0.0), 0.001), 0.9)  # samples stay positive
        head = ('{"name":%s,"group":%s,"status":"ok","reason":null,"value":' %
                (json.dumps(name), json.dumps(b["group"])))
        mid = (',"unit":%s,"better":%s,"timer":%s,"stats":{"n":%d,' %
               (json.dumps(b["unit"]), json.dumps(b.get("better") or "higher"), json.dumps(b["timer"]), k))
        # One format per row: value, min, max, median, mean, stddev, mad, ci95 ends, samples.
        fmt = (head.replace("%", "%%") + "%s" + mid.replace("%", "%%") +
               '"min":%%s,"max":%%s,"median":%%s,"mean":%%s,"stddev":%%.6g,"mad":%%.6g,"cv":%.6g,'
               '"ci95":[%%s,%%s],"ci95_level":%.6g},"params":{},"samples":[%%s]}' % (cv, level))
        out.append({"name": name, "fmt": fmt, "fz": [1 + cv * x for x in z], "mad": cv * mad, "v0": b["value"],
                    "cv": cv, "se": 1.2533 * cv / math.sqrt(k), "cut": min(4.0, 0.5 / (1.2533 * cv / math.sqrt(k))),
                    "higher": b.get("better") != "lower"})
    return out


def trunc_gauss(rnd, cut):
    """A standard normal truncated at +-cut (4, or less where 4 standard errors would reach half
    the value: the very noisy rows)."""
    while True:
        g = rnd.gauss(0.0, 1.0)
        if -cut <= g <= cut:
            return g


def result_text(row, m):
    """One ok result of median m: K samples m (1 + cv z_j), their stats."""
    xs = ["%.8g" % (m * f) for f in row["fz"]]
    lo, sm, hi = xs[0], xs[len(xs) // 2], xs[-1]
    return row["fmt"] % (sm, lo, hi, sm, sm, row["cv"] * m, row["mad"] * m, lo, hi, ",".join(xs))


def device_head(base, i):
    """A device entry's JSON up to its results: node, rank, selection and a UUID of its own."""
    d = {k: v for k, v in base.items() if k != "results"}
    d["node"], d["rank"] = f"node{i // 8:04d}", i
    d["selection"] = {"platform_index": 0, "device_index": i % 8}
    u = f"{0x51b0000 + i:032x}"
    d["device"] = dict(base["device"], CL_DEVICE_UUID_KHR=f"{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:]}")
    return json.dumps(d, separators=(",", ":"))[:-1] + ',"results":['


def plant(rnd, n, rows, faults, drifts, runs, min_fault, max_spread):
    """Slow cards {device: fault} and drifts {(device, row index): drift} on rows of cv < max_spread."""
    targets = [j for j, r in enumerate(rows) if r["cv"] < max_spread] or list(range(len(rows)))
    who = rnd.sample(range(n), min(faults + drifts, n))
    slow, drift = {}, {}
    for v in who[:faults]:
        j = rnd.choice(targets)
        slow[v] = {"result": rows[j]["name"], "row": j, "slowdown": round(rnd.uniform(min_fault, 0.30), 3),
                   "spread_cv": rows[j]["cv"]}
    for v in who[faults:]:
        j = rnd.choice(targets)
        drift[(v, j)] = {"device": v, "result": rows[j]["name"], "row": j, "run": rnd.randint(3, runs - 3),
                         "shift": round(rnd.uniform(0.10, 0.30), 3), "spread_cv": rows[j]["cv"]}
    return slow, drift


def write_run(path, head, base, rows, n, t, seed, slow, drift, series):
    """One run's document, one result at a time; each median also to series (float64) if open."""
    with open(path, "w", buffering=1 << 20) as out:
        out.write(json.dumps(head, separators=(",", ":"))[:-1] + ',"devices":[')
        for i in range(n):
            rnd = random.Random(seed * 1000003 + t * 100000007 + i)
            out.write(("," if i else "") + device_head(base, i))
            s = slow.get(i)
            parts = []
            for j, row in enumerate(rows):
                f = 1.0 + row["se"] * trunc_gauss(rnd, row["cut"])
                d = drift.get((i, j)) if drift else None
                for worse in ((s["slowdown"] if s and s["row"] == j else 0.0),
                              (d["shift"] if d and t >= d["run"] else 0.0)):
                    if worse:
                        f *= 1.0 - worse if row["higher"] else 1.0 + worse
                parts.append(result_text(row, row["v0"] * f))
            out.write(",".join(parts) + "]}")
            if series:
                series.write(array.array("d", (float(p[p.index('"value":') + 8:p.index(',"unit"')])
                                               for p in parts)).tobytes())
        out.write("]}")


def make_scale(real, n, outdir, truth_path, a, opt):
    doc = json.load(open(real))
    base = doc["devices"][0]
    runs, k = opt("--runs", 1), opt("--samples", 3)
    if k < 1 or k % 2 == 0:
        sys.exit("fleet_sim.py: --samples must be odd (the median is a sample)")
    seed = opt("--seed", 1)
    rows = scale_rows(base, opt("--rows", len(base["results"])), k)
    rnd = random.Random(seed)
    slow, drift = plant(rnd, n, rows, opt("--faults", max(1, n // 50)), opt("--drifts", max(1, n // 50)), runs,
                        opt("--min-fault", 0.10), opt("--max-spread", 0.02))
    os.makedirs(outdir, exist_ok=True)
    start = datetime.date(2026, 9, 6)
    files = []
    series = open(opt("--series", ""), "wb") if "--series" in a else None
    for t in range(runs):
        day = start + datetime.timedelta(days=7 * t)
        head = {k2: v for k2, v in doc.items() if k2 != "devices"}
        head["provenance"] = dict(doc["provenance"], date=f"{day.isoformat()}T03:00:00Z")
        path = os.path.join(outdir, f"fleet-{day.isoformat()}.json")
        write_run(path, head, base, rows, n, t, seed, slow, drift, series)
        files.append({"run": t, "date": head["provenance"]["date"], "file": os.path.basename(path)})
    if series:
        series.write(array.array("d", (r["cv"] for r in rows)).tobytes())
        series.close()
    for d in drift.values():
        d["date"] = files[d["run"]]["date"]
    truth = {"devices": n, "rows": len(rows), "samples": k, "runs": files,
             "slow": {str(v): {x: y for x, y in f.items() if x != "row"} for v, f in sorted(slow.items())},
             "drifts": sorted(drift.values(), key=lambda x: (x["device"], x["result"]))}
    json.dump(truth, open(truth_path, "w"), indent=1)


def evaluate_drift(out, truth):
    """Every planted drift moved at its run (the split names the first run after the change), and
    no other history moved (the lines of test_drift --series)."""
    t = json.load(open(truth))
    want = {(d["device"], d["row"]): d["run"] for d in t["drifts"]}
    found, at_run, false = set(), 0, []
    for line in open(out):
        f = line.split()
        if f and f[0] == "moved":
            key = (int(f[1]), int(f[2]))
            if key in want:
                found.add(key)
                at_run += int(f[3]) == want[key]
            else:
                false.append(line.strip())
    print(f"planted drifts {len(want)}, moved {len(found)}, at their run {at_run}; other histories moved "
          f"{len(false)}" + "".join("\n  " + x for x in false[:10]))
    return len(found) == len(want) and at_run == len(want) and not false


def main(a):
    if a and a[0] == "--evaluate":
        sys.exit(0 if evaluate(a[1], a[2], a[3], int(a[4]) if len(a) > 4 else None) else 1)
    if a and a[0] == "--evaluate-drift":
        sys.exit(0 if evaluate_drift(a[1], a[2]) else 1)
    if len(a) < 4:
        sys.exit(__doc__)
    opt = lambda k, d: type(d)(a[a.index(k) + 1]) if k in a else d
    n = int(a[1])
    if any(k in a for k in SCALE_OPTS):
        make_scale(a[0], n, a[2], a[3], a, opt)
        return
    planted = make(a[0], n, opt("--faults", max(1, n // 50)), opt("--seed", 1), opt("--min-fault", 0.05),
                   opt("--max-spread", 1.0), a[2])
    json.dump(planted, open(a[3], "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
