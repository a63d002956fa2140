#!/usr/bin/env python3
"""corpus_cu_test: compile the project's own CUDA test programs to PTX, then compare.

What it checks, and why: tests/corpus/cuda/*.cu are small CUDA programs written for this
project (integer/float/half/bf16 arithmetic, conversions, shared memory, atomics, shuffles and
votes, barriers, loops, calls, local arrays, launch bounds, clusters, ...). They are compiled to
PTX at test time, as real front ends produce it:
  - by nvcc (`nvcc -arch=sm_90 -ptx`), every file;
  - by clang (`clang++-19 -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only -S -O3 -nocudalib
    -nocudainc -include clang_prelude.h`), the files whose header says `FRONTENDS: ... clang`.
    Debian's clang-19 cannot include CUDA 13's headers, hence -nocudainc and the prelude.
Then ptx_compare.py runs over the PTX in the given mode (--self-compare or --mini PATH) and its
exit status is this test's, so a must-match difference fails the test.

A front end that fails on a file is a test failure (the programs are ours and must build);
a missing nvcc or ptxas/cuobjdump is exit 77 (a visible ctest SKIP); a missing clang is a loud
note and the nvcc half still runs.
Usage: corpus_cu_test.py --outdir D (--self-compare | --mini PATH) [--skip-if-not-compiled]
       [--nvcc P] [--clang P] [ptx_compare options...]
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), 'corpus', 'cuda')
sys.path.insert(0, HERE)
import ptx_compare  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--clang', default=shutil.which('clang++-19') or '')
    opts, rest = ap.parse_known_args()
    if not os.access(opts.nvcc, os.X_OK):
        print('SKIPPED: oracle missing: nvcc (%s)' % opts.nvcc)
        return ptx_compare.SKIP
    os.makedirs(opts.outdir, exist_ok=True)
    for old in glob.glob(os.path.join(opts.outdir, '*.ptx')):
        os.remove(old)
    sources = sorted(glob.glob(os.path.join(SRC, '*.cu')))
    if not sources:
        print('corpus_cu_test: no sources in %s' % SRC)
        return 2
    have_clang = bool(opts.clang) and os.access(opts.clang, os.X_OK)
    if not have_clang:
        print('NOTE: clang++-19 not found: the clang-compiled half of the corpus is NOT tested')
    failed = []
    n_nvcc = n_clang = 0
    for src in sources:
        base = os.path.splitext(os.path.basename(src))[0]
        header = open(src).read(2000)
        out = os.path.join(opts.outdir, base + '.nvcc.ptx')
        r = subprocess.run([opts.nvcc, '-arch=sm_90', '-ptx', src, '-o', out], capture_output=True, text=True)
        if r.returncode != 0:
            failed.append('nvcc %s: %s' % (base, r.stderr.strip()[:400]))
        else:
            n_nvcc += 1
        if have_clang and 'FRONTENDS:' in header and 'clang' in header.split('FRONTENDS:', 1)[1].split('\n', 1)[0]:
            out = os.path.join(opts.outdir, base + '.clang.ptx')
            r = subprocess.run([opts.clang, '-x', 'cuda', '--cuda-gpu-arch=sm_90', '--cuda-device-only', '-S', '-O3',
                                '-nocudalib', '-nocudainc', '-Wno-unknown-cuda-version', '-include',
                                os.path.join(SRC, 'clang_prelude.h'), src, '-o', out], capture_output=True, text=True)
            if r.returncode != 0:
                failed.append('clang %s: %s' % (base, r.stderr.strip()[:400]))
            else:
                n_clang += 1
    print('corpus_cu_test: %d sources -> %d PTX from nvcc, %d from clang' % (len(sources), n_nvcc, n_clang))
    if failed:
        print('corpus_cu_test: front end failures (our own programs must build):')
        for f in failed:
            print('  ' + f)
        return 1
    return ptx_compare.main(rest + [opts.outdir])


if __name__ == '__main__':
    sys.exit(main())
