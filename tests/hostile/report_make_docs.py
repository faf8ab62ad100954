#!/usr/bin/env python3
"""Hostile results documents for the report writers' tests (tests/hostile/report_*.sh).

usage: report_make_docs.py KIND SAMPLE OUTDIR
  inject   OUTDIR/<payload file name>.json: every string of the sample (device, platform, results,
           params and their keys, curves, provenance), an added roofline and suite object, and the
           file name carry a script payload that marks the page when it runs; a second document
           OUTDIR/structural.json also replaces the status-like strings (status, verdict, kind).
  cells    OUTDIR/cells.json: formula starters, controls (ESC, BEL), invalid UTF-8 and a result
           whose name is a plain negative number.
  big      OUTDIR/curve.json (one result with a 100,000-point curve), OUTDIR/many_a.json and
           OUTDIR/many_b.json (20,000 results each).
"""
import copy, json, os, sys

MARK = "document.documentElement.dataset.pwned"

def payload(field):
    """Markup for text, attribute and SVG <title> contexts; each part marks the page with field."""
    js = "%s='%s'" % (MARK, field)
    return ('"\'><img src=x onerror="%s"></title><svg><script>%s</script></svg>'
            '<script>%s</script>' % (js, js, js))

KEEP = {"status", "verdict", "kind", "better", "x_log"}

def inject(v, path, keep):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            out[k] = inject(x, path + "." + k, keep) if not (keep and k in KEEP) else x
        return out
    if isinstance(v, list):
        return [inject(x, "%s.%d" % (path, i), keep) for i, x in enumerate(v)]
    if isinstance(v, str):
        return v + payload(path.lstrip(".").replace("<", "")[:60])
    return v

def roofline():
    return {"ceilings": [{"name": "fp32 peak", "kind": "compute", "value": 4000, "unit": "GFLOP/s",
                          "pct_of_physical": 80},
                         {"name": "dram", "kind": "bandwidth", "value": 500, "unit": "GB/s"}],
            "theoretical": [{"name": "fp32 limit", "kind": "compute", "value": 5000, "unit": "GFLOP/s"}],
            "points": [{"row": "app.saxpy", "unit": "GFLOP/s", "intensity": 0.1, "performance": 40,
                        "verdict": "ok", "reason": "below its roof", "pct_of_roof": 80},
                       {"row": "app.sgemm", "unit": "GIOP/s", "intensity": 50, "performance": 3000,
                        "verdict": "invalid", "reason": "above its roof", "compute_only": True}]}

def suite():
    col = {"device": "GPU", "platform": "P", "platform_version": "1", "driver": "d",
           "device_version": "v", "variant": "base", "build_options": "-O3",
           "score": {"status": "void", "reason": "why", "void_app": "app"},
           "apps": [{"title": "Euler", "app": "euler", "best_opencl": "ocl",
                     "rows": [{"row": "ocl", "status": "ok", "peak_s": 1, "peak_ratio": 2},
                              {"row": "seq", "status": "error", "reason": "failed"}],
                     "speedups": {"vs_sequential": {"status": "absent"}}}],
           "omitted": [{"app": "mcpi", "why": "no device"}]}
    return {"suite_version": "1", "mode": "quick",
            "system": {"cpu": "cpu", "os": "Linux", "kernel": "6", "compiler": "cc",
                       "clbench_git_sha": "abc"},
            "reference": {"status": "absent", "reason": "no reference"}, "columns": [col]}

def make_inject(sample, out):
    doc = json.load(open(sample))
    for d in doc["devices"]:
        d["roofline"] = roofline()
        for r in d["results"]:
            r.setdefault("params", {})[payload("params-key")] = "k"
            if r["name"] == "memory.bandwidth":
                r["params"]["limit"] = {"value": 600, "unit": "GB/s", "source": "db"}
                r["params"]["efficiency"] = 70
    doc["suite"] = suite()
    name = "f" + payload("file-name").replace("/", "")
    for keep, fname in ((True, name), (False, "structural")):
        json.dump(inject(doc, "", keep), open(os.path.join(out, fname + ".json"), "w"))
    print(os.path.join(out, name + ".json"))

def make_cells(sample, out):
    doc = json.load(open(sample))
    d = doc["devices"][0]
    d["device"]["CL_DEVICE_NAME"] = "=HYPERLINK(\"http://x\",\"y\")\x1b]0;t\x07\x1b[31m"
    bad = "bad\udcff\udcfe utf8"  # lone surrogates: written below as raw invalid bytes
    r = d["results"]
    r[0]["unit"] = "+cmd|' /C calc'!A0"
    r[1]["reason"], r[1]["status"] = "@SUM(1+1)*cmd|' /C calc'!A0 <i>x</i>\nnext line", "error"
    r[2]["name"] = "-3.5"
    r[2]["unit"] = "-2+3"
    r[3]["reason"], r[3]["status"] = bad, "error"
    r[4]["status"], r[4]["value"] = "ok", -1.25
    for i, rung in enumerate(("seq", "ocl|<b>1</b>")):  # an app ladder (Markdown and terminal)
        r.append({"name": "app.<i>e</i>x." + rung, "group": "app", "status": "error\x1b[2J",
                  "reason": "<img src=x>", "unit": "s<u>", "params": {"rung_index": i, "peer_row": "<p>peak"}})
    text = json.dumps(doc, ensure_ascii=False)
    raw = text.encode("utf-8", "surrogateescape")
    open(os.path.join(out, "cells.json"), "wb").write(raw)

def result(name, v):
    return {"name": name, "group": "g", "status": "ok", "value": v, "unit": "GB/s", "better": "higher",
            "stats": {"n": 5, "median": v, "cv": 0.01, "ci95": [v * 0.99, v * 1.01]}}

def make_big(sample, out):
    doc = json.load(open(sample))
    dev = doc["devices"][0]
    r = result("memory.sweep", 100.0)
    r["params"] = {"curve": {"x_name": "size", "x_unit": "B", "y_name": "rate", "y_unit": "GB/s",
                             "x_log": True, "points": [[1024 + 64 * i, 100 + i % 97] for i in range(100000)]}}
    dev["results"] = [r]
    json.dump(doc, open(os.path.join(out, "curve.json"), "w"))
    for tag, scale in (("a", 1.0), ("b", 1.02)):
        dev["results"] = [result("bench.n%05d" % i, scale * (100 + i % 50)) for i in range(20000)]
        json.dump(doc, open(os.path.join(out, "many_%s.json" % tag), "w"))

if __name__ == "__main__":
    kind, sample, out = sys.argv[1:4]
    {"inject": make_inject, "cells": make_cells, "big": make_big}[kind](sample, out)
