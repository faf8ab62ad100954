#!/usr/bin/env bash
# clbench list --icd and info's "icd" (seed 000: which platforms are installed and where):
# on this machine every .icd file of the vendors directory is listed, the loaded ones with the
# library file they were loaded from, the loader's name and version where it is ocl-icd, and
# every platform with the library it lives in. A fake vendors directory with hostile files
# (binary, oversized, empty, a directory, a symlink to a text file, a missing library, a FIFO
# that would block the loader) gives one clear line per file and exit 0, never a crash or a hang.
set -u
bin=$1 check=$2 tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
vendors=${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}
timeout 60 "$bin" list --icd >"$tmp/list.txt" || fail "list --icd exit $?"
grep -q '^ICD loader: ' "$tmp/list.txt" || fail "list --icd names no loader"
timeout 120 "$bin" info --json "$tmp/info.json" >/dev/null || fail "info exit $?"
python3 "$check" "$tmp/info.json" >/dev/null || fail "info document does not conform"
loader=$(ldd "$bin" | awk '/libOpenCL/ {print $3}')
ocl_icd=0
grep -q clGetICDLoaderInfoOCLICD "$loader" 2>/dev/null && ocl_icd=1
python3 - "$tmp/info.json" "$vendors" "$ocl_icd" <<'PY' || fails=$((fails+1))
import glob, json, os, sys
icd = json.load(open(sys.argv[1]))["icd"]
vendors, ocl_icd, bad = sys.argv[2], sys.argv[3] == "1", 0
def need(cond, msg):
    global bad
    if not cond:
        print("FAIL:", msg); bad += 1
need(icd["vendors_dir"] == vendors, f"vendors_dir {icd['vendors_dir']} != {vendors}")
want = sorted(os.path.basename(f) for f in glob.glob(os.path.join(vendors, "*.icd")))
files = icd["files"]
need([f["file"] for f in files] == want, f"files {[f['file'] for f in files]} != {want}")
ok = [f for f in files if f["status"] == "ok"]
need(ok, "no .icd file whose library the loader loaded")
for f in ok:
    need(f["loaded"] is True and os.path.isfile(f["loaded_path"]), f"loaded file of {f}")
    need(f["library"] == open(os.path.join(vendors, f["file"])).read().strip(), f"library of {f['file']}")
need(icd["platforms"], "no platforms")
paths = {os.path.realpath(f["loaded_path"]) for f in ok}
for p in icd["platforms"]:
    need(p.get("name") and os.path.realpath(p.get("library_path", "")) in paths, f"platform {p} not in a loaded ICD library")
ld = icd["loader"]
need(os.path.isfile(ld.get("library_path", "")), f"loader path {ld}")
need(ld["ocl_icd"] is ocl_icd, f"ocl_icd {ld['ocl_icd']}, the loader library says {ocl_icd}")
if ocl_icd:
    need(all(ld.get(k) for k in ("name", "vendor", "version", "ocl_version")), f"loader fields {ld}")
print("icd:", [(f["file"], f["status"]) for f in files], "loader", ld.get("name"), ld.get("version"))
sys.exit(bad)
PY
# Hostile vendors directory.
fake=$tmp/vendors
mkdir -p "$fake/dir.icd"
good=$(grep -l . "$vendors"/*.icd 2>/dev/null | head -1)
[ -n "$good" ] && cp "$good" "$fake/good.icd"
head -c 300 /dev/urandom >"$fake/garbage.icd"
head -c 9000 /dev/zero | tr '\0' A >"$fake/huge.icd"
: >"$fake/empty.icd"
echo /nonexistent/libnothing.so >"$fake/missing.icd"
ln -s /etc/passwd "$fake/passwd.icd"
echo ignored >"$fake/notes.txt"
expect_line() { grep -Eq "^  $1 +$2" "$tmp/fake.txt" || fail "no line '$1 $2' in: $(cat "$tmp/fake.txt")"; }
OCL_ICD_VENDORS=$fake timeout 60 "$bin" list --icd >"$tmp/fake.txt" 2>&1 || fail "list --icd on the fake directory exit $?"
expect_line dir.icd 'invalid +not a regular file'
expect_line garbage.icd 'invalid +holds a line break or bytes that are not printable ASCII'
expect_line huge.icd 'invalid +9000 bytes: larger than 4096'
expect_line empty.icd 'invalid +empty'
expect_line missing.icd 'not_loaded +/nonexistent/libnothing.so: the loader did not load'
expect_line passwd.icd 'invalid'
[ -n "$good" ] && expect_line good.icd 'ok '
grep -q notes.txt "$tmp/fake.txt" && fail "a file not named .icd is listed"
mkfifo "$fake/fifo.icd"
OCL_ICD_VENDORS=$fake timeout 60 "$bin" list --icd >"$tmp/fake.txt" 2>&1 || fail "list --icd with a FIFO exit $? (124: hung)"
expect_line fifo.icd 'invalid +a FIFO, not a file: the ICD loader would block'
grep -q '^ICD loader: not asked: fifo.icd' "$tmp/fake.txt" || fail "the FIFO did not stop the loader query: $(cat "$tmp/fake.txt")"
OCL_ICD_VENDORS=$tmp/nowhere timeout 60 "$bin" list --icd >"$tmp/none.txt" 2>&1 || fail "list --icd on a missing directory exit $?"
grep -q 'cannot open the vendors directory: No such file or directory' "$tmp/none.txt" || fail "missing directory: $(cat "$tmp/none.txt")"
echo "cli_icd: $fails failure(s)"
[ "$fails" = 0 ]
