#!/usr/bin/env python3
"""Conformance harness: sass-mc against ptxas + nvdisasm, word by word.

For every PTX file: ptxas -arch=ARCH makes a cubin; every instruction word of its .text.*
sections is disassembled by nvdisasm (raw mode, so branch targets are addresses). Then
  * assemble: nvdisasm's text, with the control annotation taken from the reference word,
    goes through `sass-mc -assemble`; all 128 bits must equal the reference (byte-exact);
  * disassemble: the reference word goes through `sass-mc -disassemble -raw`; the text must
    equal nvdisasm's, whitespace-normalised (text-exact).
Prints words tried, byte-exact, text-exact and every failing form (opcode bits 0..11 and
nvdisasm's mnemonic) with its count and one example. Identical (text, word) pairs are
checked once and counted with their multiplicity.

    conformance.py --sass-mc build/bin/sass-mc tests/conformance/ptx            # CI subset
    conformance.py --sass-mc build/bin/sass-mc --corpus                         # full corpus
      (/work/corpus/ptx/*.ptx with -arch=sm_90 and /work/corpus/ptx90a/*.ptx with sm_90a)
    conformance.py --sass-mc build/bin/sass-mc --arch sm_80 --corpus            # per SM
      (CORPUS below: sm_80 runs /work/corpus/ptx80, sm_86 ptx86, sm_89 ptx89)
Words that differ from ptxas's only in a field nvdisasm does not print for that SM (HIDDEN
below: sm_80's implicit global-memory descriptor register) are counted as "byte-exact but
for unprinted bits" besides the byte-exact count, which they are not part of.
Exit status: 0 when both rates reach --min (a percentage), 1 otherwise, 77 when an oracle
is missing (ctest reports that as skipped).
"""
import argparse
import collections
import concurrent.futures
import os
import pickle
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sassref  # noqa: E402

# The local corpus per -arch (never committed; /work/corpus-tools builds it).
CORPUS = {
    "sm_90": [("/work/corpus/ptx", "sm_90"), ("/work/corpus/ptx90a", "sm_90a")],
    "sm_80": [("/work/corpus/ptx80", "sm_80")],
    "sm_86": [("/work/corpus/ptx86", "sm_86")],
    "sm_89": [("/work/corpus/ptx89", "sm_89")],
}

# Fields a word carries that nvdisasm does not print for that SM, so that no text can give
# them back: {arch: {opcode (bits 0..11): (lo, hi) bit range}}. sm_80/86/89: the uniform
# register of the implicit global-memory descriptor (targets/sm_80/sm80_forms.def, "memory").
_DESC80 = {0x981: (32, 37), 0x980: (32, 37), 0x986: (64, 69), 0x985: (64, 69),
           0x9a8: (64, 69), 0x98a: (64, 69), 0x98e: (64, 69), 0xfae: (64, 69)}
HIDDEN = {"sm_80": _DESC80, "sm_86": _DESC80, "sm_89": _DESC80}


def hidden_only(arch, lo, hi, got):
    """True when `got` differs from the reference word only in a HIDDEN field."""
    r = HIDDEN.get(arch, {}).get(lo & 0xFFF)
    if not r or got is None:
        return False
    mask = ((1 << (r[1] - r[0] + 1)) - 1) << r[0]
    x = (got[0] ^ lo) | ((got[1] ^ hi) << 64)
    return x != 0 and x & ~mask == 0


def control_annotation(hi):
    stall = (hi >> 41) & 0xF
    yld = (hi >> 45) & 1
    wr = (hi >> 46) & 7
    rd = (hi >> 49) & 7
    wait = (hi >> 52) & 0x3F
    b = "".join(str(i) if (wait >> i) & 1 else "-" for i in range(6))
    return "[B%s:R%s:W%s:%s:S%02d]" % (b, "-" if rd == 7 else rd, "-" if wr == 7 else wr,
                                       "-" if yld else "Y", stall)


def norm(text):
    t = re.sub(r"\s+", " ", text.strip())
    t = re.sub(r"\s*,\s*", ", ", t)
    t = t.rstrip(" ;")
    return t


def mnemonic(text):
    t = re.sub(r"^@!?U?P\w+ ", "", text)
    return t.split(" ")[0]


def collect(ptx, arch, tmp):
    cub, err = sassref.compile_ptx(ptx, arch, workdir=tmp)
    if cub is None:
        return ptx, None, err
    blob = b"".join(code for _n, code in sassref.text_sections(cub))
    if not blob:
        return ptx, [], ""
    return ptx, sassref.disasm_raw(blob, sassref.sm_flag(arch)), ""


def collect_all(a, jobs, words):
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda j: (j[1],) + collect(j[0], j[1], tmp), jobs))
    refused = 0
    for arch, ptx, got, err in results:
        if got is None:
            refused += 1
            continue
        for addr, text, lo, hi in got:
            k = (arch, norm(text), lo, hi)
            if k in words:
                words[k][0] += 1
            else:
                words[k] = [1, addr]
    return refused


def run_tool(args, inp):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(inp)
        path = f.name
    try:
        r = subprocess.run(args + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return r.stdout, r.stderr, path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sass-mc", required=True)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--corpus", action="store_true", help="run /work/corpus/ptx and ptx90a")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min", type=float, default=0.0, help="required byte/text-exact percentage")
    ap.add_argument("--show", type=int, default=60, help="failing forms to list")
    ap.add_argument("--cache", help="keep the reference words in this file (pickle) and reuse them")
    ap.add_argument("--dump-failing", help="write one 'lo hi text' example per failing form")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()

    for tool in ("ptxas", "nvdisasm"):
        p = sassref.find_tool(tool)
        if not os.path.exists(p):
            print("SKIP: oracle %s not found" % tool)
            return 77

    jobs = []  # (ptx, arch)
    def add(path, arch):
        if os.path.isdir(path):
            for n in sorted(os.listdir(path)):
                if n.endswith(".ptx"):
                    jobs.append((os.path.join(path, n), arch))
        elif os.path.exists(path):
            jobs.append((path, arch))
    for p in a.paths:
        add(p, a.arch)
    if a.corpus:
        for path, arch in CORPUS.get(a.arch, []):
            add(path, arch)
    if not jobs:
        print("no PTX files given")
        return 1

    # (arch, text, lo, hi) -> [count, addr]
    words = collections.OrderedDict()
    if a.cache and os.path.exists(a.cache):
        with open(a.cache, "rb") as f:
            words, njobs, refused = pickle.load(f)
        jobs = [None] * njobs
    else:
        refused = collect_all(a, jobs, words)
        if a.cache:
            with open(a.cache, "wb") as f:
                pickle.dump((words, len(jobs), refused), f)


    total = sum(v[0] for v in words.values())
    byte_ok = text_ok = hidden_ok = 0
    fails = collections.defaultdict(lambda: [0, None])
    by_arch = collections.defaultdict(list)
    for k, v in words.items():
        by_arch[k[0]].append((k, v))
    for arch, items in by_arch.items():
        asm_in = "".join("/*%04x*/ %s ; %s\n" % (v[1], k[1], control_annotation(k[3])) for k, v in items)
        out, err, path = run_tool([a.sass_mc, "-arch=" + arch, "-assemble"], asm_in)
        failed_lines = {}
        for m in re.finditer(r"line (\d+); error\s*: (.*)", err):
            failed_lines[int(m.group(1))] = m.group(2)
        recs = re.findall(r"/\* (0x[0-9a-f]{16}) \*/\s*\n\s*/\* (0x[0-9a-f]{16}) \*/", out)
        ri = 0
        asm_res = []
        for i in range(len(items)):
            if i + 1 in failed_lines:
                asm_res.append((None, failed_lines[i + 1]))
            else:
                lo, hi = recs[ri]
                ri += 1
                asm_res.append(((int(lo, 16), int(hi, 16)), None))
        raw_in = "".join("/*%04x*/ 0x%016x 0x%016x\n" % (v[1], k[2], k[3]) for k, v in items)
        out, err, _ = run_tool([a.sass_mc, "-arch=" + arch, "-disassemble", "-raw", "-no-hex"], raw_in)
        dis = [l for l in out.splitlines() if l.strip()]
        for i, (k, v) in enumerate(items):
            cnt = v[0]
            key_form = "%03x %s" % (k[2] & 0xFFF, mnemonic(k[1]))
            w, msg = asm_res[i]
            if w == (k[2], k[3]):
                byte_ok += cnt
            elif hidden_only(arch, k[2], k[3], w):
                hidden_ok += cnt
            else:
                f = fails["asm  " + key_form]
                f[0] += cnt
                if len(f) == 2:
                    f.append((k[2], k[3], k[1]))
                if f[1] is None:
                    if w is None:
                        f[1] = "%s  <- %s" % (k[1], msg)
                    else:
                        x = (w[0] ^ k[2]) | ((w[1] ^ k[3]) << 64)
                        bits = [b for b in range(128) if (x >> b) & 1]
                        refset = [b for b in bits if (((k[3] << 64) | k[2]) >> b) & 1]
                        f[1] = "%s  diff bits %s (set in ref: %s)" % (k[1], bits, refset)
            dtext = ""
            if i < len(dis):
                m = re.match(r"\s*/\*[0-9a-f]+\*/ \[[^\]]*\]\s+(.*)$", dis[i])
                dtext = norm(m.group(1)) if m else dis[i]
            if dtext == k[1]:
                text_ok += cnt
            else:
                f = fails["text " + key_form]
                f[0] += cnt
                if len(f) == 2:
                    f.append((k[2], k[3], k[1]))
                if f[1] is None:
                    f[1] = "want '%s' got '%s'" % (k[1], dtext)

    pct = lambda n: 100.0 * n / total if total else 0.0
    print("PTX files: %d (%d refused by ptxas)" % (len(jobs), refused))
    print("words tried: %d (%d distinct)" % (total, len(words)))
    print("byte-exact:  %d (%.2f%%)" % (byte_ok, pct(byte_ok)))
    if hidden_ok:
        print("byte-exact but for unprinted bits: %d (%.2f%%; with them %.2f%%)"
              % (hidden_ok, pct(hidden_ok), pct(byte_ok + hidden_ok)))
    print("text-exact:  %d (%.2f%%)" % (text_ok, pct(text_ok)))
    print("failing forms (count, kind, opcode, mnemonic, example):")
    if a.dump_failing:
        with open(a.dump_failing, "w") as f:
            for name, v in sorted(fails.items(), key=lambda kv: (-kv[1][0], kv[0])):
                f.write("%d %s 0x%x 0x%x %s\n" % (v[0], name.split()[0], v[2][0], v[2][1], v[2][2]))
    for name, (cnt, ex, *_rest) in sorted(fails.items(), key=lambda kv: (-kv[1][0], kv[0]))[:a.show]:
        print("  %6d  %s   %s" % (cnt, name, ex))
    if len(fails) > a.show:
        print("  ... %d more forms" % (len(fails) - a.show))
    return 0 if total and pct(byte_ok) >= a.min and pct(text_ok) >= a.min else 1


if __name__ == "__main__":
    sys.exit(main())
