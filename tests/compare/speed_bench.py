#!/usr/bin/env python3
"""speed_bench: compile speed and memory of ptxas-mini against ptxas, side by side (issue 23).

Not a test: it asserts nothing and is not registered with ctest (timings are machine figures).

What it measures, per PTX file, for both compilers with the same flags, alternating the two,
`--runs` times (median wall time and median CPU time = user + system of the compiler process;
peak RSS = max over the runs, from GNU time where installed, as ptx_compare.run_measured):
  parse    `-arch=compute_<N>`: parse and check only, no code (both compilers accept it);
  O3       `-arch=sm_<N> -O3 -o X.cubin` (every implemented phase on);
  O0       `-arch=sm_<N> -O0 -o X.cubin`;
each at 1 thread (ptxas-mini `-split-compile 1`) and, for ptxas-mini, at all cores
(`-split-compile 0`; ptxas is given the same option, which it honours the same way).
It also times a tiny kernel (start-up floor) and checks that ptxas-mini's cubins are
byte-identical at 1 thread and at all cores (a difference is reported, not asserted).

Output: one table per mode with ratios ptxas-mini / ptxas (time, RSS) per file for the five
largest files, geometric means over all files, and parse throughput in MB/s on the largest files.
Wall time is the criterion; on a shared machine (other jobs running) it carries their
scheduling delays, which weigh most on the many small files, so the CPU-time ratio at 1 thread
is printed beside it (at all cores only wall time says what the threads bought).

The whole local corpus in one command (391 files, median of 3, 1 thread and all cores; about
an hour of machine time on an idle 2-core machine, ptxas alone ~10 min per mode and run; run it
with nothing else on the machine). `--json F` is written after every file and `--resume`
continues from it, so an interrupted run loses one file at most:

    python3 tests/compare/speed_bench.py /work/corpus/ptx --runs 3 --json speed.json --resume

Usage: speed_bench.py CORPUS... [--mini PATH] [--ptxas PATH] [--runs 3] [--limit N] [--json F]
                      [--resume] [--modes parse,O3,O0]
       benchmark.py --speed CORPUS... [same options]
"""

import argparse
import json
import math
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_compare  # noqa: E402

TINY = """.version 8.0
.target sm_90
.address_size 64
.visible .entry tiny(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  st.global.u32 [%rd2], %r1;
  ret;
}
"""


def geomean(vals):
    vals = [v for v in vals if v and v > 0]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else float('nan')


def arch_of(ptx):
    t = ptx_compare.ptx_target(ptx) or 'sm_90'
    return t


def command(compiler, mode, ptx, out, threads):
    sm = arch_of(ptx)
    if mode == 'parse':
        cmd = [compiler, '-arch=' + sm.replace('sm_', 'compute_'), ptx]
    else:
        cmd = [compiler, '-arch=' + sm, '-' + mode, ptx, '-o', out]
    if threads is not None:
        cmd += ['-split-compile', str(threads)]
    return cmd


def run_once(cmd, timeout):
    """Run cmd; return (rc, wall s, CPU s = user + system, peak RSS KiB, stderr text). Peak RSS
    comes from ptx_compare.run_measured (GNU time in between, so Python's own high-water mark,
    which Linux carries across exec, is not counted)."""
    cpu = []
    rc, wall, rss, text = ptx_compare.run_measured(cmd, timeout, cpu)
    return rc, wall, (cpu[0] if cpu else 0.0), rss, text


def measure(cmd, runs, timeout):
    """Median wall and CPU time and max RSS over `runs` runs: (time, rss, error, cpu)."""
    times, cpus, rss = [], [], 0
    for _ in range(runs):
        rc, wall, cpu, peak, err = run_once(cmd, timeout)
        if rc != 0:
            return None, None, (err.strip().splitlines() or ['rc %d' % rc])[0][:160], None
        times.append(wall)
        cpus.append(cpu)
        rss = max(rss, peak)
    return statistics.median(times), rss, None, statistics.median(cpus)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('inputs', nargs='+', help='PTX files or folders')
    ap.add_argument('--mini', default=ptx_compare.DEFAULT_MINI)
    ap.add_argument('--ptxas', default=ptx_compare.DEFAULT_PTXAS)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--limit', type=int, default=0, help='only N files spread over the size range (plus the 5 largest)')
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--modes', default='parse,O3,O0')
    ap.add_argument('--json', help='write all measurements here (after every file)')
    ap.add_argument('--resume', action='store_true',
                    help='keep the files already measured in --json (same options) and go on')
    opts = ap.parse_args(argv)
    files = sorted(ptx_compare.collect_inputs(opts.inputs), key=os.path.getsize)
    if opts.limit and len(files) > opts.limit:
        step = len(files) / opts.limit
        files = sorted({files[int(i * step)] for i in range(opts.limit)} | set(files[-5:]), key=os.path.getsize)
    largest = files[-5:]
    modes = opts.modes.split(',')
    results = {}
    if opts.resume and opts.json and os.path.exists(opts.json):
        with open(opts.json) as f:
            results = {p: r for p, r in json.load(f).get('files', {}).items() if p in files}
        sys.stderr.write('resuming: %d of %d files already measured\n' % (len(results), len(files)))
    work = tempfile.mkdtemp(prefix='speed_bench.')
    tiny = os.path.join(work, 'tiny.ptx')
    with open(tiny, 'w') as f:
        f.write(TINY)
    # Start-up floor first: a tiny kernel, median of 5.
    floor = {}
    for side, comp in (('ptxas', opts.ptxas), ('mini', opts.mini)):
        floor[side] = measure(command(comp, 'O3', tiny, os.path.join(work, side + '.cubin'), None), 5, 60)
    for i, ptx in enumerate(files):
        if ptx in results:
            continue
        rec = {'size': os.path.getsize(ptx)}
        for mode in modes:
            for side, comp, threads in (('ptxas', opts.ptxas, None), ('mini1', opts.mini, 1), ('miniN', opts.mini, 0)):
                out = os.path.join(work, '%s.%s.cubin' % (side, mode))
                t, rss, err, cpu = measure(command(comp, mode, ptx, out, threads), opts.runs, opts.timeout)
                rec['%s.%s' % (mode, side)] = {'time': t, 'rss': rss, 'error': err, 'cpu': cpu}
            if mode != 'parse':
                a, b = os.path.join(work, 'mini1.%s.cubin' % mode), os.path.join(work, 'miniN.%s.cubin' % mode)
                if os.path.exists(a) and os.path.exists(b):
                    rec['%s.identical' % mode] = open(a, 'rb').read() == open(b, 'rb').read()
                for p in (a, b, os.path.join(work, 'ptxas.%s.cubin' % mode)):
                    if os.path.exists(p):
                        os.unlink(p)
        results[ptx] = rec
        sys.stderr.write('[%d/%d] %s\n' % (i + 1, len(files), os.path.basename(ptx)))
        if opts.json:
            with open(opts.json + '.tmp', 'w') as f:
                json.dump({'floor': floor, 'files': results}, f, indent=1)
            os.replace(opts.json + '.tmp', opts.json)

    def ratio(rec, mode, side, key):
        a, b = rec.get('%s.%s' % (mode, side)), rec.get('%s.ptxas' % mode)
        if not a or not b or a.get(key) is None or b.get(key) is None or b[key] == 0:
            return None
        return a[key] / b[key]

    print('# compile speed: ptxas-mini / ptxas (median of %d runs; RSS = max)' % opts.runs)
    print()
    print('start-up floor (tiny kernel, -O3): ptxas %.3f s %d KiB, ptxas-mini %.3f s %d KiB -> time %.2fx, RSS %.2fx'
          % (floor['ptxas'][0] or 0, floor['ptxas'][1] or 0, floor['mini'][0] or 0, floor['mini'][1] or 0,
             (floor['mini'][0] or 0) / (floor['ptxas'][0] or 1), (floor['mini'][1] or 0) / (floor['ptxas'][1] or 1)))
    print()
    print('| mode | files | time 1 thread | time all cores | CPU time 1 thread | RSS 1 thread | RSS worst file | cubins identical 1 vs N |')
    print('|---|---|---|---|---|---|---|---|')
    for mode in modes:
        both = [r for r in results.values() if ratio(r, mode, 'mini1', 'time') is not None]
        t1 = geomean([ratio(r, mode, 'mini1', 'time') for r in both])
        tn = geomean([ratio(r, mode, 'miniN', 'time') for r in both])
        c1 = geomean([ratio(r, mode, 'mini1', 'cpu') for r in both])
        m1 = geomean([ratio(r, mode, 'mini1', 'rss') for r in both])
        worst = max([ratio(r, mode, 'mini1', 'rss') for r in both] or [float('nan')])
        ident = [r.get('%s.identical' % mode) for r in both if '%s.identical' % mode in r]
        print('| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %s |' % (
            mode, len(both), t1, tn, c1, m1, worst,
            '%d/%d' % (sum(1 for x in ident if x), len(ident)) if ident else '-'))
    print()
    print('five largest files:')
    print()
    print('| file | MB | parse MB/s ptxas | parse MB/s mini (1 thr) | parse ratio | O3 time 1 thr | O3 time all | O0 time | O3 RSS |')
    print('|---|---|---|---|---|---|---|---|---|')
    for ptx in largest:
        r = results[ptx]
        mb = r['size'] / 1e6

        def t(k):
            v = r.get(k)
            return v['time'] if v and v['time'] else None

        def f(v, spec='%.3f'):
            return spec % v if v is not None else 'n/a'
        pp, pm = t('parse.ptxas'), t('parse.mini1')
        print('| %s | %.2f | %s | %s | %s | %s | %s | %s | %s |' % (
            os.path.basename(ptx), mb, f(mb / pp if pp else None, '%.1f'), f(mb / pm if pm else None, '%.1f'),
            f(pp / pm if pp and pm else None, '%.2fx'),
            f(ratio(r, 'O3', 'mini1', 'time')), f(ratio(r, 'O3', 'miniN', 'time')),
            f(ratio(r, 'O0', 'mini1', 'time')), f(ratio(r, 'O3', 'mini1', 'rss'))))
    errors = [(p, k, v['error']) for p, r in results.items() for k, v in r.items()
              if isinstance(v, dict) and v.get('error')]
    if errors:
        print()
        print('not compiled (%d):' % len(errors))
        for p, k, e in errors[:20]:
            print('  %s [%s]: %s' % (os.path.basename(p), k, e))
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'floor': floor, 'files': results}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
