"""The store's commands against the fleet simulator's truth (peers/fleet_sim.py at scale).

usage: store_eval.py drift STORE_DRIFT_OUTPUT TRUTH.json
           every planted drift moved, the change placed at its run (the run after `and run` has
           the planted run's date), and no other history moved; exit 1 otherwise
       store_eval.py labels FLEET_CHECK_STORE_OUTPUT > OUT
           fleet-check --store's lines with the file-based labels (FLAG  node0017/0:2: ->
           FLAG  node0017 rank 138 dev 0:2 (store):, rank = node x 8 + device), for
           fleet_sim.py --evaluate OUT TRUTH.json REAL.json RUN
The simulator names device i node(i // 8)/0:(i % 8); the store's key is HOST/P:D."""
import json
import re
import sys


def key(i):
    return "node%04d/0:%d" % (i // 8, i % 8)


def drift(out, truth):
    t = json.load(open(truth))
    want = {(key(d["device"]), d["result"]): d["date"] for d in t["drifts"]}
    found = at_run = 0
    false = []
    for line in open(out):
        m = re.match(r"MOVED  (\S+)  (\S+): between run \d+ \((\S+)\) and run \d+ \((\S+)\): ", line)
        if not m:
            continue
        if (m[1], m[2]) in want:
            found += 1
            at_run += m[4] == want[(m[1], m[2])]
        else:
            false.append(line.strip())
    print(f"planted drifts {len(want)}, moved {found}, at their run {at_run}; other histories moved {len(false)}"
          + "".join("\n  " + x for x in false[:10]))
    return found == at_run == len(want) and not false


def labels(out):
    for line in open(out):
        m = re.match(r"FLAG  node(\d+)/0:(\d+):", line)
        if m:
            n, dv = int(m[1]), int(m[2])
            line = "FLAG  node%s rank %d dev 0:%d (store):" % (m[1], 8 * n + dv, dv) + line[m.end():]
        sys.stdout.write(line)


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "drift":
        sys.exit(0 if drift(a[1], a[2]) else 1)
    if len(a) == 2 and a[0] == "labels":
        labels(a[1])
        sys.exit(0)
    sys.exit(__doc__)
