#!/usr/bin/env python3
"""negative_test: the comparison must fail when a must-match item differs.

What it checks, and why: a comparison that never reports a difference proves nothing. This
test feeds ptx_compare.py (--cubins mode) pairs of cubins that differ in exactly one kind of
must-match item and requires exit status 1 and the item named in the report; and, as controls,
pairs that must agree (the same PTX compiled twice) and require exit status 0.

Deliberately different cubins come from two sources:
  - PTX variants compiled by ptxas: a different .maxntid, an extra kernel parameter, a larger
    .shared array, a kernel removed;
  - byte patches of a ptxas cubin's .nv.info.<kernel> records (format per
    docs/cubin-format.md §7: u8 format, u8 attribute, then a value or u16 size + payload):
    NUM_BARRIERS changed, an EXIT_INSTR_OFFSETS entry moved off its EXIT (the offsets then
    disagree with the code);
  - the same PTX compiled with -lineinfo (different e_flags and section set).

Needs ptxas and cuobjdump; exits 77 (a ctest SKIP, with the reason printed) without them.
Usage: negative_test.py [--ptxas P] [--cuobjdump P] [--workdir D]
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ptx_compare  # noqa: E402
import cuobjdump_model as cm  # noqa: E402

PTX_DIR = os.path.join(HERE, 'ptx')
failures = []


def compile_ptx(ptxas, text, out, flags=()):
    src = out + '.ptx'
    with open(src, 'w') as f:
        f.write(text)
    r = subprocess.run([ptxas, '-arch=sm_90'] + list(flags) + [src, '-o', out], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('negative_test: ptxas rejected the variant %s: %s' % (src, r.stderr.strip()))
    return out


def compare(opts, a, b):
    r = subprocess.run([sys.executable, os.path.join(HERE, 'ptx_compare.py'), '--cuobjdump', opts.cuobjdump,
                        '--cubins', a, b], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def expect_match(opts, what, a, b):
    rc, out = compare(opts, a, b)
    ok = rc == 0
    print('%s control: %s -> exit %d' % ('PASS' if ok else 'FAIL', what, rc))
    if not ok:
        print(out)
        failures.append(what)


def expect_mismatch(opts, what, a, b, item, kernel=None):
    rc, out = compare(opts, a, b)
    needle = 'must-match %s' % item + (' [%s]' % kernel if kernel else '')
    ok = rc == 1 and needle in out
    print('%s negative: %s -> exit %d, report %s "%s"' % ('PASS' if ok else 'FAIL', what, rc,
                                                         'names' if needle in out else 'LACKS', needle))
    if not ok:
        print(out)
        failures.append(what)


# ---- ELF byte patching -----------------------------------------------------------------------
def sections(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdrs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
        hdrs.append((name, off, size))
    stroff = hdrs[shstrndx][1]
    out = {}
    for name, off, size in hdrs:
        end = data.index(b'\0', stroff + name)
        out[data[stroff + name:end].decode()] = (off, size)
    return out


def find_record(data, section, attr):
    """Offset of the first .nv.info record with this attribute number in the section."""
    off, size = sections(data)[section]
    p, end = off, off + size
    while p < end:
        fmt, a = data[p], data[p + 1]
        if a == attr:
            return p, fmt
        if fmt == 4:
            p += 4 + struct.unpack_from('<H', data, p + 2)[0]
        else:
            p += 4
    raise SystemExit('negative_test: attribute 0x%x not found in %s' % (attr, section))


def patched(src, dst, fn):
    data = bytearray(open(src, 'rb').read())
    fn(data)
    with open(dst, 'wb') as f:
        f.write(data)
    return dst


NUM_BARRIERS, EXIT_INSTR_OFFSETS = 0x4c, 0x1c   # attribute numbers, docs/cubin-format.md App. A


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ptxas', default=ptx_compare.DEFAULT_PTXAS)
    ap.add_argument('--cuobjdump', default=ptx_compare.DEFAULT_CUOBJDUMP)
    ap.add_argument('--workdir')
    opts = ap.parse_args()
    missing = [p for p in (opts.ptxas, opts.cuobjdump) if not os.access(p, os.X_OK)]
    if missing:
        print('SKIPPED: oracle missing: %s' % ', '.join(missing))
        return ptx_compare.SKIP
    work = opts.workdir or tempfile.mkdtemp(prefix='negative_test.')
    os.makedirs(work, exist_ok=True)
    read = lambda n: open(os.path.join(PTX_DIR, n)).read()
    W = lambda n: os.path.join(work, n)

    launch = read('launch_attrs.ptx')
    base = compile_ptx(opts.ptxas, launch, W('launch.cubin'))
    again = compile_ptx(opts.ptxas, launch, W('launch_again.cubin'))
    # Controls: identical input must compare equal, or the negatives below prove nothing.
    expect_match(opts, 'same cubin', base, base)
    expect_match(opts, 'same PTX compiled twice', base, again)

    # .maxntid 256 -> 128 on one kernel: MAX_THREADS of that kernel must be reported.
    assert '.maxntid 256, 1, 1' in launch
    v = compile_ptx(opts.ptxas, launch.replace('.maxntid 256, 1, 1', '.maxntid 128, 1, 1'), W('maxntid.cubin'))
    expect_mismatch(opts, '.maxntid 256 vs 128', base, v, 'MAX_THREADS', 'k_maxntid')
    # .reqnctapercluster 2 -> 4: CTA_PER_CLUSTER.
    v = compile_ptx(opts.ptxas, launch.replace('.reqnctapercluster 2, 1, 1', '.reqnctapercluster 4, 1, 1'),
                    W('cluster.cubin'))
    expect_mismatch(opts, '.reqnctapercluster 2 vs 4', base, v, 'CTA_PER_CLUSTER', 'k_cluster')
    # .maxnreg 40 -> 64: MAXREG_COUNT.
    v = compile_ptx(opts.ptxas, launch.replace('.maxnreg 40', '.maxnreg 64'), W('maxnreg.cubin'))
    expect_mismatch(opts, '.maxnreg 40 vs 64', base, v, 'MAXREG_COUNT', 'k_maxnreg')

    # One more (unused) parameter: the parameter layout items must all be reported.
    params = read('params_layout.ptx')
    pbase = compile_ptx(opts.ptxas, params, W('params.cubin'))
    assert '.param .u64 p_out\n' in params
    v = compile_ptx(opts.ptxas, params.replace('.param .u64 p_out\n', '.param .u64 p_out,\n\t.param .u32 p_extra\n'),
                    W('params_extra.cubin'))
    for item in ('KPARAM_INFO', 'CBANK_PARAM_SIZE', 'PARAM_CBANK', 'constant0 size'):
        expect_mismatch(opts, 'extra parameter (%s)' % item, pbase, v, item, 'params_layout')

    # A larger .shared array: shared bytes.
    shared = read('shared_barriers.ptx')
    sbase = compile_ptx(opts.ptxas, shared, W('shared.cubin'))
    v = compile_ptx(opts.ptxas, shared.replace('tile[1024]', 'tile[2048]'), W('shared_big.cubin'))
    expect_mismatch(opts, '.shared 1024 vs 2048 bytes', sbase, v, 'shared bytes', 'shared_barriers')

    # A kernel removed: the kernel and function sets.
    multi = read('globals_multi.ptx')
    mbase = compile_ptx(opts.ptxas, multi, W('multi.cubin'))
    v = compile_ptx(opts.ptxas, multi[:multi.index('.visible .entry third()')], W('multi_two.cubin'))
    expect_mismatch(opts, 'kernel "third" removed', mbase, v, 'kernels')

    # Byte patches of a ptxas cubin.
    info = '.nv.info.shared_barriers'

    def bump_barriers(d):
        p, fmt = find_record(d, info, NUM_BARRIERS)
        assert fmt == 2, 'NUM_BARRIERS is a BVAL record'
        d[p + 2] += 1
    expect_mismatch(opts, 'NUM_BARRIERS byte-patched', sbase, patched(sbase, W('barriers.cubin'), bump_barriers),
                    'NUM_BARRIERS', 'shared_barriers')

    def move_exit(d):
        p, fmt = find_record(d, info, EXIT_INSTR_OFFSETS)
        assert fmt == 4, 'EXIT_INSTR_OFFSETS is an SVAL record'
        off, = struct.unpack_from('<I', d, p + 4)
        struct.pack_into('<I', d, p + 4, off + 0x10)   # now points at the instruction after an EXIT
    expect_mismatch(opts, 'EXIT_INSTR_OFFSETS byte-patched', sbase, patched(sbase, W('exit.cubin'), move_exit),
                    'EXIT_INSTR_OFFSETS vs code', 'shared_barriers')

    # The same PTX with -lineinfo: e_flags bits 24-31 become 0x09 and the line-table sections
    # appear (cuobjdump rejects a cubin whose e_flags were byte-patched instead).
    v = compile_ptx(opts.ptxas, shared, W('lineinfo.cubin'), ['-lineinfo'])
    expect_mismatch(opts, '-lineinfo (e_flags)', sbase, v, 'e_flags')
    expect_mismatch(opts, '-lineinfo (section set)', sbase, v, 'section set')

    # The SASS normalization must not hide register-number differences in a way that breaks
    # renaming: two listings that differ only in register numbers normalize equal, and two
    # that differ in an opcode do not.
    a = [(0, 'IMAD R7, R3, R3, R5'), (16, '@P1 BRA 0x40'), (32, 'EXIT'), (64, 'STG.E [R2.64], R7')]
    b = [(0, 'IMAD R9, R1, R1, R4'), (16, '@P0 BRA 0x40'), (32, 'EXIT'), (64, 'STG.E [R6.64], R9')]
    c = [(0, 'IADD3 R9, R1, R1, R4'), (16, '@P0 BRA 0x40'), (32, 'EXIT'), (64, 'STG.E [R6.64], R9')]
    ok = cm.normalize(a) == cm.normalize(b) and cm.normalize(a) != cm.normalize(c)
    print('%s normalization: renumbered registers equal, changed opcode differs' % ('PASS' if ok else 'FAIL'))
    if not ok:
        failures.append('normalization')

    print('negative_test: %d failure(s)%s' % (len(failures), (': ' + ', '.join(failures)) if failures else ''))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
