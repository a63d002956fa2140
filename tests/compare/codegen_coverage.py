#!/usr/bin/env python3
"""codegen_coverage: how much of a PTX corpus ptxas-mini compiles, and what stops the rest.

Purpose: issue 6's report ("files compiled, the unsupported constructs by count") and the
to-do list of the lowering: which PTX constructs block the most files. Not a test.

Algorithm: every PTX file (folders are searched for *.ptx) is compiled by ptxas-mini for the
arch its `.target` names (sm_90a files for sm_90a), with a time limit, in parallel (-j). A file
is COMPILED when ptxas-mini exits 0 and wrote a cubin; CRASHED when it died of a signal (or
printed "Internal error"); TIMEOUT when it ran past the limit; otherwise NOT-SUPPORTED, and every
"... is not supported by ptxas-mini's code generator yet" line is reduced to the construct it
names (the quoted PTX instruction with register names and numbers dropped). Constructs are
ranked by the number of files they block (a file blocked by one construct only is counted
apart: fixing that construct compiles it).

Usage: codegen_coverage.py CORPUS... [--mini build/bin/ptxas-mini] [-j 2] [--timeout 120]
                           [--top 60] [--json out.json] [--list-compiled FILE]
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

NOT_SUPPORTED = re.compile(r"error\s*:\s*(.*?) (?:is|are) not supported by ptxas-mini's code generator yet")


def ptx_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                out += [os.path.join(root, f) for f in files if f.endswith('.ptx')]
        else:
            out.append(p)
    return sorted(out)


def target_of(path):
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'\s*\.target\s+(sm_\w+)', line)
            if m:
                return m.group(1).split(',')[0]
    return 'sm_90'


def construct(msg):
    """'Instruction 'ld.global.v4.f32'' -> the construct with names/numbers normalised."""
    msg = re.sub(r"'%[\w.$]+'", "'%reg'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg


def run_one(mini, path, timeout):
    arch = target_of(path)
    if arch not in ('sm_90', 'sm_90a'):
        arch = 'sm_90'
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'x.cubin')
        try:
            p = subprocess.run([mini, '-arch=' + arch, path, '-o', out], capture_output=True,
                               text=True, errors='replace', timeout=timeout)
        except subprocess.TimeoutExpired:
            return {'ptx': path, 'status': 'TIMEOUT', 'constructs': [], 'first': ''}
        err = p.stderr
        lines = [l for l in err.splitlines() if l.strip()]
        first = lines[0] if lines else ''
        if p.returncode < 0 or 'Internal error' in err:
            return {'ptx': path, 'status': 'CRASHED', 'constructs': [], 'first': first,
                    'rc': p.returncode}
        if p.returncode == 0 and os.path.exists(out) and os.path.getsize(out) > 0:
            return {'ptx': path, 'status': 'COMPILED', 'constructs': [], 'first': ''}
        cons = sorted({construct(m.group(1)) for m in NOT_SUPPORTED.finditer(err)})
        status = 'NOT-SUPPORTED' if cons else 'FAILED'
        return {'ptx': path, 'status': status, 'constructs': cons, 'first': first}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('corpus', nargs='+')
    ap.add_argument('--mini', default='build/bin/ptxas-mini')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--top', type=int, default=60)
    ap.add_argument('--json')
    ap.add_argument('--list-compiled')
    a = ap.parse_args(argv)
    files = ptx_files(a.corpus)
    if not files:
        print('no .ptx files found', file=sys.stderr)
        return 2
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        recs = list(ex.map(lambda f: run_one(a.mini, f, a.timeout), files))
    by_status = collections.Counter(r['status'] for r in recs)
    n = len(recs)
    print('files: %d' % n)
    for s in ('COMPILED', 'NOT-SUPPORTED', 'FAILED', 'CRASHED', 'TIMEOUT'):
        print('  %-14s %5d  (%.1f%%)' % (s, by_status[s], 100.0 * by_status[s] / n))
    blocking = collections.Counter()
    sole = collections.Counter()
    for r in recs:
        for c in r['constructs']:
            blocking[c] += 1
        if len(r['constructs']) == 1:
            sole[r['constructs'][0]] += 1
    print('\nconstructs by files blocked (files blocked by it alone in brackets):')
    for c, k in blocking.most_common(a.top):
        print('  %5d [%4d]  %s' % (k, sole[c], c))
    for s in ('FAILED', 'CRASHED', 'TIMEOUT'):
        bad = [r for r in recs if r['status'] == s]
        if bad:
            print('\n%s:' % s)
            for r in bad[:30]:
                print('  %s: %s' % (r['ptx'], r['first'][:200]))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(recs, f, indent=1)
    if a.list_compiled:
        with open(a.list_compiled, 'w') as f:
            for r in recs:
                if r['status'] == 'COMPILED':
                    f.write(r['ptx'] + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
