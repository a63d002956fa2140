#!/usr/bin/env python3
"""ptx_compare: compile PTX with NVIDIA's ptxas and with ptxas-mini, and compare the cubins.

Purpose: show, kernel by kernel, how ptxas-mini's output compares with ptxas's (issue 7,
docs/verification.md check 4).

Algorithm, per PTX file:
  1. Pick -arch (given, or `auto`: the PTX `.target`, so sm_90a files build for sm_90a).
  2. Compile with the reference (ptxas) and the compiler under test (ptxas-mini, or ptxas again
     in --self-compare mode) with the same -arch and flags, alternating the two, `--runs` times;
     each run is timed (wall clock) and its peak RSS taken from the child's own rusage (wait4).
     Compile time is the median, peak memory the maximum over the runs. `-v` is always passed so
     that spill bytes can be read from the verbose report.
     If the compiler under test fails, the file is reported as `not-compiled` with the first line
     of its stderr as the reason: that is a result, not an error of the runner.
  3. Dump both cubins with `cuobjdump -elf -sass`, parse (cuobjdump_model.py) and compare:
     must match (any difference makes the file `mismatch` and the exit status 1):
       kernels and functions present, e_flags, ELF type, section set (name, type, flags),
       (ptxas's `$__internal_*` slow-path subroutines and, when there are any, the
       .rela.text sections of their calls are left out: inline expansion is as good),
       per kernel: KPARAM_INFO, CBANK_PARAM_SIZE, PARAM_CBANK (offset/size word; the symbol
       index is not compared), constant bank 0 size, shared bytes, MAX_THREADS, REQNTID,
       CTA_PER_CLUSTER, MAXREG_COUNT, NUM_BARRIERS, and EXIT_INSTR_OFFSETS consistent with the
       code on each side (the set of offsets equals the offsets of the EXIT instructions);
     figures (reported, never asserted): instruction count (before the tail padding), opcode
       histogram difference (L1 distance), registers, spill bytes, stack frame, whether the
       normalized SASS is identical, compile time, peak memory.
  4. Optional checks of the compiler under test's cubin, each a must-match item when asked for:
     `--nvdisasm PATH`: nvdisasm accepts it (exit 0, nothing on stderr);
     `--hazards SASS_MC`: `sass-mc -check-hazards -strict` finds no violation and nothing
     unverified (ptxas-mini never relies on unscoreboarded variable latency).
  `--cubins REF TEST` compares two cubins directly (steps 3 and 4).

Exit status: 0 every compared file matches; 1 a must-match item differs; 2 usage or runner
error (bad input, reference ptxas failed); 77 an oracle is missing (or, with
--skip-if-not-compiled, the compiler under test compiled nothing): callers such as ctest map
77 to a visible SKIP, never a pass.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cuobjdump_model as cm  # noqa: E402

SKIP = 77
DEFAULT_PTXAS = '/usr/local/cuda/bin/ptxas'
DEFAULT_CUOBJDUMP = '/opt/ptxas-mini-oracles/nvidia/cu13/bin/cuobjdump'
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_MINI = os.path.join(REPO_ROOT, 'build', 'bin', 'ptxas-mini')

# Per-kernel attributes compared by value, as cuobjdump prints them.
LAUNCH_ATTRS = ['MAX_THREADS', 'REQNTID', 'CTA_PER_CLUSTER', 'MAXREG_COUNT', 'NUM_BARRIERS']


# ---- running a compiler --------------------------------------------------------------------
# Peak RSS must be taken from a process that did not fork off this Python interpreter: Linux
# carries a process's peak RSS across exec (the old image's high-water mark is kept), so a
# compiler started straight from Python reports at least Python's own ~18 MB. GNU time forks
# from a small process; its -o file holds the child's own figure. Without it, wait4's figure.
GNU_TIME = '/usr/bin/time' if os.access('/usr/bin/time', os.X_OK) else None


def run_measured(cmd, timeout, cpu=None):
    """Run cmd; return (rc, wall seconds, peak RSS in KiB, stderr text). rc 124 on timeout.
    `cpu`, a list, receives the CPU seconds (user + system) of the command and its waited-for
    children (wait4's rusage: GNU time's own share is negligible)."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile('r') as rssf:
        if GNU_TIME:
            cmd = [GNU_TIME, '-f', '%M', '-o', rssf.name] + list(cmd)
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        except OSError as e:
            return 127, 0.0, 0, str(e)
        killed = []

        def kill():  # the whole group: with GNU time in between, the compiler is a grandchild
            killed.append(True)
            try:
                os.killpg(p.pid, 9)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        if cpu is not None:
            cpu.append(ru.ru_utime + ru.ru_stime)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode('utf-8', 'replace')
        peak = ru.ru_maxrss
        if GNU_TIME:
            out = rssf.read()
            nums = [w for w in out.split() if w.isdigit()]
            if nums:
                peak = int(nums[-1])
            # GNU time exits 128+N when the command died of signal N; report it as Popen would.
            sig = re.search(r'Command terminated by signal (\d+)', out)
            if sig:
                p.returncode = -int(sig.group(1))
    rc = 124 if killed else p.returncode
    return rc, wall, peak, text


RE_PROPS = re.compile(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads")


def spills_from_verbose(stderr):
    """{function: spill stores + loads} from a `-v` report (ptxas's format, docs/cubin-format.md §3)."""
    return {m.group(1): int(m.group(3)) + int(m.group(4)) for m in RE_PROPS.finditer(stderr)}


def first_error_line(stderr, rc):
    for line in stderr.splitlines():
        if line.strip() and ' info    :' not in line and not line.startswith('    '):
            return line.strip()
    return 'exit status %d, no message' % rc


def ptx_target(path):
    with open(path, 'r', errors='replace') as f:
        for line in f:
            m = re.match(r'\s*\.target\s+([A-Za-z0-9_]+)', line)
            if m:
                return m.group(1)
    return None


# ---- dumping and comparing cubins ----------------------------------------------------------
def dump(cuobjdump, cubin):
    r = subprocess.run([cuobjdump, '-elf', '-sass', cubin], capture_output=True, text=True, errors='replace')
    if r.returncode != 0 or 'error' in r.stderr.lower() or 'warning' in r.stderr.lower():
        raise RuntimeError('cuobjdump on %s: rc %d: %s' % (cubin, r.returncode, r.stderr.strip()[:300]))
    return r.stdout


def _param_cbank(model, k):
    # "0xd 0x40210": symbol index of .nv.constant0.<k>, then (size << 16 | offset). The index is
    # a symtab position, not a layout fact, so only the second word is compared.
    vals = model.attrs(k, 'PARAM_CBANK')
    return [v.split()[-1] for v in vals]


def _exit_consistency(model, k):
    """None when EXIT_INSTR_OFFSETS equals the offsets of the EXIT instructions; else a message."""
    listed = set()
    for v in model.attrs(k, 'EXIT_INSTR_OFFSETS'):
        listed |= {int(x, 16) for x in v.split() if x.startswith('0x')}
    code = {off for off, text in model.sass.get(k, []) if cm.is_exit(text)}
    if k not in model.sass:
        return 'no SASS listing for the kernel'
    if listed != code:
        return 'EXIT_INSTR_OFFSETS %s but EXIT at %s' % (sorted(hex(x) for x in listed), sorted(hex(x) for x in code))
    return None


def kernel_items(model, k):
    """The must-match items of kernel k, as comparable values."""
    c0 = model.section('.nv.constant0.' + k)
    sh = model.section('.nv.shared.' + k)
    items = {
        'KPARAM_INFO': sorted(model.attrs(k, 'KPARAM_INFO')),
        'CBANK_PARAM_SIZE': model.attrs(k, 'CBANK_PARAM_SIZE'),
        'PARAM_CBANK': _param_cbank(model, k),
        'constant0 size': c0['size'] if c0 else None,
        'shared bytes': sh['size'] if sh else 0,
    }
    for a in LAUNCH_ATTRS:
        items[a] = model.attrs(k, a)
    return items


def histogram(insns):
    h = {}
    for _, text in insns:
        op = cm.opcode(text)
        h[op] = h.get(op, 0) + 1
    return h


def function_figures(model, fn, spills):
    insns = cm.body(model.sass.get(fn, []))
    gi = model.global_info.get(fn, {})
    return {
        'instructions': len(insns),
        'registers': gi.get('REGCOUNT'),
        'stack frame': gi.get('FRAME_SIZE'),
        'spill bytes': spills.get(fn) if spills is not None else None,
        'histogram': histogram(insns),
        'normalized': cm.normalize(insns),
    }


def compare_models(ref, test, ref_spills=None, test_spills=None):
    """Return (mismatches, per-kernel figures). A mismatch is a dict {item, kernel, ref, test}."""
    mism = []

    def diff(item, kernel, a, b):
        if a != b:
            mism.append({'item': item, 'kernel': kernel, 'ref': a, 'test': b})
    diff('ELF type', None, ref.elf_type, test.elf_type)
    diff('e_flags', None, hex(ref.e_flags or 0), hex(test.e_flags or 0))
    diff('kernels', None, ref.kernels(), test.kernels())
    # ptxas puts the slow paths of IEEE division/sqrt/rcp into `$__internal_*` subroutines
    # reached by CALL.REL (hence a .rela.text.<kernel> section); a compiler may as well expand
    # them inline. Those helper functions and the relocation sections are implementation
    # choices, not part of the module's interface: they are left out of the must-match sets.
    def interface_functions(m):
        return sorted(f for f in m.functions if not f.startswith('$__internal_'))
    helpers = any(f.startswith('$__internal_') for f in list(ref.functions) + list(test.functions))
    diff('functions', None, interface_functions(ref), interface_functions(test))
    # Likewise ptxas turns a chain of compares into a jump table of its own accord (BRX through
    # `LDC c[0x2][R]`; HW, ptxas 13.0 on divergence.clang: .nv.constant2.<k> holds the targets'
    # code offsets and its .rela section is empty): an optimization, left out as well.
    # Only a jump table ptxas made and the compiler under test did not is left out; one the
    # compiler under test makes is compared like any section.
    def section_set(m):
        return sorted((s['name'], s['type'], s['flags']) for s in m.sections
                      if not (helpers and s['name'].startswith('.rela.text.')))
    ts = section_set(test)
    rs = [x for x in section_set(ref)
          if x in ts or not x[0].startswith(('.nv.constant2.', '.rela.nv.constant2.'))]
    if rs != ts:
        mism.append({'item': 'section set', 'kernel': None,
                     'ref': ['%s %s 0x%x' % x for x in rs if x not in ts],
                     'test': ['%s %s 0x%x' % x for x in ts if x not in rs]})
    figures = {}
    for k in ref.kernels():
        if k not in test.kernels():
            continue
        ri, ti = kernel_items(ref, k), kernel_items(test, k)
        for item in ri:
            diff(item, k, ri[item], ti[item])
        for side, model in (('ref', ref), ('test', test)):
            msg = _exit_consistency(model, k)
            if msg:
                mism.append({'item': 'EXIT_INSTR_OFFSETS vs code', 'kernel': k,
                             'ref': msg if side == 'ref' else 'consistent',
                             'test': msg if side == 'test' else 'consistent'})
    for fn in sorted(set(ref.sass) & set(test.sass)):
        rf = function_figures(ref, fn, ref_spills)
        tf = function_figures(test, fn, test_spills)
        ops = set(rf['histogram']) | set(tf['histogram'])
        hdiff = {op: tf['histogram'].get(op, 0) - rf['histogram'].get(op, 0) for op in sorted(ops)}
        figures[fn] = {
            'instructions': (rf['instructions'], tf['instructions']),
            'registers': (rf['registers'], tf['registers']),
            'stack frame': (rf['stack frame'], tf['stack frame']),
            'spill bytes': (rf['spill bytes'], tf['spill bytes']),
            'histogram L1': sum(abs(v) for v in hdiff.values()),
            'histogram diff': {op: v for op, v in hdiff.items() if v},
            'same code': rf['normalized'] == tf['normalized'],
        }
    return mism, figures


# ---- one PTX file --------------------------------------------------------------------------
def compile_and_compare(ptx, opts, workdir):
    rec = {'ptx': ptx, 'size': os.path.getsize(ptx), 'status': None, 'reason': None,
           'arch': None, 'mismatches': [], 'figures': {}}
    arch = opts.arch
    if arch == 'auto':
        tgt = ptx_target(ptx)
        arch = tgt if tgt and tgt.startswith('sm_') else 'sm_90'
    rec['arch'] = arch
    base = os.path.join(workdir, re.sub(r'[^A-Za-z0-9_.-]', '_', os.path.basename(ptx)))
    ref_cubin, test_cubin = base + '.ref.cubin', base + '.test.cubin'
    common = ['-arch=' + arch, '-v'] + opts.flag
    ref_cmd = [opts.ptxas] + common + [ptx, '-o', ref_cubin]
    test_cmd = [opts.test_compiler] + common + [ptx, '-o', test_cubin]
    times = {'ref': [], 'test': []}
    mems = {'ref': [], 'test': []}
    stderr = {}
    test_ok = True
    for i in range(opts.runs):
        order = (('ref', ref_cmd), ('test', test_cmd)) if i % 2 == 0 else (('test', test_cmd), ('ref', ref_cmd))
        for side, cmd in order:
            if side == 'test' and not test_ok:
                continue
            rc, wall, rss, err = run_measured(cmd, opts.timeout)
            if rc != 0:
                if side == 'ref':
                    rec['status'] = 'ref-failed'
                    rec['reason'] = 'ptxas: ' + ('timeout' if rc == 124 else first_error_line(err, rc))
                    return rec
                test_ok = False
                rec['status'] = 'not-compiled'
                rec['reason'] = 'timeout after %ds' % opts.timeout if rc == 124 else first_error_line(err, rc)
                continue
            times[side].append(wall)
            mems[side].append(rss)
            stderr.setdefault(side, err)
        if not test_ok:
            break   # the reference alone is not what this runner measures; one run is enough
    rec['time_ref'] = statistics.median(times['ref']) if times['ref'] else None
    rec['mem_ref_kib'] = max(mems['ref']) if mems['ref'] else None
    if not test_ok:
        return rec
    rec['time_test'] = statistics.median(times['test'])
    rec['mem_test_kib'] = max(mems['test'])
    try:
        ref = cm.parse(dump(opts.cuobjdump, ref_cubin))
        test_text = dump(opts.cuobjdump, test_cubin)
    except RuntimeError as e:
        # A cubin of the compiler under test that cuobjdump rejects is a result (check 2 of
        # verification.md fails), reported as a mismatch.
        rec['status'] = 'mismatch'
        rec['mismatches'] = [{'item': 'cuobjdump accepts the cubin', 'kernel': None, 'ref': 'yes', 'test': str(e)}]
        return rec
    test = cm.parse(test_text)
    mism, figs = compare_models(ref, test, spills_from_verbose(stderr.get('ref', '')),
                                spills_from_verbose(stderr.get('test', '')))
    mism += test_cubin_checks(opts, test_cubin)
    rec['mismatches'] = mism
    rec['figures'] = figs
    rec['status'] = 'mismatch' if mism else 'match'
    if opts.keep:
        for p in (ref_cubin, test_cubin):
            shutil.copy(p, opts.keep)
    for p in (ref_cubin, test_cubin):
        if os.path.exists(p):
            os.remove(p)
    return rec


_HAZARD_LINE = re.compile(r'(\d+) violations, (\d+) unverified')


def test_cubin_checks(opts, cubin):
    """Step 4: nvdisasm and the hazard checker on the test cubin; mismatch items for failures."""
    out = []
    if getattr(opts, 'nvdisasm', None):
        r = subprocess.run([opts.nvdisasm, cubin], capture_output=True, text=True, errors='replace')
        if r.returncode != 0 or r.stderr.strip():
            out.append({'item': 'nvdisasm accepts the cubin', 'kernel': None, 'ref': 'yes',
                        'test': 'rc %d: %s' % (r.returncode, r.stderr.strip()[:300])})
    if getattr(opts, 'hazards', None):
        r = subprocess.run([opts.hazards, '-check-hazards', '-strict', cubin], capture_output=True,
                           text=True, errors='replace')
        m = _HAZARD_LINE.search(r.stdout)
        if r.returncode != 0 or not m or m.group(1) != '0' or m.group(2) != '0':
            tail = (r.stdout + r.stderr).strip().splitlines()[-1:] or ['no output']
            out.append({'item': 'hazard checker (-strict) passes', 'kernel': None, 'ref': 'pass',
                        'test': 'rc %d: %s' % (r.returncode, tail[0][:300])})
    return out


# ---- reporting -----------------------------------------------------------------------------
def totals(rec):
    """Sum the per-function figures of a record into per-file (ref, test) pairs."""
    out = {}
    for key in ('instructions', 'registers', 'spill bytes', 'stack frame'):
        pairs = [f[key] for f in rec.get('figures', {}).values()]
        if key == 'registers':
            vals = [(a, b) for a, b in pairs if a is not None and b is not None]
            out[key] = (max((a for a, _ in vals), default=None), max((b for _, b in vals), default=None))
        else:
            a = [x for x, _ in pairs if x is not None]
            b = [y for _, y in pairs if y is not None]
            out[key] = (sum(a) if a else None, sum(b) if b else None)
    out['histogram L1'] = sum(f['histogram L1'] for f in rec.get('figures', {}).values())
    out['same code'] = all(f['same code'] for f in rec.get('figures', {}).values())
    return out


def fmt_value(v):
    if isinstance(v, list) and len(v) > 4:
        return json.dumps(v[:4])[:-1] + ', ...]'
    return json.dumps(v)


def print_record(rec, out, verbose):
    name = rec['ptx']
    if rec['status'] in ('match', 'mismatch'):
        t = totals(rec)
        out.write('%-9s %s  [%s] instr %s/%s regs %s/%s time %.3f/%.3f s%s\n' % (
            rec['status'].upper(), name, rec['arch'], t['instructions'][0], t['instructions'][1],
            t['registers'][0], t['registers'][1], rec['time_ref'], rec['time_test'],
            '' if t['same code'] else '  (code differs)'))
        for m in rec['mismatches']:
            out.write('    must-match %s%s: ptxas %s, test %s\n' % (
                m['item'], (' [' + m['kernel'] + ']') if m['kernel'] else '', fmt_value(m['ref']), fmt_value(m['test'])))
        if verbose:
            for fn, f in sorted(rec['figures'].items()):
                out.write('    %s: instr %s regs %s frame %s spill %s hist-L1 %d %s\n' % (
                    fn, f['instructions'], f['registers'], f['stack frame'], f['spill bytes'],
                    f['histogram L1'], json.dumps(f['histogram diff'])))
    else:
        out.write('%-9s %s  [%s] %s\n' % (rec['status'].upper(), name, rec['arch'], rec['reason']))


def summarize(records):
    counts = {}
    for r in records:
        counts[r['status']] = counts.get(r['status'], 0) + 1
    return counts


def collect_inputs(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith('.ptx')]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise FileNotFoundError(p)
    return sorted(files)


def build_parser():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('inputs', nargs='*', help='PTX files or folders (searched for *.ptx)')
    ap.add_argument('--cubins', nargs=2, metavar=('REF', 'TEST'), help='compare two cubins directly')
    ap.add_argument('--ptxas', default=DEFAULT_PTXAS, help='reference ptxas (default %(default)s)')
    ap.add_argument('--mini', dest='test_compiler', default=DEFAULT_MINI,
                    help='compiler under test (default %(default)s)')
    ap.add_argument('--self-compare', '--reference-only', dest='self_compare', action='store_true',
                    help='compare ptxas with itself (exercises the runner end to end)')
    ap.add_argument('--cuobjdump', default=DEFAULT_CUOBJDUMP)
    ap.add_argument('--nvdisasm', help='also require nvdisasm to accept each test cubin')
    ap.add_argument('--hazards', metavar='SASS_MC',
                    help='also require `SASS_MC -check-hazards -strict` to pass on each test cubin')
    ap.add_argument('--arch', default='auto', help="sm_XX, or 'auto' (the PTX .target; default)")
    ap.add_argument('-X', '--flag', action='append', default=[], help='extra flag for both compilers')
    ap.add_argument('--runs', type=int, default=1, help='timed runs per compiler (median); default 1')
    ap.add_argument('--timeout', type=int, default=600, help='seconds per compilation')
    ap.add_argument('-j', '--jobs', type=int, default=1, help='files in parallel (timings get noisier)')
    ap.add_argument('--json', help='write every record to this file')
    ap.add_argument('--keep', help='copy the cubins into this folder')
    ap.add_argument('--skip-if-not-compiled', action='store_true',
                    help='exit 77 (skip) when the compiler under test compiled none of the files')
    ap.add_argument('-v', '--verbose', action='store_true', help='per-function figures')
    return ap


def check_oracles(opts, need_ptxas):
    missing = []
    if need_ptxas and not os.access(opts.ptxas, os.X_OK):
        missing.append('ptxas (%s)' % opts.ptxas)
    if not os.access(opts.cuobjdump, os.X_OK):
        missing.append('cuobjdump (%s)' % opts.cuobjdump)
    for name in ('nvdisasm', 'hazards'):  # asked for by name: missing is an error, not a skip
        path = getattr(opts, name, None)
        if path and not os.access(path, os.X_OK):
            sys.stderr.write('ptx_compare: --%s: not an executable: %s\n' % (name, path))
            sys.exit(2)
    if missing:
        sys.stderr.write('SKIPPED: oracle missing: %s\n' % ', '.join(missing))
        sys.exit(SKIP)


def run(opts, out=sys.stdout):
    """Compile and compare every input; return (records, exit status)."""
    if opts.self_compare:
        opts.test_compiler = opts.ptxas
    files = collect_inputs(opts.inputs)
    if not files:
        sys.stderr.write('ptx_compare: no PTX files in %s\n' % ' '.join(opts.inputs))
        return [], 2
    mode = 'self-compare (ptxas vs ptxas)' if opts.self_compare else 'ptxas vs %s' % opts.test_compiler
    out.write('ptx_compare: %d file(s), mode: %s, runs %d\n' % (len(files), mode, opts.runs))
    records = []
    with tempfile.TemporaryDirectory(prefix='ptx_compare.') as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futs = {pool.submit(compile_and_compare, f, opts, work): f for f in files}
            for fut in concurrent.futures.as_completed(futs):
                try:
                    rec = fut.result()
                except Exception as e:  # a runner bug: say so, keep going, fail at the end
                    rec = {'ptx': futs[fut], 'size': 0, 'status': 'runner-error', 'arch': opts.arch,
                           'reason': '%s: %s' % (type(e).__name__, e), 'mismatches': [], 'figures': {}}
                records.append(rec)
                print_record(rec, out, opts.verbose)
                out.flush()
    records.sort(key=lambda r: r['ptx'])
    counts = summarize(records)
    out.write('summary: mode=%s files=%d %s\n' % ('self' if opts.self_compare else 'mini', len(records),
              ' '.join('%s=%d' % kv for kv in sorted(counts.items()))))
    if counts.get('runner-error') or counts.get('ref-failed'):
        status = 2
    elif counts.get('mismatch'):
        status = 1
    elif opts.skip_if_not_compiled and not counts.get('match'):
        out.write('SKIPPED: the compiler under test compiled none of the files (reasons above)\n')
        status = SKIP
    else:
        status = 0
    return records, status


def main(argv=None):
    opts = build_parser().parse_args(argv)
    if opts.cubins:
        check_oracles(opts, need_ptxas=False)
        for p in opts.cubins:
            if not os.path.isfile(p):
                sys.stderr.write('ptx_compare: no such cubin: %s\n' % p)
                return 2
        try:
            ref = cm.parse(dump(opts.cuobjdump, opts.cubins[0]))
        except RuntimeError as e:
            sys.stderr.write('ptx_compare: the reference cubin does not dump: %s\n' % e)
            return 2
        try:
            test = cm.parse(dump(opts.cuobjdump, opts.cubins[1]))
            mism, figs = compare_models(ref, test)
            mism += test_cubin_checks(opts, opts.cubins[1])
        except RuntimeError as e:
            mism, figs = [{'item': 'cuobjdump accepts the cubin', 'kernel': None, 'ref': 'yes', 'test': str(e)}], {}
        rec = {'ptx': '%s vs %s' % tuple(opts.cubins), 'status': 'mismatch' if mism else 'match', 'arch': ref.sm,
               'mismatches': mism, 'figures': figs, 'time_ref': 0.0, 'time_test': 0.0}
        print_record(rec, sys.stdout, opts.verbose)
        if opts.json:
            with open(opts.json, 'w') as f:
                json.dump([rec], f, indent=1, default=str)
        return 1 if mism else 0
    if not opts.inputs:
        build_parser().error('give PTX files/folders or --cubins REF TEST')
    check_oracles(opts, need_ptxas=True)
    if not opts.self_compare and not os.access(opts.test_compiler, os.X_OK):
        sys.stderr.write('ptx_compare: compiler under test not found: %s (build it, or use --self-compare)\n'
                         % opts.test_compiler)
        return 2
    try:
        records, status = run(opts)
    except FileNotFoundError as e:
        sys.stderr.write('ptx_compare: no such file or folder: %s\n' % e)
        return 2
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(records, f, indent=1, default=str)
    return status


if __name__ == '__main__':
    sys.exit(main())
