#!/bin/sh
# Measures the suite's sequential rows at both size sets on this machine (the reference
# machine) and writes the reference file with its provenance (docs/suite.md#the-reference).
# usage: peers/suite_reference.sh [BUILD_DIR] [OUT_FILE]   (defaults: build data/suite_reference.json)
#
# A reference must be steady: every app's CV (std/avg) <= 5 % and avg/peak <= 1.10, which
# tests/suite_reference_check.py asserts on the committed file. So this script
#  - refuses a dirty tree and a binary not built from HEAD (the provenance names the commit),
#  - refuses a busy machine (1-minute load average above CLB_REF_MAX_LOAD, default 0.3: on the
#    2-core reference machine another process costs whole 4 ms scheduler ticks, which is where
#    the old reference's 58 % CV came from),
#  - runs 3 discarded warm-ups and 30 timed runs of every app with no early end
#    (CLBENCH_APP_REP_BUDGET_S), where the suite itself takes 1 + 10 ending after 3 s,
#  - checks the spread itself and writes nothing when an app is above it.
# Takes under 2 minutes on the 2-core reference machine (105 s at load average 9, 38 s of CPU).
set -eu
BUILD=${1:-build}
OUT=${2:-data/suite_reference.json}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
die() { echo "suite_reference: $*" >&2; exit 1; }

head=$(git -C "$SRC" rev-parse --short=12 HEAD)
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
    die "the tree has uncommitted changes (git status): commit or stash them, rebuild, then measure"
built=$("$BUILD/clbench" info --json - 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["provenance"]["git_sha"])' || echo unknown)
[ "$built" = "$head" ] || die "$BUILD/clbench was built from $built, not HEAD $head: rebuild (cmake --build $BUILD)"
max_load=${CLB_REF_MAX_LOAD:-0.3}
load0=$(cut -d' ' -f1 /proc/loadavg)
python3 -c "import sys; sys.exit(float('$load0') > float('$max_load'))" ||
    die "load average $load0 > $max_load: the machine is not quiet (ps -eo pid,pcpu,comm --sort=-pcpu | head)"

start=$(date +%s)
# The sequential rows are single-threaded: pinned to one core away from CPU 0, which takes the
# machine's interrupts (on the 2-core reference VM, quick SGEMM had CV 11 % on CPU 0, 0.2 % on
# CPU 1). CLB_REF_CPU overrides the core (default: the last online one).
cpu=${CLB_REF_CPU:-$(( $(getconf _NPROCESSORS_ONLN) - 1 ))}
# The VM's memory bandwidth dips for seconds at a time (other tenants: quick SAXPY read 38-41
# instead of 47 GB/s in 9 of 30 runs once). Each app's 30 runs are taken from the first of up to
# CLB_REF_ATTEMPTS (5) whole passes in which they are steady (the check below), and the
# provenance says which pass and how many there were; never a mix of passes within one app.
attempts=${CLB_REF_ATTEMPTS:-5}
for k in $(seq 1 "$attempts"); do
    for mode in quick full; do
        CLBENCH_APP_REP_BUDGET_S=3600 taskset -c "$cpu" "$BUILD/clbench" suite --$mode --sequential-only --warmup 3 --reps 30 \
            --quiet --json "$TMP/$mode.$k.json"
    done
    python3 "$SRC/tests/suite_reference_check.py" --passes "$TMP" "$k" >/dev/null && break
done
load1=$(cut -d' ' -f1 /proc/loadavg)
python3 - "$TMP" "$OUT" "$BUILD" "$SRC/tests/suite_reference_check.py" "$load0" "$load1" "$(( $(date +%s) - start ))" "$cpu" <<'PY'
import json, sys, datetime, subprocess
tmp, out, build, check, load0, load1, secs, cpu = sys.argv[1:9]
sets, prov = {}, {}
sys.path.insert(0, check.rsplit("/", 1)[0])
from suite_reference_check import steady_passes
chosen, npasses = steady_passes(tmp)
for mode in ("quick", "full"):
    apps = {}
    for app, (k, row) in chosen[mode].items():
        if row["status"] != "ok":
            sys.exit(f"suite_reference: {mode} {app}: {row['row']} is {row['status']}: {row.get('reason')}")
        apps[app] = {"row": row["row"], "peak_s": row["peak_s"], "avg_s": row["avg_s"],
                     "std_s": row["std_s"], "n": row["n"], "cv": row["std_s"] / row["avg_s"],
                     "pass": k, "passes": npasses}
    s = json.load(open(f"{tmp}/{mode}.1.json"))["suite"]
    sets[mode] = {"sizes": s["sizes"], "apps": apps}
    prov = {"machine": f'{s["system"]["cpu"]}, {s["system"]["online_cpus"]} cores, {s["system"]["os"]} {s["system"]["kernel"]}',
            "cpu": s["system"]["cpu"], "compiler": "gcc " + s["system"].get("compiler", "?"),
            "flags": "-O3 -march=$CLBENCH_HOST_ARCH (CMake cache: see CMakeCache.txt)",
            "clbench_git_sha": s["system"].get("clbench_git_sha", ""),
            "tree": "clean (git status --porcelain --untracked-files=no empty; binary built from that commit)",
            "command": "peers/suite_reference.sh (taskset -c CPU clbench suite --quick|--full --sequential-only --warmup 3 --reps 30, CLBENCH_APP_REP_BUDGET_S=3600)",
            "reps": "3 warm-ups discarded + 30 timed runs, no early end; per app the first steady pass of up to CLB_REF_ATTEMPTS (apps' pass, passes)",
            "pinned_cpu": int(cpu),
            "load_average_1min": {"before": float(load0), "after": float(load1)},
            "measurement_s": int(secs),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
try:
    arch = [l for l in open(f"{build}/CMakeCache.txt") if l.startswith("CLBENCH_HOST_ARCH")]
    prov["flags"] = "-O3 -march=" + arch[0].split("=", 1)[1].strip()
except (OSError, IndexError):
    pass
ref = {"format": "clbench-suite-reference", "version": datetime.date.today().strftime("%Y-%m-%d") + ".1",
       "suite_version": "1", "provenance": prov,
       "note": "times per suite problem in seconds (docs/suite.md); the sets' apps are the sequential rows; cv = std_s / avg_s",
       "sets": {m: v["apps"] for m, v in sets.items()}, "sizes": {m: v["sizes"] for m, v in sets.items()}}
json.dump(ref, open(f"{tmp}/ref.json", "w"), indent=2)
for m, v in sets.items():
    for a, r in v["apps"].items():
        print(f"{m:5} {a:9} peak {r['peak_s']:.6f} s  avg {r['avg_s']:.6f} s  cv {100 * r['cv']:5.2f} %  avg/peak {r['avg_s'] / r['peak_s']:.3f}  n {r['n']}")
print(f"measured in {secs} s; load average {load0} before, {load1} after")
if subprocess.run([sys.executable, check, f"{tmp}/ref.json"]).returncode != 0:
    sys.exit(f"suite_reference: too much spread: {out} left as it was; measure again on a quiet machine")
json.dump(ref, open(out, "w"), indent=2)
open(out, "a").write("\n")
print(f"wrote {out}: " + ", ".join(f"{m}: {len(v['apps'])} apps" for m, v in sets.items()))
PY
