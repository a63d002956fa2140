"""Parse `cuobjdump -elf -sass` text of one cubin into a plain model, and normalize its SASS.

Algorithm: the dump is read once, line by line, as a small state machine keyed on the section
headers cuobjdump prints (`Sections:`, `.section .symtab`, `.nv.info...`, `Function : ...`):
  - the ELF header line gives e_flags and the SM;
  - the section table gives every section's name, type, flags and size;
  - the symbol table gives the functions (symbols of type FUNC, info & 0xf == 2);
  - `.nv.info` (global) gives REGCOUNT / FRAME_SIZE / MIN_STACK_SIZE per function;
  - `.nv.info.<kernel>` gives that kernel's attribute records, kept as (name, value text);
  - the SASS listing gives, per function, its instructions (byte offset, text).
Nothing here knows about ptxas-mini; it reads what NVIDIA's cuobjdump prints. The layout of that
text was observed with cuobjdump 13.2 on ptxas 13.0 cubins (HW: observed, not documented).

SASS normalization (for figures and "same code" checks, never for must-match items): offsets and
the hex words are dropped; general, uniform and predicate register numbers are renamed in order of
first appearance (R7 -> r0, ...; RZ/URZ/PT stay); branch/call targets that are code addresses
become labels L0, L1, ... in order of first appearance.
"""

import re

# cuobjdump prints attribute numbers it has no name for as hex; these are the ones the
# comparison cares about, by the names cuobjdump 13.2 prints.
RE_HEADER = re.compile(r'^\s*64-bit ELF: type=(\S+), ABI=(\d+), sm=(\d+)(a?)[^,]*, .*flags=(0x[0-9a-fA-F]+)')
RE_SECTION_ROW = re.compile(
    r'^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\S+)\s*$')
RE_SYM_ROW = re.compile(r'^\s*(0x[0-9a-f]+|0)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$')
RE_FUNCTION = re.compile(r'^\s*Function : (\S+)')
RE_INSN = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\* 0x[0-9a-f]{16} \*/')
RE_ATTR = re.compile(r'^\s*Attribute:\s*(\S+)')
RE_VALUE = re.compile(r'^\s*Value:\s*(.*)$')


def _int(text):
    return int(text, 16) if text.lower().startswith('0x') else int(text)


class CubinModel:
    def __init__(self):
        self.elf_type = None
        self.abi = None
        self.sm = None
        self.e_flags = None
        self.sections = []          # [{'name','type','flags','size'}]
        self.functions = {}         # name -> {'bind_info': int, 'size': int}
        self.global_info = {}       # function name -> {'REGCOUNT': n, 'FRAME_SIZE': n, 'MIN_STACK_SIZE': n}
        self.kernel_info = {}       # kernel name -> [(attr name, value text)]
        self.sass = {}              # function name -> [(offset, text)]

    # ---- derived views -------------------------------------------------------------------
    def kernels(self):
        """Kernels are the functions with their own .nv.info.<name> section."""
        return sorted(n[len('.nv.info.'):] for n in self.section_names() if n.startswith('.nv.info.'))

    def section_names(self):
        return [s['name'] for s in self.sections]

    def section(self, name):
        for s in self.sections:
            if s['name'] == name:
                return s
        return None

    def attrs(self, kernel, name):
        return [v for (a, v) in self.kernel_info.get(kernel, []) if a == name]


def parse(text):
    """Parse the text of `cuobjdump -elf -sass` for one cubin."""
    m = CubinModel()
    lines = text.splitlines()
    state = None
    info_owner = None       # None: global .nv.info; name: per-kernel
    cur_attr = None
    cur_fn = None
    for line in lines:
        if not line.strip():
            continue
        h = RE_HEADER.match(line)
        if h:
            m.elf_type, m.abi, m.sm = h.group(1), int(h.group(2)), h.group(3) + h.group(4)
            m.e_flags = int(h.group(5), 16)
            continue
        if line.startswith('Sections:'):
            state = 'sections'
            continue
        if state == 'sections':
            if line.lstrip().startswith('Index'):
                continue
            r = RE_SECTION_ROW.match(line)
            if r:
                m.sections.append({'name': r.group(10), 'type': r.group(6), 'flags': int(r.group(7), 16),
                                   'size': int(r.group(3), 16)})
                continue
            state = None
        if line.startswith('.section .symtab'):
            state = 'symtab'
            continue
        if state == 'symtab':
            r = RE_SYM_ROW.match(line)
            if r and not line.lstrip().startswith('index'):
                info = _int(r.group(4))
                if info & 0xf == 2:
                    m.functions[r.group(7)] = {'bind_info': info, 'size': _int(r.group(3))}
                continue
            if line.lstrip().startswith('index'):
                continue
            state = None
        if line.startswith('.nv.info'):
            state = 'info'
            info_owner = line.strip()[len('.nv.info.'):] if line.strip() != '.nv.info' else None
            if info_owner is not None:
                m.kernel_info.setdefault(info_owner, [])
            cur_attr = None
            continue
        if state == 'info':
            if line[0] not in ' \t':
                state = None
            else:
                a = RE_ATTR.match(line)
                if a:
                    cur_attr = a.group(1).replace('EIATTR_', '')
                    continue
                v = RE_VALUE.match(line)
                if v and cur_attr:
                    val = v.group(1).strip()
                    if info_owner is None:
                        fm = re.match(r'function: (\S+)\(0x[0-9a-f]+\)\s+[a-z ]+:\s*(\S+)', val)
                        if fm:
                            m.global_info.setdefault(fm.group(1), {})[cur_attr] = _int(fm.group(2))
                    else:
                        m.kernel_info[info_owner].append([cur_attr, val])
                    continue
                if cur_attr and info_owner is not None and m.kernel_info[info_owner] \
                        and not line.strip().startswith('<') and not line.strip().startswith('Format'):
                    # continuation line of a multi-line value (KPARAM_INFO prints two lines)
                    m.kernel_info[info_owner][-1][1] += ' ' + line.strip()
                continue
        f = RE_FUNCTION.match(line)
        if f:
            cur_fn = f.group(1)
            m.sass[cur_fn] = []
            state = 'sass'
            continue
        if state == 'sass':
            i = RE_INSN.match(line)
            if i:
                m.sass[cur_fn].append((int(i.group(1), 16), i.group(2).strip().rstrip(';').strip()))
    for k in m.kernel_info:
        m.kernel_info[k] = [tuple(x) for x in m.kernel_info[k]]
    return m


# ---- SASS helpers ----------------------------------------------------------------------------
RE_REG = re.compile(r'\b(UR|R|UP|P)(\d+)\b')
RE_TARGET = re.compile(r'^(@!?U?P[T0-9]+\s+)?(BRA|BRX|CALL\.REL|CALL\.REL\.NOINC|JMP|BSSY|BSSY\.RECONVERGENT|SSY|PBK|'
                       r'BREAK|WARPSYNC|BMOV|RET|JMX|CALL)\b')
RE_ADDR = re.compile(r'\b0x[0-9a-f]+\b')


def opcode(text):
    """The mnemonic without guard predicate or modifiers: '@!P0 IMAD.WIDE.U32 ...' -> 'IMAD'."""
    t = text.strip()
    if t.startswith('@'):
        t = t.split(None, 1)[1] if ' ' in t else ''
    return t.split(None, 1)[0].split('.')[0] if t else ''


def is_exit(text):
    return opcode(text) == 'EXIT'


def body(insns):
    """Instructions before the tail padding: the last `BRA` to itself and the NOPs after it."""
    n = len(insns)
    end = n
    while end > 0 and opcode(insns[end - 1][1]) == 'NOP':
        end -= 1
    if end > 0:
        off, text = insns[end - 1]
        if opcode(text) == 'BRA' and re.search(r'\b0x%x\b' % off, text):
            end -= 1
    return insns[:end]


def normalize(insns):
    """Rename registers by first use and code-address operands to labels (see file comment)."""
    regs = {}
    labels = {}
    offsets = {off for off, _ in insns}
    out = []
    for off, text in insns:
        def reg(mm):
            key = (mm.group(1), mm.group(2))
            if key not in regs:
                regs[key] = sum(1 for k in regs if k[0] == mm.group(1))
            return '%s%d' % (mm.group(1).lower(), regs[key])
        t = RE_REG.sub(reg, text)
        if RE_TARGET.match(text):
            def lab(mm):
                v = int(mm.group(0), 16)
                if v not in offsets:
                    return mm.group(0)
                if v not in labels:
                    labels[v] = 'L%d' % len(labels)
                return labels[v]
            t = RE_ADDR.sub(lab, t)
        out.append(re.sub(r'\s+', ' ', t))
    return out
