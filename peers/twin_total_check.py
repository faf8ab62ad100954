#!/usr/bin/env python3
"""The CUDA twins' rows (names with .cuda or .cublas) of clbench result files: each ok row must
carry params.total_s (the module's last_phases: setup, the median run, the copy back) and
params.kernel_s, with total_s >= kernel_s > 0 and setup_s, readback_s >= 0. Prints one line per
row; exit 1 when a row fails, 2 when no twin row was found.
usage: twin_total_check.py FILE.json..."""
import json, sys

bad = seen = 0
for f in sys.argv[1:]:
    for r in json.load(open(f))["devices"][0]["results"]:
        if ".cuda" not in r["name"] and ".cublas" not in r["name"]:
            continue
        if r["status"] != "ok":
            print(f"{f}: {r['name']}: {r['status']} {r.get('reason')} (not judged)")
            continue
        seen += 1
        p = r.get("params", {})
        t, k, s, b = (p.get(x) for x in ("total_s", "kernel_s", "setup_s", "readback_s"))
        ok = all(isinstance(v, (int, float)) for v in (t, k, s, b)) and k > 0 and s >= 0 and b >= 0 and t >= k
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {f}: {r['name']}: total_s {t} kernel_s {k} setup_s {s} readback_s {b} "
              f"value {r['value']:.6g} {r['unit']}")
print(f"twin rows: {seen} judged, {bad} failed")
sys.exit(1 if bad else 0 if seen else 2)
