#!/usr/bin/env bash
# The CUDA rows' verification off NVIDIA, through a host-side twin module (tests/fake_cuda_twins.c)
# on PoCL passing for an NVIDIA GPU (the test-only preload library answers CL_DEVICE_VENDOR_ID
# 0x10de: CLBENCH_PRELOAD_VENDOR_ID): right answers give ok rows (every GEMM shape screened and valid);
# each planted defect (FAKE_CUDA_BUG) must be caught: a wrong MonteCarloPi count or StringMatch
# position or Euler component is invalid_result, the Euler twin's traffic comes from its tiling, a wrong and fastest GEMM shape is recorded as failed and never wins,
# all shapes wrong or a wrong final run is invalid_result. Every ok row carries the total time
# (params.total_s = setup_s + kernel_s + readback_s, the module's setup of 2 ms and copy back of
# 0.5 ms in it); a module that reports no phases gives no total. The product alone (no preload),
# or another vendor's id, leaves every row unsupported with the reason, the module never used. Not
# named, the module is found beside the tool, and a tool copied alone finds none.
# usage: cli_cuda_fake.sh CLBENCH FAKE_MODULE PRELOAD
set -u
bin=$1 preload=$3 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$preload" ] || { echo "FAIL: no preload library $preload" >&2; exit 1; }
export CLBENCH_CUDA_MODULE=$2 XDG_CACHE_HOME=$tmp/cache
fails=0
pre=$preload vendor=0x10de # the device the rows see: PoCL passing for an NVIDIA GPU
# case NAME BUG ROW=STATUS...: one quick run of the rows with FAKE_CUDA_BUG=BUG
case_() {
    local name=$1 b=$2
    shift 2
    local rows=()
    for rs in "$@"; do rows+=("${rs%%=*}"); done
    ( # nomod: the module not named (unset in this subshell: no other program under the preload,
      # which an instrumented build ties to the sanitizer's runtime)
      [ -z "${nomod:-}" ] || unset CLBENCH_CUDA_MODULE
      LD_PRELOAD=$pre CLBENCH_PRELOAD_VENDOR_ID=$vendor FAKE_CUDA_BUG=$b \
          "${run_bin:-$bin}" run --quick --reps 5 "${rows[@]}" --json "$tmp/$name.json" >/dev/null 2>&1 )
    python3 - "$tmp/$name.json" "$name" "$@" <<'PY' || fails=$((fails + 1))
import json, sys
out, name, want = sys.argv[1], sys.argv[2], dict(a.split("=") for a in sys.argv[3:])
res = {r["name"]: r for r in json.load(open(out))["devices"][0]["results"]}
bad = 0
for row, status in want.items():
    r = res.get(row, {})
    p = r.get("params", {})
    ok = r.get("status") == status
    if status == "unsupported" and name == "alone":  # no module where the copied tool looks
        ok = ok and r.get("reason", "").startswith("the CUDA twin module is not available") \
            and "/alone/libclbench_cuda.so" in r.get("reason", "") and "cuda_device" not in p
    elif status == "unsupported":  # refused for the device, before the module is asked
        ok = ok and r.get("reason", "").startswith("CUDA twins run only on NVIDIA GPUs (this is ") \
            and "cuda_device" not in p
    if row.endswith("gemm.cuda") and status == "ok":
        scr = p.get("screen", [])
        first_bad = name == "gemm_shape0"
        ok = ok and len(scr) >= 2 and all(s["status"] == ("failed" if first_bad and i == 0 else "ok")
                                          for i, s in enumerate(scr))
        ok = ok and p.get("shape") == scr[1 if first_bad else 0]["shape"]  # the fastest valid one
    if status == "ok":
        k, s0, rb, t = (p.get(x) for x in ("kernel_s", "setup_s", "readback_s", "total_s"))
        if name == "phases":
            ok = ok and t is None
        else:
            ok = ok and None not in (k, s0, rb, t) and k > 0 and s0 >= 2e-3 and rb == 5e-4 and \
                abs(t - (s0 + k + rb)) <= 1e-9 * t
    if row == "app.euler.cuda" and status == "ok":  # the tiles' traffic from the module's note, not 8 B
        ok = ok and p.get("tiling", "").startswith("diamond") and 0 < p.get("bytes_per_component_step", 8) < 8
    print(("PASS" if ok else "FAIL") + f": {name}: {row} {r.get('status')} {r.get('reason', '')}")
    bad += not ok
sys.exit(bad != 0)
PY
}
case_ right "" app.saxpy.cuda=ok app.mcpi.cuda=ok app.strmatch.cuda=ok app.sgemm.cuda=ok app.dgemm.cuda=ok app.sgemm.cublas=ok \
    app.euler.cuda=ok
case_ phases phases app.mcpi.cuda=ok
case_ euler euler app.euler.cuda=invalid_result
case_ mcpi mcpi app.mcpi.cuda=invalid_result
case_ strmatch strmatch app.strmatch.cuda=invalid_result
case_ gemm_shape0 gemm_shape0 app.sgemm.cuda=ok app.dgemm.cuda=ok
case_ gemm_all gemm_all app.sgemm.cuda=invalid_result
case_ gemm_late gemm_late app.sgemm.cuda=invalid_result
all_unsupported="app.saxpy.cuda=unsupported app.mcpi.cuda=unsupported app.strmatch.cuda=unsupported
    app.sgemm.cuda=unsupported app.dgemm.cuda=unsupported app.sgemm.cublas=unsupported app.euler.cuda=unsupported"
pre= # the product alone on PoCL
case_ product "" $all_unsupported
pre=$preload vendor=0x1002 # another vendor's GPU id
case_ other_vendor "" app.mcpi.cuda=unsupported app.sgemm.cuda=unsupported
# where the tool finds the module unnamed: beside itself, in a directory of its own (the package's
# layout); copied alone, nowhere (no path of the build tree is baked in)
mkdir -p "$tmp/beside" "$tmp/alone" && cp "$bin" "$tmp/beside/clbench" && cp "$bin" "$tmp/alone/clbench" &&
    cp "$2" "$tmp/beside/libclbench_cuda.so"
pre=$preload vendor=0x10de nomod=1
run_bin=$tmp/beside/clbench case_ beside "" app.mcpi.cuda=ok
run_bin=$tmp/alone/clbench case_ alone "" app.mcpi.cuda=unsupported
[ "$fails" = 0 ] && echo "PASS: cli_cuda_fake" || { echo "FAIL: $fails case(s)"; exit 1; }
