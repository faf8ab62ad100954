#!/bin/sh
# Checks `clbench info --json -` against `clinfo --raw` for the same device: every CL_DEVICE_*,
# CL_DRIVER_* and CL_PLATFORM_* key clinfo prints must be in the document, and the values both
# can be compared on (integers, booleans, flag and enum names, size lists) must agree.
#
# Usage: info_vs_clinfo.sh CLBENCH_BINARY [selection options passed to clbench, e.g. -d 0:0]
# Exit: 0 all present and agreeing, 1 missing or disagreeing, 2 usage or no output,
#       77 clinfo is not installed (skip).
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 CLBENCH_BINARY [clbench selection options]" >&2
    exit 2
fi
bin=$1
shift
if ! command -v clinfo >/dev/null 2>&1; then
    echo "info_vs_clinfo: clinfo not found, skipped"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! "$bin" info --json - "$@" >"$tmp/doc.json"; then
    echo "info_vs_clinfo: '$bin info --json - $*' failed" >&2
    exit 2
fi
clinfo --raw >"$tmp/clinfo.txt" 2>/dev/null || true

python3 - "$tmp/doc.json" "$tmp/clinfo.txt" <<'EOF'
import json
import re
import sys

# Values that change between two queries: presence is checked, not the value.
VOLATILE = {"CL_DEVICE_GLOBAL_FREE_MEMORY_AMD", "CL_DEVICE_PROFILING_TIMER_OFFSET_AMD",
            "CL_DEVICE_CORE_TEMPERATURE_ALTERA"}
# These must be present and equal.
REQUIRED = ["CL_DEVICE_MAX_COMPUTE_UNITS", "CL_DEVICE_GLOBAL_MEM_SIZE",
            "CL_DEVICE_MAX_WORK_GROUP_SIZE", "CL_DEVICE_LOCAL_MEM_SIZE"]


def load_doc(path):
    text = open(path, encoding="utf-8").read()
    start = text.find("{")  # tolerate a banner line before the document
    if start < 0:
        sys.exit("info_vs_clinfo: no JSON document in clbench's output")
    doc, _ = json.JSONDecoder().raw_decode(text[start:])
    devices = doc.get("devices") or []
    if not devices:
        sys.exit("info_vs_clinfo: the document has no devices")
    return devices[0]


def parse_clinfo(path):
    """Platforms (unprefixed block, in order), platform prefixes in order, devices by prefix."""
    platforms, prefixes, devices = [], [], {}
    line_re = re.compile(r"^(?:\[([^/\]]*)/([^\]]*)\])?\s+(CL_\w+)\s*(.*?)\s*$")
    for line in open(path, encoding="utf-8", errors="replace"):
        m = line_re.match(line.rstrip("\n"))
        if not m:
            continue
        prefix, index, key, value = m.groups()
        if prefix is None:
            if key == "CL_PLATFORM_NAME":
                platforms.append({})
            if platforms:
                platforms[-1][key] = value
        elif index == "*":
            if key == "CL_PLATFORM_NAME" and prefix not in prefixes:
                prefixes.append(prefix)
        elif index.isdigit():
            devices.setdefault((prefix, int(index)), {})[key] = value
    return platforms, prefixes, devices


def pick(entry, platforms, prefixes, devices):
    """clinfo's entries for the device in the document: by its selection, else by name."""
    name = entry["device"].get("CL_DEVICE_NAME")
    pname = entry["platform"].get("CL_PLATFORM_NAME")
    sel = entry.get("selection") or {}
    p, d = sel.get("platform_index"), sel.get("device_index")
    if isinstance(p, int) and isinstance(d, int) and p < len(prefixes):
        dev = devices.get((prefixes[p], d))
        if dev and dev.get("CL_DEVICE_NAME") == name and p < len(platforms):
            return platforms[p], dev
    for p, prefix in enumerate(prefixes):
        plat = platforms[p] if p < len(platforms) else {}
        for (pre, _), dev in sorted(devices.items()):
            if pre == prefix and dev.get("CL_DEVICE_NAME") == name \
                    and plat.get("CL_PLATFORM_NAME") == pname:
                return plat, dev
    sys.exit(f"info_vs_clinfo: clinfo --raw does not list device '{name}' of '{pname}'")


def as_int(text):
    return int(text, 0) if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", text) else None


def same_number(mine, theirs):
    # JSON numbers are doubles: above 2^53 allow the rounding.
    return int(mine) == theirs or (theirs > 2**53 and abs(mine - theirs) <= theirs * 2**-52)


def check_value(key, mine, theirs):
    """None when the values cannot be compared, else whether they agree."""
    if theirs.startswith("<") and "error" in theirs:  # clinfo's query failed too
        return True if isinstance(mine, dict) and "error" in mine else None
    if isinstance(mine, dict) and "error" in mine:
        return False if theirs else None
    if isinstance(mine, dict):
        m = re.fullmatch(r"PCI-E, ([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-9a-fA-F]+)", theirs)
        if not m or "domain" not in mine:
            return None
        return [int(x, 16) for x in m.groups()] == \
            [mine.get(k) for k in ("domain", "bus", "device", "function")]
    if key.endswith("UUID_KHR") and isinstance(mine, str):
        return mine.replace("-", "").lower() == theirs.replace("-", "").lower()
    if isinstance(mine, bool):
        return theirs in ("CL_TRUE", "CL_FALSE") and mine == (theirs == "CL_TRUE")
    if isinstance(mine, (int, float)):
        n = as_int(theirs)
        return None if n is None else same_number(mine, n)
    if isinstance(mine, str) and mine.startswith("CL_") and theirs.startswith("CL_"):
        return set(mine.split(" | ")) == set(theirs.split(" | "))
    if isinstance(mine, list) and mine and all(isinstance(x, str) for x in mine):
        shown = set(theirs.split(" | ")) - {"", "CL_NONE"}
        # clinfo hides flags that do not apply (e.g. correctly-rounded sqrt for double).
        return shown <= set(mine) if all(f.startswith("CL_") for f in shown) else None
    if isinstance(mine, list) and all(isinstance(x, (int, float)) for x in mine):
        nums = [as_int(t) for t in theirs.split()]
        if None in nums:
            return None
        return len(nums) == len(mine) and all(same_number(a, b) for a, b in zip(mine, nums))
    return None


def main():
    entry = load_doc(sys.argv[1])
    platforms, prefixes, devices = parse_clinfo(sys.argv[2])
    plat, dev = pick(entry, platforms, prefixes, devices)
    wanted = [("device", k, v) for k, v in dev.items() if k.startswith(("CL_DEVICE_", "CL_DRIVER_"))]
    wanted += [("platform", k, v) for k, v in plat.items() if k.startswith("CL_PLATFORM_")]
    missing, wrong, compared = [], [], 0
    for section, key, theirs in wanted:
        obj = entry[section]
        if key not in obj:
            missing.append(f"{section}.{key}")
            continue
        if key in VOLATILE:
            continue
        ok = check_value(key, obj[key], theirs)
        if ok is not None:
            compared += 1
        if ok is False:
            wrong.append(f"{section}.{key}: clbench {json.dumps(obj[key])}, clinfo '{theirs}'")
    for key in REQUIRED:
        if key not in dev:
            wrong.append(f"device.{key}: clinfo does not print it")
        elif key in entry["device"] and check_value(key, entry["device"][key], dev[key]) is not True \
                and not any(w.startswith(f"device.{key}:") for w in wrong):
            wrong.append(f"device.{key}: clbench {json.dumps(entry['device'][key])}, "
                         f"clinfo '{dev[key]}'")
    for m in missing:
        print(f"info_vs_clinfo: missing {m}")
    for w in wrong:
        print(f"info_vs_clinfo: mismatch {w}")
    if missing or wrong:
        print(f"info_vs_clinfo: FAILED: {len(missing)} missing, {len(wrong)} mismatched "
              f"of {len(wanted)} keys")
        return 1
    print(f"info_vs_clinfo: device '{dev.get('CL_DEVICE_NAME')}': {compared} values agree")
    print(f"info_vs_clinfo: {len(wanted)} keys compared, all present")
    return 0


sys.exit(main())
EOF
