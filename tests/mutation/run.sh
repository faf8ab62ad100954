#!/usr/bin/env bash
# The mutation catalogue (tests/mutation/*.tsv, format in README.md; docs/testing.md):
#   tests/mutation/run.sh [--ci] [--list] [--scratch DIR] [--timeout S] [ID-REGEX]
# Copies the tree once to a scratch directory (no .git, no build dirs) and configures one build
# there; then for each mutant: plant it (its pattern must occur exactly once, else it is stale),
# rebuild the targets its tests run, run `ctest -R TESTS`, record caught / survived / broken,
# revert. The named tests must pass on the unchanged tree first (else the mutant proves nothing),
# and a mutant whose named tests all skipped (exit 77) proves nothing either: both are UNPROVEN.
# Prints one line per mutant and `mutation score: C/N caught, U unproven, S survived, stale or
# without tests`; exits 1 when a mutant was not caught, 2 on a usage or set-up error. The scratch
# build is kept, so a second run rebuilds only what changed. --ci: the mutants marked `ci` only.
# Environment: CLB_MUT_SCRATCH (default /tmp/clbench-mutation-UID-HASH), CLB_MUT_TIMEOUT (per
# mutant's tests, default 300 s), CLB_MUT_JOBS (build jobs, default nproc), CLB_MUT_CMAKE_ARGS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
ci=() list=0 filter="" timeout_s=${CLB_MUT_TIMEOUT:-300} jobs=${CLB_MUT_JOBS:-$(nproc)}
scratch=${CLB_MUT_SCRATCH:-${TMPDIR:-/tmp}/clbench-mutation-$(id -u)-$(printf %s "$src" | cksum | cut -d' ' -f1)}
usage() { sed -n '2,3p' "$0" | sed 's/^# *//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    --ci) ci=(--ci) ;;
    --list) list=1 ;;
    --scratch) [ $# -ge 2 ] || usage; scratch=$2; shift ;;
    --timeout) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; timeout_s=$2; shift ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$filter" ] || usage; filter=$1 ;;
    esac
    shift
done
py() { python3 "$here/mutate.py" "$@"; }

catalogue=$(py list "$here" "${ci[@]}" "$filter") || exit 2
if [ "$list" = 1 ]; then
    printf '%s\n' "$catalogue" | awk -F'\t' 'NF {printf "%-48s %-3s %-34s %s\n", $1, $4, $3, $2}'
    exit 0
fi
[ -n "$catalogue" ] || { echo "run.sh: no mutant matches" >&2; exit 2; }
mapfile -t mutants < <(printf '%s\n' "$catalogue")

mkdir -p "$scratch" || exit 2
exec 9>"$scratch/lock"
flock -n 9 || { echo "run.sh: another run uses $scratch" >&2; exit 2; }
tree=$scratch/src build=$scratch/build logs=$scratch/logs backup=$scratch/planted.json
mkdir -p "$tree" "$logs"

# Cleanup: the planted mutant goes back, a running child (its own process group) is ended.
child=""
cleanup() {
    [ -n "$child" ] && kill -TERM -- "-$child" 2>/dev/null
    py revert "$tree" "$backup"
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM HUP
# bg LOG CMD...: CMD in its own process group, so a signal to us ends it too; its exit status.
bg() {
    local log=$1; shift
    setsid "$@" >"$log" 2>&1 </dev/null &
    child=$!
    wait "$child"; local rc=$?
    child=""
    return $rc
}

# failed LOG: the names ctest lists under "The following tests FAILED".
failed() {
    awk '/The following tests FAILED:/ {f = 1; next} f && $1 ~ /^[0-9]+$/ && $2 == "-" {printf "%s ", $3}' "$1"
}
# skipped LOG: the names ctest lists as "(Skipped)" under "The following tests did not run".
skipped() {
    awk '/^The following tests/ {f = /did not run/; next} f && $1 ~ /^[0-9]+$/ && $2 == "-" && $4 == "(Skipped)" {printf "%s ", $3}' "$1"
}

start=$(date +%s)
py revert "$tree" "$backup" # a run that was killed hard
py sync "$src" "$tree" || exit 2
# Configured on every run, also a kept scratch build: the tests' commands (and so the targets they
# need) are those of the tree just synced, not of the tree the build last saw.
# shellcheck disable=SC2086 # CLB_MUT_CMAKE_ARGS is a list of words
bg "$logs/configure.log" cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLBENCH_MPI=ON \
    -DCLBENCH_CUDA=OFF -DCMAKE_INSTALL_PREFIX=/usr ${CLB_MUT_CMAKE_ARGS:-} ||
    { tail -20 "$logs/configure.log"; echo "run.sh: configure failed ($logs/configure.log)" >&2; exit 2; }
# The targets each mutant's tests run (only those are built), and the tests themselves.
known=" $(cmake --build "$build" --target help 2>/dev/null | sed -n 's/^\.\.\. \([A-Za-z0-9_.-]*\).*/\1/p' | tr '\n' ' ') "
declare -A targets ntests names
union=" "
for m in "${mutants[@]}"; do
    IFS=$'\t' read -r id file tests mci <<<"$m"
    names[$id]=" $(cd "$build" && ctest -N -R "$tests" | sed -n 's/^ *Test *#[0-9]*: *//p' | tr '\n' ' ')"
    ntests[$id]=$(wc -w <<<"${names[$id]}")
    for x in ${names[$id]}; do
        [[ $union == *" $x "* ]] || union="$union$x "
    done
    t=""
    for x in $(py targets "$build" "$tests"); do
        [[ $known == *" $x "* ]] && t="$t $x"
    done
    targets[$id]=${t:-all}
    # A build-system file (CMake code, a configured template) may change any target: build all.
    [[ $file == cmake/* || $file == *CMakeLists.txt || $file == *.in ]] && targets[$id]=all
    [ -n "$t" ] || echo "run.sh: $id: no build target found for /$tests/; building all" >&2
done
# One alternation of the test names (CTest's regular expressions allow few groups).
union_rx="^($(echo $union | sed 's/[.+]/\\&/g; s/ /|/g'))\$"
all_targets=$(printf '%s\n' "${targets[@]}" | tr ' ' '\n' | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
bg "$logs/build.log" cmake --build "$build" -j "$jobs" --target $all_targets ||
    { tail -30 "$logs/build.log"; echo "run.sh: the unchanged tree does not build ($logs/build.log)" >&2; exit 2; }
bg "$logs/baseline.log" ctest --test-dir "$build" -R "$union_rx" --timeout "$timeout_s" --no-tests=error -j 1 ||
    grep -q "tests FAILED" "$logs/baseline.log" ||
    { tail -20 "$logs/baseline.log"; echo "run.sh: the unchanged tests did not run ($logs/baseline.log)" >&2; exit 2; }
failing=" $(failed "$logs/baseline.log") "
echo "run.sh: scratch $scratch; set-up (copy, configure, build, unchanged tests) took $(($(date +%s) - start)) s"
[ "$failing" = "  " ] || echo "run.sh: failing on the unchanged tree:$failing($logs/baseline.log)"

caught=0 total=0 bad=0 unproven=0
for m in "${mutants[@]}"; do
    IFS=$'\t' read -r id file tests mci <<<"$m"
    total=$((total + 1)) t0=$(date +%s) log=$logs/$id.log
    verdict="" note=""
    if [ "${ntests[$id]:-0}" = 0 ]; then
        verdict=NO-TESTS note="no test matches /$tests/"
    else
        for x in $failing; do
            [[ ${names[$id]} == *" $x "* ]] && verdict=UNPROVEN note="$x fails without the mutant"
        done
    fi
    if [ -z "$verdict" ]; then
        note=$(py apply "$here" "$tree" "$id" "$backup")
        case $? in
        0) ;;
        3) verdict=STALE ;;
        *) verdict=STALE note="cannot apply: $note" ;;
        esac
    fi
    if [ -z "$verdict" ]; then
        # shellcheck disable=SC2086
        if ! bg "$log" cmake --build "$build" -j "$jobs" --target ${targets[$id]}; then
            verdict=caught note="does not build: counted as caught (prefer mutants that build)"
        else
            # ctest applies the timeouts (a test's own TIMEOUT, else --timeout); this one is for a
            # ctest that hangs itself
            guard=$(((timeout_s > 900 ? timeout_s : 900) * ntests[$id] + 60))
            bg "$log.test" timeout -k 10 "$guard" ctest --test-dir "$build" -R "$tests" \
                --timeout "$timeout_s" --no-tests=error -j 1 --output-on-failure
            rc=$?
            by=$(failed "$log.test") skips=$(skipped "$log.test")
            if [ $rc -ne 0 ]; then
                verdict=caught note="by ${by:-ctest exit $rc}"
            elif [ "$(wc -w <<<"$skips")" = "${ntests[$id]}" ]; then
                verdict=UNPROVEN note="every named test skipped here: ${skips% } ($log.test)"
            else
                verdict=SURVIVED note="$tests passed${skips:+ (skipped: ${skips% })} ($log.test)"
            fi
        fi
        py revert "$tree" "$backup"
    fi
    [ "$verdict" = caught ] && caught=$((caught + 1))
    [ "$verdict" = UNPROVEN ] && unproven=$((unproven + 1))
    [ "$verdict" = caught ] || bad=$((bad + 1))
    printf '%-9s %-48s %4ds  %s\n' "$verdict" "$id" "$(($(date +%s) - t0))" "$note"
done
echo "mutation score: $caught/$total caught, $unproven unproven, $((bad - unproven)) survived, stale or without tests ($(($(date +%s) - start)) s in all)"
[ "$bad" = 0 ]
