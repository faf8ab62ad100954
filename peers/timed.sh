# Sourced by the fleet scripts. timed NAME COMMAND...: runs COMMAND with its output in
# $out/NAME.txt and writes its exit code and wall seconds to $out/NAME.time (and stdout).
timed() {
    local name=$1 t0; shift
    t0=$(date +%s.%N)
    "$@" >"$out/$name.txt" 2>&1
    echo "rc=$? wall_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" | tee "$out/$name.time"
}
