#!/usr/bin/env python3
"""Random PTX program generator for differential testing (issue 15).

    gen.py SEED [-o out.ptx] [--desc out.desc] [--size N]

Writes one sm_90 kernel `fz` and the exec-run description that launches it. The same seed
gives the same program and description byte for byte (only random.Random(seed) is used).

What a program is made of (every one is meant to be free of undefined behaviour):
  - a pool of live values of every kind: b32 (%r), b64 (%d), b16 (%h), predicates (%p), f32
    (%f), f64 (%fd), f16 in b16 (%x) and f16x2 in b32 (%y). Half of the integer registers start
    from per-thread inputs or %tix (divergent), the other half from inputs every thread shares
    (warp-uniform); all are written before anything reads them;
  - integer arithmetic of every width (8-bit through ld/st/cvt/prmt/bfe, 16, 32, 64, signed and
    unsigned, s16x2/u16x2 min/max), carry chains (add.cc/addc/sub.cc/subc/mad.cc/madc, always
    started by an unguarded .cc so no carry is read before it is written), mul.hi/mul.wide/
    mad.hi/mul24/sad, shifts (PTX clamps the amount), funnel shifts, bfe/bfi/bmsk/szext/brev/
    clz/popc/bfind/prmt/lop3, min/max/abs/neg, saturating add/sub, setp/selp/slct, predicate
    logic, cvt between integer widths (with and without .sat), division and remainder only by
    divisors forced non-zero (and positive for signed ones: no INT_MIN / -1);
  - f32/f64/f16/f16x2 arithmetic: add/sub/mul/fma always with .rn (so no contraction is
    allowed), div.rn/sqrt.rn (IEEE, correctly rounded), min/max/abs/neg, setp, cvt between
    float and integer types. Float values are clamped with min/max before they are stored, so
    no NaN payload (which PTX leaves to the implementation) reaches the output; floats are
    never reinterpreted as integers;
  - warp-synchronous operations (shfl.sync idx/bfly/up/down, vote.sync, redux.sync,
    match.any.sync) with the full mask, only at the top level of the part every thread runs;
  - control flow: diamonds with empty or full arms, if-then, counted loops (constant bound,
    1..4, or 5..69 stepping by 1..3), data-dependent loops (bound computed once, masked to
    1..4 in do-while and while forms, or to 1..16 counting up by 1..3 with <, signed < or !=
    (step 1), or down to 0 with unsigned >, signed > or !=: every form leaves after at most
    69 iterations and no counter wraps),
    nested loops, break/continue out of loops, forward gotos out of nested regions to later
    top-level labels (unstructured), early exits that store the outputs and `ret`, and
    branches to the last label (the store epilogue);
  - memory: the input buffer (global, read-only, indices masked in bounds), a per-thread
    scratch window of the output buffer (global, read/written only by its thread), a .local
    array (every element written in the prologue), a .const table with an initializer,
    shared memory written by each thread then read at another thread's slot after bar.sync
    (one more bar.sync before it is written again: no race), and atomics/reductions whose
    final value does not depend on the order (add/min/max/and/or/xor on shared counters and
    on global counters; exch/cas only on a thread's own slot). bar.sync only appears in code
    every thread of the CTA executes (top level, before any early exit).
"""
import argparse
import random
import sys

N = {"r": 8, "d": 4, "h": 3, "p": 4, "f": 3, "fd": 2, "x": 2, "y": 2}
UNIFORM_IN = 16        # u32 words every thread reads (in[0..15])
PER_THREAD_IN = 16     # u32 words per thread after them
SCRATCH = 4            # u64 slots per thread in the output that the program may st/ld
LOCAL_WORDS = 8
CONST_WORDS = 16


class Gen:
    # Global counter slots (u64 each): slot i only ever sees ATOM_OPS[i], so the final value
    # does not depend on the order in which threads get there.
    ATOM_OPS = [("add", "u32"), ("add", "u64"), ("min", "u32"), ("max", "s32"), ("and", "b32"),
                ("or", "b32"), ("xor", "b32"), ("min", "u64"), ("max", "s64"), ("inc", "u32")]
    SW = {"h": "s16", "r": "s32", "d": "s64"}
    BW = {"h": "b16", "r": "b32", "d": "b64"}
    def __init__(self, seed, size, features=()):
        self.features = set(features)
        self.R = random.Random(seed)
        R = self.R
        self.size = size
        self.block = R.choice([32, 32, 64, 96])
        self.grid = R.choice([1, 1, 2])
        self.nthreads = self.block * self.grid
        self.lines = []
        self.label_n = 0
        self.loop_regs = 0      # %l<n>: loop counters, %lb<n>: loop bounds
        self.depth = 0
        self.loops = []         # stack of (continue label, break label) of enclosing loops
        self.top_labels = []    # forward labels still to be placed at the top level
        self.exits_allowed = False
        self.use_shared = R.random() < 0.6
        self.use_local = R.random() < 0.5
        self.use_const = R.random() < 0.5
        self.use_atom = R.random() < 0.5
        self.use_float = R.random() < 0.7
        self.use_warp = R.random() < 0.5
        self.slots = [("r", i) for i in range(N["r"])] + [("d", i) for i in range(N["d"])] + \
            [("h", i) for i in range(N["h"])] + [("p", i) for i in range(N["p"])]
        if self.use_float:
            self.slots += [("f", i) for i in range(N["f"])] + [("fd", i) for i in range(N["fd"])] + \
                [("x", i) for i in range(N["x"])] + [("y", i) for i in range(N["y"])]
        self.out_slots = len(self.slots) + SCRATCH   # u64 slots per thread
        self.ctab = [R.choice([0, 1, 0xffffffff, 0x80000000, R.getrandbits(32), R.randrange(64)])
                     for _ in range(CONST_WORDS)]

    # ---- operands ------------------------------------------------------------------------
    def reg(self, k):
        return "%%%s%d" % (k, self.R.randrange(N[k]))

    def i32(self):
        R = self.R
        return str(R.choice([0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 255, 256, 0xffff, 0x10000,
                             0x7fffffff, -0x80000000, R.randrange(-1000, 1000),
                             R.getrandbits(32) - (1 << 31)]))

    def i64(self):
        R = self.R
        return str(R.choice([0, 1, -1, 5, 0xffffffff, 0x100000000, -0x100000000, 0x7fffffffffffffff,
                             -0x8000000000000000, R.randrange(-10**6, 10**6),
                             R.getrandbits(64) - (1 << 63)]))

    def i16(self):
        return str(self.R.choice([0, 1, -1, 7, 255, 0x7fff, -0x8000, 300, self.R.randrange(-32768, 32768)]))

    def s32(self):
        return self.reg("r") if self.R.random() < 0.75 else self.i32()

    def s64(self):
        return self.reg("d") if self.R.random() < 0.75 else self.i64()

    def s16(self):
        return self.reg("h") if self.R.random() < 0.75 else self.i16()

    def sh(self):
        return self.reg("r") if self.R.random() < 0.5 else str(self.R.choice([0, 1, 5, 8, 15, 16, 31, 32, 33, 63, 64, 70]))

    def np_(self):
        return self.R.choice(["", "!"]) + self.reg("p")

    def f32imm(self):
        R = self.R
        return R.choice(["0f00000000", "0f3F800000", "0fBF800000", "0f40000000", "0f3F000000",
                         "0f41200000", "0fC0400000", "0f3E800000", "0f80000000"])

    def f64imm(self):
        return self.R.choice(["0d0000000000000000", "0d3FF0000000000000", "0dBFF0000000000000",
                              "0d4000000000000000", "0d3FE0000000000000", "0d4024000000000000"])

    def sf(self):
        return self.reg("f") if self.R.random() < 0.8 else self.f32imm()

    def sfd(self):
        return self.reg("fd") if self.R.random() < 0.8 else self.f64imm()

    def label(self, stem):
        self.label_n += 1
        return "$L_%s%d" % (stem, self.label_n)

    def emit(self, s):
        self.lines.append("\t" * (1 + min(self.depth, 6)) + s)

    # ---- straight-line instructions --------------------------------------------------------
    def int_inst(self):
        R = self.R
        ch = R.choice
        r32, r64, r16, rp = (lambda: self.reg("r")), (lambda: self.reg("d")), (lambda: self.reg("h")), (lambda: self.reg("p"))
        s32, s64, s16, sh, np_ = self.s32, self.s64, self.s16, self.sh, self.np_
        C = lambda: ch(["lt", "le", "gt", "ge", "eq", "ne"])
        CU = lambda: ch(["lt", "le", "gt", "ge", "eq", "ne", "lo", "ls", "hi", "hs"])

        def pq():
            a, b = R.sample(range(N["p"]), 2)
            return "%%p%d|%%p%d" % (a, b)
        T = [
            lambda: f"add.{ch(['s32', 'u32'])} {r32()}, {s32()}, {s32()};",
            lambda: f"sub.{ch(['s32', 'u32'])} {r32()}, {s32()}, {s32()};",
            lambda: f"{ch(['add', 'sub'])}.sat.s32 {r32()}, {r32()}, {s32()};",
            lambda: f"mul.lo.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
            lambda: f"mul.hi.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
            lambda: f"mad.lo.s32 {r32()}, {r32()}, {s32()}, {s32()};",
            lambda: f"mad.hi.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()}, {s32()};",
            lambda: f"{ch(['mul24.lo', 'mul24.hi'])}.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
            lambda: f"mad24.lo.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()}, {s32()};",
            lambda: f"mul.wide.{ch(['s32', 'u32'])} {r64()}, {r32()}, {s32()};",
            lambda: f"mad.wide.{ch(['s32', 'u32'])} {r64()}, {r32()}, {s32()}, {s64()};",
            lambda: f"{ch(['add', 'sub'])}.{ch(['s64', 'u64'])} {r64()}, {s64()}, {s64()};",
            lambda: f"mul.lo.s64 {r64()}, {r64()}, {s64()};",
            lambda: f"mul.hi.{ch(['s64', 'u64'])} {r64()}, {r64()}, {r64()};",
            lambda: f"mad.lo.s64 {r64()}, {r64()}, {s64()}, {s64()};",
            lambda: (lambda k: f"neg.{self.SW[k]} {self.reg(k)}, {self.reg(k)};")(ch(['h', 'r', 'd'])),
            lambda: (lambda k: f"abs.{self.SW[k]} {self.reg(k)}, {self.reg(k)};")(ch(['h', 'r', 'd'])),
            lambda: f"{ch(['min', 'max'])}.{ch(['s64', 'u64'])} {r64()}, {r64()}, {s64()};",
            lambda: f"{ch(['min', 'max'])}.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
            lambda: f"{ch(['min', 'max'])}.relu.s32 {r32()}, {r32()}, {s32()};",
        ]
        if "int16x2" in self.features:
            T += [
                lambda: f"{ch(['min', 'max'])}{ch(['', '.relu'])}.s16x2 {r32()}, {r32()}, {r32()};",
                lambda: f"{ch(['min', 'max'])}.u16x2 {r32()}, {r32()}, {r32()};",
            ]
        T += [
            lambda: f"{ch(['shl.b64', 'shr.u64', 'shr.s64'])} {r64()}, {r64()}, {sh()};",
            lambda: f"{ch(['shl.b32', 'shr.u32', 'shr.s32'])} {r32()}, {r32()}, {sh()};",
            lambda: f"shf.{ch(['l', 'r'])}.{ch(['wrap', 'clamp'])}.b32 {r32()}, {r32()}, {r32()}, {sh()};",
            lambda: f"{ch(['and', 'or', 'xor'])}.b64 {r64()}, {r64()}, {s64()};",
            lambda: f"{ch(['and', 'or', 'xor'])}.b32 {r32()}, {r32()}, {s32()};",
            lambda: f"{ch(['and', 'or', 'xor'])}.b16 {r16()}, {r16()}, {s16()};",
            lambda: (lambda k: f"not.{self.BW[k]} {self.reg(k)}, {self.reg(k)};")(ch(['h', 'r', 'd'])),
            lambda: f"cnot.{ch(['b32'])} {r32()}, {r32()};",
            lambda: f"lop3.b32 {r32()}, {r32()}, {s32()}, {r32()}, {R.randrange(256)};",
            lambda: f"brev.{ch(['b32', 'b64'])} " + "{0}, {1};",
            lambda: f"popc.b64 {r32()}, {r64()};",
            lambda: f"popc.b32 {r32()}, {r32()};",
            lambda: f"clz.b64 {r32()}, {r64()};",
            lambda: f"clz.b32 {r32()}, {r32()};",
            lambda: (lambda t: f"bfind.{t} {r32()}, {r64() if '64' in t else r32()};")(
                ch(['u64', 's64', 'shiftamt.u64', 'shiftamt.s64', 'u32', 's32', 'shiftamt.u32'])),
            lambda: f"bfe.{ch(['u64', 's64'])} {r64()}, {r64()}, {R.randrange(70)}, {R.randrange(70)};",
            lambda: f"bfe.{ch(['u32', 's32'])} {r32()}, {r32()}, {ch([r32(), str(R.randrange(40))])}, {ch([r32(), str(R.randrange(40))])};",
            lambda: f"bfi.b64 {r64()}, {r64()}, {r64()}, {R.randrange(70)}, {R.randrange(70)};",
            lambda: f"bfi.b32 {r32()}, {r32()}, {r32()}, {ch([r32(), str(R.randrange(40))])}, {ch([r32(), str(R.randrange(40))])};",
            lambda: f"bmsk.{ch(['clamp', 'wrap'])}.b32 {r32()}, {s32()}, {s32()};",
            lambda: f"szext.{ch(['clamp', 'wrap'])}.{ch(['s32', 'u32'])} {r32()}, {r32()}, {s32()};",
            lambda: f"prmt.b32{ch(['', '', '.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16'])} {r32()}, {r32()}, {r32()}, {s32()};",
            lambda: self.divrem(),
            lambda: f"setp.{C()}.s32 {rp()}, {s32()}, {s32()};",
            lambda: f"setp.{CU()}.u32 {rp()}, {s32()}, {s32()};",
            lambda: f"setp.{C()}.{ch(['and', 'or', 'xor'])}.{ch(['s64', 'u64'])} {pq()}, {r64()}, {s64()}, {np_()};",
            lambda: f"setp.{C()}.{ch(['s16', 'u16'])} {rp()}, {r16()}, {s16()};",
            lambda: f"set.{C()}.u32.s32 {r32()}, {r32()}, {s32()};",
            lambda: f"selp.b64 {r64()}, {s64()}, {s64()}, {np_()};",
            lambda: f"selp.b32 {r32()}, {s32()}, {s32()}, {np_()};",
            lambda: f"selp.b16 {r16()}, {s16()}, {s16()}, {np_()};",
            lambda: f"slct.{ch(['b32', 's32', 'u32'])}.s32 {r32()}, {s32()}, {s32()}, {r32()};",
            lambda: f"{ch(['and', 'or', 'xor'])}.pred {rp()}, {np_()}, {np_()};",
            lambda: f"not.pred {rp()}, {rp()};",
            lambda: f"{ch(['add', 'sub', 'mul.lo', 'min', 'max'])}.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()};",
            lambda: f"{ch(['shl.b16', 'shr.u16', 'shr.s16'])} {r16()}, {r16()}, {sh()};",
            lambda: f"mul.wide.{ch(['s16', 'u16'])} {r32()}, {r16()}, {s16()};",
            lambda: f"mul.hi.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()};",
            lambda: f"mad.lo.{ch(['s16', 'u16'])} {r16()}, {r16()}, {s16()}, {s16()};",
            lambda: f"sad.{ch(['s32', 'u32'])} {r32()}, {r32()}, {r32()}, {s32()};",
            lambda: f"sad.{ch(['s64', 'u64'])} {r64()}, {r64()}, {r64()}, {s64()};",
            lambda: f"mov.b64 {r64()}, {self.i64()};",
            lambda: f"mov.b32 {r32()}, {self.i32()};",
            lambda: f"mov.b64 {r64()}, {{{r32()}, {r32()}}};",
            lambda: f"mov.b64 {{%t0, %t1}}, {r64()}; " + ch([f"mov.b32 {r32()}, %t0;", f"mov.b32 {r32()}, %t1;"]),
            lambda: f"mov.b32 {r32()}, {{{r16()}, {r16()}}};",
            lambda: self.cvt_int(),
            lambda: self.carry_chain(),
            lambda: f"dp4a.{ch(['u32', 's32'])}.{ch(['u32', 's32'])} {r32()}, {r32()}, {r32()}, {s32()};",
            lambda: f"dp2a.{ch(['lo', 'hi'])}.{ch(['u32', 's32'])}.{ch(['u32', 's32'])} {r32()}, {r32()}, {r32()}, {s32()};",
        ]
        s = ch(T)()
        if s.startswith("brev"):
            k = "r" if "b32" in s else "d"
            s = s.format(self.reg(k), self.reg(k))
        return s

    def divrem(self):
        R, ch = self.R, self.R.choice
        op = ch(["div", "rem"])
        w = ch(["16", "32", "64"])
        k = {"16": "h", "32": "r", "64": "d"}[w]
        sg = ch(["s", "u"])
        t = "%tn" + w
        # The divisor is made non-zero (unsigned: | 1) and, for signed types, positive and
        # non-zero (& max, | 1): PTX leaves x/0 and INT_MIN/-1 unspecified.
        mask = {"16": "0x7fff", "32": "0x7fffffff", "64": "0x7fffffffffffffff"}[w]
        pre = f"or.b{w} {t}, {self.reg(k)}, 1; " if sg == "u" else \
            f"and.b{w} {t}, {self.reg(k)}, {mask}; or.b{w} {t}, {t}, 1; "
        return pre + f"{op}.{sg}{w} {self.reg(k)}, {self.reg(k)}, {t};"

    def cvt_int(self):
        R, ch = self.R, self.R.choice
        kinds = [("u8", "h"), ("s8", "h"), ("u16", "h"), ("s16", "h"), ("u32", "r"), ("s32", "r"),
                 ("u64", "d"), ("s64", "d"), ("u8", "r"), ("s8", "r"), ("u16", "r"), ("s16", "r"),
                 ("u8", "d"), ("s16", "d"), ("s32", "d")]
        (dt, dk), (st, sk) = ch(kinds), ch(kinds)
        # The register must be at least as wide as the type (8-bit types live in 16-bit or
        # wider registers); a destination narrower than the source register truncates.
        dn, sn = int(dt[1:]), int(st[1:])
        # ptxas accepts .sat only where the conversion can saturate.
        can_sat = dn < sn or (dt[0] != st[0] and not (dt[0] == "s" and dn > sn))
        sat = ".sat" if R.random() < 0.3 and can_sat else ""
        return f"cvt{sat}.{dt}.{st} {self.reg(dk)}, {self.reg(sk)};"

    def carry_chain(self):
        R, ch = self.R, self.R.choice
        w = ch(["32", "64"])
        k = "r" if w == "32" else "d"
        s = self.s32 if w == "32" else self.s64
        first = ch(["add.cc", "sub.cc", "mad.lo.cc", "mad.hi.cc"])
        kind = "sub" if first == "sub.cc" else ("add" if first == "add.cc" else "mad")
        lines = []
        if kind == "mad":
            lines.append(f"{first}.u{w} {self.reg(k)}, {self.reg(k)}, {s()}, {s()};")
        else:
            lines.append(f"{first}.u{w} {self.reg(k)}, {self.reg(k)}, {s()};")
        for _ in range(R.randrange(0, 3)):
            g = (f"@{self.np_()} " if R.random() < 0.2 else "")
            if kind == "sub":
                lines.append(g + f"subc.cc.u{w} {self.reg(k)}, {self.reg(k)}, {s()};")
            elif kind == "mad":
                lines.append(g + f"madc.{ch(['lo', 'hi'])}.cc.u{w} {self.reg(k)}, {self.reg(k)}, {s()}, {s()};")
            else:
                lines.append(g + f"addc.cc.u{w} {self.reg(k)}, {self.reg(k)}, {s()};")
        last = {"sub": "subc", "add": "addc", "mad": "addc"}[kind]
        w2 = ch(["32", "64"])
        k2 = "r" if w2 == "32" else "d"
        s2 = self.s32 if w2 == "32" else self.s64
        lines.append(f"{last}.u{w2} {self.reg(k2)}, {s2()}, {s2()};")
        return " ".join(lines)

    def float_inst(self):
        R, ch = self.R, self.R.choice
        f, fd, x, y, rp = (lambda: self.reg("f")), (lambda: self.reg("fd")), (lambda: self.reg("x")), (lambda: self.reg("y")), (lambda: self.reg("p"))
        sf, sfd = self.sf, self.sfd
        FC = lambda: ch(["lt", "le", "gt", "ge", "eq", "ne", "equ", "neu", "ltu", "geu", "num", "nan"])
        T = [
            lambda: f"{ch(['add', 'sub', 'mul'])}.rn.f32 {f()}, {sf()}, {sf()};",
            lambda: f"fma.rn.f32 {f()}, {sf()}, {sf()}, {sf()};",
            lambda: f"{ch(['add', 'sub', 'mul'])}.{ch(['rn', 'rz', 'rm', 'rp'])}.f32 {f()}, {f()}, {sf()};",
            lambda: f"{ch(['min', 'max'])}.f32 {f()}, {f()}, {sf()};",
            lambda: f"{ch(['add', 'mul'])}.rn{ch(['.sat', '.ftz', '.ftz.sat'])}.f32 {f()}, {f()}, {sf()};",
            lambda: f"fma.rn{ch(['.sat', '.ftz'])}.f32 {f()}, {f()}, {sf()}, {sf()};",
            lambda: f"testp.{ch(['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'])}.f32 {rp()}, {f()};",
            lambda: f"copysign.f32 {f()}, {f()}, {f()};",
            lambda: f"{ch(['abs', 'neg'])}.f32 {f()}, {f()};",
            lambda: f"div.rn.f32 {f()}, {f()}, {sf()};",
            lambda: f"sqrt.rn.f32 {f()}, {f()};",
            lambda: f"setp.{FC()}.f32 {rp()}, {f()}, {sf()};",
            lambda: f"selp.f32 {f()}, {sf()}, {sf()}, {self.np_()};",
            lambda: f"{ch(['add', 'sub', 'mul'])}.rn.f64 {fd()}, {sfd()}, {sfd()};",
            lambda: f"fma.rn.f64 {fd()}, {sfd()}, {sfd()}, {sfd()};",
            lambda: f"{ch(['min', 'max'])}.f64 {fd()}, {fd()}, {sfd()};",
            lambda: f"{ch(['abs', 'neg'])}.f64 {fd()}, {fd()};",
            lambda: f"div.rn.f64 {fd()}, {fd()}, {sfd()};",
            lambda: f"setp.{FC()}.f64 {rp()}, {fd()}, {sfd()};",
            lambda: f"cvt.f64.f32 {fd()}, {f()};",
            lambda: f"cvt.rn.f32.f64 {f()}, {fd()};",
            lambda: f"cvt.{ch(['rn', 'rz', 'rm', 'rp'])}.f32.{ch(['s32', 'u32'])} {f()}, {self.reg('r')};",
            lambda: f"cvt.rn.f64.{ch(['s32', 'u32'])} {fd()}, {self.reg('r')};",
            lambda: f"cvt.rn.f64.{ch(['s64', 'u64'])} {fd()}, {self.reg('d')};",
            lambda: f"cvt.{ch(['rni', 'rzi', 'rmi', 'rpi'])}.{ch(['s32', 'u32'])}.f32 {self.reg('r')}, {f()};",
            lambda: f"cvt.{ch(['rni', 'rzi'])}.{ch(['s32', 'u32'])}.f64 {self.reg('r')}, {fd()};",
            lambda: f"cvt.{ch(['rni', 'rzi'])}.{ch(['s64', 'u64'])}.f64 {self.reg('d')}, {fd()};",
            lambda: f"cvt.{ch(['rni', 'rzi'])}.{ch(['s16', 'u16'])}.f32 {self.reg('h')}, {f()};",
            lambda: f"cvt.{ch(['rni', 'rzi', 'rmi', 'rpi'])}.f32.f32 {f()}, {f()};",
            lambda: f"{ch(['add', 'sub', 'mul'])}.rn.f16 {x()}, {x()}, {x()};",
            lambda: f"fma.rn.f16 {x()}, {x()}, {x()}, {x()};",
            lambda: f"{ch(['min', 'max'])}.f16 {x()}, {x()}, {x()};",
            lambda: f"{ch(['neg', 'abs'])}.f16 {x()}, {x()};",
            lambda: f"cvt.rn.f16.f32 {x()}, {f()};",
            lambda: f"cvt.f32.f16 {f()}, {x()};",
            lambda: f"setp.{ch(['lt', 'le', 'eq', 'ne', 'gtu'])}.f16 {rp()}, {x()}, {x()};",
            lambda: f"{ch(['add', 'sub', 'mul'])}.rn.f16x2 {y()}, {y()}, {y()};",
            lambda: f"fma.rn.f16x2 {y()}, {y()}, {y()}, {y()};",
            lambda: f"{ch(['min', 'max'])}.f16x2 {y()}, {y()}, {y()};",
            lambda: f"mov.b32 {y()}, {{{x()}, {x()}}};",
            lambda: f"mov.b32 {{%tx0, %tx1}}, {y()}; mov.b16 {x()}, {ch(['%tx0', '%tx1'])};",
        ]
        return ch(T)()

    # ---- memory ---------------------------------------------------------------------------
    def mem_inst(self):
        R, ch = self.R, self.R.choice
        opts = []
        # Input buffer: any word of it (the index is masked to the buffer).
        total_in = UNIFORM_IN + PER_THREAD_IN * self.nthreads
        opts.append(lambda: (f"rem.u32 %ta, {self.reg('r')}, {total_in}; mul.wide.u32 %ea, %ta, 4; "
                             f"add.u64 %ea, %in, %ea; " +
                             ch([f"ld.global.u32 {self.reg('r')}, [%ea];",
                                 f"ld.global.s8 {self.reg('h')}, [%ea+{R.randrange(4)}];",
                                 f"ld.global.u8 {self.reg('r')}, [%ea+{R.randrange(4)}];",
                                 f"ld.global.s16 {self.reg('r')}, [%ea+{ch([0, 2])}];",
                                 f"ld.global.u16 {self.reg('h')}, [%ea+{ch([0, 2])}];"])))
        # Scratch window of this thread in the output buffer.
        opts.append(lambda: (f"and.b32 %ta, {self.reg('r')}, {SCRATCH - 1}; mul.wide.u32 %ea, %ta, 8; "
                             f"add.u64 %ea, %scr, %ea; " +
                             ch([f"st.global.u64 [%ea], {self.reg('d')};",
                                 f"st.global.u32 [%ea+{ch([0, 4])}], {self.reg('r')};",
                                 f"st.global.u8 [%ea+{R.randrange(8)}], {self.reg('h')};",
                                 f"st.global.u16 [%ea+{ch([0, 2, 4, 6])}], {self.reg('h')};",
                                 f"ld.global.u64 {self.reg('d')}, [%ea];",
                                 f"ld.global.s32 {self.reg('r')}, [%ea+{ch([0, 4])}];",
                                 f"ld.global.v2.u32 {{{self.reg('r')}, {self.reg('r')}}}, [%ea];",
                                 f"st.global.v2.u32 [%ea], {{{self.reg('r')}, {self.reg('r')}}};"])))
        if self.use_local:
            opts.append(lambda: (f"and.b32 %ta, {self.reg('r')}, {LOCAL_WORDS - 1}; mul.wide.u32 %ea, %ta, 4; "
                                 f"mov.u64 %eb, loc; add.u64 %ea, %eb, %ea; " +
                                 ch([f"st.local.u32 [%ea], {self.reg('r')};",
                                     f"ld.local.u32 {self.reg('r')}, [%ea];",
                                     f"st.local.u8 [%ea+{R.randrange(4)}], {self.reg('h')};",
                                     f"ld.local.s8 {self.reg('r')}, [%ea+{R.randrange(4)}];",
                                     f"ld.local.u16 {self.reg('h')}, [%ea+{ch([0, 2])}];"])))
            opts.append(lambda: (f"and.b32 %ta, {self.reg('r')}, {LOCAL_WORDS // 2 - 1}; mul.wide.u32 %ea, %ta, 8; "
                                 f"mov.u64 %eb, loc; add.u64 %ea, %eb, %ea; " +
                                 ch([f"st.local.u64 [%ea], {self.reg('d')};",
                                     f"ld.local.u64 {self.reg('d')}, [%ea];"])))
            opts.append(lambda: ch([f"ld.local.u32 {self.reg('r')}, [loc+{4 * R.randrange(LOCAL_WORDS)}];",
                                    f"st.local.u32 [loc+{4 * R.randrange(LOCAL_WORDS)}], {self.reg('r')};"]))
        if self.use_const:
            opts.append(lambda: (f"and.b32 %ta, {self.reg('r')}, {CONST_WORDS - 1}; mul.wide.u32 %ea, %ta, 4; "
                                 f"mov.u64 %eb, ctab; add.u64 %ea, %eb, %ea; ld.const.u32 {self.reg('r')}, [%ea];"))
            opts.append(lambda: f"ld.const.u32 {self.reg('r')}, [ctab+{4 * R.randrange(CONST_WORDS)}];")
        if self.use_atom:
            # Global counters: order-independent operations, result register unused or the
            # counter read back never (the buffer is an output).
            def gatom():
                slot = R.randrange(len(self.ATOM_OPS))
                op, t = self.ATOM_OPS[slot]
                v = self.reg("d") if t.endswith("64") else self.reg("r")
                if op == "inc":
                    v = "1000000"  # large wrap bound: inc by 1 per thread stays order independent
                if R.random() < 0.5:
                    return f"red.global.{op}.{t} [%atm+{8 * slot}], {v};"
                return f"atom.global.{op}.{t} %tj{'64' if t.endswith('64') else ''}, [%atm+{8 * slot}], {v};"
            opts.append(gatom)
            # Own slot: exch / cas whose old value is deterministic.
            opts.append(lambda: ch([
                f"atom.global.exch.b32 {self.reg('r')}, [%own], {self.reg('r')};",
                f"atom.global.cas.b32 {self.reg('r')}, [%own], {self.reg('r')}, {self.reg('r')};",
                f"atom.global.add.u32 {self.reg('r')}, [%own], {self.s32()};",
                f"atom.global.exch.b64 {self.reg('d')}, [%own], {self.reg('d')};",
                f"atom.global.cas.b64 {self.reg('d')}, [%own], {self.reg('d')}, {self.reg('d')};"]))
        return ch(opts)()

    # ---- statements and regions -------------------------------------------------------------
    def simple(self):
        R = self.R
        x = R.random()
        if x < 0.55:
            s = self.int_inst()
        elif x < 0.8 and self.use_float:
            s = self.float_inst()
        elif x < 0.95:
            s = self.mem_inst()
        else:
            s = self.int_inst()
        # testp is never guarded: ptxas 13.0 ignores its guard at every -O level
        # (ptxas_miscompiles/testp_guard.ptx), which would make the reference itself wrong.
        if R.random() < 0.12 and not s.split()[0].endswith(".cc") and ";" == s.strip()[-1] and s.count(";") == 1 \
                and not s.startswith("testp"):
            s = f"@{self.np_()} " + s
        self.emit(s)

    def cond(self):
        """A predicate for a branch: from a pool value, %tix (divergent) or a uniform input."""
        R, ch = self.R, self.R.choice
        x = R.random()
        if x < 0.4:
            return self.np_()
        if x < 0.6:
            self.emit(f"setp.{ch(['lt', 'ge'])}.u32 %pc, %tix, {R.randrange(1, self.block)};")
        elif x < 0.75:
            self.emit(f"and.b32 %ta, %tix, {ch([1, 2, 4, 8, 16, 32])}; setp.{ch(['eq', 'ne'])}.u32 %pc, %ta, 0;")
        elif x < 0.85:
            self.emit(f"setp.{ch(['lt', 'ge', 'eq'])}.u32 %pc, %u0, {self.i32()};")  # uniform
        else:
            self.emit(f"setp.{ch(['lt', 'ge', 'ne'])}.s32 %pc, {self.reg('r')}, {self.s32()};")
        return ch(["", "!"]) + "%pc"

    def seq(self, n):
        for _ in range(n):
            self.stmt()

    def stmt(self):
        R = self.R
        x = R.random()
        budget_ok = self.depth < 3
        if not budget_ok or x < 0.62:
            self.simple()
            return
        x = R.random()
        if x < 0.25:
            self.if_else()
        elif x < 0.40:
            self.if_then()
        elif x < 0.62:
            self.loop()
        elif x < 0.72 and self.loops:
            self.break_continue()
        elif x < 0.82 and self.top_labels:
            # Unstructured: a forward jump out of whatever nests us to a later top-level label.
            p = self.cond()
            self.emit(f"@{p} bra {R.choice(self.top_labels)};")
        elif x < 0.90 and self.exits_allowed:
            self.early_exit()
        else:
            self.simple()

    def if_else(self):
        R = self.R
        p = self.cond()
        le, lend = self.label("else"), self.label("endif")
        self.emit(f"@{p} bra {le};")
        self.depth += 1
        self.seq(R.choice([0, 1, 2, 4]))
        self.depth -= 1
        self.emit(f"bra {lend};")
        self.lines.append(le + ":")
        self.depth += 1
        self.seq(R.choice([0, 1, 2, 4]))
        self.depth -= 1
        self.lines.append(lend + ":")

    def if_then(self):
        R = self.R
        p = self.cond()
        lend = self.label("skip")
        self.emit(f"@{p} bra {lend};")
        self.depth += 1
        self.seq(R.choice([0, 1, 3, 5]))
        self.depth -= 1
        self.lines.append(lend + ":")

    def loop(self):
        R, ch = self.R, self.R.choice
        i = self.loop_regs
        self.loop_regs += 1
        ctr, bnd = "%%l%d" % i, "%%lb%d" % i
        head, latch, out = self.label("loop"), self.label("latch"), self.label("endloop")
        form = ch(["counted", "data", "data_while", "counted_big", "data_big", "data_down"])
        step, test, start = 1, "setp.lt.u32 %%pl, %s, %s;" % (ctr, bnd), "mov.u32 %s, 0;" % ctr
        if form == "counted":
            self.emit(f"mov.u32 {bnd}, {R.randrange(1, 5)};")
        elif form == "counted_big":
            # A constant count past full unrolling's reach for most bodies, not always a
            # multiple of the factor (remainder copies), stepping by 1..3.
            step = ch([1, 1, 2, 3])
            self.emit(f"mov.u32 {bnd}, {R.randrange(5, 70)};")
        elif form in ("data_big", "data_down"):
            # A run-time count in 1..16 (the unrolled loop's main part and its remainder).
            self.emit(f"and.b32 {bnd}, {self.reg('r')}, 15;")
            self.emit(f"add.u32 {bnd}, {bnd}, 1;")
            if form == "data_big":
                step = ch([1, 1, 2, 3])
                if step == 1 and R.random() < 0.4:
                    test = "setp.ne.u32 %%pl, %s, %s;" % (ctr, bnd)
                elif R.random() < 0.3:
                    test = "setp.lt.s32 %%pl, %s, %s;" % (ctr, bnd)
            else:
                # Counting down from the bound to 0 (unsigned or signed compare, or !=).
                start = "mov.u32 %s, %s;" % (ctr, bnd)
                step = -1
                test = ch(["setp.gt.u32 %%pl, %s, 0;", "setp.gt.s32 %%pl, %s, 0;",
                           "setp.ne.u32 %%pl, %s, 0;"]) % ctr
        else:
            # Data-dependent bound in 0..4 (while form) or 1..4 (do-while form).
            self.emit(f"and.b32 {bnd}, {self.reg('r')}, 3;")
            if form == "data":
                self.emit(f"add.u32 {bnd}, {bnd}, 1;")
            else:
                self.emit(f"add.u32 {bnd}, {bnd}, {ch([0, 1])};")
        wide = "wide64" in self.features and R.random() < 0.5
        if wide:
            # --features wide64: the same loop counted by 64-bit registers (the bound
            # zero-extended), so the loop phases see 64-bit induction variables: register
            # pairs, carry-pair increments and ISETP .EX compare pairs.
            ctrw, bndw = "%%lw%d" % i, "%%lwb%d" % i
            self.emit(f"cvt.u64.u32 {bndw}, {bnd};")
            start = start.replace("mov.u32", "mov.u64").replace(ctr, ctrw).replace(bnd, bndw)
            test = (test.replace(".u32", ".u64").replace(".s32", ".s64")
                    .replace(ctr, ctrw).replace(bnd, bndw))
            ctr, bnd = ctrw, bndw
        self.emit(start)
        if form == "data_while":
            self.emit(f"setp.ge.{'u64' if wide else 'u32'} %pl, {ctr}, {bnd};")
            self.emit(f"@%pl bra {out};")
        head_at = len(self.lines)
        self.lines.append(head + ":")
        self.depth += 1
        self.loops.append((latch, out))
        self.seq(R.choice([1, 2, 3, 5]))
        self.loops.pop()
        self.depth -= 1
        self.lines.append(latch + ":")
        self.emit(f"add.s{64 if wide else 32} {ctr}, {ctr}, {step};")
        self.emit(test)
        self.emit(f"@%pl bra {head};")
        self.lines.append(out + ":")
        if "twins" in self.features and form != "data_while" and R.random() < 0.6:
            self.lines.insert(head_at + 1, "\t" * (2 + min(self.depth, 5)) + '.pragma "nounroll";')
            self.twin(ctr, start, step, test, wide)

    def twin(self, ctr, start, step, test, wide=False):
        # --features twins: a second loop right after the first with the same count (same
        # start, step, compare and bound, its own counter), both nounroll, so that
        # OriLoopFusion (phase 59, -knob PerformLoopFusion=1) has candidates to fuse or refuse.
        R = self.R
        i = self.loop_regs
        self.loop_regs += 1
        ctr2 = ("%%lw%d" if wide else "%%l%d") % i
        head, latch, out = self.label("loop"), self.label("latch"), self.label("endloop")
        self.emit(start.replace(ctr + ",", ctr2 + ","))
        self.lines.append(head + ":")
        self.emit('.pragma "nounroll";')
        self.depth += 1
        self.loops.append((latch, out))
        self.seq(R.choice([1, 1, 2, 3]))
        self.loops.pop()
        self.depth -= 1
        self.lines.append(latch + ":")
        self.emit(f"add.s{64 if wide else 32} {ctr2}, {ctr2}, {step};")
        self.emit(test.replace(ctr + ",", ctr2 + ","))
        self.emit(f"@%pl bra {head};")
        self.lines.append(out + ":")

    def break_continue(self):
        latch, out = self.loops[-1] if self.R.random() < 0.7 else self.R.choice(self.loops)
        p = self.cond()
        self.emit(f"@{p} bra {self.R.choice([latch, out])};")

    def early_exit(self):
        R = self.R
        if R.random() < 0.5:
            p = self.cond()
            self.emit(f"@{p} bra $L_end;")      # a branch to the last label
            return
        p = self.cond()
        skip = self.label("noexit")
        self.emit(f"@{p} bra {skip};")
        self.store_all()
        self.emit("ret;")
        self.lines.append(skip + ":")

    def shared_phase(self):
        R = self.R
        k = R.randrange(1, self.block)
        v = self.reg("r")
        self.emit(f"st.shared.u32 [%shp], {v};")
        if self.use_atom and R.random() < 0.6:
            op = R.choice(["add", "min", "max", "or", "xor", "and"])
            self.emit(f"red.shared.{op}.{'u32' if op in ('add', 'min', 'max') else 'b32'} [shc], {self.reg('r')};")
        self.emit("bar.sync 0;")
        self.emit(f"add.u32 %ta, %tix, {k}; rem.u32 %ta, %ta, {self.block}; mul.wide.u32 %ea, %ta, 4; "
                  f"mov.u64 %eb, sh; add.u64 %ea, %eb, %ea; ld.shared.u32 {self.reg('r')}, [%ea];")
        if self.use_atom:
            self.emit(f"ld.shared.u32 {self.reg('r')}, [shc];")
        self.emit("bar.sync 0;")

    def warp_phase(self):
        """Warp-synchronous operations with the full mask: only where every thread of the CTA
        runs (the top level of segment A), and launches are whole warps."""
        R, ch = self.R, self.R.choice
        k = ch(["shfl", "shfl", "vote", "vote_ballot", "redux", "match"])
        if k == "shfl":
            mode = ch(["idx", "bfly", "up", "down"])
            c = {"idx": "0x1f", "bfly": "0x1f", "up": "0", "down": "0x1f"}[mode]
            b = ch([str(R.randrange(32)), self.reg("r")])
            self.emit(f"shfl.sync.{mode}.b32 {self.reg('r')}{ch(['', '|' + self.reg('p')])}, {self.reg('r')}, {b}, {c}, 0xffffffff;")
        elif k == "vote":
            self.emit(f"vote.sync.{ch(['all', 'any', 'uni'])}.pred {self.reg('p')}, {self.np_()}, 0xffffffff;")
        elif k == "vote_ballot":
            self.emit(f"vote.sync.ballot.b32 {self.reg('r')}, {self.np_()}, 0xffffffff;")
        elif k == "redux":
            op, t = ch([("add", "u32"), ("min", "s32"), ("max", "u32"), ("and", "b32"), ("or", "b32"), ("xor", "b32")])
            self.emit(f"redux.sync.{op}.{t} {self.reg('r')}, {self.reg('r')}, 0xffffffff;")
        else:
            self.emit(f"match.any.sync.b32 {self.reg('r')}, {self.reg('r')}, 0xffffffff;")

    # ---- whole program ------------------------------------------------------------------------
    def slot_name(self, k, i):
        return "%%%s%d" % (k, i)

    def store_all(self):
        for j, (k, i) in enumerate(self.slots):
            off = 8 * j
            v = self.slot_name(k, i)
            if k == "r":
                self.emit(f"st.global.u32 [%o+{off}], {v};")
            elif k == "d":
                self.emit(f"st.global.u64 [%o+{off}], {v};")
            elif k == "h":
                self.emit(f"st.global.u16 [%o+{off}], {v};")
            elif k == "p":
                self.emit(f"selp.u32 %ta, 1, 0, {v}; st.global.u32 [%o+{off}], %ta;")
            elif k == "f":
                self.emit(f"max.f32 %tf, {v}, 0fFF7FFFFF; min.f32 %tf, %tf, 0f7F7FFFFF; st.global.f32 [%o+{off}], %tf;")
            elif k == "fd":
                self.emit(f"max.f64 %tfd, {v}, 0dFFEFFFFFFFFFFFFF; min.f64 %tfd, %tfd, 0d7FEFFFFFFFFFFFFF; "
                          f"st.global.f64 [%o+{off}], %tfd;")
            elif k == "x":
                self.emit(f"cvt.f32.f16 %tf, {v}; max.f32 %tf, %tf, 0fFF7FFFFF; min.f32 %tf, %tf, 0f7F7FFFFF; "
                          f"st.global.f32 [%o+{off}], %tf;")
            elif k == "y":
                self.emit(f"mov.b32 {{%tx0, %tx1}}, {v}; cvt.f32.f16 %tf, %tx0; max.f32 %tf, %tf, 0fFF7FFFFF; "
                          f"min.f32 %tf, %tf, 0f7F7FFFFF; st.global.f32 [%o+{off}], %tf; cvt.f32.f16 %tf, %tx1; "
                          f"max.f32 %tf, %tf, 0fFF7FFFFF; min.f32 %tf, %tf, 0f7F7FFFFF; st.global.f32 [%o+{off + 4}], %tf;")

    def program(self):
        R = self.R
        body_lines_start = None
        # prologue
        e = self.emit
        e("ld.param.u64 %in, [pin]; ld.param.u64 %out, [pout]; ld.param.u64 %atm, [patom];")
        e("mov.u32 %tix, %tid.x; mov.u32 %ta, %ctaid.x; mov.u32 %tb, %ntid.x; mad.lo.u32 %gid, %ta, %tb, %tix;")
        e(f"mul.wide.u32 %ea, %gid, {self.out_slots * 8}; add.u64 %o, %out, %ea; add.u64 %scr, %o, {len(self.slots) * 8};")
        e(f"mul.wide.u32 %ea, %gid, 8; add.u64 %own, %atm, {8 * len(self.ATOM_OPS)}; add.u64 %own, %own, %ea;")
        e(f"mul.wide.u32 %ea, %gid, {PER_THREAD_IN * 4}; add.u64 %ip, %in, {UNIFORM_IN * 4}; add.u64 %ip, %ip, %ea;")
        e("ld.global.u32 %u0, [%in];")
        for i in range(N["r"]):
            if i < N["r"] // 2:
                src = R.choice([f"[%ip+{4 * i}]", "tid", f"[%ip+{4 * (i + 8)}]"])
            else:
                src = f"[%in+{4 * R.randrange(UNIFORM_IN)}]"
            if src == "tid":
                e(f"mul.lo.u32 %r{i}, %tix, {R.choice([1, 3, 0x10001, -1, 0x01010101])};")
            else:
                e(f"ld.global.u32 %r{i}, {src};")
        for i in range(N["d"]):
            src = f"[%ip+{8 * i}]" if i % 2 == 0 else f"[%in+{8 * R.randrange(UNIFORM_IN // 2)}]"
            e(f"ld.global.u64 %d{i}, {src};")
        for i in range(N["h"]):
            e(f"ld.global.u16 %h{i}, [%ip+{2 * R.randrange(2 * PER_THREAD_IN)}];")
        for i in range(N["p"]):
            e(f"and.b32 %ta, %r{R.randrange(N['r'])}, {1 << R.randrange(32)}; setp.ne.u32 %p{i}, %ta, 0;")
        if self.use_float:
            for i in range(N["f"]):
                e(f"and.b32 %ta, %r{R.randrange(N['r'])}, 0x3ff; sub.s32 %ta, %ta, 512; cvt.rn.f32.s32 %f{i}, %ta; "
                  f"mul.rn.f32 %f{i}, %f{i}, {R.choice(['0f3E800000', '0f3F800000', '0f40000000', '0f3D800000'])};")
            for i in range(N["fd"]):
                e(f"and.b32 %ta, %r{R.randrange(N['r'])}, 0xfff; sub.s32 %ta, %ta, 2048; cvt.rn.f64.s32 %fd{i}, %ta; "
                  f"mul.rn.f64 %fd{i}, %fd{i}, 0d3FD0000000000000;")
            for i in range(N["x"]):
                e(f"and.b32 %ta, %r{R.randrange(N['r'])}, 0xff; sub.s32 %ta, %ta, 128; cvt.rn.f32.s32 %tf, %ta; "
                  f"mul.rn.f32 %tf, %tf, 0f3E800000; cvt.rn.f16.f32 %x{i}, %tf;")
            for i in range(N["y"]):
                e(f"mov.b32 %y{i}, {{%x{R.randrange(N['x'])}, %x{R.randrange(N['x'])}}};")
        if self.use_local:
            for i in range(LOCAL_WORDS):
                e(f"st.local.u32 [loc+{4 * i}], %r{R.randrange(N['r'])};")
        if self.use_shared:
            e("mul.wide.u32 %ea, %tix, 4; mov.u64 %shp, sh; add.u64 %shp, %shp, %ea;")
            if self.use_atom:
                e("setp.eq.u32 %pc, %tix, 0;")
                e(f"@%pc st.shared.u32 [shc], {R.choice([0, 0xffffffff, 12345])};")
                e("bar.sync 0;")
        # Every temporary gets a value here too, so that no later deletion (reduce.py) can leave
        # a read of an unwritten register.
        e("mov.u32 %t0, 0; mov.u32 %t1, 0; mov.u32 %tj, 0; mov.u32 %tn32, 1; mov.u16 %tn16, 1; "
          "mov.u64 %tn64, 1; mov.u64 %tj64, 0; mov.u16 %tx0, 0; mov.u16 %tx1, 0; mov.f32 %tf, 0f00000000; "
          "mov.f64 %tfd, 0d0000000000000000; mov.u64 %eb, 0; setp.ne.u32 %pc, %tix, 0; setp.ne.u32 %pl, %tix, 0;")
        self.lines.append("// body")
        # segment A: every thread runs the barriers (no early exits, no gotos across them)
        nA = self.size // 3
        for _ in range(nA):
            if self.use_shared and R.random() < 0.15:
                self.shared_phase()
            elif self.use_warp and R.random() < 0.15:
                self.warp_phase()
            else:
                self.stmt()
        if self.use_shared:
            self.shared_phase()
        # segment B: everything
        self.exits_allowed = True
        nB = self.size - nA
        pending = [self.label("top") for _ in range(R.randrange(0, 4))]
        self.top_labels = list(pending)
        for j in range(nB):
            self.stmt()
            if pending and R.random() < 2.0 / nB:
                lab = pending.pop(0)
                self.top_labels.remove(lab)
                self.lines.append(lab + ":")
        for lab in pending:
            self.lines.append(lab + ":")
        self.lines.append("$L_end:")
        self.store_all()
        self.emit("ret;")

        decl = [
            f".reg .b32 %r<{N['r']}>;", f".reg .b64 %d<{N['d']}>;", f".reg .b16 %h<{N['h']}>;",
            f".reg .pred %p<{N['p']}>;", f".reg .f32 %f<{N['f']}>;", f".reg .f64 %fd<{N['fd']}>;",
            f".reg .b16 %x<{N['x']}>;", f".reg .b32 %y<{N['y']}>;",
            f".reg .b32 %l<{max(1, self.loop_regs)}>;", f".reg .b32 %lb<{max(1, self.loop_regs)}>;",
            f".reg .b64 %lw<{max(1, self.loop_regs)}>;", f".reg .b64 %lwb<{max(1, self.loop_regs)}>;",
            ".reg .b64 %in, %out, %atm, %o, %scr, %own, %ip, %ea, %eb, %shp, %tj64;",
            ".reg .b32 %tix, %gid, %ta, %tb, %u0, %t0, %t1, %tj, %tn32; .reg .b16 %tn16, %tx0, %tx1; .reg .b64 %tn64;",
            ".reg .f32 %tf; .reg .f64 %tfd; .reg .pred %pc, %pl;",
        ]
        if self.use_local:
            decl.append(f".local .align 8 .b32 loc[{LOCAL_WORDS}];")
        head = [".version 8.3", ".target sm_90", ".address_size 64", ""]
        if self.use_const:
            head.append(f".const .align 4 .b32 ctab[{CONST_WORDS}] = {{{', '.join(str(v) for v in self.ctab)}}};")
        if self.use_shared:
            head.append(f".shared .align 4 .b32 sh[{self.block}];")
            head.append(".shared .align 4 .b32 shc;")
        head += ["", ".visible .entry fz(.param .u64 pin, .param .u64 pout, .param .u64 patom)", "{"]
        return "\n".join(head + ["\t" + d for d in decl] + self.lines + ["}"]) + "\n"

    def desc(self, seed):
        atom_words = len(self.ATOM_OPS) + self.nthreads  # the counters, then one slot per thread (u64)
        return (f"# generated by tests/fuzz/gen.py seed {seed}\n"
                f"kernel fz\ngrid {self.grid}\nblock {self.block}\n"
                f"buffer in u32 {UNIFORM_IN + PER_THREAD_IN * self.nthreads} random seed={seed} full=1\n"
                f"buffer out u64 {self.out_slots * self.nthreads} zero\n"
                f"buffer atom u64 {atom_words} random seed={seed + 1} full=1\n"
                "param ptr in\nparam ptr out\nparam ptr atom\noutput out\noutput atom\n")


# Constructs ptxas accepts but ptxas-mini does not support yet (it rejects them with an error):
# generated only when asked for (--features), so that the default run measures miscompiles.
#   int16x2: min/max on .s16x2/.u16x2 (PTX 8.0) -- "Unknown modifier '.s16x2'"
#   twins: a loop followed by a second with the same trip count, both nounroll (candidates for
#     OriLoopFusion, phase 59: run with --mini-knob PerformLoopFusion=1)
#   wide64: half of the loops counted by 64-bit registers (64-bit induction variables for
#     OriLoopUnrolling and OriLoopFusion)
OPTIONAL_FEATURES = ("int16x2", "twins", "wide64")


def generate(seed, size=40, features=()):
    g = Gen(seed, size, features)
    return g.program(), g.desc(seed)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output")
    ap.add_argument("--desc")
    ap.add_argument("--size", type=int, default=40, help="statements at the top level")
    ap.add_argument("--features", default="", help="comma-separated: " + ", ".join(OPTIONAL_FEATURES))
    a = ap.parse_args()
    ptx, desc = generate(a.seed, a.size, [f for f in a.features.split(",") if f])
    if a.output:
        open(a.output, "w").write(ptx)
    else:
        sys.stdout.write(ptx)
    if a.desc:
        open(a.desc, "w").write(desc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
