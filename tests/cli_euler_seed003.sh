#!/usr/bin/env bash
# Seed 003's remaining app.euler variants (f32, both problems, --quick): the diamonds in global
# memory only, the diamonds with the vectorized problem function, the volatile (cache-bypass)
# rows and the pthreads thread-count sweep each run, validate on every component, say what the
# built kernel declares (params.global_access from the kernel's argument info), carry the total
# time beside the kernel time (total_s = setup_s + kernel_s + readback_s), and an injected fault
# turns each of them into invalid_result.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
rows=()
for v in diamond_global diamond_row_vectorized coalesced_volatile vectorized_volatile \
         diamond_row_volatile diamond_row_vectorized_volatile sweep_threads; do
    rows+=("app.euler.string.f32.$v" "app.euler.bruss2d.f32.$v")
done
rows+=(app.euler.string.f32.sweep_n) # STRING only (seed figures 9.5-9.8)
"$bin" run "${rows[@]}" --quick --reps 3 --json "$tmp/out.json" >/dev/null 2>&1 || { echo "FAIL: run exit $?"; fails=$((fails+1)); }
python3 "$check" "$tmp/out.json" --min-results 15 --expect-status ok || fails=$((fails+1))
python3 - "$tmp/out.json" <<'PY' || fails=$((fails+1))
import json, os, sys
res = {r["name"]: r for r in json.load(open(sys.argv[1]))["devices"][0]["results"]}
bad = []
for name, r in res.items():
    p = r.get("params", {})
    if r["status"] != "ok":
        continue
    if p.get("validated_components") != p.get("n") or not p.get("max_rel_error", 1) <= p.get("tolerance", 0):
        bad.append(f"{name}: not validated on every component")
    if "kernel" in p and name.endswith("_volatile") != p.get("global_access", "").startswith("volatile"):
        bad.append(f"{name}: global_access {p.get('global_access')}")
    if "diamond_row_vectorized" in name and (p.get("problem_function") != "vectorized" or p.get("kernel") != "eu_tile_row"):
        bad.append(f"{name}: problem_function {p.get('problem_function')}, kernel {p.get('kernel')}")
    if name.endswith(".diamond_global") and (p.get("kernel") != "eu_tile_glob" or p.get("dia_blocks", 0) < 4
                                             or p.get("bytes_per_component_step") != 8):
        bad.append(f"{name}: kernel {p.get('kernel')}, dia_blocks {p.get('dia_blocks')}, "
                   f"bytes {p.get('bytes_per_component_step')}")
    if name.endswith(".sweep_n"):  # linear / diamond / honeycomb against n, each point validated
        cs = {c["label"]: c["points"] for c in p["curves"]}
        want = [int(p["n"] * f) // 4 * 4 for f in (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2)]
        if sorted(cs) != ["diamond_row_korr", "honeycomb", "linear (coalesced, seed 5.2)"] or \
                any([pt[0] for pt in pts] != want for pts in cs.values()):
            bad.append(f"{name}: curves {[(k, [pt[0] for pt in v]) for k, v in cs.items()]}, want n = {want}")
        elif r["value"] != min(pt[1] for pts in cs.values() for pt in pts):
            bad.append(f"{name}: headline {r['value']} is not the best point")
    if not name.endswith((".sweep_threads", ".sweep_n")):  # the seed's total time beside one run's kernel time
        k, s0, rb, t = (p.get(x) for x in ("kernel_s", "setup_s", "readback_s", "total_s"))
        if None in (k, s0, rb, t) or not (s0 > 0 and rb > 0) or abs(t - (s0 + k + rb)) > 1e-9 * t \
                or abs(k * 1e9 / (p["n"] * p["steps"]) - r["value"]) > 1e-6 * r["value"]:
            bad.append(f"{name}: setup {s0} kernel {k} readback {rb} total {t}")
    if name.endswith(".sweep_threads"):
        cores, want, t = os.sysconf("SC_NPROCESSORS_ONLN"), [], 1
        while t <= cores:  # every count to 16, then doubling, and the cores themselves
            want.append(t)
            t = t + 1 if t < 16 or t == cores else min(t * 2, cores)
        xs = [pt[0] for pt in p["curves"][0]["points"]]
        if xs != want or p.get("host_cores") != cores or p.get("threads") not in want:
            bad.append(f"{name}: threads {xs} (best {p.get('threads')}), want {want}")
        if r["value"] != min(pt[1] for pt in p["curves"][0]["points"]):
            bad.append(f"{name}: headline {r['value']} is not the best point")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
"$bin" run "${rows[@]}" --quick --reps 1 --inject-fault --json "$tmp/bad.json" >/dev/null 2>&1
python3 "$check" "$tmp/bad.json" --min-results 15 --expect-status invalid_result || fails=$((fails+1))
echo "cli_euler_seed003: $fails failure(s)"
[ "$fails" = 0 ]
