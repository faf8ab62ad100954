#!/usr/bin/env bash
# The Debian packages as a user gets them: CPack builds clbench, libclbench0 and libclbench-dev
# from BUILD_DIR (configured with -DCMAKE_INSTALL_PREFIX=/usr), lintian finds no error or warning,
# apt-get installs them, and from an empty directory the installed clbench lists the devices,
# prints its version and scores suite --quick with its built-in reference, and the installed
# example builds (pkg-config, find_package) and runs; then the packages are purged, also when a
# step fails. Needs root (CI); run by `./run.sh test` after ctest. Prints one PASS or FAIL line.
# usage: pkg_deb.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
pkgs=(clbench libclbench0 libclbench-dev)
if [ "$(id -u)" != 0 ]; then
    echo "pkg_deb: SKIPPED: installing the packages needs root"
    exit 0
fi
for p in "${pkgs[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        echo "pkg_deb: FAIL: $p is already installed; not replacing it (apt-get purge ${pkgs[*]})"
        exit 1
    fi
done
tmp=$(mktemp -d)
installed=0
cleanup() {
    [ $installed -eq 1 ] && DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pkgs[@]}" >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fails=0
fail() { echo "pkg_deb: $*" >&2; fails=$((fails + 1)); }
start=$(date +%s)

(cd "$build" && cpack -G DEB -B "$tmp/deb" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack failed"; }
for p in "${pkgs[@]}"; do
    ls "$tmp"/deb/"${p}"_*_amd64.deb >/dev/null 2>&1 || fail "no ${p}_VERSION_amd64.deb"
done
if [ $fails -eq 0 ]; then
    lintian --tag-display-limit 0 "$tmp"/deb/*.deb >"$tmp/lintian" 2>&1
    grep -E '^[EW]: ' "$tmp/lintian" && fail "lintian reports the errors and warnings above"
    dpkg-deb -c "$tmp"/deb/clbench_*.deb >"$tmp/contents"
    grep -q '/usr/share/man/man1/clbench.1.gz$' "$tmp/contents" || fail "no man page in the package"
    grep -q '/usr/share/bash-completion/completions/clbench$' "$tmp/contents" || fail "no bash completion in the package"
    installed=1
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends "$tmp"/deb/*.deb \
        >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; fail "apt-get install failed"; }
fi
if [ $fails -eq 0 ]; then
    mkdir -p "$tmp/empty" "$tmp/home" && cd "$tmp/empty" || exit 1
    export HOME=$tmp/home
    unset CLBENCH_SUITE_REFERENCE XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME
    [ "$(command -v clbench)" = /usr/bin/clbench ] || fail "clbench is $(command -v clbench), not /usr/bin/clbench"
    /usr/bin/clbench list >"$tmp/list" 2>&1 && grep -q "Device" "$tmp/list" || fail "clbench list: $(head -3 "$tmp/list")"
    /usr/bin/clbench --version | grep -q "^clbench " || fail "clbench --version"
    timeout 600 /usr/bin/clbench suite --quick --json "$tmp/suite.json" >"$tmp/suite.txt" 2>"$tmp/suite.err" ||
        fail "clbench suite --quick exited $? ($(tail -2 "$tmp/suite.err"))"
    python3 - "$tmp/suite.json" <<'PY' || fail "the installed clbench did not score the suite"
import json, sys
s = json.load(open(sys.argv[1]))["suite"]
assert s["reference"]["status"] == "ok" and s["reference"]["source"] == "built-in", s["reference"]
sc = s["columns"][0]["score"]
assert sc["status"] == "ok" and sc["peak"] > 0 and sc["average"] > 0, sc
print("pkg_deb: installed clbench: Peak Score %.3g, Average Score %.3g" % (sc["peak"], sc["average"]))
PY
    grep "Peak Score" "$tmp/suite.txt"
    # the installed example, against the installed library alone
    if [ -d /usr/share/doc/libclbench-dev/examples ]; then
        cp -r /usr/share/doc/libclbench-dev/examples "$tmp/ex"
    elif grep -qs 'path-exclude=/usr/share/doc' /etc/dpkg/dpkg.cfg.d/*; then # slim images drop docs
        echo "pkg_deb: dpkg excludes /usr/share/doc here; the examples are taken from the .deb"
        dpkg-deb -x "$tmp"/deb/libclbench-dev_*.deb "$tmp/x" && cp -r "$tmp/x/usr/share/doc/libclbench-dev/examples" "$tmp/ex"
    else
        fail "no installed examples"
    fi
    cc -std=c11 -o "$tmp/pc" "$tmp/ex/pick_device.c" $(pkg-config --cflags --libs clbench) 2>"$tmp/cc.err" ||
        fail "the example does not build with pkg-config: $(head -3 "$tmp/cc.err")"
    "$tmp/pc" | grep -q "default device:" || fail "the pkg-config example printed no device"
    { cmake -S "$tmp/ex" -B "$tmp/ex/build" && cmake --build "$tmp/ex/build"; } >"$tmp/cm.log" 2>&1 ||
        fail "the example does not build with find_package(clbench): $(tail -3 "$tmp/cm.log")"
    "$tmp/ex/build/pick_device" | grep -q "default device:" || fail "the CMake example printed no device"
    cd / || exit 1
fi
if [ $installed -eq 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pkgs[@]}" >/dev/null 2>&1 || fail "apt-get purge failed"
    installed=0
    [ -e /usr/bin/clbench ] && fail "/usr/bin/clbench is still there after the purge"
fi
if [ $fails -eq 0 ]; then
    echo "pkg_deb: PASS: built, lintian clean, installed, ran, purged ($(($(date +%s) - start)) s)"
else
    echo "pkg_deb: FAIL: $fails step(s) failed ($(($(date +%s) - start)) s)"
fi
[ $fails -eq 0 ]
