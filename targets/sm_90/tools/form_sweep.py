#!/usr/bin/env python3
"""Operand-form sweep: which combinations of known fields does nvdisasm accept that our
encoding table cannot decode (issue 20: "probe the combinations with nvdisasm, so unseen
combinations of known fields encode")?

    form_sweep.py [--arch sm_90] [--sass-mc build/bin/sass-mc] [--per-opcode 3] INPUT...

INPUT: cubins, PTX files (compiled with ptxas -O3 for --arch), or raw word lists (`.txt`,
one `0xLO 0xHI` per line, e.g. the words `sass-mc -disassemble` could not decode).

For every distinct 12-bit opcode of the inputs (up to --per-opcode words each, chosen to
differ in their modifier bits), the word is re-emitted with each of the eight values of the
ALU operand-form bits 9..11 (targets/sm_90/sm90_forms.def, top comment: 0x2 = b,c registers,
0x4 = c immediate, 0x6 = c constant bank, 0x8 = b immediate, 0xa = b constant bank, 0xc = b
uniform, 0xe = c uniform), and bit 91 (the uniform-operand flag) set for the uniform forms.
Every candidate goes to nvdisasm (the oracle) and to `sass-mc -disassemble -raw` (ours).

Report, grouped by opcode and by the operand shape nvdisasm prints:
  MISSING   nvdisasm prints an instruction, our table has no row for it;
  DIFFERS   both print, the texts differ (a wrong row: fix first).
Inputs' own words are checked the same way (variant = the word itself). Exit status 1 when
anything is MISSING or DIFFERS, so the tool can gate a change.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../tests/conformance"))
sys.path.insert(0, HERE)
import sassref  # noqa: E402
from probe import disasm_words  # noqa: E402

M64 = (1 << 64) - 1
# Operand-form values (bits 9..11) whose b or c operand is a uniform register: bit 91 set.
UNIFORM_FORMS = {0x6, 0x7}  # 0xc.. and 0xe.. in the opcode's top nibble (bits 9..11 = 6, 7)


def words_of(path, arch):
    if path.endswith(".txt"):
        out = []
        for line in open(path):
            m = re.findall(r"0x[0-9a-fA-F]{16}", line)
            if len(m) >= 2:
                out.append(int(m[0], 16) | (int(m[1], 16) << 64))
        return out
    if path.endswith(".ptx"):
        data, err = sassref.compile_ptx(path, arch)
        if data is None:
            print("skip %s: %s" % (path, err.strip().splitlines()[:1]), file=sys.stderr)
            return []
    else:
        data = open(path, "rb").read()
    out = []
    for _name, code in sassref.text_sections(data):
        for i in range(0, len(code) - 15, 16):
            lo = int.from_bytes(code[i:i + 8], "little")
            hi = int.from_bytes(code[i + 8:i + 16], "little")
            out.append(lo | (hi << 64))
    return out


def ours(words, sass_mc, arch):
    """Our disassembly of each word ('?' when the table has no row)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for w in words:
            f.write("%#018x %#018x\n" % (w & M64, w >> 64))
        path = f.name
    r = subprocess.run([sass_mc, "-arch=" + arch, "-disassemble", "-raw", path],
                       capture_output=True, text=True)
    os.unlink(path)
    res = []
    for line in r.stdout.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s*\[[^\]]*\]\s*(.*?)\s*;\s*/\*", line)
        if m:
            t = m.group(1)
            res.append("?" if t == "??" else t)
    if len(res) != len(words):
        sys.exit("sass-mc printed %d lines for %d words:\n%s" % (len(res), len(words), r.stderr[-2000:]))
    return res


def norm(t):
    t = re.sub(r"\.reuse", "", t)
    return re.sub(r"\s+", " ", t).strip()


def shape(t):
    """The operand kinds of a text, register numbers and immediates elided."""
    s = re.sub(r"^@!?U?P\w+\s+", "", norm(t))
    s = re.sub(r"\bUR(\d+|Z)\b", "UR", s)
    s = re.sub(r"\bR(\d+|Z)\b", "R", s)
    s = re.sub(r"\bUP(\d|T)\b", "UP", s)
    s = re.sub(r"\bP(\d|T)\b", "P", s)
    s = re.sub(r"(?<![\w.])(-?0x[0-9a-f]+|-?\d+(\.\d+)?(e[+-]?\d+)?|[+-]?INF|[+-]?QNAN)", "I", s)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--sass-mc", default=os.path.join(HERE, "../../../build/bin/sass-mc"))
    ap.add_argument("--per-opcode", type=int, default=3)
    ap.add_argument("--no-variants", action="store_true", help="check the inputs' words only")
    a = ap.parse_args()

    # Representative words: per 12-bit opcode, up to N that differ in bits 72..90 (modifiers).
    reps = collections.defaultdict(dict)
    for p in a.inputs:
        for w in words_of(p, a.arch):
            opc = w & 0xFFF
            key = (w >> 72) & ((1 << 19) - 1)
            if len(reps[opc]) < a.per_opcode and key not in reps[opc]:
                reps[opc][key] = w
    cands = []  # (source opcode, word)
    seen = set()
    for opc in sorted(reps):
        for w in reps[opc].values():
            variants = [w] if a.no_variants else []
            if not a.no_variants:
                for form in range(8):
                    v = (w & ~(0x7 << 9)) | (form << 9)
                    v = v | (1 << 91) if form in UNIFORM_FORMS else v & ~(1 << 91)
                    variants.append(v)
            for v in variants:
                # ignore control bits (105..127) for uniqueness
                k = v & ((1 << 105) - 1)
                if k not in seen:
                    seen.add(k)
                    cands.append((opc, v))
    words = [w for _, w in cands]
    # nvdisasm stops at the first illegal word, so each one costs a re-run of the words after
    # it: give it short chunks.
    theirs = []
    for i in range(0, len(words), 24):
        theirs += disasm_words(words[i:i + 24], "SM" + a.arch[3:])
    mine = ours(words, a.sass_mc, a.arch)

    missing = collections.defaultdict(list)
    differs = []
    for (opc, w), t, m in zip(cands, theirs, mine):
        if t == "?":
            continue
        if m == "?":
            missing[(w & 0xFFF, shape(t))].append((w, t))
        elif norm(t) != norm(m):
            differs.append((w, t, m))
    for (opc, sh), v in sorted(missing.items()):
        w, t = v[0]
        print("MISSING %03x  %-60s e.g. %s  %#018x %#018x" % (opc, sh, t, w & M64, w >> 64))
    for w, t, m in differs:
        print("DIFFERS %03x  nvdisasm: %s | ours: %s  %#018x %#018x" % (w & 0xFFF, t, m, w & M64, w >> 64))
    print("candidates %d, valid for nvdisasm %d, missing %d shapes (%d words), differ %d"
          % (len(words), sum(t != "?" for t in theirs), len(missing),
             sum(len(v) for v in missing.values()), len(differs)))
    return 1 if missing or differs else 0


if __name__ == "__main__":
    sys.exit(main())
