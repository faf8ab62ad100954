#!/bin/sh
# clbench recommend on results files (no OpenCL): stdout carries only the chosen selector, the
# ranking matches the suite's measured times in the same files, a device without the needed
# rows is "not ranked: missing", and the exit codes (docs/cli.md). Usage: cli_recommend.sh CLBENCH
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
# Two devices as two files (as two PoCL configurations give): B has twice A's bandwidth and GEMM rate.
python3 - "$tmp" <<'PY'
import json, sys
def doc(dev, scale, sel):
    r = lambda nm, v, u, **p: {"name": nm, "status": "ok", "value": v, "unit": u, "params": p}
    res = [r("memory.triad", 10 * scale, "GB/s"), r("memory.copy", 9 * scale, "GB/s"),
           r("launch.queued_end", 20, "us"), r("app.sgemm.tuned", 50 * scale, "GFLOP/s", n=512),
           r("app.saxpy.opencl", 8 * scale, "GB/s", curve={"points": [[1e3, 8 * scale], [1e9, 8 * scale]]}),
           r("app.euler.string.f32.vectorized", 1 / scale, "ns")]
    return {"schema_version": "1.0.0", "provenance": {}, "devices": [
        {"selection": {"platform_index": 0, "device_index": sel}, "device": {"CL_DEVICE_NAME": dev}, "results": res}]}
d = sys.argv[1]
json.dump(doc("slow", 1, 0), open(d + "/a.json", "w"))
json.dump(doc("fast", 2, 1), open(d + "/b.json", "w"))
bare = doc("bare", 4, 2); bare["devices"][0]["results"] = []
json.dump(bare, open(d + "/c.json", "w"))
PY
for w in stream gemm stencil; do
    out=$("$bin" recommend --workload $w --from "$tmp/a.json" --from "$tmp/b.json" --from "$tmp/c.json" 2>"$tmp/err")
    rc=$?
    [ "$rc" = 0 ] && [ "$out" = "0:1" ] || fail "$w: exit $rc, stdout '$out' (want 0 and 0:1)"
    grep -q "agree" "$tmp/err" && ! grep -q DISAGREE "$tmp/err" || fail "$w: ranking not checked as agreeing: $(cat "$tmp/err")"
    grep -q "c.json: bare" "$tmp/err" && grep -q "not ranked: missing" "$tmp/err" || fail "$w: the bare device is not listed as not ranked"
done
# The size enters the prediction: GEMM at n=1000 on the fast device: 2e9 / 100e9 = 0.02 s.
"$bin" recommend --workload gemm --size 1000 --from "$tmp/b.json" 2>&1 >/dev/null | grep -q "predicted 0.02 s" ||
    fail "gemm --size 1000 does not predict 0.02 s"
# Latency: a CPU whose empty-kernel round trip is short but whose chase launches cost 200 us
# outside the kernel (memory.latency's wall - event) against a GPU. The old model
# (launch.roundtrip + loads x memory.latency) chose the CPU: 20 + 102.4 = 122.4 us vs 214.8 us;
# the chase's own launch makes it 302.4 us, and the measured chases agree with the GPU.
python3 - "$tmp" <<'PY'
import json, sys
def doc(dev, kind, sel, rt, ns, wall_minus_ev_us, chase_us):
    r = lambda nm, v, u, **p: {"name": nm, "status": "ok", "value": v, "unit": u, "params": p}
    res = [r("launch.roundtrip", rt, "us"),
           r("memory.latency", ns, "ns", wall_time_median_s=0.01 + wall_minus_ev_us * 1e-6,
             launch_time_median_s=0.01, work_per_launch=100000, working_set_bytes=1 << 30),
           r("memory.chase_roundtrip", chase_us, "us", loads=1024)]
    return {"schema_version": "1.0.0", "provenance": {}, "devices": [
        {"selection": {"platform_index": 0, "device_index": sel},
         "device": {"CL_DEVICE_NAME": dev, "CL_DEVICE_TYPE": kind}, "results": res}]}
d = sys.argv[1]
json.dump(doc("cpu", "CL_DEVICE_TYPE_CPU", 0, 20, 100, 200, 310), open(d + "/lc.json", "w"))
json.dump(doc("gpu", "CL_DEVICE_TYPE_GPU", 1, 10, 200, 500, 215), open(d + "/lg.json", "w"))
PY
out=$("$bin" recommend --workload latency --from "$tmp/lc.json" --from "$tmp/lg.json" 2>"$tmp/err")
rc=$?
[ "$rc" = 0 ] && [ "$out" = "0:1" ] || fail "latency: exit $rc, stdout '$out' (want 0 and 0:1): $(cat "$tmp/err")"
grep -q "predicted 0.0003024 s" "$tmp/err" && grep -q "agree" "$tmp/err" && ! grep -q DISAGREE "$tmp/err" ||
    fail "latency: the CPU's chase launch not used or the ranking not agreeing: $(cat "$tmp/err")"
"$bin" recommend --workload latency --from "$tmp/c.json" >"$tmp/out" 2>/dev/null
rc=$?; [ "$rc" = 3 ] && [ ! -s "$tmp/out" ] || fail "nothing rankable: exit $rc (want 3) or stdout not empty"
"$bin" recommend --workload gemmm --from "$tmp/a.json" >/dev/null 2>&1; [ $? = 2 ] || fail "unknown workload not exit 2"
echo '{"schema_version": "1.0.0", "devices": [' > "$tmp/bad.json"
"$bin" recommend --workload gemm --from "$tmp/bad.json" >/dev/null 2>&1; [ $? = 2 ] || fail "malformed file not exit 2"
"$bin" recommend --workload gemm --data-on moon --from "$tmp/a.json" >/dev/null 2>&1; [ $? = 2 ] || fail "--data-on moon not exit 2"
echo "cli_recommend: $fails failure(s)"
[ "$fails" = 0 ]
