#!/usr/bin/env python3
"""Results documents for the store's tests and its speed measurement (docs/store.md).

Writes DOCS documents OUT/PREFIX-NNNN.json; document i is one run, dated i hours after
2026-01-01, of DEVICES devices (node "nodeK" = device // 8, selection 0:(device % 8), as run
--mpi writes them) with ROWS rows each ("gen.rowNNN", ok, a value with noise, stats, SAMPLES
samples (0: statistics of 5, the samples dropped, as fleet_sim.py does); every 17th row
unsupported, without a value). Deterministic for a seed; distinct
documents for distinct (prefix, i).

usage: store_gen.py OUT --docs N [--devices D] [--rows R] [--samples S] [--seed S] [--prefix P]
                    [--first I]   (the first document's index: documents I .. I+N-1)
"""
import json
import os
import random
import sys


def result(rnd, row, samples):
    name = f"gen.row{row:03d}"
    if row % 17 == 16:
        return {"name": name, "group": "gen", "status": "unsupported", "reason": "not on this device",
                "value": None, "unit": "GB/s", "stats": None, "params": {}, "samples": []}
    base = 10.0 * (row + 1)
    xs = sorted(round(base * (1 + rnd.gauss(0, 0.01)), 6) for _ in range(max(samples, 5)))
    med = xs[len(xs) // 2]
    mean = sum(xs) / len(xs)
    sd = (sum((x - mean) ** 2 for x in xs) / max(len(xs) - 1, 1)) ** 0.5
    g = lambda x: float(f"{x:.9g}")  # what cJSON prints back exactly (it writes 15 digits)
    mean, sd = g(mean), g(sd)
    return {"name": name, "group": "gen", "status": "ok", "reason": None, "value": med, "unit": "GB/s",
            "better": "higher", "timer": "cl_event_profiling",
            "stats": {"n": len(xs), "min": xs[0], "max": xs[-1], "median": med, "mean": mean, "stddev": sd,
                      "cv": g(sd / mean), "ci95": [xs[0], xs[-1]], "ci95_level": 0.95},
            "params": {"bytes": 1 << (row % 30)}, "samples": xs if samples else []}


def document(i, a, rnd, out):
    head = {"schema_version": "1.0.0",
            "provenance": {"tool": "clbench", "tool_version": "0.1.0", "git_sha": "store_gen",
                           "command_line": ["store_gen.py", a["prefix"], str(i)],
                           "date": f"2026-01-{1 + i // 24:02d}T{i % 24:02d}:00:00Z",
                           "host": {"hostname": "genhost"}}}
    out.write(json.dumps(head)[:-1] + ', "devices": [')
    for k in range(a["devices"]):
        dev = {"selection": {"platform_index": 0, "device_index": k % 8}, "node": f"node{k // 8:04d}", "rank": k,
               "platform": {"CL_PLATFORM_NAME": "Generated"},
               "device": {"CL_DEVICE_NAME": "Gen GPU", "CL_DEVICE_VENDOR": "Gen", "CL_DRIVER_VERSION": "1.0"},
               "results": [result(rnd, r, a["samples"]) for r in range(a["rows"])]}
        out.write((", " if k else "") + json.dumps(dev))
    out.write("]}\n")


def main(argv):
    if len(argv) < 3 or "--docs" not in argv:
        sys.exit(__doc__)
    opt = lambda k, d: type(d)(argv[argv.index(k) + 1]) if k in argv else d
    a = {"docs": opt("--docs", 1), "devices": opt("--devices", 2), "rows": opt("--rows", 20),
         "samples": opt("--samples", 5), "prefix": opt("--prefix", "gen")}
    rnd = random.Random(f"{opt('--seed', 1)}-{a['prefix']}")
    os.makedirs(argv[1], exist_ok=True)
    first = opt("--first", 0)
    for i in range(first, first + a["docs"]):
        with open(os.path.join(argv[1], f"{a['prefix']}-{i:04d}.json"), "w") as out:
            document(i, a, rnd, out)


if __name__ == "__main__":
    main(sys.argv)
