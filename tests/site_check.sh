#!/usr/bin/env bash
# The store's static site from a hostile model (tests/test_site.c: payloads in every string,
# "../../etc" names, controls, invalid UTF-8, a duplicated key): every page well-formed, every
# link relative and resolving to a page of the site, no orphan page, nothing written outside the
# site, no element or attribute that runs or loads anything, every field's payload shown as text
# (tests/site_check.py). The site is written twice over itself: the second pass must leave the
# same files.
# usage: site_check.sh TEST_SITE SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
site=$tmp/a/b/site
mkdir -p "$tmp/a/b"
out=$("$bin" write "$site") || { echo "FAIL: test_site write exit $?"; exit 1; }
read -r _ ndev _ nmodel <<<"$out"
fields=(title key model vendor driver host ceiling.name ceiling.unit row.name row.unit point.status
        point.status.old score.machine score.device score.variant score.reason)
python3 "$src/tests/site_check.py" "$tmp" "$site" "$ndev" "$nmodel" "${fields[@]}" || exit 1
(cd "$site" && find . -type f | sort) >"$tmp/first"
"$bin" write "$site" >/dev/null || { echo "FAIL: writing over the site, exit $?"; exit 1; }
(cd "$site" && find . -type f | sort) | cmp -s - "$tmp/first" || { echo "FAIL: the second pass left other files"; exit 1; }
echo "PASS: site_check"
