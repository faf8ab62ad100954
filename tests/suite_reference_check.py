#!/usr/bin/env python3
"""A suite reference (data/suite_reference.json) is steady enough to divide by (docs/suite.md).

usage: suite_reference_check.py FILE
Every app of every size set: at least 10 timed runs, CV = std_s / avg_s <= 5 %, and
1 <= avg_s / peak_s <= 1.10 (the mean of steady runs is close to their best; the old reference's
SAXPY had 1.68, which made Average Scores exceed Peak Scores). The provenance must name a clean
tree. Exits 1 with every problem listed."""
import json
import math
import sys

MAX_CV, MAX_AVG_PEAK, MIN_RUNS = 0.05, 1.10, 10


def problems(ref):
    out = []
    sha = ref.get("provenance", {}).get("clbench_git_sha", "")
    if not sha or sha == "unknown" or sha.endswith("-dirty"):
        out.append(f"provenance.clbench_git_sha {sha!r}: not measured from a clean, known commit")
    sets = ref.get("sets", {})
    for mode in ("quick", "full"):
        if not sets.get(mode):
            out.append(f"{mode}: no apps")
    for mode, apps in sets.items():
        for app, r in apps.items():
            w = f"{mode} {app}"
            pk, av, sd, n = r.get("peak_s"), r.get("avg_s"), r.get("std_s"), r.get("n")
            if not all(isinstance(x, (int, float)) and math.isfinite(x) and x >= 0 for x in (pk, av, sd, n)) or not pk > 0:
                out.append(f"{w}: peak_s, avg_s, std_s and n must be numbers ({pk}, {av}, {sd}, {n})")
                continue
            if n < MIN_RUNS:
                out.append(f"{w}: {n} runs, want at least {MIN_RUNS}")
            if sd / av > MAX_CV:
                out.append(f"{w}: CV {100 * sd / av:.1f} % above {100 * MAX_CV:.0f} %")
            if not 1 <= av / pk <= MAX_AVG_PEAK:
                out.append(f"{w}: avg/peak {av / pk:.3f} outside [1, {MAX_AVG_PEAK}]")
    return out


def steady(r):
    """1 when a sequential row's runs pass the checks above."""
    pk, av, sd, n = r.get("peak_s"), r.get("avg_s"), r.get("std_s"), r.get("n")
    ok = all(isinstance(x, (int, float)) and math.isfinite(x) for x in (pk, av, sd, n)) and pk > 0
    return ok and n >= MIN_RUNS and sd / av <= MAX_CV and 1 <= av / pk <= MAX_AVG_PEAK


def steady_passes(tmp):
    """Per size set and app, (pass, row) of the first pass in TMP/MODE.K.json whose sequential
    row is steady, else of the last pass; and the number of passes."""
    import glob
    ks = sorted({int(f.rsplit(".", 2)[1]) for f in glob.glob(f"{tmp}/quick.*.json")})
    chosen = {}
    for mode in ("quick", "full"):
        chosen[mode] = {}
        for k in ks:
            for app in json.load(open(f"{tmp}/{mode}.{k}.json"))["suite"]["columns"][0]["apps"]:
                row = next(r for r in app["rows"] if r["role"] == "sequential")
                have = chosen[mode].get(app["app"])
                if have is None or not steady(have[1]):
                    chosen[mode][app["app"]] = (k, row)
    return chosen, len(ks)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--passes":  # suite_reference.sh: all steady yet?
        chosen, _ = steady_passes(sys.argv[2])
        return 0 if all(steady(r) for m in chosen.values() for _, r in m.values()) else 1
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    try:
        ref = json.load(open(sys.argv[1], encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"suite_reference_check: {sys.argv[1]}: {e}")
        return 1
    bad = problems(ref)
    for p in bad:
        print(f"suite_reference_check: {sys.argv[1]}: {p}")
    if bad:
        print("re-measure on a quiet machine from a clean tree: peers/suite_reference.sh build")
        return 1
    print(f"suite_reference_check: {sys.argv[1]}: steady ({sum(len(a) for a in ref['sets'].values())} apps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
