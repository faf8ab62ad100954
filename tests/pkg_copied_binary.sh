#!/usr/bin/env bash
# A clbench binary copied alone into an empty directory scores the suite: its reference is built
# in (a data/ beside it is not read, no path of the source or build tree is baked in). The smallest run with real
# scores: suite --quick --sequential-only, every app's sequential row divided by the built-in
# reference (about 4 s with PoCL), beside a malformed data/suite_reference.json that must not be
# read. Then the user override: the XDG data dir's file is read
# (a malformed one is refused, exit 2, naming it) and --reference goes before it.
# usage: pkg_copied_binary.sh CLBENCH SOURCE_DIR
set -u
src_bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/alone" "$tmp/home"
cp "$src_bin" "$tmp/alone/clbench"
cd "$tmp/alone" || exit 1
unset CLBENCH_SUITE_REFERENCE XDG_DATA_HOME
export HOME=$tmp/home

# a data/ in the working directory is not the reference (the tool does not depend on where it runs)
mkdir data && echo '{"broken":' >data/suite_reference.json
# no path of the source or the build tree is baked into the binary (debug sections aside, which
# name the sources for a debugger): no data/ file, no module in the build tree, no __FILE__
objcopy --strip-debug clbench "$tmp/stripped" || fail "objcopy --strip-debug exited $?"
for tree in "$(cd "$src" && pwd)" "$(cd "$(dirname "$src_bin")" && pwd)"; do
    n=$(strings "$tmp/stripped" | grep -cF "$tree")
    [ "$n" -eq 0 ] || fail "the binary names $tree $n times: $(strings "$tmp/stripped" | grep -F "$tree" | head -3 | tr '\n' ' ')"
done

./clbench suite --quick --sequential-only --json "$tmp/s.json" >"$tmp/s.txt" 2>"$tmp/s.err" ||
    fail "suite exited $? ($(tail -2 "$tmp/s.err"))"
python3 - "$tmp/s.json" <<'PY' || fail "scores of the copied binary"
import json, sys
s = json.load(open(sys.argv[1]))["suite"]
ref = s["reference"]
assert ref["status"] == "ok" and ref["source"] == "built-in", ref
rows = [r for a in s["columns"][0]["apps"] for r in a["rows"] if r["role"] == "sequential"]
assert len(rows) >= 5, [r["row"] for r in rows]
for r in rows:
    assert r["status"] == "ok" and r["peak_ratio"] > 0 and r["avg_ratio"] > 0, r
print("copied binary: %d sequential rows scored against the built-in reference" % len(rows))
PY
[ "$(ls -A | tr '\n' ' ')" = "clbench data " ] || fail "suite wrote into the working directory: $(ls -A | tr '\n' ' ')"

# the user's file (XDG data dir, else ~/.local/share) overrides the built-in reference
for dir in "$tmp/xdg" "$HOME/.local/share"; do
    mkdir -p "$dir/clbench" && echo '{"broken":' >"$dir/clbench/suite_reference.json"
    if [ "$dir" = "$tmp/xdg" ]; then export XDG_DATA_HOME=$tmp/xdg; else unset XDG_DATA_HOME; fi
    ./clbench suite --quick --sequential-only >/dev/null 2>"$tmp/u.err"; rc=$?
    [ $rc -eq 2 ] && grep -qF "$dir/clbench/suite_reference.json" "$tmp/u.err" ||
        fail "a malformed user reference in $dir: exit $rc, $(head -c 300 "$tmp/u.err")"
done
# --reference goes before the (malformed) user file
./clbench suite --quick --sequential-only --reference "$src/data/suite_reference.json" --json "$tmp/r.json" \
    >/dev/null 2>"$tmp/r.err" || fail "--reference beside a malformed user file exited $?"
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['suite']['reference']; assert r['status']=='ok' and r['source']==sys.argv[2], r" \
    "$tmp/r.json" "$src/data/suite_reference.json" || fail "--reference was not the reference used"
[ $fails -eq 0 ] && echo "PASS: the copied binary scores with its built-in reference; the user file and --reference override it"
[ $fails -eq 0 ]
