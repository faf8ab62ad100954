#!/usr/bin/env python3
"""Documents and checks of tests/cli_store_site.sh (clbench store site, docs/store.md "The site").

usage: store_site_docs.py make REAL.json FLEET.json OUTDIR
         writes OUTDIR/hostile.json (a copy of the fleet document whose names carry payloads that
         mark the page when they run: hosts, a model, vendor, driver, a row name and unit, a status
         text, and "../../x" as a host) and OUTDIR/suite-a.json, suite-b.json (suite documents
         built on REAL's device: an ok and a void score across two variants, and a hostile machine)
       store_site_docs.py check SITE DOC.json...
         the site against the documents: every device's headline figures on the index (per family
         the best of the newest ok values of its rows), one real row's history (value and spread
         band per run) on its device page, and every suite score on the scores page (ok: peak and
         average; void: no number, its reason; a link to the device's page)
"""
import copy
import html.parser
import json
import os
import re
import sys

PWN = "document.documentElement.dataset.pwned"
FAMILIES = {  # src/cmd_store_site.c
    "fp32": ["compute.fp32.fma", "compute.fp32.mul", "compute.fp32.add"],
    "fp64": ["compute.fp64.fma", "compute.fp64.mul", "compute.fp64.add"],
    "memory": ["memory.triad", "memory.copy", "memory.scale", "memory.add"],
    "h2d": ["transfer.h2d_pinned", "transfer.h2d_pageable"],
}


def evil(text, field):
    return (text + "\"'><img src=x onerror=\"%s='%s'\"></title><svg><script>%s='%s'</script></svg>"
            "<script>%s='%s'</script>" % (PWN, field, PWN, field, PWN, field))


def make(real, fleet, out):
    f = json.load(open(fleet))
    h = copy.deepcopy(f)
    e0, e1 = h["devices"][0], h["devices"][1]
    e0["node"] = evil("<script>alert(1)</script>", "host")
    e1["node"] = "../../x"
    e0["device"]["CL_DEVICE_NAME"] = evil("GPU", "model")
    e0["device"]["CL_DEVICE_VENDOR"] = evil("V", "vendor")
    e0["device"]["CL_DRIVER_VERSION"] = evil("1.0", "driver")
    e0["results"][0]["name"] = evil("row", "row.name")
    e0["results"][0]["unit"] = evil("GB/s", "row.unit")
    e0["results"][1]["status"] = evil("weird", "point.status")
    e0["results"][1]["value"] = None
    json.dump(h, open(os.path.join(out, "hostile.json"), "w"), indent=1)

    r = json.load(open(real))
    dev = r["devices"][0]
    model = dev["device"]["CL_DEVICE_NAME"]

    def column(model, variant, score):
        return {"device": model, "variant": variant, "build_options": "", "apps": [], "omitted": [], "score": score}

    def entry(e, variant):
        e = copy.deepcopy(e)
        e["suite_column"] = {"variant": variant, "build_options": ""}
        return e

    ok = {"status": "ok", "peak": 1.25, "average": 1.0625, "peak_geomean": 1.3, "average_geomean": 1.1,
          "apps_scored": 5, "apps_omitted": 0}
    void = {"status": "void", "void_app": "saxpy", "reason": "app.saxpy.opencl: invalid_result", "apps_scored": 4,
            "apps_omitted": 0}
    a = {k: v for k, v in r.items() if k != "devices"}
    a["devices"] = [entry(dev, "base"), entry(dev, "fast")]
    a["suite"] = {"suite_version": "1", "mode": "quick", "system": {"hostname": "suite-host"},
                  "columns": [column(model, "base", ok), column(model, "fast", void)]}
    json.dump(a, open(os.path.join(out, "suite-a.json"), "w"), indent=1)
    b = copy.deepcopy(a)
    b["provenance"]["date"] = "2026-10-01T00:00:00Z"
    he = entry(dev, evil("fast", "score.variant"))
    he["node"] = evil("m1", "score.machine")
    he["device"]["CL_DEVICE_NAME"] = evil("GPU", "score.device")
    hv = dict(void, reason=evil("broke", "score.reason"))
    b["devices"] = [he]
    b["suite"]["columns"] = [column(he["device"]["CL_DEVICE_NAME"], he["suite_column"]["variant"], hv)]
    json.dump(b, open(os.path.join(out, "suite-b.json"), "w"), indent=1)


class Tables(html.parser.HTMLParser):
    """Rows of a page's tables as lists of (text, href of its first link, tag) cells, and the
    (figure caption, text) of every SVG title inside a figure."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.row, self.cell, self.titles = [], None, None, []
        self.cap, self.fig, self.title = None, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ["", None, tag]
        elif tag == "a" and self.cell is not None and self.cell[1] is None:
            self.cell[1] = dict(attrs).get("href")
        elif tag == "figcaption":
            self.cap = ""
        elif tag == "title" and self.fig is not None:
            self.title = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(tuple(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag == "figcaption":
            self.fig, self.cap = self.cap, None
        elif tag == "title" and self.title is not None:
            self.titles.append((self.fig, self.title))
            self.title = None
        elif tag == "figure":
            self.fig = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data
        if self.cap is not None:
            self.cap += data
        if self.title is not None:
            self.title += data


def parse(path):
    t = Tables()
    t.feed(open(path, encoding="utf-8", errors="replace").read())
    return t


def key_of(doc, e):
    host = e.get("node") or doc["provenance"]["host"]["hostname"]
    sel = e.get("selection", {})
    key = "%s/%d:%d" % (host, sel.get("platform_index", 0), sel.get("device_index", 0))
    v = (e.get("suite_column") or {}).get("variant", "base")
    return key + ("+" + v if v != "base" else "")


def expected(docs):
    """Per device key: per row the (date, value, cv) of every run, oldest first."""
    out = {}
    for doc in sorted(docs, key=lambda d: d["provenance"]["date"]):
        for e in doc["devices"]:
            seen = set()
            for r in e["results"]:
                if r["name"] in seen:
                    continue
                seen.add(r["name"])
                ok = r.get("status") == "ok" and isinstance(r.get("value"), (int, float))
                cv = (r.get("stats") or {}).get("cv")
                out.setdefault(key_of(doc, e), {}).setdefault(r["name"], []).append(
                    (doc["provenance"]["date"], r["value"] if ok else None, cv))
    return out


def close(a, b, tol=1.5e-3):
    return abs(a - b) <= tol * max(abs(a), abs(b))


def num(text):
    m = re.match(r"\s*(-?[0-9.]+(?:e[-+]?[0-9]+)?)", text)
    return float(m.group(1)) if m else None


def check(site, paths):
    docs = [json.load(open(p)) for p in paths]
    exp, bad = expected(docs), []
    index = parse(os.path.join(site, "index.html"))
    head = next(r for r in index.rows if r and r[0][0] == "device")
    cols = [c[0] for c in head]
    shown = 0
    for row in index.rows:
        if len(row) != len(cols) or row[0][2] != "td" or row[0][0] not in exp:
            continue
        shown += 1
        rows = exp[row[0][0]]
        for fam, names in FAMILIES.items():
            latest = [next((v for _, v, _ in reversed(rows[n]) if v is not None), None) for n in names if n in rows]
            want = max([v for v in latest if v is not None], default=None)
            if fam not in cols:
                if want is not None:
                    bad.append("index: no %s column, though %s measured it" % (fam, row[0][0]))
                continue
            got = num(row[cols.index(fam)][0])
            if (want is None) != (got is None) or (want is not None and not close(want, got)):
                bad.append("index: %s %s shows %r, want %r" % (row[0][0], fam, row[cols.index(fam)][0], want))
    if shown != len(exp):
        bad.append("index: %d device rows, want %d" % (shown, len(exp)))
    # one real row's history: each run's value and its band value x (1 -/+ cv)
    real = next(k for k in exp if not k.startswith(("node", "<", "..", "m1")) and "+" not in k)
    dev = next(r[0][1] for r in index.rows if r and r[0][0] == real)
    page = parse(os.path.join(site, dev))
    for rowname in ("compute.fp32.fma", "memory.triad"):
        runs = [x for x in exp[real][rowname] if x[1] is not None]
        tips = [t for f, t in page.titles if f.startswith(rowname + " ") and ": " in t]
        if len(tips) != len(runs):
            bad.append("%s: %d runs of %s shown, want %d" % (dev, len(tips), rowname, len(runs)))
        for (_, v, cv), tip in zip(runs, tips):
            m = re.search(r": ([0-9.e+-]+) \S+ \[([0-9.e+-]+), ([0-9.e+-]+)\]", tip)
            if not m or not all(close(float(g), w) for g, w in zip(m.groups(), (v, v * (1 - cv), v * (1 + cv)))):
                bad.append("%s: %s run shown as %r, want %g [%g, %g]" % (dev, rowname, tip, v, v * (1 - cv), v * (1 + cv)))
    # the suite scores
    scores = parse(os.path.join(site, "scores.html"))
    srows = [r for r in scores.rows if r and r[0][2] == "td"]
    want = [(c, d) for d in docs if "suite" in d for c in d["suite"]["columns"]]
    if len(srows) != len(want):
        bad.append("scores: %d rows, want %d" % (len(srows), len(want)))
    for c, d in want:
        hit = [r for r in srows if r[1][0] == c["device"] and r[2][0] == c["variant"]]
        if len(hit) != 1:
            bad.append("scores: %d rows for %s %s" % (len(hit), c["device"][:40], c["variant"][:40]))
            continue
        r, sc = hit[0], c["score"]
        if sc["status"] == "ok":
            if not (num(r[3][0]) and close(num(r[3][0]), sc["peak"]) and num(r[4][0]) and close(num(r[4][0]), sc["average"])):
                bad.append("scores: %s shows peak %r average %r, want %g %g" % (c["variant"], r[3][0], r[4][0], sc["peak"], sc["average"]))
        elif num(r[3][0]) is not None or num(r[4][0]) is not None or sc["reason"] not in "".join(x[0] for x in r):
            bad.append("scores: the void score of %s shows a number or lacks its reason: %r" % (c["variant"][:40], r))
        if not r[1][1] or not r[1][1].startswith("device/"):
            bad.append("scores: %s %s does not link to its device's page" % (c["device"][:40], c["variant"][:40]))
    for x in bad[:30]:
        print("FAIL:", x)
    print("store_site_docs check: %d devices, %d scores, %d findings" % (shown, len(srows), len(bad)))
    return bool(bad)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(*sys.argv[2:5])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3:]))
