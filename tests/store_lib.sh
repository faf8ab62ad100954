# The set-up the store tests share (tests/cli_store*.sh source it with their arguments, CLBENCH
# SOURCE_DIR): bin and src; a scratch folder $tmp, removed at exit, holding the XDG folders (the
# user's default store and caches are never touched) and $st, the test's store; fail() counts a
# failure in $fails, and finish MESSAGE ends the test: PASS and exit 0 when nothing failed, else 1.
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/xdg XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
finish() {
    [ $fails -eq 0 ] && echo "PASS: $*"
    exit $((fails > 0))
}
st=$tmp/s.sqlite
