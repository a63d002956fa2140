#!/usr/bin/env python3
"""Line tables of ptxas-mini against ptxas's for the same PTX (ctest compare.lineinfo).

    lineinfo_compare.py --mini build/bin/ptxas-mini --ptxas ptxas --nvdisasm nvdisasm \
        --cuobjdump cuobjdump FILE_OR_DIR...

Every PTX file is compiled by both with `-arch=sm_90 -lineinfo` (--arch to change it; --debug
compiles with -g instead and checks the DWARF too, see below). Then, per file:
  - ptxas-mini's cubin opens in cuobjdump (-elf) and nvdisasm;
  - source lines (nvdisasm --print-line-info, from .debug_line): every instruction of each
    ptxas-mini kernel maps to a (file, line) that ptxas's table uses for that kernel, or at
    least (counted and reported, not a failure) to the line of a `.loc` of the PTX: where
    ptxas's code for a PTX instruction differs (it merged or removed it), the line the PTX
    gives that instruction may be one ptxas's table has no instruction on;
  - PTX lines (nvdisasm --print-line-info-ptx, from .nv_debug_line_sass): reported, not
    checked: how many of ptxas-mini's instructions sit on a PTX line ptxas also uses. The
    instruction selection differs (ptxas folds an ld.param into the instruction that uses
    it and gives the load that line; ptxas-mini loads it where the ld.param is), so the PTX
    lines legitimately differ where the source lines (one .loc covers several PTX lines)
    do not;
  - .nv_debug_ptx_txt is byte for byte ptxas's, and so is .debug_line's header (the
    directory and file tables).
With --debug (-g): the PTX's DWARF sections (.debug_info, .debug_abbrev, ...) are byte for byte
ptxas's outside the relocated code addresses; the relocations sit at the same offsets; and each
relocated address is reported by the source line of the instruction there, ptxas's against
ptxas-mini's (counted, not a failure: the code differs).
Instruction order may differ (the code is not the same code); only the relation "our line
is one of ptxas's lines for that kernel" is checked. A file ptxas-mini does not compile yet
is reported and skipped. Exit 0 when every compiled file passes, 1 otherwise, 77 when an
oracle is missing or nothing compiled.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

FILE_RE = re.compile(r'//## File "([^"]*)", line (\d+)')
INSTR_RE = re.compile(r'/\*([0-9a-f]{4,})\*/')
SECTION_RE = re.compile(r'^\s*\.section\s+\.text\.([^,]+),')


def sections(path):
    """{name: bytes} of an ELF file."""
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    stro = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = d[stro + h[0]:d.index(b'\0', stro + h[0])].decode()
        out[name] = d[h[4]:h[4] + h[5]] if h[1] != 8 else b''
    return out


def rela(path, name):
    """[(offset, addend)] of the RELA section `name` of an ELF file."""
    data = sections(path).get(name, b'')
    return [struct.unpack_from('<QQq', data, i)[0::2] for i in range(0, len(data) - 23, 24)]


DWARF_FROM_PTX = ('.debug_abbrev', '.debug_info', '.debug_loc', '.debug_macinfo',
                  '.debug_ranges', '.debug_str', '.debug_pubnames')


def line_at(rows, addr):
    """The (file, line) of the last row at or before `addr`."""
    best = None
    for off, f, l in sorted(rows):
        if off <= addr:
            best = (f, l)
    return best


def line_map(nvdisasm, cubin, flag):
    """{kernel: [(offset, file, line)]} from nvdisasm's line annotations."""
    out = subprocess.run([nvdisasm, flag, cubin], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f'nvdisasm {flag} failed: {out.stderr.strip()}')
    result, kernel, cur = {}, None, None
    for line in out.stdout.splitlines():
        m = SECTION_RE.match(line)
        if m:
            kernel, cur = m.group(1), None
            result[kernel] = []
            continue
        if line.startswith('//----'):
            kernel = None
            continue
        m = FILE_RE.search(line)
        if m and kernel:
            cur = (m.group(1), int(m.group(2)))
            continue
        m = INSTR_RE.search(line)
        if m and kernel and cur:
            result[kernel].append((int(m.group(1), 16), cur[0], cur[1]))
    return result


def loc_lines(ptx):
    """The (file path, line) pairs the PTX's .loc directives name."""
    text = open(ptx, errors='replace').read()
    files = {m.group(1): m.group(2) for m in
             re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', text, flags=re.M)}
    return {(files.get(m.group(1), ''), int(m.group(2))) for m in
            re.finditer(r'^\s*\.loc\s+(\d+)\s+(\d+)', text, flags=re.M)}


def header_bytes(unit):
    """A DWARF 2 line unit's header up to the first opcode."""
    if len(unit) < 10:
        return unit
    hlen, = struct.unpack_from('<I', unit, 6)
    return unit[:10 + hlen][4:]  # without unit_length, which counts the program too


def compare_file(args, ptx, work):
    base = os.path.join(work, os.path.basename(ptx))
    ref, mine = base + '.ptxas.cubin', base + '.mini.cubin'
    mode = '-g' if args.debug else '-lineinfo'
    r = subprocess.run([args.ptxas, f'-arch={args.arch}', mode, ptx, '-o', ref],
                       capture_output=True, text=True)
    if r.returncode:
        return 'skip', f'ptxas refuses it: {r.stderr.strip()[:200]}'
    r = subprocess.run([args.mini, f'-arch={args.arch}', mode, ptx, '-o', mine],
                       capture_output=True, text=True)
    if r.returncode:
        return 'skip', f'ptxas-mini does not compile it: {r.stderr.strip().splitlines()[-1][:200]}'
    problems = []
    r = subprocess.run([args.cuobjdump, '-elf', mine], capture_output=True, text=True)
    if r.returncode:
        problems.append(f'cuobjdump -elf fails: {r.stderr.strip()[:200]}')
    stats = {}
    valid = loc_lines(ptx)
    elsewhere = 0
    for flag, what in (('--print-line-info', 'source'), ('--print-line-info-ptx', 'ptx')):
        try:
            theirs, ours = line_map(args.nvdisasm, ref, flag), line_map(args.nvdisasm, mine, flag)
        except RuntimeError as e:
            problems.append(str(e))
            continue
        total = bad = 0
        for kernel, rows in ours.items():
            allowed = {(f, l) for _, f, l in theirs.get(kernel, [])}
            for off, f, l in rows:
                total += 1
                if (f, l) not in allowed:
                    if what == 'source' and (f, l) in valid:
                        elsewhere += 1
                        continue
                    bad += 1
                    if bad <= 5 and what == 'source':
                        problems.append(f'{what} lines: {kernel} +0x{off:04x} -> {f}:{l}, a line '
                                        f'ptxas does not use for {kernel}')
        theirs_n = sum(len(v) for v in theirs.values())
        if theirs_n and not total:
            problems.append(f'{what} lines: ptxas maps {theirs_n} instructions, ptxas-mini none')
        if bad > 5 and what == 'source':
            problems.append(f'{what} lines: ... {bad} instructions in all')
        stats[what] = (total, total - bad)
    s_ref, s_mine = sections(ref), sections(mine)
    for name in ('.debug_line', '.nv_debug_line_sass', '.nv_debug_ptx_txt'):
        if (name in s_ref) != (name in s_mine):
            problems.append(f'{name}: ptxas {"has" if name in s_ref else "lacks"} it, '
                            f'ptxas-mini {"has" if name in s_mine else "lacks"} it')
    if s_ref.get('.nv_debug_ptx_txt') != s_mine.get('.nv_debug_ptx_txt'):
        problems.append('.nv_debug_ptx_txt differs from ptxas\'s')
    if '.debug_line' in s_ref and '.debug_line' in s_mine and \
            header_bytes(s_ref['.debug_line']) != header_bytes(s_mine['.debug_line']):
        problems.append('.debug_line header (directories, files) differs from ptxas\'s')
    dwarf_note = ''
    if args.debug:
        same = total = 0
        try:
            theirs_src = line_map(args.nvdisasm, ref, '--print-line-info')
            ours_src = line_map(args.nvdisasm, mine, '--print-line-info')
        except RuntimeError as e:
            theirs_src = ours_src = {}
            problems.append(str(e))
        for name in DWARF_FROM_PTX:
            if (name in s_ref) != (name in s_mine):
                problems.append(f'{name}: ptxas {"has" if name in s_ref else "lacks"} it, '
                                f'ptxas-mini {"has" if name in s_mine else "lacks"} it')
                continue
            if name not in s_ref:
                continue
            r_ref, r_mine = dict(rela(ref, '.rela' + name)), dict(rela(mine, '.rela' + name))
            if set(r_ref) != set(r_mine):
                problems.append(f'{name}: relocations at {sorted(r_mine)}, ptxas\'s at '
                                f'{sorted(r_ref)}')
            a, b = bytearray(s_ref[name]), bytearray(s_mine[name])
            for off in r_ref:
                a[off:off + 8] = bytes(8)
                b[off:off + 8] = bytes(8)
            if a != b:
                problems.append(f'{name} differs from ptxas\'s outside its code addresses')
            # One .text per kernel in both: relate each address to its kernel's source line.
            for off in sorted(set(r_ref) & set(r_mine)):
                for kernel in ours_src:
                    if kernel in theirs_src:
                        ours_line = line_at(ours_src[kernel], r_mine[off])
                        theirs_line = line_at(theirs_src[kernel], r_ref[off])
                        total += 1
                        same += ours_line == theirs_line
                        break
        dwarf_note = f'; DWARF code addresses: {same} of {total} on ptxas\'s source line'
    if problems:
        return 'fail', '; '.join(problems)
    src, ptx = stats.get('source', (0, 0)), stats.get('ptx', (0, 0))
    note = f' ({elsewhere} on .loc lines ptxas\'s code has no instruction on)' if elsewhere else ''
    return 'ok', f'{src[0]} instructions with source lines, {src[0] - elsewhere} on lines ptxas ' \
                 f'uses{note}; {ptx[1]} of {ptx[0]} on PTX lines ptxas uses{dwarf_note}'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--mini', required=True)
    ap.add_argument('--ptxas')
    ap.add_argument('--nvdisasm')
    ap.add_argument('--cuobjdump')
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--debug', action='store_true', help='compile with -g and compare the DWARF')
    ap.add_argument('inputs', nargs='+')
    args = ap.parse_args()
    for tool in ('ptxas', 'nvdisasm', 'cuobjdump'):
        path = getattr(args, tool)
        if not path or not os.path.exists(path):
            print(f'SKIP: {tool} not found')
            return 77
    files = []
    for p in args.inputs:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith('.ptx'))
        else:
            files.append(p)
    counts = {'ok': 0, 'fail': 0, 'skip': 0}
    with tempfile.TemporaryDirectory() as work:
        for ptx in files:
            status, msg = compare_file(args, ptx, work)
            counts[status] += 1
            print(f'{status.upper():4} {os.path.relpath(ptx)}: {msg}')
    print(f'{counts["ok"]} ok, {counts["fail"]} failed, {counts["skip"]} not compiled')
    if counts['fail']:
        return 1
    return 0 if counts['ok'] else 77


if __name__ == '__main__':
    sys.exit(main())
