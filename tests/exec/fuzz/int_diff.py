#!/usr/bin/env python3
"""Differential test of the integer-family lowering: random straight-line PTX over 32/64/16-bit
registers and predicates (aliasing destinations and sources, immediates, guards, carry-free
arithmetic, logic, shifts, bit fields, compares, selects, div/rem), compiled by ptxas and by
ptxas-mini, both cubins run on the SASS emulator with the same inputs, outputs compared
bit for bit. ptxas is the oracle; a program whose ptxas cubin the emulator cannot run is
counted as skipped (said so), never as passed.

    int_diff.py --ptxas PTXAS --mini PTXAS_MINI --exec-run EXEC_RUN [--seeds 1-40] [--len 60]

Exit status: 0 all compared programs agree, 1 a difference or a ptxas-mini failure, 77 when
ptxas is missing (ctest SKIPPED)."""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

N32, N64, N16, NP = 6, 4, 3, 3


def program(seed, length):
    R = random.Random(seed)
    r32 = lambda: "%%r%d" % R.randrange(N32)
    r64 = lambda: "%%d%d" % R.randrange(N64)
    r16 = lambda: "%%h%d" % R.randrange(N16)
    rp = lambda: "%%p%d" % R.randrange(NP)
    i32 = lambda: str(R.choice([0, 1, -1, 2, 5, 7, 31, 32, 33, 63, 64, 0x7fffffff, -0x80000000,
                                0x12345, R.randrange(-1000, 1000)]))
    i64 = lambda: str(R.choice([0, 1, -1, 5, 0x100000000, -0x100000000, 0x7fffffffffffffff,
                                0x123456789, R.randrange(-10**6, 10**6)]))
    s32 = lambda: R.choice([r32, r32, r32, i32])()
    s64 = lambda: R.choice([r64, r64, r64, i64])()
    s16 = lambda: R.choice([r16, r16, lambda: str(R.choice([0, 1, -1, 7, 0x7fff, -0x8000, 300]))])()
    sh = lambda: R.choice([r32, lambda: str(R.choice([0, 1, 5, 15, 16, 31, 32, 33, 40, 63, 64, 70]))])()
    np_ = lambda: R.choice(["", "!"]) + rp()

    def pq():
        a, b = R.sample(range(NP), 2)
        return "%%p%d|%%p%d" % (a, b)
    C = lambda: R.choice(["lt", "le", "gt", "ge", "eq", "ne"])
    ch = R.choice
    T = [
        lambda: f"add.s32 {r32()}, {s32()}, {s32()};",
        lambda: f"sub.s32 {r32()}, {s32()}, {s32()};",
        lambda: f"add.sat.s32 {r32()}, {r32()}, {s32()};",
        lambda: f"mul.lo.s32 {r32()}, {r32()}, {s32()};",
        lambda: f"mul.hi.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
        lambda: f"mad.lo.s32 {r32()}, {r32()}, {s32()}, {s32()};",
        lambda: f"mad.hi.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()}, {s32()};",
        lambda: f"mul.wide.{ch(['s32', 'u32'])} {r64()}, {r32()}, {s32()};",
        lambda: f"mad.wide.{ch(['s32', 'u32'])} {r64()}, {r32()}, {s32()}, {s64()};",
        lambda: f"add.s64 {r64()}, {s64()}, {s64()};",
        lambda: f"sub.s64 {r64()}, {s64()}, {s64()};",
        lambda: f"mul.lo.s64 {r64()}, {r64()}, {s64()};",
        lambda: f"mul.hi.{ch(['s64', 'u64'])} {r64()}, {r64()}, {r64()};",
        lambda: f"mad.lo.s64 {r64()}, {r64()}, {s64()}, {s64()};",
        lambda: f"neg.s64 {r64()}, {r64()};",
        lambda: f"abs.s64 {r64()}, {r64()};",
        lambda: f"{ch(['min', 'max'])}.{ch(['s64', 'u64'])} {r64()}, {r64()}, {s64()};",
        lambda: f"{ch(['min', 'max'])}.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
        lambda: f"{ch(['shl.b64', 'shr.u64', 'shr.s64'])} {r64()}, {r64()}, {sh()};",
        lambda: f"{ch(['shl.b32', 'shr.u32', 'shr.s32'])} {r32()}, {r32()}, {sh()};",
        lambda: f"{ch(['and', 'or', 'xor'])}.b64 {r64()}, {r64()}, {s64()};",
        lambda: f"{ch(['and', 'or', 'xor'])}.b32 {r32()}, {r32()}, {s32()};",
        lambda: f"not.b64 {r64()}, {r64()};",
        lambda: f"brev.b64 {r64()}, {r64()};",
        lambda: f"popc.b64 {r32()}, {r64()};",
        lambda: f"clz.b64 {r32()}, {r64()};",
        lambda: (lambda t: f"bfind.{t} {r32()}, {r64() if '64' in t else r32()};")(
            ch(['u64', 's64', 'shiftamt.u64', 'shiftamt.s64', 'u32', 's32'])),
        lambda: f"bfe.{ch(['u64', 's64'])} {r64()}, {r64()}, {R.randrange(70)}, {R.randrange(70)};",
        lambda: f"bfe.{ch(['u32', 's32'])} {r32()}, {r32()}, {r32()}, {r32()};",
        lambda: f"bfi.b64 {r64()}, {r64()}, {r64()}, {R.randrange(70)}, {R.randrange(70)};",
        lambda: f"bfi.b32 {r32()}, {r32()}, {r32()}, {r32()}, {r32()};",
        lambda: f"prmt.b32 {r32()}, {r32()}, {r32()}, {s32()};",
        lambda: f"{ch(['div', 'rem'])}.{ch(['s32', 'u32'])} {r32()}, {s32()}, {s32()};",
        lambda: f"{ch(['div', 'rem'])}.{ch(['s64', 'u64'])} {r64()}, {s64()}, {s64()};",
        lambda: f"setp.{C()}.{ch(['s32', 'u32'])} {rp()}, {s32()}, {s32()};",
        lambda: f"setp.{C()}.{ch(['and', 'or', 'xor'])}.{ch(['s64', 'u64'])} {pq()}, {r64()}, {s64()}, {np_()};",
        lambda: f"setp.{C()}.{ch(['s16', 'u16'])} {rp()}, {r16()}, {s16()};",
        lambda: f"selp.b64 {r64()}, {s64()}, {s64()}, {np_()};",
        lambda: f"selp.b32 {r32()}, {s32()}, {s32()}, {np_()};",
        lambda: f"selp.b16 {r16()}, {s16()}, {s16()}, {np_()};",
        lambda: f"{ch(['and', 'or', 'xor'])}.pred {rp()}, {np_()}, {np_()};",
        lambda: f"not.pred {rp()}, {rp()};",
        lambda: f"{ch(['add', 'sub', 'mul.lo', 'min', 'max'])}.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()};",
        lambda: f"{ch(['shl.b16', 'shr.u16', 'shr.s16'])} {r16()}, {r16()}, {sh()};",
        lambda: f"{ch(['div', 'rem'])}.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()};",
        lambda: f"mul.wide.{ch(['s16', 'u16'])} {r32()}, {r16()}, {s16()};",
        lambda: f"mul.hi.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()};",
        lambda: f"mov.u16 {r16()}, {R.randrange(65536)};",
        lambda: f"mov.b64 {r64()}, {i64()};",
        lambda: f"cnot.b64 {r64()}, {r64()};",
        lambda: (f"add.cc.u32 {r32()}, {r32()}, {s32()}; addc.cc.u32 {r32()}, {r32()}, {s32()};"
                 f" addc.u32 {r32()}, {s32()}, {s32()};"),
        lambda: (f"sub.cc.u64 {r64()}, {r64()}, {s64()}; subc.cc.u64 {r64()}, {r64()}, {s64()};"
                 f" subc.u32 {r32()}, {s32()}, {s32()};"),
        lambda: (f"mad.lo.cc.u32 {r32()}, {r32()}, {s32()}, {s32()};"
                 f" madc.hi.cc.u32 {r32()}, {r32()}, {s32()}, {s32()}; addc.u32 {r32()}, 0, 0;"),
        lambda: f"mad.lo.cc.u64 {r64()}, {r64()}, {s64()}, {s64()}; madc.hi.u64 {r64()}, {r64()}, {s64()}, {s64()};",
        lambda: (lambda t: f"sad.{t} {r64()}, {r64()}, {r64()}, {s64()};" if '64' in t
                 else f"sad.{t} {r32()}, {r32()}, {r32()}, {s32()};")(ch(['s64', 'u64', 's32', 'u32'])),
    ]
    body = []
    chain_seen = False  # a guarded .cc keeps the previous carry: only guard once one exists
    for _ in range(length):
        ins = R.choice(T)()
        chain = ".cc" in ins
        if R.random() < 0.15 and (chain_seen or not chain):
            ins = "@" + np_() + " " + ins
        chain_seen |= chain
        body.append(ins)
    out = [".version 8.3", ".target sm_90", ".address_size 64",
           ".visible .entry k(.param .u64 pin, .param .u64 pout)", "{",
           f".reg .b32 %r<{N32}>; .reg .b64 %d<{N64}>; .reg .b16 %h<{N16}>; .reg .pred %p<{NP}>;"
           " .reg .b64 %in, %out; .reg .b32 %t;",
           "ld.param.u64 %in, [pin]; ld.param.u64 %out, [pout];"]
    out += [f"ld.global.u32 %r{i}, [%in+{4 * i}];" for i in range(N32)]
    out += [f"ld.global.u64 %d{i}, [%in+{64 + 8 * i}];" for i in range(N64)]
    out += [f"and.b32 %t, %r{i}, 1; setp.ne.u32 %p{i}, %t, 0;" for i in range(NP)]
    out += [f"mov.u16 %h{i}, {R.randrange(65536)}; shl.b16 %h{i}, %h{i}, %r{i};"
            f" add.u16 %h{i}, %h{i}, 0x{R.randrange(65536):x};" for i in range(N16)]
    out += body
    out += [f"st.global.u32 [%out+{4 * i}], %r{i};" for i in range(N32)]
    out += [f"st.global.u64 [%out+{64 + 8 * i}], %d{i};" for i in range(N64)]
    out += [f"mul.wide.u16 %t, %h{i}, 1; st.global.u32 [%out+{128 + 4 * i}], %t;" for i in range(N16)]
    out += [f"selp.u32 %t, 1, 0, %p{i}; st.global.u32 [%out+{160 + 4 * i}], %t;" for i in range(NP)]
    out += ["ret;", "}"]
    return "\n".join(out) + "\n"


DESC = """kernel k
grid 1
block 1
buffer in u32 32 random seed={seed} full=1
buffer out u32 64 zero
param ptr in
param ptr out
output out
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--mini", required=True)
    ap.add_argument("--exec-run", required=True)
    ap.add_argument("--seeds", default="1-40")
    ap.add_argument("--len", type=int, default=60)
    ap.add_argument("--keep", help="directory to keep failing programs in")
    a = ap.parse_args()
    if not a.ptxas or not os.path.exists(a.ptxas):
        print("SKIPPED: ptxas not found (%s)" % a.ptxas)
        return 77
    lo, hi = (int(x) for x in a.seeds.split("-"))
    ok, bad, skipped = 0, 0, 0
    with tempfile.TemporaryDirectory() as w:
        for seed in range(lo, hi + 1):
            ptx, desc = os.path.join(w, "t.ptx"), os.path.join(w, "t.desc")
            open(ptx, "w").write(program(seed, a.len))
            open(desc, "w").write(DESC.format(seed=seed))
            ca, cb = os.path.join(w, "a.cubin"), os.path.join(w, "b.cubin")
            da, db = os.path.join(w, "da"), os.path.join(w, "db")
            for d in (da, db):
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
            why = None
            if subprocess.run([a.ptxas, "-arch=sm_90", ptx, "-o", ca], capture_output=True).returncode:
                skipped += 1
                print("seed %d: skipped (ptxas rejects the program)" % seed)
                continue
            if subprocess.run([a.exec_run, "--cubin", ca, "--desc", desc, "--no-ref", "--dump", da],
                              capture_output=True).returncode:
                skipped += 1
                print("seed %d: skipped (the emulator cannot run ptxas's cubin)" % seed)
                continue
            r = subprocess.run([a.mini, "-arch=sm_90", ptx, "-o", cb], capture_output=True, text=True)
            if r.returncode:
                why = "ptxas-mini failed: " + r.stderr.strip().splitlines()[0]
            elif subprocess.run([a.exec_run, "--cubin", cb, "--desc", desc, "--no-ref", "--dump", db],
                                capture_output=True).returncode:
                why = "the emulator cannot run ptxas-mini's cubin"
            else:
                ga = open(os.path.join(da, "out.bin"), "rb").read()
                gb = open(os.path.join(db, "out.bin"), "rb").read()
                if ga != gb:
                    diff = [i for i in range(min(len(ga), len(gb))) if ga[i] != gb[i]]
                    why = "outputs differ at bytes %s" % diff[:12]
            if why:
                bad += 1
                print("seed %d: FAIL: %s" % (seed, why))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    shutil.copy(ptx, os.path.join(a.keep, "seed%d.ptx" % seed))
            else:
                ok += 1
    print("int_diff: %d agree, %d differ or fail, %d skipped" % (ok, bad, skipped))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
