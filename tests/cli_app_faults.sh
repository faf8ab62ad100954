#!/usr/bin/env bash
# Every app row under the partial and skip faults (--inject-fault=partial: one 4-byte word of
# the output wrong at a random place; =skip: 1/16 of it left as this run's poison): each row
# reports invalid_result without a value, the CUDA twins excepted where they cannot run
# (unsupported off NVIDIA GPUs). The tuned GEMM's screen plants the fault in every candidate's
# own output before its check: every candidate in the tune table failed it. The clblast_tuned
# rows get a tuning made for this device, so they run and are judged too. (The whole-output
# fault, =wrong, is weaker than both: a check that finds one wrong word finds them all.)
set -u
bin=$1 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# clblast_tuned: a clblast_tuner_xgemm-style file per precision for this device (the parameters
# of tests/cli_clblast_tuned.sh); without CLBlast the rows say unsupported, which fails below.
dev=$("$bin" list | awk '/Device #0:/{sub(/.*Device #0: /, ""); print; exit}')
for prec in 32 64; do
    python3 - "$tmp/tuning$prec.json" "$dev" "$prec" <<'PY'
import json, sys
f, dev, prec = sys.argv[1:4]
params = ("GEMMK=0 KREG=1 KWG=32 KWI=2 MDIMA=16 MDIMC=16 MWG=64 NDIMB=8 NDIMC=8 NWG=64 PRECISION=%s "
          "SA=1 SB=1 STRM=0 STRN=0 VWM=4 VWN=4" % prec)
json.dump({"kernel_family": "xgemm_1", "precision": prec, "best_kernel": "Xgemm", "best_time": "1",
           "best_parameters": params, "clblast_device_name": dev, "device": dev, "results": []}, open(f, "w"))
PY
done
export CLBENCH_CLBLAST_TUNING="$tmp/tuning32.json:$tmp/tuning64.json"
for fault in partial skip; do
    "$bin" run 'app.*' --quick --reps 1 --strict --inject-fault=$fault --json "$tmp/$fault.json" >/dev/null; rc=$?
    [ "$rc" = 1 ] || { echo "FAIL: --inject-fault=$fault run exit $rc, want 1"; fails=$((fails+1)); }
    python3 - "$tmp/$fault.json" "$fault" <<'PY' || fails=$((fails+1))
import json, sys
res = json.load(open(sys.argv[1]))["devices"][0]["results"]
bad = []
for r in res:
    twin = r["name"].endswith((".cuda", ".cublas"))
    if r["status"] != "invalid_result" and not (twin and r["status"] == "unsupported"):
        bad.append(f'{r["name"]}: {r["status"]} {r.get("reason")}')
    elif r.get("value") is not None:
        bad.append(f'{r["name"]}: a value under the fault')
tuned = [r for r in res if r["name"] == "app.sgemm.tuned"]
table = tuned[0]["params"].get("tune_table", []) if tuned else []
if not table or any(t["status"] != "invalid_result" for t in table):
    bad.append(f'app.sgemm.tuned: screened candidates not all invalid_result: {[t["status"] for t in table]}')
if len(res) < 100:
    bad.append(f"{len(res)} app rows, want at least 100")
for b in bad:
    print(f"FAIL ({sys.argv[2]}):", b)
sys.exit(bool(bad))
PY
done
echo "cli_app_faults: $fails failure(s)"
[ "$fails" = 0 ]
