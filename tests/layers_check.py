#!/usr/bin/env python3
"""The house rules, checked from the sources (docs/architecture.md, "Layers").

usage: layers_check.py SOURCE_DIR [--graph]

Reads include/, lib/ and src/ and fails (exit 1, one line per violation) when
  1. an include cycle exists between files;
  2. a call cycle exists between .c files;
  3. a file includes a header of a layer above its own, or calls a function defined in one;
  4. an include in lib/ or src/ does not name its layer ("device/limits.h", not "limits.h"),
     or names no file of the tree (generated headers excepted);
  5. a project header sits where it could shadow a system header (a file named like one
     directly in an include root: include/, lib/, src/);
  6. docs/architecture.md, the map of the tree, misses a file of include/, lib/ or src/ (sources,
     headers, kernels, CUDA files), or names a file the tree does not have (so the map stays true).

Calls are approximated from the text, after comments, strings and character literals are
removed: every function with external linkage defined at file scope of a .c file (a name
followed by a parameter list and a body, not declared static) is "defined" there; a .c file
"calls" it when its name occurs anywhere in that file as an identifier (a call, or its address
taken for a table or a callback). Macros expanded from headers and calls through function
pointers are not seen; static functions cannot cross files and are ignored.

Layers from the ground up (a file may include and call its own layer and those below; two
layers of one rank are siblings and may not use each other):
  api (include/) < core < device < doc < store < judge < report, decide < bench, apps < cli (src/)

A file named in WAIVED (below, with the reason) is being rewritten by another change: its
include naming and the cycles through it are printed as WAIVED and do not fail the check.
Prints one line per violation and a summary; exit 1 when there is a violation, else 0.
"""
import os
import re
import sys

RANK = {"api": 0, "core": 1, "device": 2, "doc": 3, "store": 3.5, "judge": 4, "report": 5, "decide": 5,
        "bench": 6, "apps": 6, "cli": 7}
ROOTS = ("include", "lib", "src")
# Headers CMake writes into the build tree (build/generated).
GENERATED = {"git_sha.h"}
# Standard C and POSIX headers a project header must not be named like in an include root.
SYSTEM_HEADERS = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
    "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h",
    "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h",
    "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h", "dirent.h",
    "dlfcn.h", "fcntl.h", "fnmatch.h", "glob.h", "poll.h", "pthread.h", "sched.h", "spawn.h",
    "strings.h", "unistd.h", "sys/types.h", "sys/stat.h", "sys/wait.h", "sys/time.h", "mpi.h",
}

# Files another change is rewriting at the same time; their include naming and the cycles
# through them are printed as WAIVED and do not fail the check. Remove a line when that lands.
WAIVED = {
}

# What the map (docs/architecture.md) names, and the names in it that are no file of the tree:
# placeholders (`<app>_host.c`, `NAME.cl`) and another project's file it cites.
MAP = "docs/architecture.md"
MAPPED_EXT = (".c", ".h", ".cl", ".cu", ".cuh", ".map")
MAP_NAME_RE = re.compile(r"`([A-Za-z0-9_./-]+\.(?:c|h|cl|cu|cuh|map))`")
MAP_OUTSIDE = {"test-list.h"}  # libuv's list of tests, the model of lib/core/groups.h
OTHER_DIRS = ("peers", "tests", "examples")
PLACEHOLDER_RE = re.compile(r"^[A-Z]+\.")  # NAME.cl: a kernel by the name clb_build is given

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
IDENT_RE = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "defined", "else", "do"}


def layer_of(rel):
    parts = rel.split("/")
    if parts[0] == "include":
        return "api"
    if parts[0] == "src":
        return "cli"
    if parts[0] == "lib" and len(parts) > 2:
        return parts[1]
    return None


def strip_code(text):
    """Comments, string and character literals and preprocessor lines blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            j = i
            while True:  # a directive with its continuation lines
                k = text.find("\n", j)
                if k < 0 or text[k - 1] != "\\":
                    break
                j = k + 1
            k = n if k < 0 else k
            out.append("\n" * text.count("\n", i, k))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def definitions(code):
    """Names of the non-static functions defined at file scope of stripped C code."""
    names, depth, start = [], 0, 0
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                head = code[start:i]
                m = re.search(r"\b([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*$", head)
                if (m and "=" not in head and not re.search(r"\bstatic\b", head)
                        and m.group(1) not in KEYWORDS):
                    names.append(m.group(1))
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            start = i + 1
    return names


def scan(src):
    files = {}
    for root in ROOTS:
        for d, _, names in os.walk(os.path.join(src, root)):
            for name in names:
                if name.endswith((".c", ".h")):
                    path = os.path.join(d, name)
                    rel = os.path.relpath(path, src).replace(os.sep, "/")
                    with open(path, encoding="utf-8", errors="replace") as f:
                        files[rel] = f.read()
    return files


def resolve(src, files, rel, inc):
    """(resolved file or None, 1 when it names its layer)."""
    top = rel.split("/")[0]
    roots = {"include": ["include"], "lib": ["lib", "include"], "src": ["src", "lib", "include"]}[top]
    for r in roots:
        cand = os.path.normpath(os.path.join(r, inc)).replace(os.sep, "/")
        if cand in files:
            return cand, 1
    here = os.path.normpath(os.path.join(os.path.dirname(rel), inc)).replace(os.sep, "/")
    return (here, 0) if here in files else (None, 0)


def sccs(nodes, edges):
    """Tarjan's strongly connected components with more than one node."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def cycle_text(comp, edges, why):
    """One cycle through the component, each step with its reason."""
    comp_set, start = set(comp), comp[0]
    path, seen = [start], {start}
    while True:  # walk inside the component until a node repeats
        nxt = sorted(w for w in edges[path[-1]] if w in comp_set)
        back = [w for w in nxt if w == start]
        w = back[0] if back else next((x for x in nxt if x not in seen), nxt[0])
        path.append(w)
        if w in seen:
            break
        seen.add(w)
    path = path[path.index(path[-1]):]
    return " -> ".join(f"{a} ({why[(a, b)]})" for a, b in zip(path, path[1:])) + f" -> {path[-1]}"


def map_check(src):
    """Violations of rule 6: files of the tree the map does not name, and names it has in vain."""
    with open(os.path.join(src, MAP), encoding="utf-8") as f:
        named = set(MAP_NAME_RE.findall(f.read()))
    tree = set()
    for root in ROOTS:
        for d, _, names in os.walk(os.path.join(src, root)):
            tree.update(os.path.relpath(os.path.join(d, n), src).replace(os.sep, "/")
                        for n in names if n.endswith(MAPPED_EXT))
    base = {n.rsplit("/", 1)[-1] for n in named}
    bad = [f"{rel}: not named in {MAP}" for rel in sorted(tree)
           if rel not in named and rel.rsplit("/", 1)[-1] not in base]
    for other in OTHER_DIRS:  # the map also names files beside the library (peers' probes)
        for d, _, names in os.walk(os.path.join(src, other)):
            tree.update(os.path.relpath(os.path.join(d, n), src).replace(os.sep, "/") for n in names)
    have = {rel.rsplit("/", 1)[-1] for rel in tree} | tree
    bad += [f"{MAP}: names {n}, no file of the tree" for n in sorted(named)
            if n not in have and n.rsplit("/", 1)[-1] not in have and n not in MAP_OUTSIDE
            and not PLACEHOLDER_RE.match(n.rsplit("/", 1)[-1])]
    return bad


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    src = sys.argv[1]
    files = scan(src)
    bad, waived = [], []
    inc_edges, inc_why = {}, {}
    for rel, text in sorted(files.items()):
        for inc in INCLUDE_RE.findall(text):
            if inc in GENERATED:
                continue
            target, named = resolve(src, files, rel, inc)
            if target is None:
                bad.append(f"{rel}: #include \"{inc}\" names no file of the tree")
                continue
            if not named and rel in WAIVED:
                waived.append(f"{rel}: #include \"{inc}\" does not name its layer ({WAIVED[rel]})")
            elif not named:
                bad.append(f"{rel}: #include \"{inc}\" does not name its layer (write \"{target.split('/', 1)[1]}\")")
            inc_edges.setdefault(rel, set()).add(target)
            inc_why[(rel, target)] = "includes"
            a, b = layer_of(rel), layer_of(target)
            if a and b and a != b and RANK[b] >= RANK[a]:
                bad.append(f"{rel}: includes {target} of layer {b}, {'above' if RANK[b] > RANK[a] else 'beside'} {a}")
    for root in ROOTS:
        for name in SYSTEM_HEADERS:
            if os.path.exists(os.path.join(src, root, name)):
                bad.append(f"{root}/{name}: shadows the system header <{name}>")
    for comp in sccs(files, inc_edges):
        bad.append("include cycle: " + cycle_text(comp, inc_edges, inc_why))

    code = {rel: strip_code(t) for rel, t in files.items() if rel.endswith(".c")}
    defined = {}
    for rel, c in code.items():
        for name in definitions(c):
            defined.setdefault(name, rel)
    call_edges, call_why = {}, {}
    for rel, c in sorted(code.items()):
        for name in sorted(set(IDENT_RE.findall(c))):
            target = defined.get(name)
            if not target or target == rel:
                continue
            call_edges.setdefault(rel, set()).add(target)
            call_why.setdefault((rel, target), f"calls {name}")
            a, b = layer_of(rel), layer_of(target)
            if a and b and a != b and RANK[b] >= RANK[a]:
                bad.append(f"{rel}: calls {name} of {target}, layer {b}, {'above' if RANK[b] > RANK[a] else 'beside'} {a}")
    for comp in sccs(code, call_edges):
        text = "call cycle: " + cycle_text(comp, call_edges, call_why)
        why = [WAIVED[f] for f in comp if f in WAIVED]
        if why:
            waived.append(f"{text} ({why[0]})")
        else:
            bad.append(text)

    bad += map_check(src)

    if "--graph" in sys.argv:
        for rel in sorted(call_edges):
            print(f"{rel}: {' '.join(sorted(call_edges[rel]))}")
    for w in waived:
        print("WAIVED:", w)
    for b in bad:
        print("VIOLATION:", b)
    ncyc = sum(1 for b in bad if "cycle:" in b)
    print(f"layers_check: {len(files)} files, {len(defined)} functions, {ncyc} cycles, "
          f"{len(bad)} violations, {len(waived)} waived")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
