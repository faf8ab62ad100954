#!/usr/bin/env bash
# The kernel binary cache end to end (docs/binary_cache.md), in a private XDG_CACHE_HOME: a cold run
# misses and leaves a marker, the second misses and stores one 0600 entry in a 0700 directory, a
# warm run hits it; another build option misses; a corrupted or truncated entry is rejected with a warning, rebuilt (the result still
# ok) and hit again; --no-binary-cache creates, reads and changes nothing; `cache list` names the
# entry; `cache clear` removes clbench's entries only; compile.binary_cold / binary_cached are
# ok (each verified) with the cached load faster than the cold build.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
export XDG_CACHE_HOME=$tmp/xdg
dir=$XDG_CACHE_HOME/clbench/binaries
row=launch.start_end
# params.binary_cache of the only result of a document, and its status
param() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['devices'][0]['results'][0]; print(r['status'], r['params'].get(sys.argv[2], '-'))" "$1" "$2"; }
run() { "$bin" run "$row" --quick --json "$tmp/$1.json" "${@:2}" >/dev/null 2>"$tmp/$1.err"; }

run cold; [ "$(param "$tmp/cold.json" binary_cache)" = "ok miss" ] || fail "cold run: $(param "$tmp/cold.json" binary_cache), want ok miss"
# admission on the second build: the first build leaves only a marker
[ "$(find "$dir" -name '*.clbin' 2>/dev/null | wc -l)" = 0 ] || fail "a first build stored its binary"
[ "$(find "$dir" -name '*.seen' 2>/dev/null | wc -l)" = 1 ] || fail "a first build left no marker"
run second; [ "$(param "$tmp/second.json" binary_cache)" = "ok miss" ] || fail "second run: $(param "$tmp/second.json" binary_cache), want ok miss"
entries=$(find "$dir" -name '*.clbin' 2>/dev/null | wc -l)
[ "$entries" = 1 ] || fail "the second build left $entries entries, want 1"
entry=$(find "$dir" -name '*.clbin' | head -1)
[ "$(stat -c %a "$dir")" = 700 ] || fail "cache dir mode $(stat -c %a "$dir"), want 700"
[ "$(stat -c %a "$entry")" = 600 ] || fail "entry mode $(stat -c %a "$entry"), want 600"
run warm; [ "$(param "$tmp/warm.json" binary_cache)" = "ok hit" ] || fail "warm run: $(param "$tmp/warm.json" binary_cache), want ok hit"

# another build option (what suite --variant appends): another key, a miss
CLBENCH_BUILD_OPTIONS=-DCLB_BINARY_CACHE_TEST=1 run opt
[ "$(param "$tmp/opt.json" binary_cache)" = "ok miss" ] || fail "changed option: $(param "$tmp/opt.json" binary_cache), want ok miss"

# a flipped byte in the binary, then a truncated file: rejected with a warning, rebuilt, hit again
for damage in flip truncate; do
    size=$(stat -c %s "$entry")
    if [ $damage = flip ]; then
        printf '\xff' | dd of="$entry" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
    else
        truncate -s $((size / 2)) "$entry"
    fi
    run $damage
    [ "$(param "$tmp/$damage.json" binary_cache)" = "ok rebuilt" ] || fail "$damage: $(param "$tmp/$damage.json" binary_cache), want ok rebuilt"
    grep -q "warning: $row: kernel .*cached binary rejected" "$tmp/$damage.err" || fail "$damage: no warning on stderr: $(cat "$tmp/$damage.err")"
    run after_$damage
    [ "$(param "$tmp/after_$damage.json" binary_cache)" = "ok hit" ] || fail "after $damage: $(param "$tmp/after_$damage.json" binary_cache), want ok hit"
done

# --no-binary-cache: a damaged entry stays as it is, nothing is recorded; a fresh home gets no dir
printf 'junk' >"$entry"
run off --no-binary-cache
[ "$(param "$tmp/off.json" binary_cache)" = "ok -" ] || fail "--no-binary-cache: $(param "$tmp/off.json" binary_cache), want ok -"
[ "$(cat "$entry")" = junk ] || fail "--no-binary-cache touched the entry"
XDG_CACHE_HOME=$tmp/fresh run off2 --no-binary-cache
[ ! -e "$tmp/fresh/clbench" ] || fail "--no-binary-cache created $tmp/fresh/clbench"

# cache list and clear: only clbench's names go; the tuning cache, PoCL's cache and others stay
run relist
"$bin" cache list >"$tmp/list.txt" || fail "cache list exit $?"
grep -q "launch on " "$tmp/list.txt" || fail "cache list does not name the entry: $(cat "$tmp/list.txt")"
echo '{}' >"$XDG_CACHE_HOME/clbench/tune.json"
echo keep >"$dir/notes.txt"
echo victim >"$tmp/victim"
ln -s "$tmp/victim" "$dir/0123456789abcdef.clbin"
"$bin" cache clear >"$tmp/clear.txt" || fail "cache clear exit $?"
grep -q "^removed 2 files" "$tmp/clear.txt" || fail "cache clear said: $(cat "$tmp/clear.txt"), want the entry and a marker"
[ "$(find "$dir" \( -name '*.clbin' -o -name '*.seen' \) -type f | wc -l)" = 0 ] || fail "cache clear left an entry or a marker"
for keep in "$XDG_CACHE_HOME/clbench/tune.json" "$dir/notes.txt" "$tmp/victim"; do
    [ -e "$keep" ] || fail "cache clear removed $keep"
done
[ -L "$dir/0123456789abcdef.clbin" ] || fail "cache clear removed a link it does not own"
"$bin" cache frobnicate 2>/dev/null; [ $? = 2 ] || fail "cache frobnicate: want exit 2"

# the compile rows: cold build + store against a cached load, both verified
"$bin" run 'compile.binary_*' --quick --json "$tmp/compile.json" >/dev/null
python3 "$check" "$tmp/compile.json" --min-results 2 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/compile.json" <<'EOF' || fails=$((fails+1))
import json, sys
r = {x['name']: x for x in json.load(open(sys.argv[1]))['devices'][0]['results']}
cold, cached = r['compile.binary_cold'], r['compile.binary_cached']
ok = cold['params']['binary_cache'] == 'miss' and cached['params']['binary_cache'] == 'hit'
ok = ok and cached['value'] < cold['value']
print(f"compile.binary_cold {cold['value']:.3g} ms, compile.binary_cached {cached['value']:.3g} ms")
sys.exit(0 if ok else 1)
EOF
[ "$(find "$dir" -name '*.clbin' -type f | wc -l)" = 0 ] || fail "the compile rows left their entries in the cache"
"$bin" run compile.binary_cached --quick --no-binary-cache --json "$tmp/compile_off.json" >/dev/null
[ "$(param "$tmp/compile_off.json" binary_cache)" = "unsupported -" ] || fail "compile.binary_cached without the cache: $(param "$tmp/compile_off.json" binary_cache)"
echo "cli_binary_cache: $fails failure(s)"
[ "$fails" = 0 ]
