#!/usr/bin/env python3
"""benchmark: run ptx_compare over a corpus and write a CSV, a Markdown summary and an SVG plot.

Purpose: the side-by-side figures of issue 7 (docs/verification.md, "Performance figures"):
ptxas-mini / ptxas ratios of compile time, peak memory, SASS instruction count and registers.
Not a test: it asserts nothing and is not registered with ctest.

Algorithm: ptx_compare.run() compiles every file with both compilers, alternating them, `--runs`
times (compile time = median, peak memory = max RSS of the runs), then compares the cubins.
Per file, ratios are test/ref; the summary gives their geometric means over the files that both
compilers compiled (a ratio is left out when its reference value is 0), the counts of files
compiled / not compiled / mismatched, the grouped reasons for files not compiled, and seconds per
MB of PTX on the largest files. The plot is hand-written SVG (the standard library has no
plotting; matplotlib is not a dependency): compile-time ratio against PTX size, the distribution
of instruction-count ratios, and ptxas's own compile time against PTX size for scale.

Usage: benchmark.py CORPUS... --out DIR [--self-compare | --mini PATH] [--runs 3] [-j 1]
       benchmark.py --perf [perf_bench.py options]   modelled cycles and dynamic instructions of
                                                     the exec kernels (perf_bench.py)
       benchmark.py --speed CORPUS... [speed_bench.py options]   compile time and peak memory,
                                                     parse-only / -O3 / -O0, 1 thread and all cores
"""

import argparse
import csv
import datetime
import math
import os
import platform
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_compare  # noqa: E402


def ratio(a, b):
    if a is None or b is None or a == 0:
        return None
    return b / a


def geomean(vals):
    vals = [v for v in vals if v is not None and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def row_of(rec):
    t = ptx_compare.totals(rec) if rec['status'] in ('match', 'mismatch') else None
    g = (lambda k, i: t[k][i]) if t else (lambda k, i: None)
    row = {
        'ptx': rec['ptx'], 'arch': rec['arch'], 'size_bytes': rec['size'], 'status': rec['status'],
        'reason': rec.get('reason') or '',
        'time_ref_s': rec.get('time_ref'), 'time_test_s': rec.get('time_test'),
        'mem_ref_kib': rec.get('mem_ref_kib'), 'mem_test_kib': rec.get('mem_test_kib'),
        'instr_ref': g('instructions', 0), 'instr_test': g('instructions', 1),
        'regs_ref': g('registers', 0), 'regs_test': g('registers', 1),
        'spill_ref': g('spill bytes', 0), 'spill_test': g('spill bytes', 1),
        'frame_ref': g('stack frame', 0), 'frame_test': g('stack frame', 1),
        'hist_l1': t['histogram L1'] if t else None, 'same_code': t['same code'] if t else None,
        'mismatches': ';'.join(sorted({m['item'] for m in rec['mismatches']})),
    }
    row['time_ratio'] = ratio(row['time_ref_s'], row['time_test_s'])
    row['mem_ratio'] = ratio(row['mem_ref_kib'], row['mem_test_kib'])
    row['instr_ratio'] = ratio(row['instr_ref'], row['instr_test'])
    row['regs_ratio'] = ratio(row['regs_ref'], row['regs_test'])
    return row


COLUMNS = ['ptx', 'arch', 'size_bytes', 'status', 'reason', 'time_ref_s', 'time_test_s', 'time_ratio',
           'mem_ref_kib', 'mem_test_kib', 'mem_ratio', 'instr_ref', 'instr_test', 'instr_ratio',
           'regs_ref', 'regs_test', 'regs_ratio', 'spill_ref', 'spill_test', 'frame_ref', 'frame_test',
           'hist_l1', 'same_code', 'mismatches']


def generic_reason(row):
    r = row['reason'].replace(row['ptx'], '<file>')
    r = re.sub(r'line \d+', 'line N', r)
    r = re.sub(r'column \d+', 'column N', r)
    return r


def fmt(v, spec='%.3f'):
    return '-' if v is None else spec % v


def summary_md(rows, opts, argv):
    n = len(rows)
    by = {}
    for r in rows:
        by[r['status']] = by.get(r['status'], 0) + 1
    both = [r for r in rows if r['status'] in ('match', 'mismatch')]
    mode = 'self-compare (ptxas vs ptxas)' if opts.self_compare else 'ptxas-mini (%s) vs ptxas' % opts.test_compiler
    L = []
    L.append('# ptxas-mini vs ptxas benchmark')
    L.append('')
    L.append('- date: %s UTC; host: %s, %d CPUs' % (datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M'),
                                                   platform.node(), os.cpu_count() or 0))
    L.append('- command: `%s`' % ' '.join(argv))
    L.append('- mode: %s; reference: %s; runs per compiler: %d (median time, max RSS), alternating' %
             (mode, opts.ptxas, opts.runs))
    L.append('- ratios are test / ptxas; geometric means over files both compiled')
    L.append('')
    L.append('| files | compiled by both | match | mismatch | not compiled by test | reference failed | runner errors |')
    L.append('|---|---|---|---|---|---|---|')
    L.append('| %d | %d | %d | %d | %d | %d | %d |' % (n, len(both), by.get('match', 0), by.get('mismatch', 0),
                                                     by.get('not-compiled', 0), by.get('ref-failed', 0),
                                                     by.get('runner-error', 0)))
    L.append('')
    L.append('| figure | geometric mean ratio | files |')
    L.append('|---|---|---|')
    for key, label in (('time_ratio', 'compile time'), ('mem_ratio', 'peak memory'),
                       ('instr_ratio', 'instruction count'), ('regs_ratio', 'registers (max per file)')):
        vals = [r[key] for r in both if r[key] is not None]
        L.append('| %s | %s | %d |' % (label, fmt(geomean(vals)), len(vals)))
    same = sum(1 for r in both if r['same_code'])
    L.append('')
    L.append('Normalized SASS identical in %d of %d files compiled by both.' % (same, len(both)))
    spill_ref = sum(r['spill_ref'] or 0 for r in both)
    spill_test = sum(r['spill_test'] or 0 for r in both)
    L.append('Spill bytes (stores + loads, summed): ptxas %d, test %d.' % (spill_ref, spill_test))
    big = sorted([r for r in rows if r['time_ref_s']], key=lambda r: -r['size_bytes'])[:10]
    if big:
        L.append('')
        L.append('Largest files, seconds per MB of PTX:')
        L.append('')
        L.append('| file | PTX bytes | ptxas s | ptxas s/MB | test s | test s/MB |')
        L.append('|---|---|---|---|---|---|')
        for r in big:
            mb = r['size_bytes'] / 1e6
            L.append('| %s | %d | %s | %s | %s | %s |' % (
                os.path.basename(r['ptx']), r['size_bytes'], fmt(r['time_ref_s']), fmt(r['time_ref_s'] / mb),
                fmt(r['time_test_s']), fmt(r['time_test_s'] / mb if r['time_test_s'] else None)))
    mism = {}
    for r in rows:
        for item in filter(None, r['mismatches'].split(';')):
            mism[item] = mism.get(item, 0) + 1
    if mism:
        L.append('')
        L.append('Must-match items that differ (files):')
        L.append('')
        for item, c in sorted(mism.items(), key=lambda kv: -kv[1]):
            L.append('- %s: %d' % (item, c))
    reasons = {}
    for r in rows:
        if r['status'] in ('not-compiled', 'ref-failed', 'runner-error'):
            k = '%s: %s' % (r['status'], generic_reason(r))
            reasons[k] = reasons.get(k, 0) + 1
    if reasons:
        L.append('')
        L.append('Why files were not compared (grouped, file names and line numbers elided):')
        L.append('')
        for k, c in sorted(reasons.items(), key=lambda kv: -kv[1])[:20]:
            L.append('- %d x `%s`' % (c, k))
    L.append('')
    return '\n'.join(L)


# ---- hand-written SVG ------------------------------------------------------------------------
def _esc(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _log_axis(vmin, vmax):
    lo = math.floor(math.log10(vmin))
    hi = math.ceil(math.log10(vmax))
    if hi == lo:
        hi += 1
    return lo, hi


def _panel_scatter(x0, y0, w, h, pts, title, xlabel, ylabel, ref_line=None):
    """Log-log scatter; pts = [(x, y, color)]."""
    out = ['<g>', '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (x0, y0, w, h),
           '<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>' % (x0, y0 - 8, _esc(title))]
    if not pts:
        out.append('<text x="%d" y="%d" font-size="12" fill="#a00">%s</text>' % (
            x0 + 10, y0 + h / 2, 'no data: no file was compiled by the compiler under test'))
        out.append('</g>')
        return out
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    xlo, xhi = _log_axis(min(xs), max(xs))
    ylo, yhi = _log_axis(min(ys + [ref_line or min(ys)]), max(ys + [ref_line or max(ys)]))
    fx = lambda v: x0 + (math.log10(v) - xlo) / (xhi - xlo) * w
    fy = lambda v: y0 + h - (math.log10(v) - ylo) / (yhi - ylo) * h
    for e in range(xlo, xhi + 1):
        X = fx(10 ** e)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X, y0, X, y0 + h))
        out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">1e%d</text>' % (X, y0 + h + 14, e))
    for e in range(ylo, yhi + 1):
        Y = fy(10 ** e)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0, Y, x0 + w, Y))
        out.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">%g</text>' % (x0 - 4, Y + 3, 10 ** e))
    if ref_line:
        Y = fy(ref_line)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#888" stroke-dasharray="4,3"/>' % (x0, Y, x0 + w, Y))
    for x, y, c in pts:
        out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s" fill-opacity="0.6"/>' % (fx(x), fy(y), c))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>' % (x0 + w / 2, y0 + h + 30, _esc(xlabel)))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle" transform="rotate(-90 %d %d)">%s</text>' % (
        x0 - 40, y0 + h / 2, x0 - 40, y0 + h / 2, _esc(ylabel)))
    out.append('</g>')
    return out


def _panel_hist(x0, y0, w, h, vals, title, xlabel):
    """Histogram of ratios in log2 bins of width 1/4 (ratio 1 at the dashed line)."""
    out = ['<g>', '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (x0, y0, w, h),
           '<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>' % (x0, y0 - 8, _esc(title))]
    vals = [v for v in vals if v and v > 0]
    if not vals:
        out.append('<text x="%d" y="%d" font-size="12" fill="#a00">%s</text>' % (
            x0 + 10, y0 + h / 2, 'no data: no file was compiled by the compiler under test'))
        out.append('</g>')
        return out
    bins = {}
    for v in vals:
        b = math.floor(math.log2(v) * 4)
        bins[b] = bins.get(b, 0) + 1
    lo, hi = min(min(bins), -4), max(max(bins) + 1, 4)
    top = max(bins.values())
    bw = w / (hi - lo)
    for b, c in sorted(bins.items()):
        bh = c / top * (h - 10)
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#3a6ea5"/>' % (
            x0 + (b - lo) * bw, y0 + h - bh, max(bw - 1, 1), bh))
    for b in range(lo, hi + 1):
        if b % 4 == 0:
            X = x0 + (b - lo) * bw
            out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%g</text>' % (X, y0 + h + 14, 2 ** (b / 4)))
    X1 = x0 + (0 - lo) * bw
    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888" stroke-dasharray="4,3"/>' % (X1, y0, X1, y0 + h))
    out.append('<text x="%d" y="%d" font-size="10" text-anchor="end">%d files</text>' % (x0 + w - 4, y0 + 14, top))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>' % (x0 + w / 2, y0 + h + 30, _esc(xlabel)))
    out.append('</g>')
    return out


def plot_svg(rows, title):
    both = [r for r in rows if r['status'] in ('match', 'mismatch')]
    color = lambda r: '#c0392b' if r['status'] == 'mismatch' else '#27ae60'
    W, H = 1260, 420
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="24" font-size="15" font-weight="bold">%s</text>' % _esc(title),
           '<text x="20" y="42" font-size="11">green: must-match items agree; red: a must-match item differs. '
           '%d files compiled by both, %d not compiled by the compiler under test.</text>' % (
               len(both), sum(1 for r in rows if r['status'] == 'not-compiled'))]
    pts = [(r['size_bytes'], r['time_ratio'], color(r)) for r in both if r['time_ratio']]
    svg += _panel_scatter(70, 80, 330, 270, pts, 'compile-time ratio (test/ptxas) vs PTX size',
                          'PTX size (bytes)', 'time ratio', ref_line=1.0)
    svg += _panel_hist(480, 80, 330, 270, [r['instr_ratio'] for r in both], 'instruction-count ratio (test/ptxas)',
                       'ratio (log2 bins; dashed = 1)')
    ref_pts = [(r['size_bytes'], r['time_ref_s'], '#555') for r in rows if r['time_ref_s']]
    svg += _panel_scatter(900, 80, 330, 270, ref_pts, 'ptxas compile time vs PTX size (scale)',
                          'PTX size (bytes)', 'seconds')
    svg.append('</svg>')
    return '\n'.join(svg) + '\n'


def main(argv=None):
    argv = sys.argv if argv is None else argv
    if '--speed' in argv[1:]:
        import speed_bench  # noqa: E402  (compile speed and memory, issue 23)
        return speed_bench.main([a for a in argv[1:] if a != '--speed'])
    if '--perf' in argv[1:]:
        import perf_bench  # noqa: E402  (the code-speed measure lives in its own file)
        return perf_bench.main([a for a in argv[1:] if a != '--perf'])
    ap = ptx_compare.build_parser()
    ap.description = __doc__.split('\n\n')[0]
    ap.add_argument('--out', required=True, help='folder for results.csv, summary.md, plot.svg, records.json')
    ap.add_argument('--limit', type=int, default=0, help='only this many files, spread evenly over the size range')
    ap.set_defaults(runs=3)
    opts = ap.parse_args(argv[1:])
    if not opts.inputs:
        ap.error('give a corpus folder or PTX files')
    ptx_compare.check_oracles(opts, need_ptxas=True)
    if not opts.self_compare and not os.access(opts.test_compiler, os.X_OK):
        sys.stderr.write('benchmark: compiler under test not found: %s\n' % opts.test_compiler)
        return 2
    if opts.limit:
        files = sorted(ptx_compare.collect_inputs(opts.inputs), key=os.path.getsize)
        step = max(1, len(files) / opts.limit)
        opts.inputs = sorted({files[int(i * step)] for i in range(min(opts.limit, len(files)))})
    os.makedirs(opts.out, exist_ok=True)
    records, status = ptx_compare.run(opts)
    rows = [row_of(r) for r in records]
    with open(os.path.join(opts.out, 'results.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: ('%.6g' % v if isinstance(v, float) else v) for k, v in r.items()})
    with open(os.path.join(opts.out, 'records.json'), 'w') as f:
        import json
        json.dump(records, f, indent=1, default=str)
    md = summary_md(rows, opts, argv)
    with open(os.path.join(opts.out, 'summary.md'), 'w') as f:
        f.write(md)
    mode = 'self-compare' if opts.self_compare else 'ptxas-mini'
    with open(os.path.join(opts.out, 'plot.svg'), 'w') as f:
        f.write(plot_svg(rows, 'ptx_compare benchmark (%s), %d PTX files' % (mode, len(rows))))
    print()
    print(md)
    print('wrote %s/{results.csv,summary.md,plot.svg,records.json}' % opts.out)
    # A benchmark reports; only a broken run (runner errors) is a failure of the command.
    return 2 if status == 2 else 0


if __name__ == '__main__':
    sys.exit(main())
