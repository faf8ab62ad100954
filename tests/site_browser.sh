#!/usr/bin/env bash
# The store's static site in a real browser: headless Chromium walks the hostile model's site
# (tests/test_site.c) from its index through every link (tests/site_browser.py, one browser over
# the DevTools pipe): every page loads from file:// and renders (title, h1, laid-out plots), no
# page logs an error, no payload runs or becomes an element, every page is reached.
# usage: site_browser.sh TEST_SITE SOURCE_DIR. Skipped (77) when no chromium is installed.
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || { echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; }
"$bin" write "$tmp/site" >/dev/null || { echo "FAIL: test_site write exit $?"; exit 1; }
timeout 120 python3 "$src/tests/site_browser.py" "$chrome" "$tmp/site" "$tmp/profile"
