#!/usr/bin/env python3
"""gen_float_kernels.py: writes the float/convert execution-test kernels (tests/exec/kernels/
float_*.ptx, convert_*.ptx, half_arith.ptx, math_mufu.ptx) and their descriptions. Each kernel
computes many PTX instructions per element (one output slot each, in four buffers by result
kind) on the inputs the description generates; the C++ references are in
runner/references_float.cpp, in the same item order. Run it from anywhere after changing the
item lists, then update the references to match:  python3 tests/exec/tools/gen_float_kernels.py
"""
import os
K = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kernels') + os.sep

KINDS = ['u32', 'f32', 'u64', 'f64']
def kernel(name, comment, intype, nsrc, items):
    size = {'f32': 4, 'f64': 8, 'u32': 4, 'u64': 8, 's32': 4, 's64': 8, 'b32': 4, 'b64': 8}
    L = ['// ' + c for c in comment.strip().split('\n')]
    L += ['.version 8.5', '.target sm_90', '.address_size 64', '']
    srcs = 'abc'[:nsrc]
    params = ', '.join([f'.param .u64 {name}_{s}' for s in srcs] + [f'.param .u64 {name}_o_{k}' for k in KINDS])
    L += [f'.visible .entry {name}({params})', '{']
    L += ['\t.reg .pred \t%p<4>;', '\t.reg .b16 \t%h<8>;', '\t.reg .b32 \t%r<16>;', '\t.reg .b64 \t%rd<40>;',
          '\t.reg .f32 \t%f<8>;', '\t.reg .f64 \t%fd<8>;', f'\t.reg .{intype} \t%a, %b, %c;']
    L += ['\tmov.u32 \t%r1, %tid.x;', '\tmov.u32 \t%r2, %ctaid.x;', '\tmov.u32 \t%r3, %ntid.x;',
          '\tmad.lo.s32 \t%r4, %r2, %r3, %r1;']
    sz = size[intype]
    for i, s in enumerate(srcs):
        L += [f'\tld.param.u64 \t%rd{i}, [{name}_{s}];', f'\tmul.wide.u32 \t%rd{i+4}, %r4, {sz};',
              f'\tadd.s64 \t%rd{i+8}, %rd{i}, %rd{i+4};', f'\tld.global.{intype} \t%{s}, [%rd{i+8}];']
    counts = {k: sum(1 for _, t in items if t == k) for k in KINDS}
    base = {}
    for j, k in enumerate(KINDS):
        if not counts[k]: continue
        w = 4 if k in ('u32', 'f32') else 8
        L += [f'\tld.param.u64 \t%rd{24+3*j}, [{name}_o_{k}];', f'\tmul.wide.u32 \t%rd{25+3*j}, %r4, {w*counts[k]};',
              f'\tadd.s64 \t%rd{26+3*j}, %rd{24+3*j}, %rd{25+3*j};']
        base[k] = 26 + 3 * j
    idx = {k: 0 for k in KINDS}
    for body, t in items:
        for line in body.split(';'):
            line = line.strip()
            if line: L.append('\t' + line + ';')
        w = 4 if t in ('u32', 'f32') else 8
        reg = '%r0' if w == 4 else '%rd20'
        L.append(f'\tst.global.b{8*w} \t[%rd{base[t]}+{w*idx[t]}], {reg};')
        idx[t] += 1
    L += ['\tret;', '}']
    return '\n'.join(L) + '\n', counts

def desc(name, intype, nsrc, n, counts, ref, seed=1, gen='bits', tol=None):
    bt = {'f32': 'f32', 'f64': 'f64', 'u32': 'u32', 'u64': 'u64', 's32': 'i32', 's64': 'i64', 'b32': 'u32', 'b64': 'u64'}[intype]
    D = [f'kernel {name}', f'grid {n // 128}', 'block 128']
    for i, s in enumerate('abc'[:nsrc]):
        D.append(f'buffer {s} {bt} {n} {gen} seed={seed + i}' if gen == 'bits' else f'buffer {s} {bt} {n} {gen[i]}')
    for k in KINDS:
        D.append(f'buffer o_{k} {k} {n * max(counts[k], 1)} zero')
    for s in 'abc'[:nsrc]:
        D.append(f'param ptr {s}')
    for k in KINDS:
        D.append(f'param ptr o_{k}')
    for k in KINDS:
        if counts[k]:
            D.append(f'output o_{k}' + (' exact' if k[0] == 'f' and tol is None else (f' tol={tol}' if k[0] == 'f' else '')))
    D.append(f'reference {ref}')
    return '\n'.join(D) + '\n'

#!/usr/bin/env python3
def write(name, comment, intype, nsrc, items, ref, gens, n=4096, tol=None, extra_comment=''):
    ptx, counts = kernel(name, comment, intype, nsrc, items)
    open(K + name + '.ptx', 'w').write(ptx)
    bt = {'f32': 'f32', 'f64': 'f64', 'u32': 'u32', 'u64': 'u64', 's32': 'i32', 's64': 'i64', 'b32': 'u32', 'b64': 'u64'}[intype]
    D = ['# ' + l for l in (extra_comment or comment).strip().split('\n')]
    D += [f'kernel {name}', f'grid {n // 128}', 'block 128']
    for i, s in enumerate('abc'[:nsrc]):
        D.append(f'buffer {s} {bt} {n} {gens[i]}')
    for k in KINDS:
        D.append(f'buffer o_{k} {k} {n * max(counts[k], 1)} zero')
    for s in 'abc'[:nsrc]:
        D.append(f'param ptr {s}')
    for k in KINDS:
        D.append(f'param ptr o_{k}')
    for k in KINDS:
        if counts[k]:
            if k[0] == 'f':
                D.append(f'output o_{k} ' + ('exact' if tol is None else f'tol={tol}'))
            else:
                D.append(f'output o_{k}')
    D.append(f'reference {ref}')
    open(K + name + '.desc', 'w').write('\n'.join(D) + '\n')
    print(name, counts)

f32 = lambda ins: (f'{ins.replace("D", "%f1")}; mov.b32 %r0, %f1', 'f32')
f64 = lambda ins: (f'{ins.replace("D", "%fd1")}; mov.b64 %rd20, %fd1', 'f64')

# ---- IEEE division, reciprocal, square root: f32 --------------------------------------------
items = []
for m in ['rn', 'rz', 'rm', 'rp', 'rn.ftz', 'rz.ftz', 'rp.ftz']:
    items.append(f32(f'div.{m}.f32 D, %a, %b'))
for m in ['rn', 'rz', 'rm', 'rp', 'rn.ftz', 'rm.ftz']:
    items.append(f32(f'rcp.{m}.f32 D, %b'))
for m in ['rn', 'rz', 'rm', 'rp', 'rn.ftz']:
    items.append(f32(f'sqrt.{m}.f32 D, %a'))
cm = '''IEEE-rounded f32 division, reciprocal and square root in every rounding mode, with and
without .ftz, on raw bit patterns (subnormals, infinities, NaNs, signed zeros, the extremes):
every result must be the correctly rounded one, bit for bit (the fast paths and the slow block).'''
write('float_ieee32', cm, 'f32', 2, items, 'float_ieee32', ['bits seed=101', 'bits seed=102'])
write('float_ieee32_tiny', cm + '\nQuotients near the subnormal and overflow thresholds (exponent fields chosen).', 'f32', 2, items,
      'float_ieee32', ['bits seed=103 exp=0:40', 'bits seed=104 exp=100:160'])
# ---- f64 --------------------------------------------------------------------------------------
items = []
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f64(f'div.{m}.f64 D, %a, %b'))
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f64(f'rcp.{m}.f64 D, %b'))
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f64(f'sqrt.{m}.f64 D, %a'))
cm64 = cm.replace('f32', 'f64').replace(', with and\nwithout .ftz,', '')
write('float_ieee64', cm64, 'f64', 2, items, 'float_ieee64', ['bits seed=111', 'bits seed=112'])
write('float_ieee64_tiny', cm64 + '\nQuotients in and near the subnormal range, including exact midpoints (b = 2, 0.5).', 'f64', 2, items,
      'float_ieee64', ['bits seed=113 exp=0:80', 'bits seed=114 exp=1000:1060'])
write('float_ieee64_mid', cm64 + '\nSubnormal a divided by 2: exact midpoints of the subnormal grid (ties to even).', 'f64', 2, items,
      'float_ieee64', ['bits seed=115 exp=0:2', 'const value=2'])

u32 = lambda body: (body, 'u32')
def u32f(ins):  # a 32-bit integer result register %r0
    return (ins, 'u32')
def u64i(ins):
    return (ins, 'u64')

# ---- f32 arithmetic in every mode -----------------------------------------------------------
items = []
for m in ['rn', 'rz', 'rm', 'rp', 'ftz', 'sat', 'rz.ftz.sat']:
    items.append(f32(f'add.{m}.f32 D, %a, %b'))
items.append(f32('sub.rm.f32 D, %a, %b'))
for m in ['rn', 'rz', 'rm', 'rp', 'ftz', 'sat']:
    items.append(f32(f'mul.{m}.f32 D, %a, %b'))
for m in ['rn', 'rz', 'rm', 'rp', 'rn.ftz', 'rn.sat', 'rp.ftz.sat']:
    items.append(f32(f'fma.{m}.f32 D, %a, %b, %c'))
items.append(f32('mad.rm.f32 D, %a, %b, %c'))
for ins in ['neg.f32 D, %a', 'neg.ftz.f32 D, %a', 'abs.f32 D, %a', 'abs.ftz.f32 D, %a', 'copysign.f32 D, %a, %b',
            'min.f32 D, %a, %b', 'max.f32 D, %a, %b', 'min.ftz.f32 D, %a, %b', 'max.NaN.f32 D, %a, %b',
            'min.xorsign.abs.f32 D, %a, %b', 'max.ftz.NaN.xorsign.abs.f32 D, %a, %b',
            'cvt.rni.f32.f32 D, %a', 'cvt.rzi.f32.f32 D, %a', 'cvt.rmi.f32.f32 D, %a', 'cvt.rpi.ftz.f32.f32 D, %a',
            'cvt.sat.f32.f32 D, %a', 'cvt.ftz.f32.f32 D, %a', 'cvt.rzi.sat.f32.f32 D, %a']:
    items.append(f32(ins))
cm = '''f32 add/sub/mul/fma in every rounding mode with .ftz and .sat, neg/abs/copysign, min/max
(with .ftz, .NaN, .xorsign.abs) and the f32->f32 cvt forms, on raw bit patterns, bit for bit.'''
write('float_round32', cm, 'f32', 3, items, 'float_round32', ['bits seed=121', 'bits seed=122', 'bits seed=123'])
# ---- f64 -----------------------------------------------------------------------------------
items = []
for op in ['add', 'sub', 'mul']:
    for m in ['rn', 'rz', 'rm', 'rp']:
        items.append(f64(f'{op}.{m}.f64 D, %a, %b'))
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f64(f'fma.{m}.f64 D, %a, %b, %c'))
for ins in ['neg.f64 D, %a', 'abs.f64 D, %a', 'copysign.f64 D, %a, %b', 'min.f64 D, %a, %b', 'max.f64 D, %a, %b',
            'cvt.rni.f64.f64 D, %a', 'cvt.rzi.f64.f64 D, %a', 'cvt.rmi.f64.f64 D, %a', 'cvt.rpi.f64.f64 D, %a',
            'cvt.sat.f64.f64 D, %a', 'add.f64 D, %a, 0d3FF8000000000000', 'mul.rz.f64 D, %a, 0d4000000000000000',
            'fma.rn.f64 D, %a, %b, 0dBFF0000000000000']:
    items.append(f64(ins))
cm = '''f64 add/sub/mul/fma in every rounding mode, neg/abs/copysign/min/max, f64->f64 cvt (integral
rounding, .sat) and f64 immediates, on raw bit patterns, bit for bit.'''
write('float_round64', cm, 'f64', 3, items, 'float_round64', ['bits seed=131', 'bits seed=132', 'bits seed=133'])

# ---- comparisons: one bit per predicate ----------------------------------------------------
CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan']
def bits_of(preds):
    """preds: list of ptx lines each writing %p1; packs them into %r0, bit k for line k."""
    body = ['mov.u32 %r0, 0']
    for k, line in enumerate(preds):
        body += [line, f'selp.u32 %r5, {1 << k}, 0, %p1', 'or.b32 %r0, %r0, %r5']
    return ';'.join(body)
def cmp_items(t):
    it = [u32(bits_of([f'setp.{c}.{t} %p1, %a, %b' for c in CMPS]))]
    extra = [f'setp.lt.{t} %p2, %a, %c; setp.gt.and.{t} %p1, %a, %b, %p2',
             f'setp.lt.{t} %p2, %a, %c; setp.leu.or.{t} %p1, %a, %b, !%p2',
             f'setp.lt.{t} %p2, %a, %c; setp.ne.xor.{t} %p1|%p3, %a, %b, %p2',
             f'setp.lt.{t} %p2, %a, %c; setp.ne.xor.{t} %p3|%p1, %a, %b, %p2',
             f'setp.lt.{t} %p1, %a, %c; setp.ge.and.{t} %p1|%p3, %a, %b, %p1']
    if t == 'f32':
        extra += ['setp.lt.ftz.f32 %p1, %a, %b', 'setp.equ.ftz.f32 %p1, %a, %b']
    for o in ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal']:
        extra.append(f'testp.{o}.{t} %p1, %a')
    it.append(u32(bits_of(extra)))
    it.append(u32(f'set.gt.u32.{t} %r0, %a, %b'))
    it.append(u32(f'setp.lt.{t} %p2, %a, %c; set.leu.or.s32.{t} %r0, %a, %b, %p2'))
    it.append(f32(f'set.num.f32.{t} D, %a, %b'))
    return it
cm = '''setp with every comparison (ordered and unordered), the .and/.or/.xor combine with a
predicate, two destinations p|q, .ftz, testp, and set with integer and float results, on raw
bit patterns (NaNs, infinities, signed zeros, subnormals).'''
write('float_cmp32', cm, 'f32', 3, cmp_items('f32'), 'float_cmp32', ['bits seed=141', 'bits seed=142', 'bits seed=143'])
write('float_cmp64', cm.replace('.ftz, ', ''), 'f64', 3, cmp_items('f64'), 'float_cmp64', ['bits seed=151', 'bits seed=152', 'bits seed=153'])

# ---- conversions ---------------------------------------------------------------------------
def zext16(ins):  # a 16-bit result, zero-extended into %r0
    return (ins.replace('D', '%h1') + '; cvt.u32.u16 %r0, %h1', 'u32')
def zext8(ins):
    return (ins.replace('D', '%h1') + '; cvt.u32.u8 %r0, %h1', 'u32')
def i32(ins):
    return (ins.replace('D', '%r0'), 'u32')
def i64(ins):
    return (ins.replace('D', '%rd20'), 'u64')
items = []
for m in ['rni', 'rzi', 'rmi', 'rpi']:
    items.append(i32(f'cvt.{m}.s32.f32 D, %a'))
items += [i32('cvt.rzi.u32.f32 D, %a'), i32('cvt.rni.ftz.s32.f32 D, %a'), i32('cvt.rmi.ftz.sat.u32.f32 D, %a'),
          i64('cvt.rmi.s64.f32 D, %a'), i64('cvt.rpi.u64.f32 D, %a'), i64('cvt.rzi.ftz.s64.f32 D, %a'),
          zext16('cvt.rzi.s16.f32 D, %a'), zext16('cvt.rni.u16.f32 D, %a'), zext8('cvt.rni.u8.f32 D, %a'),
          zext8('cvt.rmi.s8.f32 D, %a')]
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(zext16(f'cvt.{m}.f16.f32 D, %a'))
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(zext16(f'cvt.{m}.bf16.f32 D, %a'))
items += [zext16('cvt.rn.sat.f16.f32 D, %a'), zext16('cvt.rn.relu.f16.f32 D, %a'), zext16('cvt.rz.satfinite.bf16.f32 D, %a'),
          i32('cvt.rn.f16x2.f32 D, %a, %b'), i32('cvt.rz.relu.bf16x2.f32 D, %a, %b'), i32('cvt.rn.satfinite.f16x2.f32 D, %a, %b'),
          i32('setp.num.f32 %p1, %a, %a; selp.f32 %f2, %a, 0f00000000, %p1; cvt.rna.tf32.f32 D, %f2'), i32('cvt.rn.tf32.f32 D, %a'), i32('cvt.rz.tf32.f32 D, %a'),
          f64('cvt.f64.f32 D, %a'), f64('cvt.ftz.f64.f32 D, %a'), f64('cvt.sat.f64.f32 D, %a')]
cm = '''cvt from f32 to every integer width (each integer rounding, .ftz, saturation, NaN to 0), to
f16/bf16 in every rounding mode (.sat, .relu, .satfinite), to packed f16x2/bf16x2, tf32 and f64,
on raw bit patterns; 8/16-bit results are compared zero-extended.'''
write('convert_f32', cm, 'f32', 2, items, 'convert_f32', ['bits seed=161', 'bits seed=162'])

items = []
items += [i32('cvt.rzi.s32.f64 D, %a'), i32('cvt.rni.u32.f64 D, %a'), i64('cvt.rmi.s64.f64 D, %a'), i64('cvt.rpi.u64.f64 D, %a'),
          zext16('cvt.rzi.s16.f64 D, %a'), zext8('cvt.rpi.u8.f64 D, %a')]
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f32(f'cvt.{m}.f32.f64 D, %a'))
items += [f32('cvt.rn.ftz.f32.f64 D, %a'), f32('cvt.rz.sat.f32.f64 D, %a'), f32('cvt.rm.ftz.sat.f32.f64 D, %a'),
          zext16('cvt.rn.f16.f64 D, %a'), zext16('cvt.rp.f16.f64 D, %a'), zext16('cvt.rn.bf16.f64 D, %a'), zext16('cvt.rz.bf16.f64 D, %a')]
cm = '''cvt from f64 to integers (each integer rounding, saturation, NaN to 0), to f32 in every
rounding mode (.ftz, .sat) and to f16/bf16, on raw bit patterns.'''
write('convert_f64', cm, 'f64', 1, items, 'convert_f64', ['bits seed=171'])

items = []
items += [i32('cvt.u32.u64 D, %a'), i32('cvt.sat.s32.s64 D, %a'), i32('cvt.sat.u32.s64 D, %a'), i32('cvt.sat.s32.u64 D, %a'),
          zext16('cvt.sat.s16.u64 D, %a'), zext8('cvt.sat.u8.s64 D, %a'), i64('cvt.sat.u64.s64 D, %a'), i64('cvt.sat.s64.u64 D, %a'),
          i64('cvt.u32.u64 %r6, %a; cvt.s64.s32 D, %r6'), i64('cvt.u32.u64 %r6, %a; cvt.u64.u32 D, %r6'),
          i64('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.s64.s16 D, %h2'),
          i64('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.u64.u8 D, %h2'),
          i32('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.s32.s8 D, %h2'),
          i32('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.u32.u16 D, %h2'),
          zext8('cvt.u32.u64 %r6, %a; cvt.sat.s8.s32 D, %r6'), zext16('cvt.u32.u64 %r6, %a; cvt.sat.u16.s32 D, %r6'),
          i32('cvt.u32.u64 %r6, %a; cvt.sat.s32.u32 D, %r6'), i32('cvt.u32.u64 %r6, %a; cvt.sat.u32.s32 D, %r6'),
          zext8('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.sat.u8.s16 D, %h2'),
          zext16('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.sat.s16.u16 D, %h2')]
for m in ['rn', 'rz', 'rm', 'rp']:
    items.append(f32(f'cvt.u32.u64 %r6, %a; cvt.{m}.f32.s32 D, %r6'))
items += [f32('cvt.u32.u64 %r6, %a; cvt.rm.f32.u32 D, %r6'), f32('cvt.rp.f32.s64 D, %a'), f32('cvt.rz.f32.u64 D, %a'),
          f64('cvt.rn.f64.u64 D, %a'), f64('cvt.rm.f64.s64 D, %a'), f64('cvt.u32.u64 %r6, %a; cvt.rn.f64.s32 D, %r6'),
          f32('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.rn.f32.s16 D, %h2'),
          zext16('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.rz.f16.u8 D, %h2'),
          zext16('cvt.u32.u64 %r6, %a; cvt.rn.bf16.s32 D, %r6'), zext16('cvt.rn.f16.s64 D, %a'),
          zext16('cvt.u32.u64 %r6, %a; cvt.u16.u32 %h2, %r6; cvt.rp.bf16.u16 D, %h2'),
          f32('cvt.u32.u64 %r6, %a; cvt.rn.sat.f32.s32 D, %r6')]
cm = '''cvt between integer types (widening with sign or zero extension from 8/16-bit registers whose
upper bits are garbage, narrowing, every .sat clamp) and from integers to f32/f64/f16/bf16 in
every rounding mode, on raw 64-bit patterns (and their low parts).'''
write('convert_int', cm, 'u64', 1, items, 'convert_int', ['bits seed=181'])

items = []
items += [f32('cvt.u16.u32 %h2, %a; cvt.f32.f16 D, %h2'), f32('cvt.u16.u32 %h2, %a; cvt.f32.bf16 D, %h2'),
          f32('cvt.u16.u32 %h2, %a; cvt.ftz.f32.bf16 D, %h2'), f64('cvt.u16.u32 %h2, %a; cvt.f64.f16 D, %h2'),
          f64('cvt.u16.u32 %h2, %a; cvt.f64.bf16 D, %h2'), zext16('cvt.u16.u32 %h2, %a; cvt.rn.bf16.f16 D, %h2'),
          zext16('cvt.u16.u32 %h2, %a; cvt.rn.f16.bf16 D, %h2'), i32('cvt.u16.u32 %h2, %a; cvt.rzi.s32.f16 D, %h2'),
          i32('cvt.u16.u32 %h2, %a; cvt.rni.u32.bf16 D, %h2'), i64('cvt.u16.u32 %h2, %a; cvt.rmi.s64.f16 D, %h2'),
          zext16('cvt.u16.u32 %h2, %a; cvt.rpi.u16.f16 D, %h2'), zext16('cvt.u16.u32 %h2, %a; cvt.rni.sat.f16.f16 D, %h2') if False else zext16('cvt.u16.u32 %h2, %a; cvt.sat.f16.f16 D, %h2')]
cm = '''cvt from f16 and bf16 (the low half of a register with garbage above) to f32, f64, the other
half format and integers, on raw bit patterns.'''
write('convert_half', cm, 'u32', 1, items, 'convert_half', ['bits seed=191'])

# ---- half precision ------------------------------------------------------------------------
def canon(reg, inf):  # a NaN half in the low 16 bits of reg becomes 0x7fff (NaN payloads are unspecified)
    return (f'; and.b32 %r7, {reg}, 32767; setp.gt.u32 %p1, %r7, {inf}; selp.b32 {reg}, 32767, {reg}, %p1')
def h16(ins, bf=False):  # scalar f16/bf16 result zero-extended; sources are the low halves of %a/%b/%c
    pre = 'cvt.u16.u32 %h2, %a; cvt.u16.u32 %h3, %b; cvt.u16.u32 %h4, %c; '
    body = pre + ins.replace('D', '%h1').replace('A', '%h2').replace('B', '%h3').replace('C', '%h4') + '; cvt.u32.u16 %r0, %h1'
    return (body + canon('%r0', 0x7f80 if bf else 0x7c00), 'u32')
def x2(ins, bf=False):
    inf = 0x7f80 if bf else 0x7c00
    body = ins.replace('D', '%r8').replace('A', '%a').replace('B', '%b').replace('C', '%c')
    body += '; and.b32 %r9, %r8, 65535' + canon('%r9', inf) + '; shr.u32 %r10, %r8, 16' + canon('%r10', inf)
    body += '; shl.b32 %r10, %r10, 16; or.b32 %r0, %r9, %r10'
    return (body, 'u32')
items = []
for t, wrap in (('f16', h16), ('f16x2', x2)):
    for ins in ['add.rn.T D, A, B', 'sub.ftz.T D, A, B', 'mul.rn.sat.T D, A, B', 'fma.rn.T D, A, B, C',
                'fma.rn.ftz.sat.T D, A, B, C', 'neg.T D, A', 'abs.ftz.T D, A', 'min.T D, A, B', 'max.NaN.T D, A, B',
                'min.xorsign.abs.T D, A, B', 'max.ftz.T D, A, B']:
        items.append(wrap(ins.replace('T', t)))
# (bf16x2 add/sub are left out: ptxas selects HFMA2.MMA.BF16_V2 with bf16 immediates, which the
# sm_90 tables do not describe yet, so its run could not be decoded; the scalar forms use the same
# HADD2.BF16_V2 as ptxas-mini's packed ones.)
for t, wrap in (('bf16', h16), ('bf16x2', x2)):
    for ins in ['add.rn.T D, A, B', 'sub.rn.T D, A, B', 'mul.rn.T D, A, B', 'fma.rn.T D, A, B, C', 'neg.T D, A',
                'abs.T D, A', 'min.T D, A, B', 'max.NaN.T D, A, B']:
        if t == 'bf16x2' and ins.split('.')[0] in ('add', 'sub'):
            continue
        items.append(wrap(ins.replace('T', t), True))
cm = '''f16/bf16 arithmetic, scalar (the low half of a register with garbage above) and packed:
add/sub/mul/fma with .ftz and .sat, neg/abs, min/max (.NaN, .xorsign.abs), on raw bit patterns,
bit for bit (NaN results compared as NaN).'''
write('half_arith', cm, 'b32', 3, items, 'half_arith', ['bits seed=201', 'bits seed=202', 'bits seed=203'])

# ---- MUFU approximations -------------------------------------------------------------------
items = []
for o in ['ex2', 'lg2', 'sin', 'cos', 'rsqrt', 'sqrt', 'rcp']:
    src = '%c' if o in ('sin', 'cos') else '%a'
    items.append(f32(f'{o}.approx.f32 D, {src}'))
    items.append(f32(f'{o}.approx.ftz.f32 D, {src}'))
items += [f32('tanh.approx.f32 D, %a'), f32('div.approx.f32 D, %a, %b'), f32('div.approx.ftz.f32 D, %a, %b'),
          f32('div.full.f32 D, %a, %b'), f32('div.full.ftz.f32 D, %a, %b')]
cm = '''The .approx f32 functions (MUFU with ptxas's subnormal and range scaling) on values from tiny
to huge (sin/cos on [-100, 100], where the approximation is specified), compared with libm
within 1e-5 (relative above 1, absolute below), inside the documented PTX precision.'''
write('math_mufu', cm, 'f32', 3, items, 'math_mufu', ['bits seed=211 exp=60:190', 'bits seed=212 exp=60:190', 'random seed=213 lo=-100 hi=100'], tol=1e-5)

# ---- guarded expansions ------------------------------------------------------------------------
G = 'setp.lt.f32 %p2, %c, 0f00000000; '
items = [f32(G + 'mov.f32 D, %a; @%p2 ' + ins + '; @!%p2 add.f32 D, D, %b') for ins in
         ['div.rn.f32 D, %a, %b', 'div.rz.f32 D, %a, %b', 'sqrt.rn.f32 D, %a', 'rcp.rn.ftz.f32 D, %a',
          'rcp.rz.f32 D, %b', 'min.f32 D, %a, %b']]
items += [f64(G + 'cvt.f64.f32 %fd2, %a; cvt.f64.f32 %fd3, %b; mov.f64 D, %fd2; @%p2 ' + ins) for ins in
          ['div.rn.f64 D, %fd2, %fd3', 'sqrt.rm.f64 D, %fd2', 'rcp.rp.f64 D, %fd3', 'max.f64 D, %fd2, %fd3']]
cm = '''Guarded (@p / @!p) float instructions whose expansion has a slow block or many steps: the
instruction takes effect exactly where the guard holds (a = c < 0 ? op(a, b) : a + b, and the f64
forms on the converted values: c < 0 ? op : a).'''
write('float_guarded', cm, 'f32', 3, items, 'float_guarded', ['bits seed=221', 'bits seed=222', 'bits seed=223'])
