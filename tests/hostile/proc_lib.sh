# Shared by the tests/hostile/proc_*.sh scripts (sourced): a temporary folder, a tag put into the
# environment of every process a test starts (`env "$tag" clbench ...`), and the processes still
# carrying it, found by their environment (other clbench tests run on the machine at the same
# time: names would match theirs). Each test fails on what survives it; the exit trap kills
# those, by pid.
tmp=$(mktemp -d)
tag="CLB_PROC_TAG=$$.$(date +%s%N)" # not exported: tools the test runs itself do not carry it
fail() { echo "FAIL: $*" >&2; exit 1; }

# The pids (other than this shell's) whose environment carries the tag.
tagged() {
    grep -lzx "$tag" /proc/[0-9]*/environ 2>/dev/null | sed -e 's|^/proc/||' -e 's|/environ$||' | grep -vx "$$" || true
}

# Waits up to $1 seconds for every tagged process to end; prints the survivors.
survivors() {
    i=0
    while [ "$i" -lt $(($1 * 10)) ]; do
        left=$(tagged)
        [ -z "$left" ] && return 0
        sleep 0.1; i=$((i + 1))
    done
    for p in $left; do echo "$p $( { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)"; done
}

cleanup() {
    for p in $(tagged); do kill -9 "$p" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT
