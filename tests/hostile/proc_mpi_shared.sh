#!/bin/sh
# Ranks never share a device unnoticed: `mpirun -np 2` on a node with one selected device
# exits 2 before any benchmark, saying which device and how to resolve it, and writes no
# document; with --allow-shared-device both ranks run and every entry and result is marked
# shared_device; fleet-check refuses to compare such a device with itself (exit 2), and so it
# does for two entries with one UUID, or one PCI bus id on one node (synthetic documents), while
# distinct devices stay comparable. Skipped (77) without MPI.  usage: proc_mpi_shared.sh CLBENCH
set -eu
clb=$1
. "$(dirname "$0")/proc_lib.sh"
command -v mpirun >/dev/null || { echo "SKIP: no mpirun"; exit 77; }
if "$clb" run launch.roundtrip --mpi --json "$tmp/x.json" 2>&1 | grep -q "built without MPI"; then
    echo "SKIP: clbench built without MPI"; exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export POCL_MAX_PTHREAD_COUNT=1 POCL_DEVICES=pthread # one device on this node
args="run launch.roundtrip --quick --reps 5 --quiet --mpi --bench-timeout 60"

rc=0
env "$tag" mpirun -np 2 -x CLB_PROC_TAG "$clb" $args --json "$tmp/refused.json" 2>"$tmp/refused.err" || rc=$?
[ "$rc" = 2 ] || { cat "$tmp/refused.err"; fail "two ranks on one device: exit $rc, expected 2"; }
[ ! -e "$tmp/refused.json" ] || fail "a refused run wrote a document"
grep -q "2 ranks of node .* would share one device, 0:0 .*--allow-shared-device" "$tmp/refused.err" ||
    { cat "$tmp/refused.err"; fail "the refusal does not say which device and what to do"; }
echo "ok: two ranks, one device: exit 2 before measuring: $(grep 'would share' "$tmp/refused.err" | head -1 | cut -c1-120)..."

env "$tag" mpirun -np 2 -x CLB_PROC_TAG "$clb" $args --allow-shared-device --json "$tmp/shared.json" ||
    fail "--allow-shared-device: exit $?"
python3 - "$tmp/shared.json" <<'PY' || fail "shared entries not marked"
import json, sys
devs = json.load(open(sys.argv[1]))["devices"]
assert len(devs) == 2, len(devs)
for d in devs:
    assert d.get("shared_device") == 2, d.keys()
    assert d["results"] and all(r["params"].get("shared_device") == 2 for r in d["results"]), d["results"]
PY
echo "ok: --allow-shared-device: both ranks ran, entries and results marked shared_device = 2"
rc=0; "$clb" fleet-check "$tmp/shared.json" >"$tmp/f.out" 2>"$tmp/f.err" || rc=$?
[ "$rc" = 2 ] && grep -q "same device" "$tmp/f.err" || { cat "$tmp/f.out" "$tmp/f.err"; fail "fleet-check compared a shared device with itself (exit $rc)"; }
echo "ok: fleet-check refuses the shared pair: $(head -1 "$tmp/f.err")"

# Synthetic pairs from the shared run, its marks removed: (UUID, PCI bus id, node) per device.
mk() { # NAME UUID0 UUID1 PCI0 PCI1 NODE0 NODE1
    python3 - "$tmp/shared.json" "$tmp/$1.json" "$2" "$3" "$4" "$5" "$6" "$7" <<'PY'
import json, sys
src, dst, u0, u1, p0, p1, n0, n1 = sys.argv[1:]
doc = json.load(open(src))
for d, u, p, n in zip(doc["devices"], (u0, u1), (p0, p1), (n0, n1)):
    d.pop("shared_device")
    for r in d["results"]:
        r["params"].pop("shared_device")
    if u != "-":
        d["device"]["CL_DEVICE_UUID_KHR"] = u
    if p != "-":
        b = [int(x, 16) for x in p.replace(".", ":").split(":")]
        d["device"]["CL_DEVICE_PCI_BUS_INFO_KHR"] = dict(zip(("domain", "bus", "device", "function"), b))
    d["node"] = n
json.dump(doc, open(dst, "w"))
PY
}
U1=4e565f9a-0000-1111-2222-333344445555 U2=4e565f9a-0000-1111-2222-666677778888
fleet() { # NAME EXPECTED_EXIT(2|not2)
    rc=0; "$clb" fleet-check "$tmp/$1.json" >"$tmp/f.out" 2>"$tmp/f.err" || rc=$?
    if [ "$2" = 2 ]; then
        [ "$rc" = 2 ] && grep -q "same device" "$tmp/f.err" || { cat "$tmp/f.out" "$tmp/f.err"; fail "$1: exit $rc, expected 2 (same device)"; }
    else
        [ "$rc" != 2 ] || { cat "$tmp/f.err"; fail "$1: distinct devices refused"; }
    fi
    echo "ok: $1: exit $rc"
}
mk same_uuid "$U1" "$U1" - - n1 n2;                           fleet same_uuid 2
mk same_pci - - 0000:17:00.0 0000:17:00.0 n1 n1;              fleet same_pci 2
mk pci_two_nodes - - 0000:17:00.0 0000:17:00.0 n1 n2;         fleet pci_two_nodes not2
mk two_uuids "$U1" "$U2" 0000:17:00.0 0000:17:00.0 n1 n2;     fleet two_uuids not2
mk unknown - - - - n1 n1;                                     fleet unknown not2
left=$(survivors 3)
[ -z "$left" ] || fail "stray processes: $left"
echo "PASS: no device is shared or compared with itself unnoticed"
