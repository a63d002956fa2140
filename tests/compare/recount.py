#!/usr/bin/env python3
"""recount.py RECORDS.json MINI [ptxas-mini flags...]

Recompiles every file of an earlier benchmark run (benchmark.py --out DIR writes
DIR/records.json) with ptxas-mini alone, counts the instructions of each kernel in
`sass-mc -disassemble` (the end-of-code BRA to itself and the NOP padding left out), and prints
the geometric mean of ptxas-mini / ptxas per kernel against the ptxas counts in the records.
For measuring a phase's worth quickly (ptxas is not run again), e.g.

    recount.py bench/records.json build/bin/ptxas-mini
    recount.py bench/records.json build/bin/ptxas-mini -knob DisablePhases=GeneralOptimize

A benchmark, not a test: it asserts nothing."""
import collections
import concurrent.futures as cf
import json
import math
import os
import re
import subprocess
import sys
import tempfile


def count(mini, sassmc, ptx, arch, extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'o.cubin')
        r = subprocess.run([mini, '-arch=' + arch, ptx, '-o', out] + extra,
                           capture_output=True, text=True)
        if r.returncode:
            return None, r.stderr[:300]
        text = subprocess.run([sassmc, '-disassemble', out], capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'^\.text\.(\S+):', line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.search(r'\*/ \[[^\]]*\]\s+(.*?);', line)
        if m and cur is not None:
            cur.append(m.group(1).strip())
    for ins in funcs.values():
        while ins and ins[-1].startswith('NOP'):
            ins.pop()
        if ins and ins[-1].startswith('BRA'):
            ins.pop()
    return funcs, None


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    records = json.load(open(sys.argv[1]))
    mini, extra = sys.argv[2], sys.argv[3:]
    sassmc = os.path.join(os.path.dirname(os.path.abspath(mini)), 'sass-mc')
    jobs = {}
    with cf.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for r in records:
            if r.get('figures'):
                jobs[r['ptx']] = (r, ex.submit(count, mini, sassmc, r['ptx'], r['arch'], extra))
    ratios, fails = [], 0
    for ptx, (r, fut) in jobs.items():
        funcs, err = fut.result()
        if funcs is None:
            fails += 1
            print('FAIL', ptx, err)
            continue
        for fn, f in r['figures'].items():
            ref = f['instructions'][0]
            if fn in funcs and ref and funcs[fn]:
                ratios.append(len(funcs[fn]) / ref)
    gm = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float('nan')
    print(f"kernels {len(ratios)} geomean ptxas-mini/ptxas {gm:.4f} failed files {fails}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
