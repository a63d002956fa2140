#!/usr/bin/env python3
"""probe: which PTX instruction forms ptxas 13.0 accepts for sm_90, and which ptxas-mini lowers.

Purpose: issue 21's coverage table (frontend/COVERAGE.md). Coverage found file by file never
ends; this enumerates instead.

Algorithm: every row of forms.py (the PTX ISA 9.0 instruction chapter as data) is expanded over
its axes (modifiers, types, state spaces) into instruction forms. Each form becomes a tiny
kernel (registers of every size, a global/const/shared/local variable, a texture, sampler and
surface reference, a device function and a call prototype in scope), compiled by
  1. ptxas -arch=sm_90 (the oracle: does sm_90 accept the form?), and
  2. ptxas-mini -arch=sm_90 (do we lower it? the refusal's message is the reason).
A form is LOWERED when ptxas-mini writes a cubin; REFUSED with its first error otherwise
("Internal error" is counted apart: it is a bug). The test that shows a lowered form is a lit
test (tests/lit) or exec kernel (tests/exec/kernels) whose PTX contains the form's opcode
spelled exactly; where none does, the table says so. The coverage figure is lowered forms over
forms ptxas accepts, Hopper-owned families (sm_90a async, marked OWNED in forms.py) apart.

With --sass, both cubins are disassembled (nvdisasm) and the SASS opcodes (with modifiers) of
each are listed; a form whose opcode sets differ is flagged in the table (ptxas-mini's optimizer
is off for the comparison: -knob DisablePhases of the optimizing phases is not needed, the
snippets are too small for the middle end to matter much; the flag is a hint, not a verdict).

Usage: probe.py [--mini build/bin/ptxas-mini] [--ptxas /usr/local/cuda/bin/ptxas] [-j 2]
                [--filter REGEX] [--out frontend/COVERAGE.md] [--json out.json] [--sass]
"""

import argparse
import concurrent.futures
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from forms import FORMS  # noqa: E402

ROLE_INDEX = {'d': 1, 'a': 2, 'b': 3, 'c': 4, 'e': 5}
WIDE = {'u16': 'u32', 'u32': 'u64', 's16': 's32', 's32': 's64'}

PRELUDE = """.version 9.0
.target sm_90
.address_size 64
"""

# Module-scope declarations, each emitted only when the form names it (ptxas refuses a
# .samplerref in the unified texture mode, ptxas-mini a .texref it does not use).
MODULE_DECLS = [
    ('gv', '.global .align 16 .b8 gv[256];'),
    ('cv', '.const .align 16 .b8 cv[256];'),
    ('tx', '.global .texref tx;'),
    ('sm', '.global .samplerref sm;'),
    ('sf', '.global .surfref sf;'),
    ('fn', '.func fn()\n{\n  ret;\n}'),
    ('fr', '.func (.param .b32 rv) fr(.param .b32 ra)\n{\n  .reg .b32 %t;\n'
           '  ld.param.b32 %t, [ra];\n  st.param.b32 [rv], %t;\n  ret;\n}'),
]

ENTRY = """.visible .entry k(.param .u64 p)
{
  .reg .b8 %c<8>;
  .reg .b16 %h<32>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<32>;
  .reg .b128 %q<8>;
  .reg .pred %p<8>;
"""

BODY_DECLS = [
    ('sh', '  .shared .align 16 .b8 sh[1024];'),
    ('lv', '  .local .align 16 .b8 lv[64];'),
    ('fproto', '  fproto: .callprototype (.param .b32 _) _ (.param .b32 _);'),
]


def kernel_text(ptx):
    named = set(re.findall(r'[A-Za-z_]\w*', ptx))
    out = [PRELUDE]
    out += [d + '\n' for n, d in MODULE_DECLS if n in named]
    out.append(ENTRY)
    out += [d + '\n' for n, d in BODY_DECLS if n in named]
    out.append('  ld.param.u64 %rd20, [p];\n')
    return ''.join(out) + '  ' + ptx + FOOTER


FOOTER = """
  ret;
}
"""


def type_bits(t):
    if t == 'pred':
        return 0
    if t.endswith('x2') and t[0] in 'fb' and t not in ('b32',):
        # f16x2 / bf16x2: 32 bits; e4m3x2 and the other 8-bit pairs: 16 bits
        return 32 if t in ('f16x2', 'bf16x2') else 16
    if t in ('u16x2', 's16x2'):
        return 32
    m = re.search(r'(\d+)$', t)
    return int(m.group(1)) if m else 32


def reg(role, t):
    i = ROLE_INDEX[role]
    if t == 'pred':
        return '%p' + str(i)
    bits = type_bits(t)
    if t == 'b8':
        return '%c' + str(i)
    return {8: '%h', 16: '%h', 32: '%r', 64: '%rd', 128: '%q'}[bits] + str(i)


def expand(text, axes_vals, t):
    """Placeholders of one form -> PTX (see forms.py)."""
    out = []
    i = 0
    while i < len(text):
        two = text[i:i + 2]
        if two == '{{':
            out.append('{')
            i += 2
        elif two == '}}':
            out.append('}')
            i += 2
        elif text[i] == '{':
            j = text.index('}', i)
            name, _, ty = text[i + 1:j].partition(':')
            i = j + 1
            if name in axes_vals:
                out.append(expand(axes_vals[name], axes_vals, t))
                continue
            if name in ROLE_INDEX:
                ty = ty or t
                if ty == 'w':
                    ty = WIDE.get(t, t)
                elif ty in axes_vals:
                    ty = axes_vals[ty]
                out.append(reg(name, ty))
            elif name == 'p':
                out.append('%p1')
            elif name == 'q':
                out.append('%p2')
            elif name in ('A', 'G'):
                out.append('[%rd20]')
            elif name == 'S':
                out.append('[sh]')
            elif name == 'Z':
                s = axes_vals.get('s', '')
                out.append({'': '[%rd20]', '.global': '[%rd20]', '.shared': '[sh]',
                            '.local': '[lv]', '.const': '[cv]', '.param': '[p]'}[s])
            elif name == 'C':
                g = axes_vals.get('g', '2d')
                n = {'1d': 1, '2d': 2, '3d': 4}[g]
                out.append('{' + ', '.join('%r' + str(10 + k) for k in range(n)) + '}')
            elif name == 'R':
                n = {'x1': 1, 'x2': 2, 'x4': 4}[axes_vals['n']]
                out.append('{' + ', '.join('%r' + str(10 + k) for k in range(n)) + '}')
            elif name == 'L':
                out.append('$Lt')
            elif name == 'F':
                out.append('fn')
            elif name == 't':
                out.append(t)
            else:
                raise ValueError('unknown placeholder {%s} in %r' % (name, text))
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def forms():
    """Every (row, axis values) combination, expanded: dicts with the form's PTX text."""
    for row in FORMS:
        keys = list(row['axes'])
        for combo in itertools.product(*(row['axes'][k] for k in keys)):
            vals = dict(zip(keys, combo))
            t = vals.get('t', 'b32')
            ptx = expand(row['template'], vals, t)
            yield dict(section=row['section'], family=row['family'], owned=row['owned'], ptx=ptx)


def opcode_of(ptx, family):
    """The form's main instruction as spelled (guard and operands dropped)."""
    for stmt in ptx.split(';'):
        words = stmt.replace('{', ' ').split()
        words = [w for w in words if not w.startswith('@')]
        if words and words[0].startswith(family.split('.')[0]):
            return words[0]
    return ptx.split()[0]


def first_error(text):
    for line in text.splitlines():
        if 'error' in line or 'fatal' in line:
            return re.sub(r'^.*?(error|fatal)\s*:\s*', '', line).strip()
    return text.strip().splitlines()[0] if text.strip() else ''


def sass_ops(nvdisasm, cubin):
    try:
        r = subprocess.run([nvdisasm, '-c', cubin], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    ops = set()
    for line in r.stdout.splitlines():
        m = re.match(r'\s+/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
        if m and m.group(1) not in ('NOP', 'BRA', 'EXIT', 'LDC', 'ULDC', 'RET', 'CALL'):
            ops.add(m.group(1))
    return sorted(ops)


def probe_one(args, idx, form):
    with tempfile.TemporaryDirectory(prefix='probe') as d:
        src = os.path.join(d, 'f.ptx')
        with open(src, 'w') as f:
            f.write(kernel_text(form['ptx']))
        res = dict(form)
        ref = os.path.join(d, 'ref.cubin')
        r = subprocess.run([args.ptxas, '-arch=sm_90', src, '-o', ref], capture_output=True,
                           text=True, timeout=120)
        res['ptxas'] = r.returncode == 0
        res['ptxas_error'] = '' if res['ptxas'] else first_error(r.stderr + r.stdout)
        mini = os.path.join(d, 'mini.cubin')
        try:
            r = subprocess.run([args.mini, '-arch=sm_90', src, '-o', mini], capture_output=True,
                               text=True, timeout=120)
            rc, err = r.returncode, r.stderr + r.stdout
        except subprocess.TimeoutExpired:
            rc, err = -1, 'timeout'
        res['mini'] = rc == 0 and os.path.exists(mini)
        res['mini_error'] = '' if res['mini'] else first_error(err) or 'exit %d' % rc
        res['crash'] = rc < 0 or rc > 255 or 'Internal error' in err
        if args.sass and res['ptxas'] and res['mini']:
            res['sass_ptxas'] = sass_ops(args.nvdisasm, ref)
            res['sass_mini'] = sass_ops(args.nvdisasm, mini)
        return idx, res


def test_index():
    """opcode token -> test files whose PTX spells it."""
    index = {}
    roots = [os.path.join(ROOT, 'tests', 'lit'), os.path.join(ROOT, 'tests', 'exec', 'kernels')]
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for fn in sorted(files):
                if not fn.endswith(('.ptx', '.test')):
                    continue
                path = os.path.join(dirpath, fn)
                with open(path, errors='replace') as f:
                    for line in f:
                        if line.lstrip().startswith('//'):
                            continue
                        for tok in re.findall(r'[a-z][\w:.]*', line):
                            index.setdefault(tok, [])
                            rel = os.path.relpath(path, ROOT)
                            if rel not in index[tok]:
                                index[tok].append(rel)
    return index


def md_escape(s):
    return s.replace('|', '\\|')


def write_markdown(path, results, args):
    idx = test_index()
    accepted = [r for r in results if r['ptxas'] and not r['owned']]
    lowered = [r for r in accepted if r['mini']]
    owned = [r for r in results if r['ptxas'] and r['owned']]
    lines = []
    w = lines.append
    w('# PTX instruction coverage for sm_90')
    w('')
    w('Generated by `python3 frontend/coverage/probe.py` (do not edit by hand): every form of')
    w('`frontend/coverage/forms.py` (the PTX ISA 9.0 instruction chapter as data) compiled by ptxas')
    w('13.0 and by ptxas-mini for `-arch=sm_90`. **Lowered**: ptxas-mini wrote a cubin; the test')
    w('column names a lit test or exec kernel whose PTX spells the same opcode (`probe only` when')
    w('none does). **Refused**: ptxas-mini\'s first error. Forms ptxas refuses for sm_90 are listed')
    w('at the end; the sm_90a asynchronous families (Hopper issue) are counted apart.')
    w('')
    w('| | forms |')
    w('|---|---|')
    w('| expanded forms | %d |' % len(results))
    w('| accepted by ptxas for sm_90 (not Hopper-owned) | %d |' % len(accepted))
    w('| lowered by ptxas-mini | %d (%.1f%%) |' % (len(lowered),
                                                    100.0 * len(lowered) / max(1, len(accepted))))
    w('| with an exact-opcode test | %d |' % sum(1 for r in lowered
                                                  if idx.get(opcode_of(r['ptx'], r['family']))))
    w('| Internal error / crash | %d |' % sum(1 for r in results if r['crash']))
    w('| Hopper-owned forms accepted by ptxas (lowered) | %d (%d) |' % (
        len(owned), sum(1 for r in owned if r['mini'])))
    w('| refused by ptxas for sm_90 | %d |' % sum(1 for r in results if not r['ptxas']))
    w('')
    # Per family summary.
    w('## Per family')
    w('')
    w('| section | family | accepted | lowered | refused (first reason) |')
    w('|---|---|---|---|---|')
    fams = {}
    for r in results:
        if not r['ptxas']:
            continue
        fams.setdefault((r['section'], r['family']), []).append(r)
    for (sec, fam), rs in fams.items():
        low = sum(1 for r in rs if r['mini'])
        reason = next((r['mini_error'] for r in rs if not r['mini']), '')
        tag = ' (Hopper issue)' if rs[0]['owned'] else ''
        w('| %s | `%s`%s | %d | %d | %s |' % (sec, fam, tag, len(rs), low,
                                              md_escape(reason[:120])))
    w('')
    w('## Every form ptxas accepts')
    w('')
    w('| form | ptxas-mini | test or reason |')
    w('|---|---|---|')
    for r in results:
        if not r['ptxas']:
            continue
        if r['mini']:
            tests = idx.get(opcode_of(r['ptx'], r['family']), [])
            note = ', '.join('`%s`' % t for t in tests[:2]) if tests else 'probe only'
            if args.sass and r.get('sass_ptxas') is not None and r['sass_ptxas'] != r['sass_mini']:
                note += '; SASS differs: ptxas %s, ptxas-mini %s' % (
                    ' '.join(r['sass_ptxas']) or '-', ' '.join(r['sass_mini']) or '-')
            status = 'lowered'
        else:
            status = 'INTERNAL ERROR' if r['crash'] else 'refused'
            note = r['mini_error'][:160]
        if r['owned']:
            status += ' (Hopper issue)'
        w('| `%s` | %s | %s |' % (md_escape(r['ptx']), status, md_escape(note)))
    w('')
    w('## Forms ptxas 13.0 refuses for sm_90')
    w('')
    w('| form | ptxas | ptxas-mini |')
    w('|---|---|---|')
    for r in results:
        if r['ptxas']:
            continue
        w('| `%s` | %s | %s |' % (md_escape(r['ptx']), md_escape(r['ptxas_error'][:120]),
                                  'accepts (lowered)' if r['mini'] else 'refuses'))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return len(accepted), len(lowered)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--mini', default=os.path.join(ROOT, 'build', 'bin', 'ptxas-mini'))
    ap.add_argument('--ptxas', default='/usr/local/cuda/bin/ptxas')
    ap.add_argument('--nvdisasm', default='nvdisasm')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--filter', help='only forms whose PTX matches this regex')
    ap.add_argument('--out', default=os.path.join(ROOT, 'frontend', 'COVERAGE.md'))
    ap.add_argument('--json')
    ap.add_argument('--sass', action='store_true')
    ap.add_argument('--list', action='store_true', help='print the forms and stop')
    args = ap.parse_args()
    todo = list(forms())
    if args.filter:
        todo = [f for f in todo if re.search(args.filter, f['ptx'])]
    if args.list:
        for f in todo:
            print(f['ptx'])
        return 0
    results = [None] * len(todo)
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        for i, r in ex.map(lambda p: probe_one(args, *p), enumerate(todo)):
            results[i] = r
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1)
    acc, low = write_markdown(args.out, results, args)
    print('%d forms; ptxas accepts %d (not Hopper-owned); ptxas-mini lowers %d (%.1f%%); '
          'internal errors %d' % (len(results), acc, low, 100.0 * low / max(1, acc),
                                  sum(1 for r in results if r['crash'])))
    for r in results:
        if r['crash']:
            print('INTERNAL ERROR:', r['ptx'], '--', r['mini_error'])
    return 0


if __name__ == '__main__':
    sys.exit(main())
