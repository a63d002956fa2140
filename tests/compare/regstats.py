#!/usr/bin/env python3
"""regstats.py [options] PTX_FILE_OR_DIR...

Registers and spill bytes per function, ptxas-mini against ptxas, from both compilers' `-v`
reports (`Function properties for F` / `N bytes spill stores, M bytes spill loads` /
`Used N registers`). Prints the geometric mean of ptxas-mini / ptxas registers over the
functions both compile, the summed spill bytes (stores + loads) of each, the functions that
spill in ptxas-mini but not in ptxas, and the per-function table of those where either
spills. ptxas's reports are cached (--cache), so a second run compiles with ptxas-mini only.
Extra flags for both compilers: -X FLAG (repeatable, e.g. -X -maxrregcount=32); for ptxas-mini
only: -M FLAG (e.g. -M -knob -M RegAllocSpread=false).

A benchmark, not a test: it asserts nothing (issue 18's "Done means" figures)."""
import argparse
import concurrent.futures as cf
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile


def arch_of(ptx):
    with open(ptx, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\.target\s+(sm_\w+)", line)
            if m:
                return m.group(1)
    return "sm_90"


def parse_v(text):
    """-> {function: {'regs': N, 'spill': bytes}} from a -v report."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = out.setdefault(m.group(1), {"regs": 0, "spill": 0})
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur is not None:
            cur["spill"] = int(m.group(1)) + int(m.group(2))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur is not None:
            cur["regs"] = int(m.group(1))
    return out


def run(cmd, ptx, arch, flags):
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([cmd, "-arch=" + arch, "-v", ptx, "-o", os.path.join(d, "o.cubin")] + flags,
                           capture_output=True, text=True, timeout=1200)
    if r.returncode:
        return None
    return parse_v(r.stdout + r.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--mini", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "ptxas-mini"))
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--cache", default="/tmp/regstats-ptxas-cache.json")
    ap.add_argument("-X", action="append", default=[], help="flag for both compilers")
    ap.add_argument("-M", action="append", default=[], help="flag for ptxas-mini only")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--table", action="store_true", help="print every function that spills on either side")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".ptx"))
        else:
            files.append(p)
    cache = {}
    if os.path.exists(a.cache):
        with open(a.cache) as f:
            cache = json.load(f)

    def key(ptx):
        h = hashlib.sha1(open(ptx, "rb").read()).hexdigest()
        return h + " " + " ".join(a.X)

    def one(ptx):
        arch = arch_of(ptx)
        k = key(ptx)
        theirs = cache.get(k)
        if theirs is None:
            theirs = run(a.ptxas, ptx, arch, a.X)
        ours = run(a.mini, ptx, arch, a.X + a.M)
        return ptx, k, theirs, ours

    rows = []
    with cf.ThreadPoolExecutor(a.j) as ex:
        for ptx, k, theirs, ours in ex.map(one, files):
            cache[k] = theirs
            rows.append((ptx, theirs, ours))
    with open(a.cache, "w") as f:
        json.dump(cache, f)
    logs, spill_t, spill_o, worse, table = [], 0, 0, [], []
    both = 0
    for ptx, theirs, ours in rows:
        if not theirs or not ours:
            continue
        both += 1
        for fn, t in sorted(theirs.items()):
            o = ours.get(fn)
            if o is None or not t["regs"] or not o["regs"]:
                continue
            logs.append(math.log(o["regs"] / t["regs"]))
            spill_t += t["spill"]
            spill_o += o["spill"]
            if o["spill"] and not t["spill"]:
                worse.append((os.path.basename(ptx), fn, o["spill"], o["regs"], t["regs"]))
            if o["spill"] or t["spill"]:
                table.append((os.path.basename(ptx), fn, o["spill"], t["spill"], o["regs"], t["regs"]))
    print("files: %d, both compile: %d; functions: %d" % (len(rows), both, len(logs)))
    if logs:
        print("registers geomean ptxas-mini/ptxas: %.4f" % math.exp(sum(logs) / len(logs)))
    print("spill bytes (stores+loads): ptxas-mini %d, ptxas %d" % (spill_o, spill_t))
    print("functions spilling in ptxas-mini but not in ptxas: %d" % len(worse))
    for w in worse[:20]:
        print("  %s %s: %d bytes, %d regs (ptxas %d regs)" % w)
    if a.table:
        print("file function mini_spill ptxas_spill mini_regs ptxas_regs")
        for t in sorted(table):
            print("  %s %s %d %d %d %d" % t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
