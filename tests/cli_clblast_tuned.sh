#!/usr/bin/env bash
# app.sgemm.clblast_tuned on the default device: unsupported with the reason when no tuning fits
# (none given, another device's, not JSON, another precision); ok and verified with a tuning made
# for this device (the parameters recorded); refused by CLBlast when a parameter name is not
# Xgemm's (so the override is really applied). Skips (77) without CLBlast.
# usage: cli_clblast_tuned.sh CLBENCH
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
python3 -c 'import ctypes; ctypes.CDLL("libclblast.so.1")' 2>/dev/null || { echo "SKIP: no libclblast.so.1"; exit 77; }
dev=$("$bin" list | awk '/Device #0:/{sub(/.*Device #0: /, ""); print; exit}')
fails=0
# tuning FILE DEVICE PRECISION PARAMS: a clblast_tuner_xgemm-style JSON
tuning() {
    python3 - "$@" <<'PY'
import json, sys
f, dev, prec, params = sys.argv[1:5]
json.dump({"kernel_family": "xgemm_1", "precision": prec, "best_kernel": "Xgemm", "best_time": "3.51",
           "best_parameters": params, "clblast_device_name": dev, "device": dev, "results": []}, open(f, "w"))
PY
}
good="GEMMK=0 KREG=1 KWG=32 KWI=2 MDIMA=16 MDIMC=16 MWG=64 NDIMB=8 NDIMC=8 NWG=64 PRECISION=32 SA=1 SB=1 STRM=0 STRN=0 VWM=4 VWN=4"
tuning "$tmp/mine.json" "$dev" 32 "$good"
tuning "$tmp/other.json" "Some Other GPU" 32 "$good"
tuning "$tmp/dbl.json" "$dev" 64 "${good/PRECISION=32/PRECISION=64}"
tuning "$tmp/bogus.json" "$dev" 32 "${good/KWI=2/BOGUS=2}"
echo 'not json' >"$tmp/junk.json"
# expect NAME STATUS REASON_PART [ENV...]: one run of the row in $tmp (no tuner files there)
expect() {
    local name=$1 want=$2 part=$3
    shift 3
    (cd "$tmp" && env "$@" "$bin" run app.sgemm.clblast_tuned --quick --json "$tmp/$name.out" >/dev/null 2>&1)
    python3 - "$tmp/$name.out" "$name" "$want" "$part" <<'PY' || fails=$((fails + 1))
import json, sys
out, name, want, part = sys.argv[1:5]
r = json.load(open(out))["devices"][0]["results"][0]
ok = r["status"] == want and part in (r.get("reason") or "")
if want == "ok":
    ok = ok and r["params"].get("tuned_parameters", "").startswith("GEMMK=0") and r.get("value", 0) > 0
print(("PASS" if ok else "FAIL") + f": {name}: {r['status']} {r.get('reason') or r['params'].get('tuned_parameters')}")
sys.exit(not ok)
PY
}
expect none unsupported "no clblast_xgemm_*.json in the current directory" CLBENCH_CLBLAST_TUNING=
expect other unsupported "other.json is for another device" CLBENCH_CLBLAST_TUNING="$tmp/other.json"
expect junk unsupported "junk.json is not JSON" CLBENCH_CLBLAST_TUNING="$tmp/junk.json"
expect missing unsupported "nope.json cannot be read" CLBENCH_CLBLAST_TUNING="$tmp/nope.json"
expect precision unsupported "dbl.json is for another precision" CLBENCH_CLBLAST_TUNING="$tmp/dbl.json"
expect bogus unsupported "CLBlastOverrideParameters refused" CLBENCH_CLBLAST_TUNING="$tmp/bogus.json"
expect mine ok "" CLBENCH_CLBLAST_TUNING="$tmp/other.json:$tmp/mine.json"
# the tuner's own file name in the current directory, found without the variable
cp "$tmp/mine.json" "$tmp/clblast_xgemm_1_32.json"
expect cwd ok "" CLBENCH_CLBLAST_TUNING=
[ "$fails" = 0 ] && echo "PASS: cli_clblast_tuned" || { echo "FAIL: $fails case(s)"; exit 1; }
