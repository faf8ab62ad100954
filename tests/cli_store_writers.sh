#!/usr/bin/env bash
# The store under concurrent writers and writers killed mid-add (docs/store.md, "Concurrency"):
#   1. W writers (default 8) start at once on a store that does not exist yet, each adding D
#      distinct documents (default 25): every writer exits 0, and the store holds every document
#      once (0 lost, 0 duplicated: each file's SHA-256 once, runs and results complete);
#   2. the W writers then add one shared set of documents at once: each is stored once;
#   3. K times (default 3) a writer adding 30 documents to a new store is killed with SIGKILL at a
#      random moment of the add (its whole duration timed once before): PRAGMA integrity_check is
#      ok after each kill, and adding everything again completes the store (every document once,
#      with all its runs and results; the last store's documents exported equal the files).
# usage: cli_store_writers.sh CLBENCH SOURCE_DIR [WRITERS DOCS KILLS]   (the recorded run: 8 1000 20)
. "$(dirname "$0")/store_lib.sh" "$@"
W=${3:-8} D=${4:-25} K=${5:-3}
gen() { python3 "$src/tests/store_gen.py" "$@"; }
q() { sqlite3 "$1" "$2"; }

# 1. distinct documents, W writers at once, the store created by whichever comes first
st=$tmp/w.sqlite
for w in $(seq 1 "$W"); do gen "$tmp/w$w" --docs "$D" --devices 1 --rows 10 --samples 3 --prefix "w$w"; done
start=$(date +%s.%N)
for w in $(seq 1 "$W"); do
    "$bin" store add "$tmp/w$w"/*.json --store="$st" >"$tmp/out$w" 2>&1 &
done
for w in $(seq 1 "$W"); do wait -n || fail "a writer exited $? ($(grep -h clbench: "$tmp"/out* | head -2))"; done
secs=$(echo "$(date +%s.%N) - $start" | bc)
n=$((W * D))
[ "$(q "$st" 'SELECT count(*) FROM docs')" = $n ] || fail "$(q "$st" 'SELECT count(*) FROM docs') documents stored, want $n"
[ "$(q "$st" 'SELECT count(*) FROM runs')" = $n ] || fail "$(q "$st" 'SELECT count(*) FROM runs') runs, want $n"
[ "$(q "$st" 'SELECT coalesce(sum(nres), 0) FROM runs')" = $((n * 10)) ] || fail "$(q "$st" 'SELECT coalesce(sum(nres), 0) FROM runs') results, want $((n * 10))"
sha256sum "$tmp"/w*/*.json | cut -d' ' -f1 | sort >"$tmp/want"
q "$st" 'SELECT hash FROM docs ORDER BY hash' >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "the stored hashes are not the files' (lost: $(comm -23 "$tmp/want" "$tmp/got" | wc -l), extra: $(comm -13 "$tmp/want" "$tmp/got" | wc -l))"
echo "writers: $W x $D documents in $secs s"

# 2. one shared set, W writers at once: each document once
gen "$tmp/shared" --docs 10 --devices 2 --rows 10 --samples 3 --prefix shared
for w in $(seq 1 "$W"); do "$bin" store add "$tmp/shared"/*.json --store="$st" >"$tmp/sh.$w" 2>&1 & done
for w in $(seq 1 "$W"); do wait -n || fail "a writer of the shared set exited $? ($(grep -h clbench: "$tmp"/sh.* | head -2))"; done
[ "$(q "$st" 'SELECT count(*) FROM docs')" = $((n + 10)) ] || fail "shared set: $(q "$st" 'SELECT count(*) FROM docs') documents, want $((n + 10))"
[ "$(cat "$tmp"/sh.* | grep -c '^added')" = 10 ] || fail "shared set: $(cat "$tmp"/sh.* | grep -c '^added') adds, want 10 (the rest known)"
[ "$(q "$st" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the writers"

# 3. killed writers: the whole add timed once, then each add killed at a random moment within it
ks=$tmp/k.sqlite
gen "$tmp/k" --docs 30 --devices 8 --rows 100 --samples 10 --prefix k
t0=$(date +%s%N)
"$bin" store add "$tmp/k"/*.json --store="$tmp/timing.sqlite" >/dev/null || fail "the timed add exited $?"
whole_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
partial=0
for i in $(seq 1 "$K"); do # a fresh store each time: the kill lands in the first add
    ks=$tmp/k$i.sqlite
    "$bin" store add "$tmp/k"/*.json --store="$ks" >/dev/null 2>&1 &
    pid=$!
    ms=$(( RANDOM % (whole_ms * 9 / 10 + 1) + 5 ))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ -e "$ks" ] || continue # killed before the store was made
    [ "$(q "$ks" 'PRAGMA integrity_check')" = ok ] || fail "kill $i: integrity_check: $(q "$ks" 'PRAGMA integrity_check' | head -3)"
    got=$(q "$ks" 'SELECT count(*) FROM docs' 2>/dev/null)
    got=${got:-0} # killed before the schema was made: an empty database
    [ "$got" -lt 30 ] && partial=$((partial + 1))
    echo "kill $i after $ms ms (a whole add: $whole_ms ms): $got documents in the store"
    "$bin" store add "$tmp/k"/*.json --store="$ks" >/dev/null || fail "kill $i: adding again exited $?"
    c=$(q "$ks" 'SELECT (SELECT count(*) FROM docs), (SELECT count(*) FROM runs), (SELECT coalesce(sum(nres), 0) FROM runs)')
    [ "$c" = "30|240|24000" ] || fail "kill $i: added again, documents|runs|results are $c, want 30|240|24000"
done
"$bin" store export --store="$ks" >"$tmp/all.json" || fail "export after the kills exited $?"
python3 - "$tmp/all.json" "$tmp/k" <<'PY' || fail "the documents do not come back whole after the kills"
import glob, json, sys
got = json.load(open(sys.argv[1]))
want = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[2] + "/*.json"))]
key = lambda d: d["provenance"]["command_line"][-1]
assert sorted(got, key=key) == sorted(want, key=key)
PY
finish "$W concurrent writers x $D documents: 0 lost, 0 duplicated; $K kills ($partial before the end): consistent, completed by adding again"
