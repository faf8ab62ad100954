#!/usr/bin/env python3
"""Validates a clbench results document against docs/schema.md (schema 1.x).

usage: check_schema.py FILE [--min-results N] [--expect-status STATUS[,STATUS...]] [--no-devices]
Exits 1 with every problem listed when the document does not conform."""
import json
import math
import sys

problems = []


def fail(msg):
    problems.append(msg)


def reject_constant(name):
    raise ValueError(f"non-JSON number {name}")


def need(obj, key, types, where):
    if not isinstance(obj, dict) or key not in obj:
        fail(f"{where}: missing '{key}'")
        return None
    if not isinstance(obj[key], types):
        fail(f"{where}.{key}: expected {types}, got {type(obj[key]).__name__}")
        return None
    return obj[key]


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


STATUSES = {"ok", "unsupported", "build_failed", "invalid_result", "invalid_timing", "invalid",
            "inconclusive", "throttled", "crashed", "timeout", "interrupted", "error"}
VALUED = {"ok", "throttled"}  # the statuses that carry a number
STATS = ["n", "min", "max", "median", "mean", "stddev", "mad", "cv", "ci95", "ci95_level"]


def median(xs):
    """The samples' median as clbench computes it (the mean of the two middle ones for even n)."""
    s, k = sorted(xs), len(xs) // 2
    return s[k] if len(xs) % 2 else 0.5 * (s[k - 1] + s[k])


def check_result(r, where):
    for k in ["name", "group", "status", "unit"]:
        need(r, k, str, where)
    status = r.get("status")
    if status not in STATUSES:
        fail(f"{where}: unknown status {status!r}")
    name, group = r.get("name", ""), r.get("group", "")
    if not name.startswith(group + "."):
        fail(f"{where}: name {name!r} is not '{group}.variant'")
    need(r, "params", dict, where)
    samples = need(r, "samples", list, where)
    if status in VALUED:
        if status == "ok" and r.get("reason") is not None:
            fail(f"{where}: ok result with a reason")
        if status != "ok" and not r.get("reason"):
            fail(f"{where}: status {status} without a reason")
        if not number(r.get("value")):
            fail(f"{where}: ok result without a finite value")
        need(r, "timer", str, where)
        if r.get("better") not in ("higher", "lower"):
            fail(f"{where}: 'better' must be higher or lower")
        stats = need(r, "stats", dict, where) or {}
        for k in STATS:
            if k not in stats:
                fail(f"{where}.stats: missing {k}")
        ci = stats.get("ci95")
        if not (isinstance(ci, list) and len(ci) == 2 and all(number(x) for x in ci)):
            fail(f"{where}.stats.ci95: expected two numbers")
        elif not ci[0] <= stats.get("median", ci[0]) <= ci[1]:
            fail(f"{where}.stats: median outside its CI")
        if samples is not None and len(samples) != stats.get("n"):
            fail(f"{where}: {len(samples)} samples but n = {stats.get('n')}")
        if samples and all(number(x) for x in samples):
            m = median(samples)
            for what, v in (("value", r["value"]), ("stats.median", stats.get("median"))):
                if not (number(v) and abs(v - m) <= 1e-9 * max(abs(m), abs(v))):
                    fail(f"{where}: {what} {v!r} is not the median {m!r} of the samples")
        if not (stats.get("min", 0) <= r["value"] <= stats.get("max", 0)):
            fail(f"{where}: value outside [min, max]")
    else:
        if not isinstance(r.get("reason"), str) or not r["reason"]:
            fail(f"{where}: status {status} without a reason")
        if r.get("value") is not None or r.get("stats") is not None or samples:
            fail(f"{where}: status {status} carries a number")


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    path = args[0]
    min_results = int(args[args.index("--min-results") + 1]) if "--min-results" in args else 0
    expect = args[args.index("--expect-status") + 1] if "--expect-status" in args else None
    no_devices = "--no-devices" in args
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=reject_constant)
    except (OSError, ValueError) as e:
        print(f"check_schema: {path}: not valid JSON: {e}")
        return 1
    version = need(doc, "schema_version", str, "doc")
    if version and not version.startswith("1."):
        fail(f"schema_version {version} is not 1.x")
    prov = need(doc, "provenance", dict, "doc") or {}
    for k in ["tool_version", "git_sha", "build_type", "date"]:
        need(prov, k, str, "provenance")
    need(prov, "command_line", list, "provenance")
    need(prov, "host", dict, "provenance")
    need(prov, "environment", dict, "provenance")
    devices = need(doc, "devices", list, "doc") or []
    if no_devices and devices:
        fail("expected no devices")
    if not no_devices and not devices:
        fail("no devices")
    nresults = 0
    for i, d in enumerate(devices):
        w = f"devices[{i}]"
        plat = need(d, "platform", dict, w) or {}
        dev = need(d, "device", dict, w) or {}
        if "CL_PLATFORM_NAME" not in plat:
            fail(f"{w}.platform: no CL_PLATFORM_NAME")
        if "CL_DEVICE_NAME" not in dev:
            fail(f"{w}.device: no CL_DEVICE_NAME")
        derived = need(d, "derived", dict, w) or {}
        for k, v in derived.items():
            if not (isinstance(v, dict) and "value" in v and isinstance(v.get("how"), str)):
                fail(f"{w}.derived.{k}: needs value and how")
        for j, r in enumerate(need(d, "results", list, w) or []):
            check_result(r, f"{w}.results[{j}]")
            nresults += 1
            if expect and r.get("status") not in expect.split(","):
                fail(f"{w}.results[{j}] ({r.get('name')}): status {r.get('status')}, expected {expect}")
    if nresults < min_results:
        fail(f"{nresults} results, expected at least {min_results}")
    for p in problems:
        print(f"check_schema: {path}: {p}")
    if not problems:
        print(f"check_schema: {path}: conforms ({len(devices)} devices, {nresults} results)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
