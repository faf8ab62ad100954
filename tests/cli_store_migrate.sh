#!/usr/bin/env bash
# Every earlier schema version of the store opens with this clbench (docs/store.md, "Migrations"):
# tests/data/store-vN.sql is a store of version N (written by that version's clbench, dumped with
# sqlite3); there is one for every N below the current version (lib/store/store.h,
# CLB_STORE_SCHEMA). Each is loaded, opened by a query, and must then be of the current version,
# pass PRAGMA integrity_check, give its documents back unchanged, and take a new document.
# usage: cli_store_migrate.sh CLBENCH SOURCE_DIR
. "$(dirname "$0")/store_lib.sh" "$@"
current=$(sed -n 's/^#define CLB_STORE_SCHEMA \([0-9]*\)$/\1/p' "$src/lib/store/store.h")
[ -n "$current" ] || { echo "FAIL: no CLB_STORE_SCHEMA in lib/store/store.h"; exit 1; }
# the same documents added now: what every migrated store must export, byte for byte
"$bin" store add "$src/tests/data/sample.json" "$src/tests/data/sample2.json" --store="$tmp/now.sqlite" >/dev/null &&
    "$bin" store export 1 --store="$tmp/now.sqlite" >"$tmp/now1.json" && "$bin" store export 2 --store="$tmp/now.sqlite" >"$tmp/now2.json" ||
    fail "adding the samples to a new store failed"
want_res=$(sqlite3 "$tmp/now.sqlite" "SELECT sum(nres) FROM runs")
n=0
for v in $(seq 1 $((current - 1))); do
    fx=$src/tests/data/store-v$v.sql
    [ -f "$fx" ] || { fail "no fixture of schema version $v (tests/data/store-v$v.sql)"; continue; }
    n=$((n + 1))
    st=$tmp/v$v.sqlite
    sqlite3 "$st" <"$fx" || { fail "store-v$v.sql does not load"; continue; }
    [ "$(sqlite3 "$st" "SELECT value FROM meta WHERE key = 'schema_version'")" = "$v" ] || fail "store-v$v.sql is not of version $v"
    "$bin" store docs --store="$st" >"$tmp/docs" 2>"$tmp/err" || fail "v$v: store docs exited $? ($(cat "$tmp/err"))"
    got=$(sqlite3 "$st" "SELECT value FROM meta WHERE key = 'schema_version'")
    [ "$got" = "$current" ] || fail "v$v: opened, the store is of version $got, not $current"
    [ "$(sqlite3 "$st" 'PRAGMA integrity_check')" = ok ] || fail "v$v: integrity_check after the migration"
    "$bin" store export 1 --store="$st" >"$tmp/e1.json" && "$bin" store export 2 --store="$st" >"$tmp/e2.json" ||
        fail "v$v: export after the migration failed"
    python3 - "$tmp/e1.json" "$src/tests/data/sample.json" "$tmp/e2.json" "$src/tests/data/sample2.json" <<'PY' ||
import json, sys
for got, want in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    assert json.load(open(got)) == json.load(open(want)), got
PY
        fail "v$v: the documents came back changed"
    cmp -s "$tmp/e1.json" "$tmp/now1.json" && cmp -s "$tmp/e2.json" "$tmp/now2.json" ||
        fail "v$v: the export differs, byte for byte, from the same documents added now"
    # every run repacked in the packed form of now (format 3: first byte 0xF4; deflated: 0xF5) beside its
    # records (points: 'P', deflated 'Q'), as many as the results it had, and no results table left
    old=$(sqlite3 "$st" "SELECT count(*) FROM runs WHERE typeof(results) != 'blob' OR hex(substr(results, 1, 1)) NOT IN ('F4', 'F5')
                          OR typeof(points) != 'blob' OR substr(points, 1, 1) NOT IN (CAST('P' AS BLOB), CAST('Q' AS BLOB))")
    [ "$old" = 0 ] || fail "v$v: $old run(s) not repacked by the migration"
    [ "$(sqlite3 "$st" "SELECT sum(nres), (SELECT count(*) FROM sqlite_master WHERE name = 'results') FROM runs")" = "$want_res|0" ] ||
        fail "v$v: records $(sqlite3 "$st" "SELECT sum(nres) FROM runs"), want $want_res; the results table is to go"
    python3 "$src/tests/store_gen.py" "$tmp/gen$v" --docs 1 --devices 1 --rows 5
    "$bin" store add "$tmp/gen$v/gen-0000.json" --store="$st" >/dev/null || fail "v$v: adding after the migration failed"
    "$bin" store docs --store="$st" | grep -q "gen$v/gen-0000.json$" || fail "v$v: the new document's source is not kept"
    "$bin" store history node0000/0:0 gen.row001 --store="$st" | grep -q ' ok ' || fail "v$v: the new runs are not queried"
done
finish "$n earlier schema version(s) migrated to $current, documents intact"
