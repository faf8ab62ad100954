#!/bin/sh
# Measures the suite's sequential rows at both size sets on this machine (the reference
# machine) and writes the reference file with its provenance (docs/suite.md).
# usage: peers/suite_reference.sh [BUILD_DIR] [OUT_FILE]   (defaults: build data/suite_reference.json)
set -eu
BUILD=${1:-build}
OUT=${2:-data/suite_reference.json}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for mode in quick full; do
    "$BUILD/clbench" suite --$mode --sequential-only --quiet --json "$TMP/$mode.json"
done
python3 - "$TMP" "$OUT" "$BUILD" <<'PY'
import json, sys, datetime, platform, subprocess
tmp, out, build = sys.argv[1:4]
sets, prov = {}, {}
for mode in ("quick", "full"):
    doc = json.load(open(f"{tmp}/{mode}.json"))
    s = doc["suite"]
    apps = {}
    for app in s["columns"][0]["apps"]:
        row = next(r for r in app["rows"] if r["role"] == "sequential")
        if row["status"] != "ok":
            continue
        apps[app["app"]] = {"row": row["row"], "peak_s": row["peak_s"], "avg_s": row["avg_s"],
                            "std_s": row["std_s"], "n": row["n"]}
    sets[mode] = {"sizes": s["sizes"], "apps": apps}
    prov = {"machine": f'{s["system"]["cpu"]}, {s["system"]["online_cpus"]} cores, {s["system"]["os"]} {s["system"]["kernel"]}',
            "cpu": s["system"]["cpu"], "compiler": "gcc " + s["system"].get("compiler", "?"),
            "flags": "-O3 -march=$CLBENCH_HOST_ARCH (CMake cache: see CMakeCache.txt)",
            "clbench_git_sha": s["system"].get("clbench_git_sha", ""),
            "command": "peers/suite_reference.sh (clbench suite --quick|--full --sequential-only)",
            "reps": "1 warm-up discarded + --reps 10, ending after 3 once 3 s have passed (app_measure)",
            "date": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")}
try:
    arch = [l for l in open(f"{build}/CMakeCache.txt") if l.startswith("CLBENCH_HOST_ARCH")]
    prov["flags"] = "-O3 -march=" + arch[0].split("=", 1)[1].strip()
except OSError:
    pass
ref = {"format": "clbench-suite-reference", "version": datetime.date.today().strftime("%Y-%m-%d") + ".1",
       "suite_version": "1", "provenance": prov,
       "note": "times per suite problem in seconds (docs/suite.md); the sets' apps are the sequential rows",
       "sets": {m: v["apps"] for m, v in sets.items()}, "sizes": {m: v["sizes"] for m, v in sets.items()}}
json.dump(ref, open(out, "w"), indent=2)
print(f"wrote {out}: " + ", ".join(f"{m}: {len(v['apps'])} apps" for m, v in sets.items()))
PY
