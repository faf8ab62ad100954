#!/usr/bin/env bash
# clbench store (docs/store.md): add is idempotent by the document's hash; list, docs, show and
# history answer what the documents say; export gives back the bytes run --json wrote, and they
# conform to the schema; run --store stores what it writes; the default place is under
# $XDG_DATA_HOME; a file that is not SQLite, another application's SQLite file and a store of a
# newer schema are refused with exit 2 and left untouched (no byte, no side file).
# usage: cli_store.sh CLBENCH SOURCE_DIR
. "$(dirname "$0")/store_lib.sh" "$@"
counts() { sqlite3 "$1" "SELECT (SELECT count(*) FROM docs), (SELECT count(*) FROM runs), (SELECT coalesce(sum(nres), 0) FROM runs), (SELECT count(*) FROM devices)"; }

python3 "$src/tests/store_gen.py" "$tmp/gen" --docs 4 --devices 3 --rows 20 --samples 5
"$bin" store add "$tmp"/gen/*.json "$src/tests/data/sample.json" --store="$st" >"$tmp/add1" || fail "store add exited $?"
[ "$(grep -c '^added' "$tmp/add1")" = 5 ] || fail "5 documents not added: $(cat "$tmp/add1")"
[ "$(counts "$st")" = "5|13|245|4" ] || fail "docs|runs|results|devices: $(counts "$st"), want 5|13|245|4"
# adding again changes nothing, not one byte of the tables
sqlite3 "$st" .dump >"$tmp/dump1"
"$bin" store add "$tmp"/gen/*.json --store "$st" >"$tmp/add2" || fail "store add again exited $?"
[ "$(grep -c '^known' "$tmp/add2")" = 4 ] || fail "a second add is not 'known': $(cat "$tmp/add2")"
sqlite3 "$st" .dump >"$tmp/dump2"
cmp -s "$tmp/dump1" "$tmp/dump2" || fail "adding the same documents again changed the store"
# a copy with other bytes (another serialization) is another document, its runs other runs
python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], 'w'))" "$tmp/gen/gen-0000.json" "$tmp/copy.json"
"$bin" store add "$tmp/copy.json" --store="$st" | grep -q '^added' || fail "a re-serialized document was not added"

# list, show, history answer what the documents say
"$bin" store list --store="$st" >"$tmp/list" || fail "store list exited $?"
grep -q '^1 *node0000/0:0 *Gen GPU *Gen *1.0 *2026-01-01T03:00:00Z *5$' "$tmp/list" || fail "store list: $(cat "$tmp/list")"
"$bin" store show node0000/0:2 --store="$st" >"$tmp/show" || fail "store show exited $?"
grep -q 'gen.row016 *- *GB/s *unsupported' "$tmp/show" || fail "store show lacks the unsupported row: $(head -12 "$tmp/show")"
"$bin" store history 'node0000/0:1' gen.row003 --store="$st" >"$tmp/hist" || fail "store history exited $?"
python3 - "$tmp/hist" "$tmp"/gen/gen-000[0-3].json "$tmp/copy.json" <<'PY' || fail "store history differs from the documents: $(cat "$tmp/hist")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
want = []
for f in sys.argv[2:]:
    d = json.load(open(f))
    r = [x for x in d["devices"][1]["results"] if x["name"] == "gen.row003"][0]
    want.append((d["provenance"]["date"], r["value"], r["stats"]["n"]))
want.sort(key=lambda w: w[0])
got = [(l.split()[0], float(l.split()[1]), int(l.split()[4])) for l in lines]
assert len(got) == len(want), (got, want)
for g, w in zip(got, want):
    assert g[0] == w[0] and abs(g[1] - w[1]) <= 5e-4 * abs(w[1]) and g[2] == w[2], (g, w)
PY
"$bin" store show 'no such device' --store="$st" >/dev/null 2>&1; [ $? = 2 ] || fail "an unknown device is not exit 2"
"$bin" store show node --store="$st" >/dev/null 2>"$tmp/amb"; [ $? = 2 ] || fail "an ambiguous device is not exit 2"
grep -q "names 3 devices" "$tmp/amb" || fail "the ambiguity is not explained: $(cat "$tmp/amb")"
"$bin" store history 1 no.such.row --store="$st" >/dev/null 2>&1; [ $? = 2 ] || fail "an unknown row is not exit 2"
"$bin" store frobnicate --store="$st" >/dev/null 2>&1; [ $? = 2 ] || fail "an unknown subcommand is not exit 2"

# run --store keeps what --json wrote, byte for byte; export gives it back
"$bin" run --quick 'launch.roundtrip' --json "$tmp/run.json" --store="$st" >/dev/null 2>"$tmp/run.err" ||
    fail "run --store exited $?: $(tail -2 "$tmp/run.err")"
h=$(sha256sum "$tmp/run.json" | cut -c1-12)
grep -q "stored as doc 7 ($h)" "$tmp/run.err" || fail "run --store did not store its document: $(tail -2 "$tmp/run.err")"
"$bin" store export "$h" --store="$st" >"$tmp/export.json" || fail "store export exited $?"
cmp -s "$tmp/run.json" "$tmp/export.json" || fail "the exported document differs from the one run wrote"
python3 "$src/tests/check_schema.py" "$tmp/export.json" >/dev/null || fail "the export does not conform to the schema"
"$bin" store export 7 --json "$tmp/export7.json" --store="$st" && cmp -s "$tmp/run.json" "$tmp/export7.json" ||
    fail "export by id to --json differs"
"$bin" store export --store="$st" >"$tmp/all.json" || fail "store export (all) exited $?"
python3 - "$tmp/all.json" "$tmp"/gen/gen-000[0-3].json "$src/tests/data/sample.json" "$tmp/copy.json" "$tmp/run.json" <<'PY' || fail "the exported array is not the documents added"
import json, sys
got = json.load(open(sys.argv[1]))
want = [json.load(open(f)) for f in sys.argv[2:]]
assert got == want, [len(got), len(want)]
PY
"$bin" store export abcdef999 --store="$st" >/dev/null 2>&1; [ $? = 2 ] || fail "an unknown document is not exit 2"

# run --mpi --store: rank 0 adds the file it wrote (a fleet document of 2 runs), which comes back equal
if command -v mpirun >/dev/null && ! "$bin" run launch.roundtrip --mpi --json "$tmp/x.json" 2>&1 | grep -q "built without MPI"; then
    (export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
        POCL_MAX_PTHREAD_COUNT=1 POCL_DEVICES="pthread pthread"
     mpirun -np 2 "$bin" run launch.roundtrip --quick --quiet --mpi --type cpu --json "$tmp/mpi.json" --store="$tmp/mpi.sqlite") \
        >/dev/null 2>"$tmp/mpi.err" || fail "run --mpi --store exited $?: $(tail -2 "$tmp/mpi.err")"
    [ "$(sqlite3 "$tmp/mpi.sqlite" "SELECT kind, (SELECT count(*) FROM runs) FROM docs")" = "fleet|2" ] ||
        fail "run --mpi --store: $(sqlite3 "$tmp/mpi.sqlite" 'SELECT kind FROM docs'), want one fleet document of 2 runs"
    "$bin" store export 1 --store="$tmp/mpi.sqlite" | python3 -c "import json,sys; assert json.load(sys.stdin) == json.load(open(sys.argv[1]))" "$tmp/mpi.json" ||
        fail "run --mpi --store: the stored document differs from the file"
fi

# the default place, and a bare --store adds to it
"$bin" run --quick 'launch.roundtrip' --store >/dev/null 2>&1 || fail "run --store (default place) exited $?"
[ "$(sqlite3 "$XDG_DATA_HOME/clbench/store.sqlite" 'SELECT count(*) FROM docs')" = 1 ] || fail "no store at \$XDG_DATA_HOME/clbench/store.sqlite"
"$bin" store list | grep -q ' 1$' || fail "store list without --store does not read the default place"

# refused and untouched: not SQLite, another application's SQLite file, a newer schema, no store
printf 'just text, not a database\n%.0s' {1..300} >"$tmp/text.sqlite"
sqlite3 "$tmp/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES(1)'
cp "$st" "$tmp/newer.sqlite" && sqlite3 "$tmp/newer.sqlite" "PRAGMA journal_mode=DELETE; UPDATE meta SET value = 99 WHERE key = 'schema_version'" >/dev/null
for f in text.sqlite other.db newer.sqlite; do
    sum=$(sha256sum "$tmp/$f")
    "$bin" store add "$src/tests/data/sample2.json" --store="$tmp/$f" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc = 2 ] || fail "$f: store add exited $rc, want 2 ($(cat "$tmp/err"))"
    "$bin" store list --store="$tmp/$f" >/dev/null 2>&1; [ $? = 2 ] || fail "$f: store list not exit 2"
    [ "$(sha256sum "$tmp/$f")" = "$sum" ] || fail "$f was changed"
    ls "$tmp/$f"-* >/dev/null 2>&1 && fail "$f got side files: $(ls "$tmp/$f"-*)"
done
grep -q "newer than this clbench" "$tmp/err" || fail "the newer store is not named as such: $(cat "$tmp/err")"
"$bin" store list --store="$tmp/none.sqlite" >/dev/null 2>&1; [ $? = 2 ] || fail "a missing store is not exit 2"
[ -e "$tmp/none.sqlite" ] && fail "store list created a store"
# a bad document among good ones: exit 2, the good ones added
echo '{"schema_version": "1.0.0", "devices": [' >"$tmp/trunc.json"
"$bin" store add "$tmp/trunc.json" "$src/tests/data/sample2.json" --store="$tmp/b.sqlite" >"$tmp/b.out" 2>&1; rc=$?
[ $rc = 2 ] || fail "a truncated document: exit $rc, want 2"
grep -q "^added .*sample2.json" "$tmp/b.out" || fail "the good document after a bad one was not added"
# odd but valid documents come back as they were: numbers exactly (-0, 1e300, 2^53 + 2, 0.1),
# duplicate keys, an entry without results, results that are no array; export -> add -> export
cat >"$tmp/odd.json" <<'J'
{"schema_version": "1.0.0", "x": [-0.0, 1e300, 9007199254740994, 0.1, -17, "\u00e9\t\"", true, false, null, {}, []],
 "devices": [{"results": 5}, {"a": 1}, {"results": [{"name": "r", "status": "ok", "value": -0.0, "stats": {"cv": 0.25, "n": 3, "mean": -0.0}},
   {"name": "r", "status": "error", "value": 7}], "results": 7, "selection": {"platform_index": 0, "device_index": 1}}], "devices": 3}
J
"$bin" store add "$tmp/odd.json" --store="$tmp/odd.sqlite" >/dev/null || fail "the odd document was not added"
"$bin" store export 1 --store="$tmp/odd.sqlite" >"$tmp/odd1.json" || fail "the odd document was not exported"
"$bin" store add "$tmp/odd1.json" --store="$tmp/odd.sqlite" >/dev/null && "$bin" store export 2 --store="$tmp/odd.sqlite" >"$tmp/odd2.json" &&
    cmp -s "$tmp/odd1.json" "$tmp/odd2.json" || fail "export of the exported odd document differs"
python3 - "$tmp/odd.json" "$tmp/odd1.json" <<'PY' || fail "the odd document came back changed: $(head -c 300 "$tmp/odd1.json")"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b and b["x"][2] == 9007199254740994
PY
[ "$(grep -c '"results"' "$tmp/odd1.json")" = 3 ] || fail "the duplicate results member was not kept"
grep -q '"x":.\[-0, 1e+300, 9007199254740994, 0.1, -17' "$tmp/odd1.json" || fail "the numbers came back otherwise: $(grep '"x"' "$tmp/odd1.json")"
grep -q '"value":.-0,' "$tmp/odd1.json" || fail "a result's -0 came back otherwise: $(grep '"value"' "$tmp/odd1.json")"
grep -q '"mean":.-0$' "$tmp/odd1.json" || fail "a statistic's -0 came back otherwise: $(grep '"mean"' "$tmp/odd1.json")"
# the first of two results of one name counts, in each of the two documents: two runs, both ok
h=$("$bin" store history '?/0:1' r --store="$tmp/odd.sqlite")
[ "$(grep -c ' ok ' <<<"$h")" = 2 ] && ! grep -q ' error ' <<<"$h" || fail "the first of two results of one name is not the one kept: $h"
[ "$(sqlite3 "$tmp/odd.sqlite" 'SELECT sum(nres) FROM runs')" = 2 ] || fail "one record per name and run: $(sqlite3 "$tmp/odd.sqlite" 'SELECT sum(nres) FROM runs'), want 2"

# hostile documents (the streamed reader's cases too): exit 2, nothing stored; a BOM is skipped
i=0
for bad in '' '[]' '{"schema_version": "1.0.0"}' '{"schema_version": "9.0.0", "devices": []}' \
    '{"schema_version": "1.0.0", "devices": [{"results": [tru]}]}' '{"schema_version": "1.0.0", "devices": [{}, ]}' \
    '{"schema_version": "1.0.0", "devices": [{}]} x' '{"schema_version": "1.0.0", "devices": [{"a": "\u00"}]}' \
    '{"schema_version": "1.0.0", "devices": {}}' '{"schema_version": "1.0.0", "devices": [1]}'; do
    i=$((i + 1))
    printf '%s' "$bad" >"$tmp/bad$i.json"
    "$bin" store add "$tmp/bad$i.json" --store="$tmp/b.sqlite" >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc = 2 ] || fail "hostile document $i ($bad): exit $rc, want 2"
    grep -q "bad$i.json" "$tmp/err" || fail "hostile document $i: the message does not name the file: $(cat "$tmp/err")"
done
[ "$(sqlite3 "$tmp/b.sqlite" 'SELECT count(*) FROM docs')" = 1 ] || fail "a hostile document was stored"
printf '\xef\xbb\xbf' | cat - "$src/tests/data/sample.json" >"$tmp/bom.json"
"$bin" store add "$tmp/bom.json" --store="$tmp/b.sqlite" | grep -q '^added' || fail "a document with a byte order mark was not added"
finish "store add/list/show/history/export, run --store, refusals"
