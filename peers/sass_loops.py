#!/usr/bin/env python3
"""The main loop of each kernel in cuobjdump -sass listings: the backward branch (BRA to a
lower address) that spans the most instructions, and the instruction mix between its target
and the branch: all, FFMA (and its share), the other FP32 arithmetic, LDS by width, STS, BAR,
LDGSTS (cp.async), LDG, LDL/STL (spills), integer and predicate bookkeeping, and the most frequent opcodes. One
line per kernel (what the SASS of an unrolled k-slice or time-step loop says about issue slots).
usage: sass_loops.py FILE.sass..."""
import collections, re, sys

INS = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")


def kernels(path):
    name, ins = None, []
    for line in open(path, errors="replace"):
        if line.lstrip().startswith("Function :"):
            if name:
                yield name, ins
            name, ins = line.split(":", 1)[1].strip(), []
            continue
        m = INS.match(line)
        if m and name:
            ins.append((int(m.group(1), 16), m.group(3), m.group(4)))
    if name:
        yield name, ins


def main_loop(ins):
    best = None
    for i, (addr, op, args) in enumerate(ins):
        t = re.match(r"\s*(0x[0-9a-f]+)", args)
        if op.split(".")[0] == "BRA" and t and int(t.group(1), 16) < addr:
            j = next((k for k, x in enumerate(ins) if x[0] == int(t.group(1), 16)), None)
            if j is not None and (best is None or i - j > best[1] - best[0]):
                best = (j, i)
    return best


def main():
    for path in sys.argv[1:]:
        for name, ins in kernels(path):
            loop = main_loop(ins)
            if not loop:
                print(f"{path}:{name}: no backward branch ({len(ins)} instructions)")
                continue
            body = ins[loop[0]:loop[1] + 1]
            ops = collections.Counter(op for _, op, _ in body)
            base = collections.Counter(op.split(".")[0] for _, op, _ in body)
            lds = {w: sum(c for o, c in ops.items() if o.startswith("LDS") and o.endswith(w)) for w in (".128", ".64")}
            n = len(body)
            fp = sum(base[o] for o in ("FADD", "FMUL", "FMNMX", "FSETP", "FSEL"))
            ints = sum(base[o] for o in ("IADD3", "IMAD", "LEA", "ISETP", "LOP3", "SHF", "SEL", "MOV", "IMNMX", "VIMNMX", "PLOP3"))
            print(f"{path}:{name}: loop {body[0][0]:#x}-{body[-1][0]:#x} {n} instructions: FFMA {base['FFMA']} "
                  f"({100.0 * base['FFMA'] / n:.1f} %), other FP32 {fp}, LDS {base['LDS']} (.128 {lds['.128']}, "
                  f".64 {lds['.64']}), STS {base['STS']}, BAR {base['BAR']}, LDGSTS {base['LDGSTS']}, "
                  f"LDG {base['LDG']}, LDL/STL {base['LDL']}/{base['STL']}, integer/predicate {ints}; top: "
                  + ", ".join(f"{o} {c}" for o, c in ops.most_common(8)))


main()
