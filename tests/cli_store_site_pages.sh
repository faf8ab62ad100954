#!/usr/bin/env bash
# store site DIR written over itself (docs/store.md, "The site"): the manifest (.clbench-site)
# and what a rewrite removes. A simulated fleet (peers/fleet_sim.py, 6 devices x 2 runs; 2 of them
# given a model of their own) in store A, the same fleet less those 2 devices in store B. DIR
# written from A, a user's own files put in it (beside the pages, in device/ and in model/),
# then DIR written from B: the pages of the 2 devices and of their model are gone, the user's
# files are there, and DIR holds exactly B's pages (those of a fresh site from B) and the user's
# files. Hostile manifests (a ../ path, an absolute path, a path through ..; a page that is a
# link to a file outside DIR; the manifest a link; no header) are refused: exit 2 and a message
# naming the manifest, nothing removed (the file outside and every page as they were), no page
# written. store history --html names its page by the device's key when the device was named by
# its id (the key looked up, not the argument echoed).
# usage: cli_store_site_pages.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/xdg XDG_CACHE_HOME=$tmp/cache
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
python3 "$src/peers/fleet_sim.py" "$src/docs/examples/pocl.json" 6 "$tmp/fleet" "$tmp/truth.json" --runs 2 --rows 6 \
    --drifts 0 --samples 3 --seed 3 >/dev/null || { echo "FAIL: fleet_sim exited $?"; exit 1; }
# A: devices 4 and 5 of another model; B: without them
python3 - "$tmp" "$tmp"/fleet/*.json <<'PY' || { echo "FAIL: making the documents"; exit 1; }
import json, sys
tmp = sys.argv[1]
for i, p in enumerate(sys.argv[2:]):
    d = json.load(open(p))
    for e in d["devices"][4:]:
        e["device"]["CL_DEVICE_NAME"] = "Other GPU"
    json.dump(d, open("%s/a%d.json" % (tmp, i), "w"))
    d["devices"] = d["devices"][:4]
    json.dump(d, open("%s/b%d.json" % (tmp, i), "w"))
PY
"$bin" store add "$tmp"/a*.json --store="$tmp/a.sqlite" >/dev/null || fail "store add A exited $?"
"$bin" store add "$tmp"/b*.json --store="$tmp/b.sqlite" >/dev/null || fail "store add B exited $?"
site=$tmp/site
files() { (cd "$1" && find . \( -type f -o -type l \) | sort); }
"$bin" store site "$site" --store="$tmp/a.sqlite" >/dev/null || fail "site from A exited $?"
[ "$(ls "$site/device" | wc -l)" = 6 ] && [ "$(ls "$site/model" | wc -l)" = 2 ] || fail "site from A: $(files "$site")"
head -1 "$site/.clbench-site" | grep -qx 'clbench site manifest 1' || fail "no manifest header"
[ "$(tail -n +2 "$site/.clbench-site" | sort)" = "$(files "$site" | sed 's|^\./||' | grep -v '^\.clbench-site$' | sort)" ] ||
    fail "the manifest does not list the pages written"
echo mine >"$site/notes.txt"
echo mine >"$site/device/mine.html"
echo mine >"$site/model/zz-mine-000000000000.html" # a page's name, not in the manifest
"$bin" store site "$site" --store="$tmp/b.sqlite" >/dev/null || fail "site from B over A's exited $?"
"$bin" store site "$tmp/fresh" --store="$tmp/b.sqlite" >/dev/null || fail "a fresh site from B exited $?"
want=$( (files "$tmp/fresh"; printf './notes.txt\n./device/mine.html\n./model/zz-mine-000000000000.html\n') | sort)
[ "$(files "$site")" = "$want" ] || fail "the rewritten site holds other files than B's pages and the user's: $(diff <(files "$site") <(echo "$want"))"
for f in notes.txt device/mine.html model/zz-mine-000000000000.html; do
    [ "$(cat "$site/$f" 2>/dev/null)" = mine ] || fail "the user's $f was changed or removed"
done
cmp -s "$site/.clbench-site" "$tmp/fresh/.clbench-site" || fail "the manifest after the rewrite is not B's"

# hostile manifests: exit 2, the manifest named, nothing removed or written
echo victim >"$tmp/victim.html"
stale=$(cd "$tmp" && "$bin" store site "$tmp/a-site" --store="$tmp/a.sqlite" >/dev/null && cd a-site &&
        comm -23 <(find device model -type f | sort) <(cd "$tmp/fresh" && find device model -type f | sort) | head -1)
[ -n "$stale" ] || fail "no page of A that B does not write"
hostile() { # WHAT, then the manifest's lines on stdin (or a ready site with ln)
    local d=$tmp/h
    rm -rf "$d" && cp -a "$tmp/a-site" "$d"
    if [ "$1" != keep ]; then { echo 'clbench site manifest 1'; cat; } >"$d/.clbench-site"; fi
    files "$d" >"$tmp/before" && md5sum "$d/index.html" "$d/$stale" >"$tmp/sums" 2>/dev/null
    "$bin" store site "$d" --store="$tmp/b.sqlite" >/dev/null 2>"$tmp/err"
    local rc=$?
    [ $rc = 2 ] || fail "$2: exit $rc, want 2 ($(cat "$tmp/err"))"
    grep -q 'clbench-site' "$tmp/err" || fail "$2: the message does not name the manifest: $(cat "$tmp/err")"
    [ "$(cat "$tmp/victim.html" 2>/dev/null)" = victim ] || fail "$2: the file outside DIR was removed or changed"
    files "$d" | cmp -s - "$tmp/before" || fail "$2: files were removed or written"
    md5sum -c --quiet "$tmp/sums" >/dev/null 2>&1 || fail "$2: a page was changed"
    echo victim >"$tmp/victim.html"
}
hostile new "a ../ path" < <(printf '%s\n' "$stale" ../victim.html)
hostile new "an absolute path" < <(printf '%s\n' "$stale" "$tmp/victim.html")
hostile new "a path through .." < <(printf '%s\n' "$stale" device/../../victim.html)
hostile new "a path through .. among pages" < <(printf '%s\n' "$stale" "device/../../victim.html" "index.html")
# a page of the manifest that is a link to a file outside DIR
rm -rf "$tmp/h0" && cp -a "$tmp/a-site" "$tmp/h0"
ln -sf "$tmp/victim.html" "$tmp/a-site/$stale"
hostile keep "a stale page that is a link"
rm -f "$tmp/a-site/$stale" && cp "$tmp/h0/$stale" "$tmp/a-site/$stale"
# the manifest a link to a manifest elsewhere
printf 'clbench site manifest 1\n%s\n' "$stale" >"$tmp/other-manifest"
mv "$tmp/a-site/.clbench-site" "$tmp/a-manifest" && ln -s "$tmp/other-manifest" "$tmp/a-site/.clbench-site"
hostile keep "the manifest a link"
rm -f "$tmp/a-site/.clbench-site" && mv "$tmp/a-manifest" "$tmp/a-site/.clbench-site"
cp "$tmp/a-site/.clbench-site" "$tmp/good-manifest"
tail -n +2 "$tmp/good-manifest" >"$tmp/a-site/.clbench-site"
hostile keep "a manifest without its header"
cp "$tmp/good-manifest" "$tmp/a-site/.clbench-site"
# the same site without a hostile line: the stale page goes
rm -rf "$tmp/h" && cp -a "$tmp/a-site" "$tmp/h"
"$bin" store site "$tmp/h" --store="$tmp/b.sqlite" >/dev/null 2>"$tmp/err" || fail "a good manifest: exit $? ($(cat "$tmp/err"))"
[ -e "$tmp/h/$stale" ] && fail "a good manifest: the stale page $stale stayed"

# store history --html by the device's id: the page names the device's key
key=$(sqlite3 "$tmp/b.sqlite" "SELECT key FROM devices WHERE id = 3")
"$bin" store history 3 "$(sqlite3 "$tmp/b.sqlite" "SELECT name FROM rows ORDER BY id LIMIT 1")" --html "$tmp/h3.html" \
    --store="$tmp/b.sqlite" >/dev/null || fail "store history --html exited $?"
grep -q "<h1>$key: " "$tmp/h3.html" || fail "the history page does not name device 3 by its key $key: $(grep -o '<h1>[^<]*' "$tmp/h3.html")"
[ $fails -eq 0 ] && echo "PASS: cli_store_site_pages"
[ $fails -eq 0 ]
