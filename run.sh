#!/usr/bin/env bash
# clbench set-up in one command (README):
#   ./run.sh          install what is missing, build, characterize the default device
#   ./run.sh test     install what is missing, build, run every test (also under ASan+UBSan)
# Not root and packages missing: prints the exact apt-get line and exits 10.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-characterize}

packages=(cmake make gcc clang ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1
          pocl-opencl-icd libcjson-dev clinfo python3 locales chromium oclgrind
          pkgconf libclang-rt-14-dev openmpi-bin libopenmpi-dev libclblast1
          libsqlite3-dev sqlite3 libssl-dev zlib1g-dev # the results store (docs/store.md)
          file dpkg-dev lintian man-db) # the package step of `test` (tests/pkg_deb.sh)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "clbench: missing packages; run as root:" >&2
        echo "  apt-get install -y ${missing[*]}" >&2
        exit 10
    fi
    echo "clbench: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

build() { # build DIR [cmake args...]
    local dir=$1; shift
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" -j "$(nproc)"
}

install_missing
case "$mode" in
characterize)
    build build
    mkdir -p results
    out=results/clbench-$(date -u +%Y%m%dT%H%M%SZ).json
    build/clbench list
    build/clbench info
    build/clbench run --json "$out" --html "${out%.json}.html"
    echo "clbench: results written to $out and ${out%.json}.html"
    ;;
test)
    build build -DCLBENCH_MPI=ON -DCMAKE_INSTALL_PREFIX=/usr # /usr: the Debian packages' layout
    (cd build && ctest --output-on-failure -j "$(nproc)")
    # The .deb files built, lintian-checked, installed, run from an empty directory and purged
    # (purged also on failure); system-wide, so outside ctest. Prints PASS or FAIL.
    tests/pkg_deb.sh build
    # The same tests with AddressSanitizer and UndefinedBehaviorSanitizer; leaks inside the
    # OpenCL drivers are not ours (tests/lsan.supp). cli_suite and cli_apps (every app row at
    # once, minutes under ASan) run in the plain build only, to keep CI under 30 minutes: their
    # code paths are the run's workers, the app rows, the report and the score maths, which
    # cli_run, cli_app_faults, cli_ladder, cli_gemm_*, cli_euler*, report_* and `suite` cover here.
    CC=clang build build-asan -DCLBENCH_SANITIZE=ON -DCLBENCH_FUZZ=ON
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
        LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp:print_suppressions=0" \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j "$(nproc)" -E '^(cli_suite|cli_apps)$')
    ;;
*)
    echo "usage: ./run.sh [test]" >&2
    exit 2
    ;;
esac
