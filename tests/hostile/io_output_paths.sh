#!/usr/bin/env bash
# Output paths: a temporary name planted as a symlink is never followed (the victim it points at
# keeps its bytes), the output gets the umask's mode and no temporary file is left behind; a FIFO
# at the output path is written in place and stays a FIFO; a directory is refused with exit 2;
# a 250-byte output name works.
# usage: io_output_paths.sh CLBENCH SOURCE_DIR
set -u
bin=$1 src=$2 tmp=$(mktemp -d)
reader=
trap '[ -n "$reader" ] && kill "$reader" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
cp "$src/tests/data/sample.json" "$tmp/in.json"
cd "$tmp" || exit 1

# 1. A link planted at the name PATH.tmp.PID (the PID is known here: exec keeps the shell's),
#    pointing at a victim outside the output.
echo precious >victim
sh -c 'ln -s "$PWD/victim" "out.csv.tmp.$$"; umask 027; exec "$0" report in.json --csv out.csv' "$bin" >log 2>&1 || fail "report --csv with planted links: exit $? ($(cat log))"
[ "$(cat victim)" = precious ] || fail "the planted link was followed: the victim now holds $(head -c 60 victim)"
[ -f out.csv ] && [ ! -L out.csv ] && grep -q "compute.fp32_peak" out.csv || fail "out.csv is not the report"
mode=$(stat -c %a out.csv 2>/dev/null)
[ "$mode" = 640 ] || fail "out.csv has mode $mode, not 640 (0666 less umask 027)"
left=$(find . -maxdepth 1 -name '.out.csv.*' ! -type l -o -name 'out.csv.tmp.*' ! -type l | head -3)
[ -z "$left" ] || fail "temporary files left behind: $left"

# A name near the file system's limit (250 of 255 bytes) still gets its temporary file.
long=$(printf 'n%.0s' $(seq 246)).csv
"$bin" report in.json --csv "$long" >log 2>&1 && [ -f "$long" ] || fail "a 250-byte output name: $(cat log)"

# 2. A FIFO at the output path: written in place, still a FIFO afterwards.
mkfifo pipe
timeout 20 cat pipe >got &
reader=$!
timeout 20 "$bin" report in.json --csv pipe >log 2>&1 || fail "report --csv FIFO: exit $? ($(cat log))"
[ -p pipe ] || fail "the FIFO was replaced by a $(stat -c %F pipe)"
[ -p pipe ] || kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
reader=
grep -q "compute.fp32_peak" got || fail "the FIFO's reader did not get the CSV"

# 3. A directory as output: refused before anything is written, exit 2, naming it.
mkdir adir
rc=0; "$bin" report in.json --csv adir >log 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "adir.*directory" log || fail "--csv DIRECTORY: exit $rc (want 2): $(cat log)"
[ -d adir ] || fail "the directory was replaced"

[ "$fails" = 0 ] && echo "PASS: output paths (planted links, mode, FIFO, directory)"
exit $((fails > 0))
