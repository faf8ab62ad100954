#!/usr/bin/env bash
# The store wired to the judges (docs/store.md): store drift finds a planted step in a simulated
# history, names its device, row and the runs either side of it, exits 1, and leaves steady
# histories and too-short ones alone (exit 0); fleet-check --store flags what the file-based
# fleet-check flags on the same documents; store history --html writes a well-formed page with
# its plot, a hostile row name escaped, and refuses to write over the store.
# usage: cli_store_drift.sh CLBENCH SOURCE_DIR
. "$(dirname "$0")/store_lib.sh" "$@"

# 64 devices x 20 rows x 8 weekly runs; 3 drifts, 2 slow cards (seed 3: two drifts clear the noise)
python3 "$src/peers/fleet_sim.py" "$src/docs/examples/pocl.json" 64 "$tmp/f" "$tmp/truth.json" --runs 8 --rows 20 \
    --drifts 3 --faults 2 --seed 3 >/dev/null || fail "fleet_sim exited $?"
"$bin" store add "$tmp"/f/*.json --store="$st" >/dev/null || fail "store add exited $?"

# --all: exit 1; every planted drift on a row quieter than 10 % moved, between the runs the truth
# names; nothing else moved
"$bin" store drift --all --store="$st" >"$tmp/all"
rc=$?
[ $rc = 1 ] || fail "store drift --all exited $rc, want 1: $(cat "$tmp/all")"
python3 - "$tmp/all" "$tmp/truth.json" <<'PY' || fail "store drift --all against the truth: $(cat "$tmp/all")"
import json, re, sys
t = json.load(open(sys.argv[2]))
key = lambda i: "node%04d/0:%d" % (i // 8, i % 8)
want = {(key(d["device"]), d["result"]): t["runs"][d["run"] - 1]["date"] + "|" + d["date"]
        for d in t["drifts"] if d["spread_cv"] < 0.10}
got = {}
for line in open(sys.argv[1]):
    m = re.match(r"MOVED  (\S+)  (\S+): between run \d+ \((\S+)\) and run \d+ \((\S+)\): moved ", line)
    if m:
        got[(m[1], m[2])] = m[3] + "|" + m[4]
planted = {(key(d["device"]), d["result"]) for d in t["drifts"]}
ok = len(want) >= 2 and all(got.get(k) == v for k, v in want.items()) and set(got) <= planted
print("want", want, "got", got)
sys.exit(0 if ok else 1)
PY
grep -q '^1280 series tested: 2 moved, 1278 steady, 0 with too few runs' "$tmp/all" || fail "the summary: $(tail -1 "$tmp/all")"
# --json FILE: the same moved rows and summary as the lines; --json -: the JSON alone on stdout
"$bin" store drift --all --store="$st" --json "$tmp/all.json" >/dev/null; rc=$?
"$bin" store drift --all --store="$st" --json - >"$tmp/all.stdout"; rc2=$?
python3 - "$tmp/all" "$tmp/all.json" "$tmp/all.stdout" <<'PY' || fail "store drift --json (exit $rc, $rc2): $(head -c 600 "$tmp/all.json")"
import json, re, sys
lines = {(m[1], m[2], m[3], m[4]) for m in (re.match(r"MOVED  (\S+)  (\S+): between run (\d+) .* and run (\d+) ", l)
                                           for l in open(sys.argv[1])) if m}
j, k = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
got = {(m["device"], m["row"], str(m["run_before"]), str(m["run_after"])) for m in j["moved"]}
s = j["summary"]
sys.exit(0 if j == k and got == lines and len(lines) == 2 and (s["tested"], s["moved"], s["steady"], s["too_few"]) ==
         (1280, 2, 1278, 0) else 1)
PY
[ $rc = 1 ] && [ $rc2 = 1 ] || fail "store drift --json: exit $rc and $rc2, want 1"
"$bin" store drift --all --store="$st" --json "$st" 2>/dev/null; [ $? = 2 ] || fail "--json onto the store: not exit 2"
# one device: the drifted one exits 1 naming its row, a steady one 0
"$bin" store drift node0001/0:0 --store="$st" >"$tmp/one" ; rc=$?
[ $rc = 1 ] && grep -q '^MOVED  node0001/0:0  transfer.d2h_pinned: .*(2026-10-04T03:00:00Z): moved ' "$tmp/one" ||
    fail "store drift node0001/0:0 exited $rc: $(cat "$tmp/one")"
"$bin" store drift node0000/0:0 --store="$st" >"$tmp/steady" ; rc=$?
[ $rc = 0 ] && grep -q '^20 series tested: 0 moved, 20 steady, 0 with too few runs' "$tmp/steady" ||
    fail "store drift of a steady device exited $rc: $(cat "$tmp/steady")"
# too few runs: 5 runs cannot place a split with 3 on each side
"$bin" store add "$tmp"/f/fleet-2026-09-*.json "$tmp"/f/fleet-2026-10-04.json --store="$tmp/few.sqlite" >/dev/null
"$bin" store drift --all --store="$tmp/few.sqlite" >"$tmp/few" ; rc=$?
[ $rc = 0 ] && grep -q '^1280 series tested: 0 moved, 0 steady, 1280 with too few runs (fewer than 6 with a value)' "$tmp/few" ||
    fail "5 runs: exit $rc: $(cat "$tmp/few")"
# usage and unusable stores: exit 2
"$bin" store drift node0000/0:0 --all --store="$st" 2>/dev/null; [ $? = 2 ] || fail "DEVICE and --all: not exit 2"
"$bin" store drift a b --store="$st" 2>/dev/null; [ $? = 2 ] || fail "two devices: not exit 2"
"$bin" store drift nosuch --store="$st" 2>/dev/null; [ $? = 2 ] || fail "an unknown device: not exit 2"
echo "not a store" >"$tmp/text.sqlite"
"$bin" store drift --all --store="$tmp/text.sqlite" 2>/dev/null; [ $? = 2 ] || fail "a file that is not a store: not exit 2"

# fleet-check --store: the same flags and exit code as fleet-check of the last document
for spread in 3% 10%; do
    "$bin" fleet-check "$tmp/f/fleet-2026-10-25.json" --max-spread $spread >"$tmp/file.out"; frc=$?
    "$bin" fleet-check --store="$st" --max-spread $spread >"$tmp/store.out"; src_rc=$?
    [ $frc = $src_rc ] || fail "--max-spread $spread: exit $src_rc from the store, $frc from the file"
    sed -E 's/^FLAG  (node[0-9]+) rank [0-9]+ dev ([0-9]+:[0-9]+) \([^)]*\)/FLAG  \1\/\2/' "$tmp/file.out" | sort >"$tmp/file.n"
    sort "$tmp/store.out" >"$tmp/store.n"
    cmp -s "$tmp/file.n" "$tmp/store.n" || fail "--max-spread $spread: fleet-check --store differs: $(diff "$tmp/file.n" "$tmp/store.n")"
done
grep -c '^FLAG' "$tmp/store.out" | grep -qx 2 || fail "fleet-check --store at 10 %: not the 2 drifted devices: $(cat "$tmp/store.out")"
"$bin" fleet-check --store="$st" "$tmp/f/fleet-2026-10-25.json" 2>/dev/null; [ $? = 2 ] || fail "--store with files: not exit 2"
# siblings share model and driver: two devices of another driver at half the speed are their own
# kind (not flagged against the 64, nor the 64 against them)
python3 - "$tmp/f/fleet-2026-10-25.json" "$tmp/drv2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["devices"] = d["devices"][:2]
for i, dev in enumerate(d["devices"]):
    dev["node"] = "other%d" % i
    dev["device"]["CL_DRIVER_VERSION"] = "9.9"
    for r in dev["results"]:
        if r.get("value"):
            r["value"] *= 0.5 if r.get("better", "higher") == "higher" else 2
d["provenance"]["date"] = "2026-11-01T03:00:00Z"
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$st" "$tmp/k.sqlite"
"$bin" store add "$tmp/drv2.json" --store="$tmp/k.sqlite" >/dev/null || fail "adding the second driver's document"
"$bin" fleet-check --store="$tmp/k.sqlite" --max-spread 10% >"$tmp/kinds.out"; rc=$?
[ $rc = 1 ] && [ "$(grep -c '^FLAG' "$tmp/kinds.out")" = 2 ] && grep -q '^== 2 x .*(driver 9.9)$' "$tmp/kinds.out" &&
    grep -q '^66 device(s) of 2 kind(s); 2 flag(s)' "$tmp/kinds.out" || fail "two drivers: exit $rc: $(cat "$tmp/kinds.out")"

# history --html: a hostile row name escaped, the page well-formed with its plot
python3 - "$tmp/f/fleet-2026-10-25.json" "$tmp/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["devices"] = d["devices"][:2]
for dev in d["devices"]:
    dev["results"][0]["name"] = "</td><script>alert(1)</script>&\"'"
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" store add "$tmp/hostile.json" --store="$tmp/h.sqlite" >/dev/null || fail "adding the hostile document"
"$bin" store history node0000/0:0 "</td><script>alert(1)</script>&\"'" --html "$tmp/h.html" --store="$tmp/h.sqlite" >"$tmp/h.txt" ||
    fail "store history --html exited $?"
python3 - "$tmp/h.html" <<'PY' || fail "the history page: $(head -c 2000 "$tmp/h.html")"
import html.parser, sys
text = open(sys.argv[1]).read()
void = {"meta", "br", "img", "input", "link", "hr"}
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.bad = []; s.tags = set()
    def handle_starttag(s, t, a):
        s.tags.add(t)
        if t not in void: s.stack.append(t)
    def handle_startendtag(s, t, a): s.tags.add(t)
    def handle_endtag(s, t):
        if not s.stack or s.stack[-1] != t: s.bad.append(t)
        else: s.stack.pop()
p = P(); p.feed(text); p.close()
ok = (not p.bad and not p.stack and "script" not in p.tags and {"svg", "table", "polyline"} <= p.tags and
      "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in text and text.count("<tr>") == 2)
print(p.bad, p.stack, sorted(p.tags))
sys.exit(0 if ok else 1)
PY
cp "$tmp/h.sqlite" "$tmp/h.copy"
"$bin" store history node0000/0:0 "</td><script>alert(1)</script>&\"'" --html "$tmp/h.sqlite" --store="$tmp/h.sqlite" 2>/dev/null
[ $? = 2 ] || fail "--html onto the store: not exit 2"
cmp -s "$tmp/h.sqlite" "$tmp/h.copy" || fail "--html onto the store changed it"

finish "cli_store_drift"
