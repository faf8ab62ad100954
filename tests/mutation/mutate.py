#!/usr/bin/env python3
"""Helpers of tests/mutation/run.sh: the catalogue, the scratch copy, applying and reverting.

  mutate.py list CATALOGUE_DIR [--ci] [REGEX]   one line per mutant: id TAB file TAB tests TAB ci
  mutate.py sync SRC DST                        copy the tree (no .git, no build dirs); unchanged
                                                files keep their time stamps, changed ones get a new one
  mutate.py apply CATALOGUE_DIR ROOT ID BACKUP  plant ID in ROOT; exit 3 (stale) unless its pattern
                                                occurs exactly once
  mutate.py revert ROOT BACKUP                  put the saved file back (with a new time stamp)
  mutate.py targets BUILD REGEX...              the build targets the tests matching each regex run
"""
import glob
import json
import os
import re
import shutil
import sys

FIELDS = ("id", "file", "pattern", "replacement", "tests", "ci")
SKIP_TOP = (".git", "results", "out", ".gpu")  # besides build*/


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in "tn\\":
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[s[i + 1]])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def catalogue(cdir):
    """Every mutant of every cdir/*.tsv; exits 2 on a malformed line or a duplicate id."""
    muts, seen = [], {}
    for path in sorted(glob.glob(os.path.join(cdir, "*.tsv"))):
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                where = "%s:%d" % (os.path.basename(path), no)
                parts = line.split("\t")
                if len(parts) != len(FIELDS):
                    sys.exit("%s: %d fields, want %d (TAB-separated: %s)" % (where, len(parts), len(FIELDS), " ".join(FIELDS)))
                m = dict(zip(FIELDS, parts))
                if not re.fullmatch(r"[A-Za-z0-9_.-]+", m["id"]):
                    sys.exit("%s: id %r: letters, digits, '_', '.', '-' only" % (where, m["id"]))
                if m["id"] in seen:
                    sys.exit("%s: id %s also at %s" % (where, m["id"], seen[m["id"]]))
                if m["ci"] not in ("ci", "-"):
                    sys.exit("%s: ci field %r, want 'ci' or '-'" % (where, m["ci"]))
                if not m["pattern"] or not m["tests"]:
                    sys.exit("%s: empty pattern or tests" % where)
                try:
                    re.compile(m["tests"])
                except re.error as e:
                    sys.exit("%s: tests regex %r: %s" % (where, m["tests"], e))
                seen[m["id"]] = where
                m["where"] = where
                muts.append(m)
    return muts


def cmd_list(args):
    ci = "--ci" in args
    rest = [a for a in args[1:] if a != "--ci"]
    rx = re.compile(rest[0] if rest else "")
    for m in catalogue(args[0]):
        if (not ci or m["ci"] == "ci") and rx.search(m["id"]):
            print("\t".join((m["id"], m["file"], m["tests"], m["ci"])))


def skipped(rel):
    top = rel.split(os.sep, 1)[0]
    return top in SKIP_TOP or top.startswith("build")


def cmd_sync(src, dst):
    keep, dst_real = set(), os.path.realpath(dst)
    for root, dirs, files in os.walk(src):
        rel_root = os.path.relpath(root, src)
        # not the copy itself, nor any build tree (a directory with a CMakeCache.txt)
        dirs[:] = [d for d in dirs if not (rel_root == "." and skipped(d))
                   and os.path.realpath(os.path.join(root, d)) != dst_real
                   and not os.path.exists(os.path.join(root, d, "CMakeCache.txt"))]
        for name in files:
            rel = os.path.normpath(os.path.join(rel_root, name))
            s, d = os.path.join(src, rel), os.path.join(dst, rel)
            keep.add(rel)
            if os.path.islink(s):
                continue
            with open(s, "rb") as f:
                data = f.read()
            try:
                with open(d, "rb") as f:
                    if f.read() == data:
                        continue
            except OSError:
                os.makedirs(os.path.dirname(d), exist_ok=True)
            with open(d, "wb") as f:  # a new time stamp: make rebuilds what depends on it
                f.write(data)
            shutil.copymode(s, d)
    for root, _, files in os.walk(dst):
        for name in files:
            rel = os.path.normpath(os.path.relpath(os.path.join(root, name), dst))
            if rel not in keep:
                os.remove(os.path.join(root, name))
    # folders the source no longer has (a test that lists folders would see them)
    for root, _, _ in os.walk(dst, topdown=False):
        if root != dst and not os.listdir(root) and not os.path.isdir(os.path.join(src, os.path.relpath(root, dst))):
            os.rmdir(root)


def cmd_apply(cdir, root, mid, backup):
    m = next((x for x in catalogue(cdir) if x["id"] == mid), None)
    if not m:
        sys.exit("no mutant %s" % mid)
    path = os.path.join(root, m["file"])
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print("stale: %s: %s" % (m["file"], e.strerror))
        sys.exit(3)
    pat, rep = unescape(m["pattern"]), unescape(m["replacement"])
    n = text.count(pat)
    if n != 1:
        print("stale: the pattern occurs %d times in %s" % (n, m["file"]))
        sys.exit(3)
    with open(backup, "w", encoding="utf-8") as f:
        json.dump({"path": path, "text": text}, f)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(pat, rep))


def cmd_revert(backup):
    try:
        with open(backup, encoding="utf-8") as f:
            b = json.load(f)
    except OSError:
        return
    with open(b["path"], "w", encoding="utf-8") as f:
        f.write(b["text"])
    os.remove(backup)


def test_commands(build):
    """{test name: [command words]} from the CTestTestfile.cmake files (ctest itself omits the
    command of an executable that is not built yet)."""
    cmds = {}
    for root, _, files in os.walk(build):
        if "CTestTestfile.cmake" not in files:
            continue
        with open(os.path.join(root, "CTestTestfile.cmake"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"add_test\(\[=\[(.*?)\]=\]\s+(.*)\)\s*$", line)
                if m:
                    cmds[m.group(1)] = [w.replace('\\"', '"') for w in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2))]
    return cmds


def cmd_targets(build, regexes):
    """Executables and modules in the build tree that the matching tests name, as target names."""
    build = os.path.realpath(build)
    cmds = test_commands(build)
    found = set()
    for rx in regexes:
        r = re.compile(rx)
        for name, words in cmds.items():
            if not r.search(name):
                continue
            for arg in words:
                p = os.path.realpath(arg) if arg.startswith("/") else ""
                if not p.startswith(build + os.sep) or os.path.isdir(p):
                    continue
                t = re.sub(r"\.(so|a)(\.[0-9.]+)?$", "", os.path.basename(p))
                if t != os.path.basename(p) and t.startswith("lib"):
                    t = t[3:]
                found.add(t)
    print(" ".join(sorted(found)))


def main():
    a = sys.argv[1:]
    if not a:
        sys.exit(__doc__)
    cmd = a[0]
    if cmd == "list" and len(a) >= 2:
        cmd_list(a[1:])
    elif cmd == "sync" and len(a) == 3:
        cmd_sync(a[1], a[2])
    elif cmd == "apply" and len(a) == 5:
        cmd_apply(*a[1:])
    elif cmd == "revert" and len(a) == 3:
        cmd_revert(a[2])
    elif cmd == "targets" and len(a) >= 3:
        cmd_targets(a[1], a[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
