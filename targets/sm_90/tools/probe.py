#!/usr/bin/env python3
"""Bit-flip probe: ask nvdisasm what each bit of a sm_90 instruction word means.

    probe.py LOW HIGH [--bits 12-104] [--set BIT=VAL ...]   one word, every single-bit flip
    probe.py LOW HIGH --field 75-77                          every value of a bit range

Each probe word is written to a raw binary and disassembled with `nvdisasm -b SM90`; the
output lists, for each flipped bit, the text nvdisasm prints (or its complaint). This is how
the rows of targets/sm_90/*.def were worked out (nvdisasm is an oracle to run, never to read).
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../tests/conformance"))
import sassref  # noqa: E402


def disasm_words(words, arch="SM90"):
    """Texts for a list of 128-bit ints; an invalid word gives '?'. nvdisasm stops at the
    first illegal word and names its address, so mark it and go on after it."""
    res = ["?"] * len(words)
    i = 0
    while i < len(words):
        blob = b"".join(struct.pack("<QQ", w & (2**64 - 1), w >> 64) for w in words[i:])
        with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
            f.write(blob)
            path = f.name
        r = subprocess.run([sassref.find_tool("nvdisasm"), "-b", arch, "-hex", path],
                           capture_output=True, text=True)
        os.unlink(path)
        got = sassref.parse_nvdisasm(r.stdout)
        if r.returncode == 0 and len(got) == len(words) - i:
            for k, g in enumerate(got):
                res[i + k] = g[1]
            break
        m = re.search(r"at address 0x([0-9a-f]+)", r.stderr)
        if not m:
            break
        bad = int(m.group(1), 16) // 16
        if bad:  # the words before it are valid but were not printed
            res[i:i + bad] = disasm_words(words[i:i + bad], arch)
        i += bad + 1
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lo")
    ap.add_argument("hi")
    ap.add_argument("--bits", default="0-104")
    ap.add_argument("--field")
    ap.add_argument("--arch", default="SM90")
    a = ap.parse_args()
    base = int(a.lo, 16) | (int(a.hi, 16) << 64)
    print("base:", disasm_words([base], a.arch)[0])
    if a.field:
        lo, hi = map(int, a.field.split("-"))
        n = hi - lo + 1
        ws = [(base & ~(((1 << n) - 1) << lo)) | (v << lo) for v in range(1 << n)]
        for v, t in zip(range(1 << n), disasm_words(ws, a.arch)):
            print(f"  {v:#x}: {t}")
        return
    lo, hi = map(int, a.bits.split("-"))
    bits = list(range(lo, hi + 1))
    texts = disasm_words([base ^ (1 << b) for b in bits], a.arch)
    base_t = disasm_words([base], a.arch)[0]
    for b, t in zip(bits, texts):
        print(f"  bit {b:3d}: {'=' if t == base_t else t}")


if __name__ == "__main__":
    main()
