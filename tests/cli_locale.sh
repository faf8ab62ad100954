#!/usr/bin/env bash
# The tool's JSON is the same under a decimal-comma locale: info is deterministic, so the
# documents must be identical but for the date and command line (the file names differ); a run's numbers keep '.'.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# derived.limit_fp32/fp64 of a CPU device use the clock measured at that moment: not compared
# (json.load already rejects a decimal comma in them).
strip() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["provenance"].pop("date"); d["provenance"].pop("command_line"); d["provenance"]["environment"].pop("LC_ALL", None); [dev.get("derived", {}).pop(k, None) for dev in d["devices"] for k in ("limit_fp32", "limit_fp64")]; print(json.dumps(d, sort_keys=True))' "$1"; }
LC_ALL=C "$bin" info --json "$tmp/c.json" >/dev/null || fails=$((fails+1))
LC_ALL=de_DE.UTF-8 "$bin" info --json "$tmp/de.json" >/dev/null || fails=$((fails+1))
[ "$(strip "$tmp/c.json")" = "$(strip "$tmp/de.json")" ] || { echo "FAIL: info JSON differs under de_DE.UTF-8"; fails=$((fails+1)); }
LC_ALL=de_DE.UTF-8 "$bin" run launch.start_end --quick --json "$tmp/run.json" >/dev/null || fails=$((fails+1))
python3 "$check" "$tmp/run.json" --min-results 1 --expect-status ok || fails=$((fails+1))
echo "cli_locale: $fails failure(s)"
[ "$fails" = 0 ]
