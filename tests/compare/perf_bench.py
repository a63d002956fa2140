#!/usr/bin/env python3
"""perf_bench: modelled cycles and dynamic instructions of ptxas's and ptxas-mini's cubins.

Purpose: the code-speed measure of issue 16 without a GPU. Every execution test kernel
(tests/exec/kernels/<name>.desc, built as run_exec_test.sh builds it: <name>.ptx as written or
nvcc -arch=sm_90 -ptx <name>.cu, then ptxas -arch=sm_90 and ptxas-mini -arch=sm_90; the options
of <name>.flags, knobs that force a code path such as a tiny register limit, only with
--with-flags, since they would compare ptxas's default against a handicapped ptxas-mini) and, with --corpus-desc, every local corpus description (first line
`# ptx: <file>.ptx`, the PTX looked up in --corpus-ptx) runs on the emulator with
`exec-run --perf`, which checks the outputs against the CPU reference and replays the run on the
performance model (tests/exec/README.md, "Performance model"). The table gives per kernel the
modelled cycles, the dynamic warp instructions and the static instruction count for both
compilers and their ratios (ptxas-mini / ptxas), then the geometric means of the ratios over the
kernels where both cubins ran and matched the reference. Kernels that are negative tests
(`expect_trap`), that ptxas-mini cannot compile, or whose run fails or mismatches on either side
are listed with the reason and left out of the means.

Not a test: it asserts nothing and is not registered with ctest, except `--smoke KERNEL`, the
ctest check that the --perf line exists and is deterministic (two runs print the same numbers).

Room for a GPU column: each side of a row is a dict of figures parsed from one exec-run
(perf_of); a GPU time (exec-run --gpu with cuEvent timing, median of runs, not written yet)
would be one more key filled by one more exec-run call in run_case, one more column in report(),
and a rank correlation of modelled cycles against it.

Usage: perf_bench.py [--exec-run P] [--mini P] [--ptxas P] [--nvcc P] [--work DIR] [-j N]
                     [--only NAME,...] [--with-flags] [--corpus-desc DIR --corpus-ptx DIR] [--json F] [--top N]
                     [--mini-flags '...'] [--phases]
       perf_bench.py --smoke NAME [same tool options]
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(ROOT, 'tests', 'exec', 'kernels')
PERF_RE = re.compile(r'^PERF (\S+) cycles=(\d+) warp_insts=(\d+) ctas=(\d+) resident=(\d+) regs=(\d+) static=(\d+)$',
                     re.M)
WAIT_RE = re.compile(r'^PERF-WAIT \S+ stall=([\d.]+) barrier=([\d.]+) scoreboard=([\d.]+) pipe=([\d.]+) '
                     r'dispatch=([\d.]+)$', re.M)
WAIT_KEYS = ('stall', 'barrier', 'scoreboard', 'pipe', 'dispatch')


def which(path, name):
    if path:
        return path if os.access(path, os.X_OK) else None
    return shutil.which(name)


def run(cmd, timeout=600):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 124, 'timed out after %ds: %s' % (timeout, ' '.join(cmd))


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:160]
    return ''


class Case:
    """One kernel description and where its PTX comes from."""

    def __init__(self, name, desc, ptx=None, cu=None, flags='', arch='sm_90'):
        self.name, self.desc, self.ptx, self.cu, self.flags = name, desc, ptx, cu, flags
        self.arch = arch


def kernel_arch(base):
    """kernels/<name>.arch names the target when it is not sm_90 (sm_90a kernels), as
    tests/exec/run_exec_test.sh reads it."""
    if os.path.exists(base + '.arch'):
        with open(base + '.arch') as f:
            return f.readline().strip() or 'sm_90'
    return 'sm_90'


def exec_cases(only, with_flags=False):
    cases = []
    for f in sorted(os.listdir(KERNELS)):
        if not f.endswith('.desc'):
            continue
        name = f[:-5]
        if only and name not in only:
            continue
        base = os.path.join(KERNELS, name)
        with open(base + '.desc') as d:
            if re.search(r'^\s*expect_trap\b', d.read(), re.M):
                cases.append(Case(name, base + '.desc', flags=None))  # negative test: listed, not run
                continue
        flags = ''
        if with_flags and os.path.exists(base + '.flags'):
            with open(base + '.flags') as fl:
                flags = fl.readline().strip()
        arch = kernel_arch(base)
        if os.path.exists(base + '.ptx'):
            cases.append(Case(name, base + '.desc', ptx=base + '.ptx', flags=flags, arch=arch))
        else:
            cases.append(Case(name, base + '.desc', cu=base + '.cu', flags=flags, arch=arch))
    return cases


def corpus_cases(desc_dir, ptx_dir, only):
    cases = []
    for f in sorted(os.listdir(desc_dir)):
        if not f.endswith('.desc'):
            continue
        name = f[:-5]
        if only and name not in only:
            continue
        path = os.path.join(desc_dir, f)
        with open(path) as d:
            m = re.match(r'#\s*ptx:\s*(\S+)', d.readline())
        if not m:
            continue
        cases.append(Case('corpus/' + name, path, ptx=os.path.join(ptx_dir, m.group(1))))
    return cases


def perf_of(tools, cubin, desc):
    """Runs exec-run --perf; returns (status, figures or None, message)."""
    rc, out = run([tools.exec_run, '--cubin', cubin, '--desc', desc, '--perf'])
    m = PERF_RE.search(out)
    if rc == 0 and m and 'MATCH' in out and 'MISMATCH' not in out:
        fig = {'cycles': int(m.group(2)), 'warp_insts': int(m.group(3)), 'ctas': int(m.group(4)),
               'resident': int(m.group(5)), 'regs': int(m.group(6)), 'static': int(m.group(7))}
        w = WAIT_RE.search(out)
        if w:  # percent of the warps' cycles by cause (perf_model.h, WaitCycles)
            fig['wait'] = {k: float(w.group(i + 1)) for i, k in enumerate(WAIT_KEYS)}
        return 'ok', fig, ''
    if rc == 0 and m:  # no reference: ran, outputs unchecked
        return 'unchecked', None, 'no CPU reference: outputs not checked'
    for key in ('MISMATCH', 'TRAP', 'exec-run:'):
        for line in out.splitlines():
            if line.startswith(key):
                return 'failed', None, line[:200]
    return 'failed', None, 'exec-run exit %d: %s' % (rc, first_line(out))


def run_case(tools, case, work, mini_flags=(), tag='', ref_cache=None):
    """One kernel: ptxas's cubin (figures cached in ref_cache by kernel when given) and
    ptxas-mini's with mini_flags; tag keeps the cubins of several configurations apart."""
    row = {'name': case.name, 'status': 'ok', 'reason': '', 'ref': None, 'test': None}
    if case.flags is None:
        row.update(status='skipped', reason='negative test (expect_trap)')
        return row
    wd = os.path.join(work, case.name.replace('/', '_'))
    os.makedirs(wd, exist_ok=True)
    ptx = case.ptx
    if ptx is None:
        ptx = os.path.join(wd, os.path.basename(case.name) + '.ptx')
        if not tools.nvcc:
            row.update(status='skipped', reason='nvcc not found')
            return row
        if not os.path.exists(ptx) or ref_cache is None:
            rc, out = run([tools.nvcc, '-arch=' + case.arch, '-ptx', case.cu, '-o', ptx])
            if rc != 0:
                row.update(status='failed', reason='nvcc: ' + first_line(out))
                return row
    ref_cubin, test_cubin = os.path.join(wd, 'ptxas.cubin'), os.path.join(wd, 'mini%s.cubin' % tag)
    cached = ref_cache.get(case.name) if ref_cache is not None else None
    if cached is None:
        rc, out = run([tools.ptxas, '-arch=' + case.arch, ptx, '-o', ref_cubin])
        if rc != 0:
            row.update(status='failed', reason='ptxas: ' + first_line(out))
            return row
    if os.path.exists(test_cubin):
        os.remove(test_cubin)
    rc, out = run([tools.mini, '-arch=' + case.arch] + (case.flags.split() if case.flags else []) + list(mini_flags)
                  + [ptx, '-o', test_cubin])
    if rc != 0 or not os.path.exists(test_cubin):
        row.update(status='not-compiled', reason='ptxas-mini: ' + first_line(out))
        return row
    if cached is None:
        cached = perf_of(tools, ref_cubin, case.desc)
        if ref_cache is not None:
            ref_cache[case.name] = cached
    st_r, fig_r, msg_r = cached
    st_t, fig_t, msg_t = perf_of(tools, test_cubin, case.desc)
    row['ref'], row['test'] = fig_r, fig_t
    if st_r != 'ok':
        row.update(status='ref-' + st_r, reason='ptxas cubin: ' + msg_r)
    elif st_t != 'ok':
        row.update(status='test-' + st_t, reason='ptxas-mini cubin: ' + msg_t)
    return row


def ratio(row, key):
    r, t = row.get('ref'), row.get('test')
    if not r or not t or not r.get(key):
        return None
    return t[key] / r[key]


def geomean(vals):
    vals = [v for v in vals if v]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def fmt(v, spec='%.3f'):
    return '-' if v is None else spec % v


def report(rows, top):
    ok = [r for r in rows if r['status'] == 'ok']
    lines = []
    hdr = '%-26s %10s %10s %7s %10s %10s %7s %8s %7s %7s' % (
        'kernel', 'cyc ptxas', 'cyc mini', 'ratio', 'dyn ptxas', 'dyn mini', 'ratio', 'st ptxas', 'st mini', 'ratio')
    lines.append(hdr)
    lines.append('-' * len(hdr))
    for r in ok:
        lines.append('%-26s %10d %10d %7s %10d %10d %7s %8d %7d %7s' % (
            r['name'][:26], r['ref']['cycles'], r['test']['cycles'], fmt(ratio(r, 'cycles')),
            r['ref']['warp_insts'], r['test']['warp_insts'], fmt(ratio(r, 'warp_insts')),
            r['ref']['static'], r['test']['static'], fmt(ratio(r, 'static'))))
    lines.append('')
    lines.append('geometric means (ptxas-mini / ptxas) over %d kernels that both compilers ran and matched:' % len(ok))
    lines.append('  modelled cycles        %s' % fmt(geomean([ratio(r, 'cycles') for r in ok]), '%.4f'))
    lines.append('  dynamic warp insts     %s' % fmt(geomean([ratio(r, 'warp_insts') for r in ok]), '%.4f'))
    lines.append('  static instructions    %s' % fmt(geomean([ratio(r, 'static') for r in ok]), '%.4f'))
    ranked = sorted(ok, key=lambda r: -ratio(r, 'cycles'))[:top]
    if ranked:
        lines.append('')
        lines.append('top %d by modelled-cycle ratio:' % len(ranked))
        for r in ranked:
            sb = lambda side: r[side].get('wait', {}).get('scoreboard')
            lines.append('  %-26s %s  (cycles %d vs %d, dyn %s, regs %d vs %d, scoreboard waits %s%% vs %s%%)' % (
                r['name'], fmt(ratio(r, 'cycles')), r['test']['cycles'], r['ref']['cycles'],
                fmt(ratio(r, 'warp_insts')), r['test']['regs'], r['ref']['regs'],
                fmt(sb('test'), '%.0f'), fmt(sb('ref'), '%.0f')))
    rest = [r for r in rows if r['status'] != 'ok']
    if rest:
        lines.append('')
        lines.append('left out of the means (%d):' % len(rest))
        for r in rest:
            lines.append('  %-26s %-16s %s' % (r['name'], r['status'], r['reason']))
    return '\n'.join(lines) + '\n'


def opt_phases(mini):
    """Implemented phases that run only at -O1 and above (the optimizations), as tests/fuzz
    reads them from --list-phases."""
    r = subprocess.run([mini, '--list-phases'], capture_output=True, text=True)
    out = []
    for line in r.stdout.splitlines():
        m = re.match(r'\s*(\d+)\s+(\S+)\s+implemented\s+(\d+)\s', line)
        if m and int(m.group(3)) >= 1:
            out.append(m.group(2))
    return out


def phase_table(tools, cases, work, jobs, base_flags):
    """Each optimizing phase's worth, two ways, over the kernels that ran in every
    configuration (ptxas's figures computed once):
      - cumulative: the phases switched on one by one in table order (every later optimizing
        phase disabled), so a phase that repeats an earlier one's work (GeneralOptimize runs
        four times) is credited where it first acts;
      - alone off: every phase on but one (-knob DisablePhases=P), what removing it costs now.
    """
    ref_cache = {}
    phases = opt_phases(tools.mini)
    configs = [('cumulative', 'none (-O3, all optimizing phases off)',
                list(base_flags) + ['-knob', 'DisablePhases=' + ','.join(phases)])]
    for i, p in enumerate(phases):
        later = phases[i + 1:]
        configs.append(('cumulative', '+ ' + p,
                        list(base_flags) + (['-knob', 'DisablePhases=' + ','.join(later)] if later else [])))
    for p in phases:
        configs.append(('alone off', 'without ' + p, list(base_flags) + ['-knob', 'DisablePhases=' + p]))
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        # The first configuration fills the cache of ptxas's figures, once per kernel.
        for i, (_, _, flags) in enumerate(configs):
            results.append(list(ex.map(lambda c, f=flags, t='_%d' % i: run_case(tools, c, work, f, t, ref_cache),
                                       cases)))
    keep = [k for k in range(len(cases)) if all(rows[k]['status'] == 'ok' for rows in results)]
    lines = ['phase table over %d kernels that ran in all %d configurations (geometric means, ptxas-mini / ptxas;'
             % (len(keep), len(configs)),
             'd: change of the cycle ratio against the row above (cumulative) or against all on (alone off))']
    allon = None
    prev = None
    for (kind, name, _), rows in zip(configs, results):
        g = [geomean([ratio(rows[k], key) for k in keep]) for key in ('cycles', 'warp_insts', 'static')]
        if kind == 'cumulative' and name.startswith('none'):
            lines += ['', '%-46s %8s %8s %8s %9s' % ('cumulative', 'cycles', 'dyn', 'static', 'd')]
        if kind == 'alone off' and prev is not None and prev[0] == 'cumulative':
            allon = prev[1]
            lines += ['', '%-46s %8s %8s %8s %9s' % ('alone off', 'cycles', 'dyn', 'static', 'd')]
        base = allon if kind == 'alone off' else (prev[1] if prev else None)
        delta = None if g[0] is None or base is None else g[0] / base - 1
        lines.append('%-46s %8s %8s %8s %9s' % (name, fmt(g[0], '%.4f'), fmt(g[1], '%.4f'), fmt(g[2], '%.4f'),
                                                '-' if delta is None else '%+.2f%%' % (100 * delta)))
        prev = (kind, g[0])
    dropped = [cases[k].name for k in range(len(cases)) if k not in keep]
    if dropped:
        lines.append('')
        lines.append('left out (did not run in every configuration): ' + ', '.join(dropped))
    return '\n'.join(lines) + '\n', [[(c[1], r) for r in rows] for c, rows in zip(configs, results)]


def smoke(tools, name, work):
    """ctest check: the --perf line exists and two runs print the same figures."""
    cases = exec_cases({name})
    if not cases or cases[0].flags is None:
        print('FAIL: no runnable exec kernel named %s' % name)
        return 1
    case = cases[0]
    wd = os.path.join(work, 'smoke_' + name)
    os.makedirs(wd, exist_ok=True)
    ptx = case.ptx
    if ptx is None:
        if not tools.nvcc:
            print('SKIPPED: nvcc not found')
            return 77
        ptx = os.path.join(wd, name + '.ptx')
        rc, out = run([tools.nvcc, '-arch=' + case.arch, '-ptx', case.cu, '-o', ptx])
        if rc:
            print('FAIL: nvcc: ' + first_line(out))
            return 1
    cubins = []
    ref = os.path.join(wd, 'ptxas.cubin')
    rc, out = run([tools.ptxas, '-arch=' + case.arch, ptx, '-o', ref])
    if rc:
        print('FAIL: ptxas: ' + first_line(out))
        return 1
    cubins.append(('ptxas', ref))
    test = os.path.join(wd, 'mini.cubin')
    if tools.mini:
        rc, out = run([tools.mini, '-arch=' + case.arch] + case.flags.split() + [ptx, '-o', test])
        if rc == 0 and os.path.exists(test):
            cubins.append(('ptxas-mini', test))
        else:
            print('note: ptxas-mini did not compile %s (%s); checking ptxas only' % (name, first_line(out)))
    bad = 0
    for who, cubin in cubins:
        figs = []
        for _ in range(2):
            st, fig, msg = perf_of(tools, cubin, case.desc)
            if st != 'ok':
                print('FAIL: %s cubin: %s' % (who, msg))
                return 1
            figs.append(fig)
        same = figs[0] == figs[1]
        # One SM issues at most one instruction per sub-partition per cycle (4 per cycle).
        sane = figs[0]['cycles'] > 0 and figs[0]['cycles'] * 4 >= figs[0]['warp_insts']
        print('%s %s: cycles=%d warp_insts=%d (second run: cycles=%d warp_insts=%d) %s' % (
            who, name, figs[0]['cycles'], figs[0]['warp_insts'], figs[1]['cycles'], figs[1]['warp_insts'],
            'deterministic' if same else 'DIFFERENT'))
        if not same or not sane:
            bad += 1
    print('PASS' if not bad else 'FAIL')
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--exec-run', default=os.path.join(ROOT, 'build', 'bin', 'exec-run'))
    ap.add_argument('--mini', default=os.path.join(ROOT, 'build', 'bin', 'ptxas-mini'))
    ap.add_argument('--ptxas', default=None, help='default: ptxas on PATH or /usr/local/cuda/bin/ptxas')
    ap.add_argument('--nvcc', default=None, help='default: nvcc on PATH or /usr/local/cuda/bin/nvcc')
    ap.add_argument('--work', default=os.path.join(ROOT, 'build', 'perf_bench'))
    ap.add_argument('-j', type=int, default=1, help='kernels in parallel')
    ap.add_argument('--only', default='', help='comma-separated kernel names')
    ap.add_argument('--corpus-desc', default=None, help='folder of local corpus descriptions (# ptx: FILE first)')
    ap.add_argument('--corpus-ptx', default='/work/corpus/ptx', help='where the corpus PTX files are')
    ap.add_argument('--no-exec-kernels', action='store_true', help='only the corpus descriptions')
    ap.add_argument('--with-flags', action='store_true',
                    help="pass kernels/<name>.flags to ptxas-mini (test knobs; off: both compilers at defaults)")
    ap.add_argument('--json', default=None, help='write every row as JSON here')
    ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--smoke', default=None, metavar='NAME', help='ctest check on one exec kernel')
    ap.add_argument('--mini-flags', default='', help="extra ptxas-mini options, e.g. '-knob DisablePhases=OriPredication'")
    ap.add_argument('--phases', action='store_true',
                    help='per-phase table: optimizing phases switched on one by one, and each disabled alone')
    opts = ap.parse_args(sys.argv[1:] if argv is None else argv)

    class Tools:
        pass
    tools = Tools()
    tools.exec_run = opts.exec_run
    tools.ptxas = which(opts.ptxas, 'ptxas') or which(None if opts.ptxas else '/usr/local/cuda/bin/ptxas', 'ptxas')
    tools.nvcc = which(opts.nvcc, 'nvcc') or which(None if opts.nvcc else '/usr/local/cuda/bin/nvcc', 'nvcc')
    tools.mini = opts.mini if os.access(opts.mini, os.X_OK) else None
    if not os.access(tools.exec_run, os.X_OK):
        print('SKIPPED: exec-run not found (%s)' % tools.exec_run)
        return 77
    if not tools.ptxas:
        print('SKIPPED: ptxas not found')
        return 77
    os.makedirs(opts.work, exist_ok=True)
    if opts.smoke:
        return smoke(tools, opts.smoke, opts.work)
    if not tools.mini:
        sys.stderr.write('perf_bench: ptxas-mini not found: %s\n' % opts.mini)
        return 2
    only = set(x for x in opts.only.split(',') if x)
    cases = [] if opts.no_exec_kernels else exec_cases(only, opts.with_flags)
    if opts.corpus_desc:
        cases += corpus_cases(opts.corpus_desc, opts.corpus_ptx, only)
    mini_flags = opts.mini_flags.split()
    if opts.phases:
        text, results = phase_table(tools, cases, opts.work, opts.j, mini_flags)
        print(text, end='')
        if opts.json:
            with open(opts.json, 'w') as f:
                json.dump(results, f, indent=1)
        return 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.j)) as ex:
        rows = list(ex.map(lambda c: run_case(tools, c, opts.work, mini_flags), cases))
    text = report(rows, opts.top)
    print(text, end='')
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
