#!/bin/sh
# SIGINT, SIGTERM and SIGHUP are caught from the start of `clbench run`, before device
# discovery: a signal during discovery still gives the JSON document, marked interrupted, and
# exit 128 + signal. The moment is found, not guessed: the test watches /proc/PID/maps until an
# OpenCL platform library (an ICD file's library) is loaded, i.e. discovery has begun; then the
# signal must show as caught in /proc/PID/status (SigCgt), and it is sent. A SIGHUP ignored from
# the start (nohup) stays ignored: that run completes.
# usage: proc_signals.sh CLBENCH
set -eu
clb=$1
. "$(dirname "$0")/proc_lib.sh"

python3 - "$clb" "$tmp" "$tag" <<'PY' || fail "stop signals"
import glob, json, os, signal, subprocess, sys, time
clb, tmp, tag = sys.argv[1], sys.argv[2], sys.argv[3]
vendors = set()
for d in [os.environ.get("OCL_ICD_VENDORS") or "/etc/OpenCL/vendors"]:
    for f in glob.glob(os.path.join(d, "*.icd")):
        vendors.add(os.path.basename(open(f).read().strip()))
assert vendors, "no ICD files: cannot tell when discovery starts"
env = dict(os.environ)
k, v = tag.split("=", 1)
env[k] = v

def loaded(pid):
    try:
        maps = open(f"/proc/{pid}/maps").read()
    except OSError:
        return []
    return [v for v in vendors if v in maps]

def caught(pid, sig):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("SigCgt:"):
                return (int(line.split()[1], 16) >> (sig - 1)) & 1
    except OSError:
        pass
    return 0

for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    out = os.path.join(tmp, f"{sig.name}.json")
    p = subprocess.Popen([clb, "run", "launch.roundtrip", "--quick", "--quiet", "--json", out], env=env)
    t0 = time.monotonic()
    while not loaded(p.pid) and p.poll() is None and time.monotonic() - t0 < 10:
        pass
    assert p.poll() is None, f"{sig.name}: clbench ended before discovery was seen (exit {p.returncode})"
    handled = caught(p.pid, sig)
    p.send_signal(sig)
    rc = p.wait(30)
    ms = 1e3 * (time.monotonic() - t0)
    assert handled, f"{sig.name}: not caught yet when device discovery began (exit {rc})"
    assert rc == 128 + sig, f"{sig.name}: exit {rc}, expected {128 + sig}"
    doc = json.load(open(out))
    assert doc["provenance"]["interrupted_by_signal"] == sig, doc["provenance"]
    assert all(r["status"] == "interrupted" for d in doc["devices"] for r in d["results"]), doc["devices"]
    print(f"ok: SIG{sig.name[3:]} as discovery begins: exit {rc}, JSON marked interrupted ({ms:.0f} ms)")

out = os.path.join(tmp, "nohup.json")
p = subprocess.Popen([clb, "run", "launch.roundtrip", "--quick", "--quiet", "--json", out], env=env,
                     preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
while not loaded(p.pid) and p.poll() is None:
    pass
p.send_signal(signal.SIGHUP)
rc = p.wait(60)
doc = json.load(open(out))
assert rc == 0 and "interrupted_by_signal" not in doc["provenance"], (rc, doc["provenance"])
assert [r["status"] for r in doc["devices"][0]["results"]] == ["ok"], doc["devices"][0]["results"]
print("ok: SIGHUP ignored from the start (nohup) stays ignored: the run completed")
PY
# Commands that do not run benchmarks keep the default action: SIGINT ends `list` at once.
env "$tag" "$clb" list >/dev/null 2>&1 & pid=$!
kill -INT $pid 2>/dev/null || true
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] || [ "$rc" = 0 ] || fail "list after SIGINT: exit $rc"
left=$(survivors 3)
[ -z "$left" ] || fail "stray processes: $left"
echo "PASS: stop signals caught before discovery, SIGHUP as SIGTERM"
