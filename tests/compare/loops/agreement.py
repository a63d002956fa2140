#!/usr/bin/env python3
"""agreement.py: ptxas 13.0's and ptxas-mini's loop unrolling decisions, side by side.

    agreement.py --mini build/bin/ptxas-mini [--work DIR] unroll_agreement.cu

Compiles the .cu with `nvcc -arch=sm_90 -ptx -Xcicc -O1` (cicc leaves the loops), then the PTX
with ptxas -O3 and with ptxas-mini (-knob DUMPIR=OriLoopUnrolling). Per kernel it prints:
  - ptxas: the loops left in its SASS (backward branches, the `BRA self` after EXIT left out)
    with the global/shared loads inside each, and the kernel's loads in all;
  - the PTX: its loops (backward branches) and the loads in each loop body;
  - ptxas-mini: its DUMPIR decision lines.
and a guess of ptxas's decision for kernels with one PTX loop: no loop left = full; a loop
holding k times the PTX body's loads = partial by k (k = 1: not unrolled). Kernels with
several loops, or loops without loads, are marked '?' and read by hand (README.md says how
each was read). Measurement, not a test: nothing is asserted.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

LOADS = re.compile(r"\b(LDG|LDS|LD)\b")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def sass_functions(text):
    fns, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = fns.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2)))
    return fns


def sass_loops(ins):
    loops = []
    for addr, t in ins:
        m = re.search(r"BRA (0x[0-9a-f]+)", t)
        if m and int(m.group(1), 16) < addr:
            lo = int(m.group(1), 16)
            loops.append((lo, addr, sum(1 for a, u in ins if lo <= a <= addr and LOADS.search(u))))
    return loops, sum(1 for _, u in ins if LOADS.search(u))


def ptx_functions(text):
    fns = {}
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n\}", text, re.S):
        body = m.group(2)
        labels, lines = {}, body.splitlines()
        for k, l in enumerate(lines):
            lm = re.match(r"^(\$\w+):", l.strip())
            if lm:
                labels[lm.group(1)] = k
        loops = []
        for k, l in enumerate(lines):
            bm = re.search(r"bra(?:\.uni)?\s+(\$\w+);", l)
            if bm and labels.get(bm.group(1), k + 1) <= k:
                lo = labels[bm.group(1)]
                loops.append(sum(1 for x in lines[lo:k + 1] if re.search(r"\bld\.(global|shared)", x)))
        fns[m.group(1)] = loops
    return fns


def mini_decisions(text):
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"DUMPIR after phase \d+ OriLoopUnrolling \(@(\w+)\)", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        if cur is not None and line.startswith("# loop "):
            cur.append(line[2:])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cu")
    ap.add_argument("--mini", required=True)
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cuobjdump", default="/opt/ptxas-mini-oracles/nvidia/cu13/bin/cuobjdump")
    ap.add_argument("--work", default=None)
    ap.add_argument("--knob", action="append", default=[], help="extra ptxas-mini knob")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="unroll-agree-")
    os.makedirs(work, exist_ok=True)
    ptx, cub, mcub = (os.path.join(work, n) for n in ("u.ptx", "u.cubin", "m.cubin"))
    sh([a.nvcc, "-arch=sm_90", "-ptx", "-Xcicc", "-O1", a.cu, "-o", ptx])
    sh([a.ptxas, "-arch=sm_90", "-O3", ptx, "-o", cub])
    sass = sass_functions(sh([a.cuobjdump, "-sass", cub]))
    knobs = []
    for k in a.knob:
        knobs += ["-knob", k]
    mini = mini_decisions(sh([a.mini, "-arch=sm_90", "-knob", "DUMPIR=OriLoopUnrolling", *knobs,
                              ptx, "-o", mcub]))
    ptxl = ptx_functions(open(ptx).read())
    for fn in sorted(ptxl):
        loops, total = sass_loops(sass.get(fn, []))
        # The last backward branch of a kernel is the `BRA self` after EXIT.
        loops = [l for l in loops if l[0] != l[1]]
        guess = "?"
        if len(ptxl[fn]) == 1 and ptxl[fn][0] > 0:
            per = ptxl[fn][0]
            if not loops:
                guess = "full"
            elif len(loops) <= 2:
                k = max(l[2] for l in loops) // per
                guess = "not" if k <= 1 else f"partial x{k}"
        desc = " ".join(f"[{lo:#x}-{hi:#x}] loads={n}" for lo, hi, n in loops) or "no loop"
        print(f"{fn}: ptxas {guess}; PTX loops (loads per body) {ptxl[fn]}; SASS {desc}, loads {total}")
        for d in mini.get(fn, []):
            print(f"    mini: {d}")


if __name__ == "__main__":
    sys.exit(main())
