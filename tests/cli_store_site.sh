#!/usr/bin/env bash
# clbench store site DIR (docs/store.md, "The site") from a real store: two run --quick documents
# of the local device, a simulated fleet (peers/fleet_sim.py, 3 runs of 4 devices), a copy of it
# with payloads in its names (hosts, "../../x", model, vendor, driver, a row name and unit, a
# status text) and suite documents on the real device (an ok and a void score, two variants, a
# hostile machine). The site: the index's headline figures, a real row's history with its spread
# band and the suite scores as the documents say (store_site_docs.py); every page well-formed,
# links resolving, no orphan, nothing outside DIR, payloads shown as text (site_check.py); every
# page rendered in headless Chromium without an error (site_browser.py, when chromium is
# installed). DIR refused (exit 2, nothing written): the store itself, a folder holding the
# store, a file, a missing parent; a missing store is exit 2.
# usage: cli_store_site.sh CLBENCH SOURCE_DIR
. "$(dirname "$0")/store_lib.sh" "$@"
"$bin" run --quick compute.fp32.fma compute.fp32.add memory.triad memory.copy transfer.h2d_pinned \
    --json "$tmp/r1.json" --store="$st" >/dev/null 2>"$tmp/r1.err"
rc=$?
[ $rc -eq 3 ] && { echo "SKIP: no OpenCL device"; exit 77; }
[ $rc -eq 0 ] || { echo "FAIL: run exited $rc: $(tail -3 "$tmp/r1.err")"; exit 1; }
"$bin" run --quick compute.fp32.fma compute.fp32.add memory.triad --json "$tmp/r2.json" --store="$st" \
    >/dev/null 2>"$tmp/r2.err" || fail "the second run exited $?: $(tail -3 "$tmp/r2.err")"
python3 "$src/peers/fleet_sim.py" "$tmp/r1.json" 4 "$tmp/fleet" "$tmp/truth.json" --runs 3 --drifts 0 --seed 7 >/dev/null ||
    fail "fleet_sim exited $?"
python3 "$src/tests/store_site_docs.py" make "$tmp/r1.json" "$(ls "$tmp"/fleet/*.json | tail -1)" "$tmp" ||
    fail "making the hostile and suite documents"
docs=("$tmp"/fleet/*.json "$tmp/hostile.json" "$tmp/suite-a.json" "$tmp/suite-b.json")
"$bin" store add "${docs[@]}" --store="$st" >"$tmp/add" 2>&1 || fail "store add exited $?: $(tail -3 "$tmp/add")"

# refusals: exit 2, nothing written
mkdir -p "$tmp/held"
cp "$st" "$tmp/held/s.sqlite"
: >"$tmp/afile"
refuse() { # DIR STORE WHAT
    "$bin" store site "$1" --store="$2" >/dev/null 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] || fail "store site $3: exit $rc, want 2 ($(cat "$tmp/err"))"
}
refuse "$st" "$st" "onto the store file"
refuse "$tmp/held" "$tmp/held/s.sqlite" "into the folder that holds the store"
[ "$(ls "$tmp/held")" = s.sqlite ] || fail "a refused site wrote into the store's folder: $(ls "$tmp/held")"
refuse "$tmp/afile" "$st" "onto a file"
[ -s "$tmp/afile" ] && fail "a refused site wrote into the file"
refuse "$tmp/no/such/site" "$st" "below a missing folder"
refuse "$tmp/nostore-site" "$tmp/none.sqlite" "of a missing store"
[ -e "$tmp/nostore-site" ] || [ -e "$tmp/none.sqlite" ] && fail "a refused site left files behind"

# the site
mkdir -p "$tmp/out"
site=$tmp/out/site
start=$(date +%s%N)
"$bin" store site "$site" --store="$st" >"$tmp/site.out" 2>&1 || fail "store site exited $?: $(cat "$tmp/site.out")"
echo "store site: $(( ($(date +%s%N) - start) / 1000000 )) ms: $(cat "$tmp/site.out")"
ndev=$(sqlite3 "$st" "SELECT count(*) FROM devices")
nmodel=$(sqlite3 "$st" "SELECT count(DISTINCT model) FROM devices")
python3 "$src/tests/store_site_docs.py" check "$site" "$tmp/r1.json" "$tmp/r2.json" "${docs[@]}" || fail "the site differs from the documents"
fields=(host model vendor driver row.name row.unit point.status score.machine score.device score.variant score.reason)
python3 "$src/tests/site_check.py" "$tmp/out" "$site" "$ndev" "$nmodel" "${fields[@]}" || fail "site_check"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
    timeout 120 python3 "$src/tests/site_browser.py" "$chrome" "$site" "$tmp/profile" || fail "site_browser"
else
    echo "note: chromium not installed; the browser walk was skipped"
fi
finish "cli_store_site"
