"""The PTX ISA 9.0 instruction set (chapter 9.7, "Instructions") as data, for probe.py.

One row per instruction form: F(section, family, template, **axes). The template is one PTX
instruction (or a few, when the form needs a set-up) with placeholders:
  {t} {u} {m} ...   the axis values of the row (every combination is one form)
  {d} {a} {b} {c}   a destination / sources of the row's type {t} (a register of its size;
                    a `:type` suffix names another type: {a:u32}, {d:b64})
  {p} {q}           predicates;  {A} a global address [%rd20];  {S} a shared address;
  {G} a generic address;  {L} a label;  {F} a device function.
Families, modifiers, types and state spaces follow the instruction descriptions of the public
PTX ISA 9.0 document ("Syntax" of each instruction); the forms listed are the ones the
document allows for the instruction, and ptxas 13.0 decides which of them sm_90 accepts (the
probe records a form it refuses as "not accepted by ptxas for sm_90"). The sm_90a
asynchronous families (wgmma, setmaxnreg, mbarrier, cp.async.bulk, tensormap) belong to the
Hopper issue; they are listed, marked OWNED.
"""

FORMS = []

INT = ['u16', 'u32', 'u64', 's16', 's32', 's64']
INT32 = ['u32', 's32']
FLT = ['f32', 'f64']
HALF = ['f16', 'f16x2', 'bf16', 'bf16x2']
BITS = ['b16', 'b32', 'b64']


def F(section, family, template, owned=False, **axes):
    FORMS.append(dict(section=section, family=family, template=template, axes=axes, owned=owned))


# 9.7.1 Integer arithmetic
S = 'Integer arithmetic'
F(S, 'add', 'add{m}.{t} {d}, {a}, {b};', m=[''], t=INT)
F(S, 'add', 'add.sat.s32 {d:s32}, {a:s32}, {b:s32};')
F(S, 'sub', 'sub.{t} {d}, {a}, {b};', t=INT)
F(S, 'sub', 'sub.sat.s32 {d:s32}, {a:s32}, {b:s32};')
F(S, 'mul', 'mul.{m}.{t} {d}, {a}, {b};', m=['lo', 'hi'], t=INT)
F(S, 'mul', 'mul.wide.{t} {d:w}, {a}, {b};', t=['u16', 'u32', 's16', 's32'])
F(S, 'mad', 'mad.{m}.{t} {d}, {a}, {b}, {c};', m=['lo', 'hi'], t=INT)
F(S, 'mad', 'mad.wide.{t} {d:w}, {a}, {b}, {c:w};', t=['u16', 'u32', 's16', 's32'])
F(S, 'mad', 'mad.hi.sat.s32 {d:s32}, {a:s32}, {b:s32}, {c:s32};')
F(S, 'mul24', 'mul24.{m}.{t} {d}, {a}, {b};', m=['lo', 'hi'], t=INT32)
F(S, 'mad24', 'mad24.{m}.{t} {d}, {a}, {b}, {c};', m=['lo', 'hi'], t=INT32)
F(S, 'sad', 'sad.{t} {d}, {a}, {b}, {c};', t=INT)
F(S, 'div', 'div.{t} {d}, {a}, {b};', t=INT)
F(S, 'rem', 'rem.{t} {d}, {a}, {b};', t=INT)
F(S, 'abs', 'abs.{t} {d}, {a};', t=['s16', 's32', 's64'])
F(S, 'neg', 'neg.{t} {d}, {a};', t=['s16', 's32', 's64'])
F(S, 'min', 'min.{t} {d}, {a}, {b};', t=INT)
F(S, 'min', 'min.relu.s32 {d:s32}, {a:s32}, {b:s32};')
F(S, 'min', 'min.{t} {d:b32}, {a:b32}, {b:b32};', t=['u16x2', 's16x2'])
F(S, 'max', 'max.{t} {d}, {a}, {b};', t=INT)
F(S, 'max', 'max.relu.s32 {d:s32}, {a:s32}, {b:s32};')
F(S, 'max', 'max.{t} {d:b32}, {a:b32}, {b:b32};', t=['u16x2', 's16x2'])
F(S, 'popc', 'popc.{t} {d:u32}, {a};', t=['b32', 'b64'])
F(S, 'clz', 'clz.{t} {d:u32}, {a};', t=['b32', 'b64'])
F(S, 'bfind', 'bfind{m}.{t} {d:u32}, {a};', m=['', '.shiftamt'], t=['u32', 'u64', 's32', 's64'])
F(S, 'fns', 'fns.b32 {d:b32}, {a:b32}, {b:u32}, {c:s32};')
F(S, 'brev', 'brev.{t} {d}, {a};', t=['b32', 'b64'])
F(S, 'bfe', 'bfe.{t} {d}, {a}, {b:u32}, {c:u32};', t=['u32', 'u64', 's32', 's64'])
F(S, 'bfi', 'bfi.{t} {d}, {a}, {b}, {c:u32}, {e:u32};', t=['b32', 'b64'])
F(S, 'szext', 'szext.{m}.{t} {d}, {a}, {b};', m=['clamp', 'wrap'], t=INT32)
F(S, 'bmsk', 'bmsk.{m}.b32 {d:b32}, {a:u32}, {b:u32};', m=['clamp', 'wrap'])
F(S, 'dp4a', 'dp4a.{t}.{u} {d:b32}, {a:b32}, {b:b32}, {c:b32};', t=INT32, u=INT32)
F(S, 'dp2a', 'dp2a.{m}.{t}.{u} {d:b32}, {a:b32}, {b:b32}, {c:b32};', m=['lo', 'hi'], t=INT32,
  u=INT32)

# 9.7.2 Extended-precision integer arithmetic
S = 'Extended-precision integer arithmetic'
F(S, 'add.cc', 'add.cc.{t} {d}, {a}, {b}; addc.{t} {c}, {a}, {b};', t=['u32', 's32', 'u64',
                                                                        's64'])
F(S, 'addc', 'add.cc.{t} {d}, {a}, {b}; addc.cc.{t} {c}, {a}, {b}; addc.{t} {e}, {a}, {b};',
  t=['u32', 's32', 'u64', 's64'])
F(S, 'sub.cc', 'sub.cc.{t} {d}, {a}, {b}; subc.{t} {c}, {a}, {b};', t=['u32', 's32', 'u64',
                                                                        's64'])
F(S, 'subc', 'sub.cc.{t} {d}, {a}, {b}; subc.cc.{t} {c}, {a}, {b}; subc.{t} {e}, {a}, {b};',
  t=['u32', 's32', 'u64', 's64'])
F(S, 'mad.cc', 'mad.{m}.cc.{t} {d}, {a}, {b}, {c}; madc.{m}.{t} {e}, {a}, {b}, {c};',
  m=['lo', 'hi'], t=['u32', 's32', 'u64', 's64'])
F(S, 'madc', 'mad.lo.cc.{t} {d}, {a}, {b}, {c}; madc.{m}.cc.{t} {e}, {a}, {b}, {c}; '
  'madc.lo.{t} {c}, {a}, {b}, {e};', m=['lo', 'hi'], t=['u32', 's32', 'u64', 's64'])

# 9.7.3 Floating point
S = 'Floating point'
F(S, 'testp', 'testp.{m}.{t} {p}, {a};',
  m=['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'], t=FLT)
F(S, 'copysign', 'copysign.{t} {d}, {a}, {b};', t=FLT)
F(S, 'add', 'add{r}{m}.f32 {d:f32}, {a:f32}, {b:f32};', r=['', '.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz', '.sat', '.ftz.sat'])
F(S, 'add', 'add{r}.f64 {d:f64}, {a:f64}, {b:f64};', r=['', '.rn', '.rz', '.rm', '.rp'])
F(S, 'add', 'add.rn.ftz.f32x2 {d:b64}, {a:b64}, {b:b64};')
F(S, 'sub', 'sub{r}{m}.f32 {d:f32}, {a:f32}, {b:f32};', r=['', '.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz', '.sat'])
F(S, 'sub', 'sub{r}.f64 {d:f64}, {a:f64}, {b:f64};', r=['', '.rn', '.rz', '.rm', '.rp'])
F(S, 'mul', 'mul{r}{m}.f32 {d:f32}, {a:f32}, {b:f32};', r=['', '.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz', '.sat'])
F(S, 'mul', 'mul{r}.f64 {d:f64}, {a:f64}, {b:f64};', r=['', '.rn', '.rz', '.rm', '.rp'])
F(S, 'fma', 'fma{r}{m}.f32 {d:f32}, {a:f32}, {b:f32}, {c:f32};', r=['.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz', '.sat'])
F(S, 'fma', 'fma{r}.f64 {d:f64}, {a:f64}, {b:f64}, {c:f64};', r=['.rn', '.rz', '.rm', '.rp'])
F(S, 'mad', 'mad{r}{m}.f32 {d:f32}, {a:f32}, {b:f32}, {c:f32};', r=['.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz', '.sat'])
F(S, 'mad', 'mad{r}.f64 {d:f64}, {a:f64}, {b:f64}, {c:f64};', r=['.rn', '.rz', '.rm', '.rp'])
F(S, 'div', 'div{r}{m}.f32 {d:f32}, {a:f32}, {b:f32};',
  r=['.approx', '.full', '.rn', '.rz', '.rm', '.rp'], m=['', '.ftz'])
F(S, 'div', 'div{r}.f64 {d:f64}, {a:f64}, {b:f64};', r=['.rn', '.rz', '.rm', '.rp'])
F(S, 'abs', 'abs{m}.{t} {d}, {a};', m=['', '.ftz'], t=['f32'])
F(S, 'abs', 'abs.f64 {d:f64}, {a:f64};')
F(S, 'neg', 'neg{m}.{t} {d}, {a};', m=['', '.ftz'], t=['f32'])
F(S, 'neg', 'neg.f64 {d:f64}, {a:f64};')
F(S, 'min', 'min{m}.f32 {d:f32}, {a:f32}, {b:f32};', m=['', '.ftz', '.NaN', '.xorsign.abs',
                                                     '.ftz.NaN'])
F(S, 'min', 'min.f32 {d:f32}, {a:f32}, {b:f32}, {c:f32};')
F(S, 'min', 'min.f64 {d:f64}, {a:f64}, {b:f64};')
F(S, 'max', 'max{m}.f32 {d:f32}, {a:f32}, {b:f32};', m=['', '.ftz', '.NaN', '.xorsign.abs',
                                                     '.ftz.NaN'])
F(S, 'max', 'max.f32 {d:f32}, {a:f32}, {b:f32}, {c:f32};')
F(S, 'max', 'max.f64 {d:f64}, {a:f64}, {b:f64};')
F(S, 'rcp', 'rcp{r}{m}.f32 {d:f32}, {a:f32};', r=['.approx', '.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz'])
F(S, 'rcp', 'rcp{r}.f64 {d:f64}, {a:f64};', r=['.rn', '.rz', '.rm', '.rp', '.approx.ftz'])
F(S, 'sqrt', 'sqrt{r}{m}.f32 {d:f32}, {a:f32};', r=['.approx', '.rn', '.rz', '.rm', '.rp'],
  m=['', '.ftz'])
F(S, 'sqrt', 'sqrt{r}.f64 {d:f64}, {a:f64};', r=['.rn', '.rz', '.rm', '.rp'])
F(S, 'rsqrt', 'rsqrt.approx{m}.f32 {d:f32}, {a:f32};', m=['', '.ftz'])
F(S, 'rsqrt', 'rsqrt.approx{m}.f64 {d:f64}, {a:f64};', m=['', '.ftz'])
F(S, 'sin', 'sin.approx{m}.f32 {d:f32}, {a:f32};', m=['', '.ftz'])
F(S, 'cos', 'cos.approx{m}.f32 {d:f32}, {a:f32};', m=['', '.ftz'])
F(S, 'lg2', 'lg2.approx{m}.f32 {d:f32}, {a:f32};', m=['', '.ftz'])
F(S, 'ex2', 'ex2.approx{m}.f32 {d:f32}, {a:f32};', m=['', '.ftz'])
F(S, 'tanh', 'tanh.approx.f32 {d:f32}, {a:f32};')

# 9.7.4 Half precision floating point
S = 'Half precision floating point'
F(S, 'add', 'add{r}.{t} {d}, {a}, {b};', r=['', '.rn'], t=HALF)
F(S, 'add', 'add{m}.{t} {d}, {a}, {b};', m=['.ftz', '.sat', '.rn.ftz.sat'], t=['f16', 'f16x2'])
F(S, 'sub', 'sub{r}.{t} {d}, {a}, {b};', r=['', '.rn'], t=HALF)
F(S, 'sub', 'sub{m}.{t} {d}, {a}, {b};', m=['.ftz', '.sat'], t=['f16', 'f16x2'])
F(S, 'mul', 'mul{r}.{t} {d}, {a}, {b};', r=['', '.rn'], t=HALF)
F(S, 'mul', 'mul{m}.{t} {d}, {a}, {b};', m=['.ftz', '.sat'], t=['f16', 'f16x2'])
F(S, 'fma', 'fma.rn{m}.{t} {d}, {a}, {b}, {c};', m=['', '.relu'], t=HALF)
F(S, 'fma', 'fma.rn{m}.{t} {d}, {a}, {b}, {c};', m=['.ftz', '.sat', '.ftz.relu'],
  t=['f16', 'f16x2'])
F(S, 'fma', 'fma.rn.oob{m}.{t} {d}, {a}, {b}, {c};', m=['', '.relu'], t=HALF)
F(S, 'neg', 'neg{m}.{t} {d}, {a};', m=['', '.ftz'], t=HALF)
F(S, 'abs', 'abs{m}.{t} {d}, {a};', m=['', '.ftz'], t=HALF)
F(S, 'min', 'min{m}.{t} {d}, {a}, {b};', m=['', '.NaN', '.xorsign.abs'], t=HALF)
F(S, 'min', 'min.ftz{m}.{t} {d}, {a}, {b};', m=['', '.NaN'], t=['f16', 'f16x2'])
F(S, 'max', 'max{m}.{t} {d}, {a}, {b};', m=['', '.NaN', '.xorsign.abs'], t=HALF)
F(S, 'max', 'max.ftz{m}.{t} {d}, {a}, {b};', m=['', '.NaN'], t=['f16', 'f16x2'])
F(S, 'tanh', 'tanh.approx.{t} {d}, {a};', t=HALF)
F(S, 'ex2', 'ex2.approx.{t} {d}, {a};', t=['f16', 'f16x2'])
F(S, 'ex2', 'ex2.approx.ftz.{t} {d}, {a};', t=['bf16', 'bf16x2'])

# 9.7.6 Comparison and selection
S = 'Comparison and selection'
ICMP = ['eq', 'ne', 'lt', 'le', 'gt', 'ge']
UCMP = ['lo', 'ls', 'hi', 'hs']
FCMP = ['equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan']
F(S, 'set', 'set.{cc}.u32.{t} {d:u32}, {a}, {b};', cc=ICMP, t=['s32', 'u32', 's64', 'f32', 'f64'])
F(S, 'set', 'set.{cc}.f32.{t} {d:f32}, {a}, {b};', cc=['eq', 'lt'], t=['s32', 'f32'])
F(S, 'set', 'set.lt.{o}.u32.s32 {d:u32}, {a:s32}, {b:s32}, {p};', o=['and', 'or', 'xor'])
F(S, 'set', 'set.{cc}.u32.f32 {d:u32}, {a:f32}, {b:f32};', cc=FCMP)
F(S, 'set', 'set.lt.{t}.f16x2 {d:b32}, {a:b32}, {b:b32};', t=['u32', 'f16x2'])
F(S, 'setp', 'setp.{cc}.{t} {p}, {a}, {b};', cc=ICMP, t=['b16', 'b32', 'b64', 'u16', 'u32', 'u64',
                                                     's16', 's32', 's64', 'f32', 'f64'])
F(S, 'setp', 'setp.{cc}.{t} {p}, {a}, {b};', cc=UCMP, t=['u32', 'u64'])
F(S, 'setp', 'setp.{cc}.{t} {p}, {a}, {b};', cc=FCMP, t=['f32', 'f64'])
F(S, 'setp', 'setp.{cc}.ftz.f32 {p}, {a:f32}, {b:f32};', cc=['lt', 'equ'])
F(S, 'setp', 'setp.lt.{o}.s32 {p}|{q}, {a:s32}, {b:s32}, {q};', o=['and', 'or', 'xor'])
F(S, 'setp', 'setp.{cc}.{t} {p}, {a}, {b};', cc=['eq', 'lt', 'gtu'], t=['f16', 'bf16'])
F(S, 'setp', 'setp.{cc}.{t} {p}|{q}, {a}, {b};', cc=['eq', 'lt', 'gtu'], t=['f16x2', 'bf16x2'])
F(S, 'selp', 'selp.{t} {d}, {a}, {b}, {p};', t=['b16', 'b32', 'b64', 'u16', 'u32', 'u64', 's16',
                                                's32', 's64', 'f32', 'f64'])
F(S, 'slct', 'slct.{t}.s32 {d}, {a}, {b}, {c:s32};', t=['b32', 'u32', 's32', 'f32', 'b64', 'f64'])
F(S, 'slct', 'slct{m}.{t}.f32 {d}, {a}, {b}, {c:f32};', m=['', '.ftz'], t=['b32', 'f32'])

# 9.7.7 Logic and shift
S = 'Logic and shift'
F(S, 'and', 'and.{t} {d}, {a}, {b};', t=BITS)
F(S, 'and', 'and.pred {p}, {p}, {q};')
F(S, 'or', 'or.{t} {d}, {a}, {b};', t=BITS)
F(S, 'or', 'or.pred {p}, {p}, {q};')
F(S, 'xor', 'xor.{t} {d}, {a}, {b};', t=BITS)
F(S, 'xor', 'xor.pred {p}, {p}, {q};')
F(S, 'not', 'not.{t} {d}, {a};', t=BITS)
F(S, 'not', 'not.pred {p}, {q};')
F(S, 'cnot', 'cnot.{t} {d}, {a};', t=BITS)
F(S, 'lop3', 'lop3.b32 {d:b32}, {a:b32}, {b:b32}, {c:b32}, 0x96;')
F(S, 'lop3', 'lop3.{o}.b32 {d:b32}|{p}, {a:b32}, {b:b32}, {c:b32}, 0x96, {q};', o=['and', 'or'])
F(S, 'shf', 'shf.{m}.{cc}.b32 {d:b32}, {a:b32}, {b:b32}, {c:u32};', m=['l', 'r'],
  cc=['wrap', 'clamp'])
F(S, 'shl', 'shl.{t} {d}, {a}, {b:u32};', t=BITS)
F(S, 'shr', 'shr.{t} {d}, {a}, {b:u32};', t=['b16', 'b32', 'b64', 'u16', 'u32', 'u64', 's16',
                                            's32', 's64'])

# 9.7.8 Data movement and conversion
S = 'Data movement and conversion'
F(S, 'mov', 'mov.{t} {d}, {a};', t=['pred', 'b16', 'b32', 'b64', 'u16', 'u32', 'u64', 's16',
                                    's32', 's64', 'f32', 'f64'])
F(S, 'mov', 'mov.u64 {d:u64}, {X};', X=['sh', 'gv', 'fn'])
F(S, 'mov', 'mov.b32 {{{d:b16}, {a:b16}}}, {b:b32};')
F(S, 'mov', 'mov.b64 {{{d:b32}, {a:b32}}}, {b:b64};')
F(S, 'mov', 'mov.b128 {{{d:b64}, {a:b64}}}, {b:b128};')
F(S, 'shfl', 'shfl.sync.{m}.b32 {d:b32}|{p}, {a:b32}, {b:b32}, 0x1f, -1;',
  m=['up', 'down', 'bfly', 'idx'])
F(S, 'prmt', 'prmt.b32{m} {d:b32}, {a:b32}, {b:b32}, {c:b32};',
  m=['', '.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16'])
SPACES_LD = ['', '.global', '.shared', '.local', '.const', '.param']
F(S, 'ld', 'ld{s}.{t} {d}, {Z};', s=SPACES_LD, t=['b8', 'u8', 's8', 'b16', 'u32', 's32', 'f32',
                                                   'b64', 'f64', 'b128'])
F(S, 'ld', 'ld{s}.v2.{t} {{{d}, {a}}}, {Z};', s=['', '.global', '.shared'],
  t=['u8', 'b16', 'b32', 'b64'])
F(S, 'ld', 'ld{s}.v4.{t} {{{d}, {a}, {b}, {c}}}, {Z};', s=['', '.global', '.shared'],
  t=['u8', 'b16', 'b32'])
F(S, 'ld', 'ld.global.v8.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}, {d:f32}, {a:f32}, {b:f32}, '
  '{c:f32}}}, {A};')
F(S, 'ld', 'ld.global{m}.b32 {d:b32}, {A};',
  m=['.ca', '.cg', '.cs', '.lu', '.cv', '.nc', '.volatile', '.relaxed.gpu', '.acquire.gpu',
     '.relaxed.sys', '.acquire.cta', '.relaxed.cluster', '.mmio.relaxed.sys', '.weak',
     '.L1::evict_last', '.L1::no_allocate', '.L2::64B', '.L2::128B', '.L2::256B',
     '.L1::evict_normal.L2::cache_hint', '.nc.L1::no_allocate', '.L2::evict_first',
     '.L2::evict_last'])
F(S, 'ld', 'ld.global.L2::cache_hint.b32 {d:b32}, {A}, {a:b64};')
F(S, 'ld', 'ld.shared::cluster.b32 {d:b32}, [{a:b32}];')
F(S, 'ld', 'ld.global.nc.L2::256B.v4.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, {A};')
F(S, 'ld', 'ld.param::entry.b32 {d:b32}, [p];')
F(S, 'ldu', 'ldu.global.{t} {d}, {A};', t=['b32', 'f32', 'b64'])
F(S, 'ldu', 'ldu.global.v2.f32 {{{d:f32}, {a:f32}}}, {A};')
F(S, 'st', 'st{s}.{t} {Z}, {d};', s=['', '.global', '.shared', '.local'],
  t=['b8', 'u8', 'b16', 'u32', 'f32', 'b64', 'f64', 'b128'])
F(S, 'st', 'st{s}.v4.{t} {Z}, {{{d}, {a}, {b}, {c}}};', s=['', '.global', '.shared'],
  t=['u8', 'b16', 'b32'])
F(S, 'st', 'st.global{m}.b32 {A}, {d:b32};',
  m=['.wb', '.cg', '.cs', '.wt', '.volatile', '.relaxed.gpu', '.release.gpu', '.relaxed.sys',
     '.release.cta', '.mmio.relaxed.sys', '.L1::no_allocate', '.L1::evict_last',
     '.L2::cache_hint'])
F(S, 'st', 'st.shared::cluster.b32 [{a:b32}], {d:b32};')
F(S, 'st.async', 'st.async.shared::cluster.mbarrier::complete_tx::bytes.{t} [{a:b32}], {d}, '
  '[{b:b32}];', t=['b32', 'b64', 's32', 'f32'])
F(S, 'st.async', 'st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [{a:b32}], '
  '{{{d:b32}, {c:b32}}}, [{b:b32}];')
F(S, 'multimem', 'multimem.ld_reduce.relaxed.sys.global.{o}.{t} {d}, {A};',
  o=['min', 'max', 'add'], t=['u32', 's32', 'u64'])
F(S, 'multimem', 'multimem.ld_reduce.relaxed.sys.global.{o}.b32 {d:b32}, {A};',
  o=['and', 'or', 'xor'])
F(S, 'multimem', 'multimem.ld_reduce.relaxed.sys.global.add{v}.{t} {d:b32}, {A};',
  v=[''], t=['f32', 'f16x2', 'bf16x2'])
F(S, 'multimem', 'multimem.st.relaxed.sys.global.{t} {A}, {d};', t=['b32', 'b64', 'f32'])
F(S, 'multimem', 'multimem.red.relaxed.sys.global.{o}.{t} {A}, {d};', o=['add', 'min', 'max'],
  t=['u32', 'u64', 's32'])
F(S, 'multimem', 'multimem.red.relaxed.sys.global.add.{t} {A}, {d:b32};',
  t=['f32', 'f16x2', 'bf16x2'])
F(S, 'prefetch', 'prefetch{s}.{l} {Z};', s=['', '.global', '.local'], l=['L1', 'L2'])
F(S, 'prefetch', 'prefetch.global.{l} {A};', l=['L2::evict_last', 'L2::evict_normal'])
F(S, 'prefetch', 'prefetch.tensormap [{a:b64}];')
F(S, 'prefetchu', 'prefetchu.L1 {A};')
F(S, 'applypriority', 'applypriority.global.L2::evict_normal {A}, 128;')
F(S, 'discard', 'discard.global.L2 {A}, 128;')
F(S, 'createpolicy', 'createpolicy.fractional.{pp}.b64 {d:b64}, 1.0;',
  pp=['L2::evict_last', 'L2::evict_normal', 'L2::evict_first', 'L2::evict_unchanged'])
F(S, 'createpolicy', 'createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 {d:b64}, '
  '0.5;')
F(S, 'createpolicy', 'createpolicy.range.L2::evict_last.L2::evict_first.b64 {d:b64}, {A}, '
  '{a:b32}, {b:b32};')
F(S, 'createpolicy', 'createpolicy.cvt.L2.b64 {d:b64}, {a:b64};')
F(S, 'isspacep', 'isspacep.{s} {p}, {a:b64};',
  s=['const', 'global', 'local', 'shared', 'shared::cta', 'shared::cluster', 'param',
     'param::entry'])
F(S, 'cvta', 'cvta.{s}.u64 {d:u64}, {a:u64};', s=['const', 'global', 'local', 'shared',
                                                 'shared::cta', 'shared::cluster', 'param'])
F(S, 'cvta', 'cvta.to.{s}.u64 {d:u64}, {a:u64};', s=['const', 'global', 'local', 'shared',
                                                    'shared::cta', 'shared::cluster', 'param'])
F(S, 'cvta', 'cvta.{s}.u32 {d:u32}, {a:u32};', s=['shared', 'to.shared'])
F(S, 'cvta', 'cvta.{s}.u64 {d:u64}, {X};', s=['shared', 'global'], X=['sh', 'gv'])
CVTI = ['u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64']
F(S, 'cvt', 'cvt{m}.{t}.{u} {d}, {a:u};', m=['', '.sat'], t=CVTI, u=CVTI)
F(S, 'cvt', 'cvt{r}.{t}.{u} {d}, {a:u};', r=['.rni', '.rzi', '.rmi', '.rpi'],
  t=['u32', 's32', 'u64', 's64', 'u16', 's8'], u=['f16', 'f32', 'f64'])
F(S, 'cvt', 'cvt{r}.{t}.{u} {d}, {a:u};', r=['.rn', '.rz', '.rm', '.rp'], t=['f16', 'f32', 'f64'],
  u=['u8', 'u16', 'u32', 's32', 'u64', 's64'])
F(S, 'cvt', 'cvt{r}.{t}.{u} {d}, {a:u};', r=['', '.rn', '.rz', '.rm', '.rp', '.rni', '.rzi'],
  t=['f16', 'f32', 'f64', 'bf16'], u=['f16', 'f32', 'f64', 'bf16'])
F(S, 'cvt', 'cvt.rn{m}.{t}.f32 {d}, {a:f32};', m=['.relu', '.satfinite', '.relu.satfinite'],
  t=['f16', 'bf16'])
F(S, 'cvt', 'cvt.rn{m}.{t}.f32 {d:b32}, {a:f32}, {b:f32};', m=['', '.relu', '.satfinite'],
  t=['f16x2', 'bf16x2'])
F(S, 'cvt', 'cvt.{r}.tf32.f32 {d:b32}, {a:f32};', r=['rna', 'rna.satfinite', 'rn', 'rz',
                                                   'rn.relu', 'rn.satfinite'])
F(S, 'cvt', 'cvt.rn.satfinite{m}.{t}.f32 {d:b16}, {a:f32}, {b:f32};', m=['', '.relu'],
  t=['e4m3x2', 'e5m2x2'])
F(S, 'cvt', 'cvt.rn.satfinite{m}.{t}.f16x2 {d:b16}, {a:b32};', m=['', '.relu'],
  t=['e4m3x2', 'e5m2x2'])
F(S, 'cvt', 'cvt.rn{m}.f16x2.{t} {d:b32}, {a:b16};', m=['', '.relu'], t=['e4m3x2', 'e5m2x2'])
F(S, 'cvt', 'cvt.rn.satfinite{m}.{t}.f32 {d:b16}, {a:f32}, {b:f32};', m=['', '.relu'],
  t=['e2m3x2', 'e3m2x2'])
F(S, 'cvt', 'cvt.rn.satfinite{m}.e2m1x2.f32 {d:b8}, {a:f32}, {b:f32};', m=['', '.relu'])
F(S, 'cvt', 'cvt.rn{m}.f16x2.{t} {d:b32}, {a:b16};', m=['', '.relu'], t=['e2m3x2', 'e3m2x2'])
F(S, 'cvt', 'cvt.{r}.satfinite.ue8m0x2.{t} {d:b16}, {a:f32}, {b:f32};', r=['rz', 'rp'], t=['f32'])
F(S, 'cvt.pack', 'cvt.pack.sat.{t}.s32.b32 {d:b32}, {a:s32}, {b:s32}, {c:b32};',
  t=['u16', 's16', 'u8', 's8', 'u4', 's4', 'u2', 's2'])
F(S, 'mapa', 'mapa{s}.u64 {d:u64}, {a:u64}, {b:u32};', s=['', '.shared::cluster'])
F(S, 'mapa', 'mapa.shared::cluster.u32 {d:u32}, {a:u32}, {b:u32};')
F(S, 'getctarank', 'getctarank{s}.u32 {d:u32}, {a:u64};', s=['', '.shared::cluster'])
F(S, 'getctarank', 'getctarank.shared::cluster.u32 {d:u32}, {a:u32};')

# 9.7.9 Asynchronous copy (cp.async; the bulk/tensor forms belong to the Hopper issue)
S = 'Asynchronous copy'
F(S, 'cp.async', 'cp.async.{cc}.shared.global [{a:b32}], {A}, {n};', cc=['ca'], n=['4', '8', '16'])
F(S, 'cp.async', 'cp.async.cg.shared.global [{a:b32}], {A}, 16{x};',
  x=['', ', 8', ', {b:u32}'])
F(S, 'cp.async', 'cp.async.cg.shared.global{h} [{a:b32}], {A}, 16;',
  h=['.L2::64B', '.L2::128B', '.L2::256B'])
F(S, 'cp.async', 'cp.async.cg.shared.global.L2::cache_hint [{a:b32}], {A}, 16, {c:b64};')
F(S, 'cp.async', 'cp.async.cg.shared.global.L2::cache_hint.L2::256B [{a:b32}], {A}, 16, {b:u32}, '
  '{c:b64};')
F(S, 'cp.async', 'cp.async.commit_group; cp.async.wait_group 1; cp.async.wait_all;')
F(S, 'cp.async', 'cp.async.mbarrier.arrive{m}.b64 [{a:b32}];', m=['', '.noinc'])
F(S, 'cp.async.bulk', 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes '
  '[{a:b32}], {A}, 128, [{b:b32}];', owned=True)
F(S, 'cp.async.bulk', 'cp.async.bulk.global.shared::cta.bulk_group {A}, [{a:b32}], 128; '
  'cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;', owned=True)
F(S, 'cp.async.bulk', 'cp.async.bulk.prefetch.L2.global {A}, 128;', owned=True)
F(S, 'cp.reduce.async.bulk', 'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 {A}, '
  '[{a:b32}], 128;', owned=True)
F(S, 'cp.async.bulk.tensor', 'cp.async.bulk.tensor.1d.shared::cluster.global.tile.'
  'mbarrier::complete_tx::bytes [{a:b32}], [{b:b64}, {{{c:b32}}}], [{d:b32}];', owned=True)

# 9.7.10 Texture / 9.7.11 Surface
S = 'Texture and surface'
F(S, 'tex', 'tex.{g}.v4.{t}.{u} {{{d:b32}, {a:b32}, {b:b32}, {c:b32}}}, [tx, {C}];',
  g=['1d', '2d', '3d'], t=['f32', 's32', 'u32'], u=['s32', 'f32'])
F(S, 'tex', 'tex.level.2d.v4.f32.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [tx, {{{a:f32}, '
  '{b:f32}}}], {c:f32};')
F(S, 'tex', 'tex.grad.2d.v4.f32.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [tx, {{{a:f32}, '
  '{b:f32}}}], {{{c:f32}, {d:f32}}}, {{{a:f32}, {b:f32}}};')
F(S, 'tex', 'tex.2d.v4.f32.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [{e:b64}, {{{a:f32}, '
  '{b:f32}}}];')
F(S, 'tex', 'tex.a1d.v4.f32.s32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [tx, {{{a:s32}, '
  '{b:s32}}}];')
F(S, 'tex', 'tex.cube.v4.f32.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [tx, {{{a:f32}, '
  '{b:f32}, {c:f32}, {d:f32}}}];')
F(S, 'tld4', 'tld4.{cc}.2d.v4.f32.f32 {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, [tx, {{{a:f32}, '
  '{b:f32}}}];', cc=['r', 'g', 'b', 'a'])
F(S, 'txq', 'txq.{qq}.b32 {d:b32}, [tx];',
  qq=['width', 'height', 'depth', 'channel_data_type', 'channel_order', 'normalized_coords',
     'num_mipmap_levels', 'num_samples'])
F(S, 'txq', 'txq.{qq}.b32 {d:b32}, [sm];', qq=['filter_mode', 'addr_mode_0'])
F(S, 'istypep', 'istypep.{k} {p}, {a:b64};', k=['texref', 'samplerref', 'surfref'])
F(S, 'suld', 'suld.b.{g}.{t}.{cc} {d}, [sf, {C}];', g=['1d', '2d', '3d'], t=['b32', 'b64'],
  cc=['trap', 'clamp', 'zero'])
F(S, 'suld', 'suld.b.2d.v4.b32.trap {{{d:b32}, {a:b32}, {b:b32}, {c:b32}}}, [sf, {{{a:s32}, '
  '{b:s32}}}];')
F(S, 'suld', 'suld.b.2d.b32.trap {d:b32}, [{e:b64}, {{{a:s32}, {b:s32}}}];')
F(S, 'sust', 'sust.b.{g}.{t}.{cc} [sf, {C}], {d};', g=['1d', '2d', '3d'], t=['b32', 'b64'],
  cc=['trap', 'clamp', 'zero'])
F(S, 'sust', 'sust.p.2d.v4.b32.trap [sf, {{{a:s32}, {b:s32}}}], {{{d:b32}, {a:b32}, {b:b32}, '
  '{c:b32}}};')
F(S, 'sured', 'sured.b.{o}.2d.{t}.trap [sf, {{{a:s32}, {b:s32}}}], {d};',
  o=['add', 'min', 'max'], t=['u32', 's32', 'u64'])
F(S, 'sured', 'sured.b.{o}.2d.b32.trap [sf, {{{a:s32}, {b:s32}}}], {d:b32};', o=['and', 'or'])
F(S, 'suq', 'suq.{qq}.b32 {d:b32}, [sf];', qq=['width', 'height', 'depth', 'channel_data_type',
                                            'channel_order', 'array_size', 'memory_layout'])

# 9.7.12 Control flow
S = 'Control flow'
F(S, 'bra', '@{p} bra{u} {L}; {L}:', u=['', '.uni'])
F(S, 'brx.idx', 'tl: .branchtargets {L}; brx.idx {a:u32}, tl; {L}:')
F(S, 'call', 'call{u} {F};', u=['', '.uni'])
F(S, 'call', '{{ .param .b32 ra; .param .b32 rv; st.param.b32 [ra], {a:b32}; '
  'call (rv), fr, (ra); ld.param.b32 {d:b32}, [rv]; }}')
F(S, 'call', '{{ .param .b32 ra; .param .b32 rv; st.param.b32 [ra], {a:b32}; '
  'call (rv), {b:b64}, (ra), fproto; ld.param.b32 {d:b32}, [rv]; }}')
F(S, 'ret', '@{p} ret{u};', u=['', '.uni'])
F(S, 'exit', '@{p} exit;')

# 9.7.13 Parallel synchronization and communication
S = 'Parallel synchronization and communication'
F(S, 'bar', 'bar{cc}.sync {n}{x};', cc=['', '.cta'], n=['0', '1', '{a:u32}'], x=['', ', 64'])
F(S, 'bar', 'barrier{cc}.sync{aa} 0;', cc=['', '.cta'], aa=['', '.aligned'])
F(S, 'bar', 'bar{cc}.arrive 1, 64;', cc=['', '.cta'])
F(S, 'bar', 'bar.red.{o}.pred {p}, 0, {q};', o=['and', 'or'])
F(S, 'bar', 'bar.red.popc.u32 {d:u32}, 0, {q};')
F(S, 'bar.warp.sync', 'bar.warp.sync -1;')
F(S, 'barrier.cluster', 'barrier.cluster.{m};', m=['arrive', 'arrive.relaxed', 'wait',
                                                   'arrive.aligned', 'wait.aligned'])
F(S, 'membar', 'membar.{l};', l=['cta', 'gl', 'sys'])
F(S, 'membar', 'membar.proxy.alias;')
F(S, 'fence', 'fence.{o}.{l};', o=['sc', 'acq_rel'], l=['cta', 'cluster', 'gpu', 'sys'])
F(S, 'fence', 'fence.proxy.{k};', k=['alias', 'async', 'async.global', 'async.shared::cta',
                                     'async.shared::cluster'])
F(S, 'fence', 'fence.mbarrier_init.release.cluster;', owned=True)
ATOM_INT = ['b32', 'b64', 'u32', 'u64', 's32', 's64']
F(S, 'atom', 'atom{s}.{o}.{t} {d}, {Z}, {a};', s=['', '.global', '.shared'],
  o=['add', 'min', 'max'], t=['u32', 'u64', 's32', 's64'])
F(S, 'atom', 'atom{s}.{o}.{t} {d}, {Z}, {a};', s=['', '.global', '.shared'],
  o=['and', 'or', 'xor', 'exch'], t=['b32', 'b64'])
F(S, 'atom', 'atom{s}.{o}.u32 {d:u32}, {Z}, {a:u32};', s=['', '.global', '.shared'],
  o=['inc', 'dec'])
F(S, 'atom', 'atom{s}.cas.{t} {d}, {Z}, {a}, {b};', s=['', '.global', '.shared'],
  t=['b16', 'b32', 'b64', 'b128'])
F(S, 'atom', 'atom{s}.exch.b128 {d:b128}, {Z}, {a:b128};', s=['', '.global', '.shared'])
F(S, 'atom', 'atom{s}.add{f}.{t} {d}, {Z}, {a};', s=['', '.global', '.shared'],
  f=['', '.noftz'], t=['f32', 'f64', 'f16', 'f16x2', 'bf16', 'bf16x2'])
F(S, 'atom', 'atom{s}.{o}{f}.{t} {d}, {Z}, {a};', s=['.global', '.shared'], o=['min', 'max'],
  f=['.noftz'], t=['f16', 'f16x2', 'bf16', 'bf16x2'])
F(S, 'atom', 'atom{s}.v{n}.f32.add {d:b64}, {Z}, {a:b64};', s=['.global'], n=['2'])
F(S, 'atom', 'atom.global.v2.f32.add {{{d:f32}, {a:f32}}}, {A}, {{{b:f32}, {c:f32}}};')
F(S, 'atom', 'atom.global.v4.f32.add {{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}, {A}, {{{d:f32}, '
  '{a:f32}, {b:f32}, {c:f32}}};')
F(S, 'atom', 'atom.global.v8.f16x2.add.noftz {{{d:b32}, {a:b32}, {b:b32}, {c:b32}, {d:b32}, '
  '{a:b32}, {b:b32}, {c:b32}}}, {A}, {{{d:b32}, {a:b32}, {b:b32}, {c:b32}, {d:b32}, {a:b32}, '
  '{b:b32}, {c:b32}}};')
F(S, 'atom', 'atom{o}.global.add.u32 {d:u32}, {A}, {a:u32};',
  o=['.relaxed.gpu', '.acquire.gpu', '.release.sys', '.acq_rel.cta', '.relaxed.cluster'])
F(S, 'atom', 'atom.shared::cluster.add.u32 {d:u32}, [{b:b32}], {a:u32};')
F(S, 'atom', 'atom.global.L2::cache_hint.add.u32 {d:u32}, {A}, {a:u32}, {e:b64};')
F(S, 'red', 'red{s}.{o}.{t} {Z}, {a};', s=['', '.global', '.shared'],
  o=['add', 'min', 'max'], t=['u32', 'u64', 's32', 's64'])
F(S, 'red', 'red{s}.{o}.{t} {Z}, {a};', s=['', '.global', '.shared'],
  o=['and', 'or', 'xor'], t=['b32', 'b64'])
F(S, 'red', 'red{s}.{o}.u32 {Z}, {a:u32};', s=['', '.global', '.shared'], o=['inc', 'dec'])
F(S, 'red', 'red{s}.add{f}.{t} {Z}, {a};', s=['', '.global', '.shared'], f=['', '.noftz'],
  t=['f32', 'f64', 'f16', 'f16x2', 'bf16', 'bf16x2'])
F(S, 'red', 'red{s}.{o}.noftz.{t} {Z}, {a};', s=['.global', '.shared'], o=['min', 'max'],
  t=['f16', 'f16x2', 'bf16', 'bf16x2'])
F(S, 'red', 'red.global.v2.f32.add {A}, {{{b:f32}, {c:f32}}};')
F(S, 'red', 'red.global.v4.f16x2.add.noftz {A}, {{{a:b32}, {b:b32}, {c:b32}, {d:b32}}};')
F(S, 'red', 'red{o}.global.add.u32 {A}, {a:u32};',
  o=['.relaxed.gpu', '.release.gpu', '.release.sys', '.relaxed.cluster'])
F(S, 'red', 'red.global.L2::cache_hint.add.u32 {A}, {a:u32}, {e:b64};')
F(S, 'red.async', 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{o}.u32'
  ' [{a:b32}], {b:u32}, [{c:b32}];', o=['add', 'min', 'max', 'inc', 'dec'], owned=True)
F(S, 'vote', 'vote.sync.{m}.pred {p}, {q}, -1;', m=['all', 'any', 'uni'])
F(S, 'vote', 'vote.sync.ballot.b32 {d:b32}, {q}, -1;')
F(S, 'vote', 'vote.{m}.pred {p}, {q};', m=['all', 'any', 'uni'])
F(S, 'vote', 'vote.ballot.b32 {d:b32}, {q};')
F(S, 'match', 'match.any.sync.{t} {d:b32}, {a}, -1;', t=['b32', 'b64'])
F(S, 'match', 'match.all.sync.{t} {d:b32}|{p}, {a}, -1;', t=['b32', 'b64'])
F(S, 'activemask', 'activemask.b32 {d:b32};')
F(S, 'redux', 'redux.sync.{o}.{t} {d}, {a}, -1;', o=['add', 'min', 'max'], t=['u32', 's32'])
F(S, 'redux', 'redux.sync.{o}.b32 {d:b32}, {a:b32}, -1;', o=['and', 'or', 'xor'])
F(S, 'redux', 'redux.sync.{o}{m}.f32 {d:f32}, {a:f32}, -1;', o=['min', 'max'],
  m=['', '.abs', '.NaN'])
F(S, 'griddepcontrol', 'griddepcontrol.{m};', m=['launch_dependents', 'wait'])
F(S, 'elect', 'elect.sync {d:b32}|{p}, -1;')
F(S, 'mbarrier', 'mbarrier.init.shared.b64 [{a:b32}], 32;', owned=True)
F(S, 'mbarrier', 'mbarrier.arrive.shared.b64 {d:b64}, [{a:b32}];', owned=True)
F(S, 'mbarrier', 'mbarrier.try_wait.parity.shared.b64 {p}, [{a:b32}], {b:b32};', owned=True)
F(S, 'tensormap.cp_fenceproxy', 'tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.'
  'release.gpu.sync.aligned [{a:b64}], [{b:b32}], 128;', owned=True)

# 9.7.14 Warp level matrix multiply-accumulate
S = 'Warp matrix multiply-accumulate'
W4 = '{{{d:b32}, {a:b32}, {b:b32}, {c:b32}}}'
W2 = '{{{d:b32}, {a:b32}}}'
W1 = '{{{d:b32}}}'
F8F = '{{{d:f32}, {a:f32}, {b:f32}, {c:f32}, {d:f32}, {a:f32}, {b:f32}, {c:f32}}}'
F4F = '{{{d:f32}, {a:f32}, {b:f32}, {c:f32}}}'
F2D = '{{{d:f64}, {a:f64}}}'
F(S, 'mma', 'mma.sync.aligned.m16n8k16.row.col.{t}.{u}.{u}.{t} ' + F4F + ', ' + W4 + ', ' + W2 +
  ', ' + F4F + ';', t=['f32'], u=['f16', 'bf16'])
F(S, 'mma', 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 ' + W2 + ', ' + W4 + ', ' + W2 +
  ', ' + W2 + ';')
F(S, 'mma', 'mma.sync.aligned.m16n8k8.row.col.f32.{u}.{u}.f32 ' + F4F + ', ' + W2 + ', ' + W1 +
  ', ' + F4F + ';', u=['f16', 'bf16', 'tf32'])
F(S, 'mma', 'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 ' + F4F + ', ' + W2 + ', ' + W1 +
  ', ' + F4F + ';')
F(S, 'mma', 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 ' + F2D + ', {{{a:f64}}}, '
  '{{{b:f64}}}, ' + F2D + ';')
F(S, 'mma', 'mma.sync.aligned.m8n8k4.{l}.{m}.f32.f16.f16.f32 ' + F8F + ', ' + W2 + ', ' + W2 +
  ', ' + F8F + ';', l=['row', 'col'], m=['row', 'col'])
F(S, 'mma', 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 ' + W4 + ', ' + W2 + ', ' + W2 +
  ', ' + W4 + ';')
F(S, 'mma', 'mma.sync.aligned.m16n8k{k}.row.col{s}.s32.{u}.{u}.s32 ' + W4 + ', ' + W4 + ', ' +
  W2 + ', ' + W4 + ';', k=['32'], s=['', '.satfinite'], u=['s8', 'u8'])
F(S, 'mma', 'mma.sync.aligned.m16n8k16.row.col.s32.{u}.{u}.s32 ' + W4 + ', ' + W2 + ', ' + W1 +
  ', ' + W4 + ';', u=['s8', 'u8'])
F(S, 'mma', 'mma.sync.aligned.m8n8k16.row.col.s32.{u}.{u}.s32 ' + W2 + ', ' + W1 + ', ' + W1 +
  ', ' + W2 + ';', u=['s8', 'u8'])
F(S, 'mma', 'mma.sync.aligned.m8n8k32.row.col{s}.s32.{u}.{u}.s32 ' + W2 + ', ' + W1 + ', ' + W1 +
  ', ' + W2 + ';', s=['', '.satfinite'], u=['s4', 'u4'])
F(S, 'mma', 'mma.sync.aligned.m16n8k{k}.row.col.s32.{u}.{u}.s32 ' + W4 + ', {X}, {Y}, ' + W4 +
  ';', k=['32'], u=['s4', 'u4'], X=[W2], Y=[W1])
F(S, 'mma', 'mma.sync.aligned.m16n8k64.row.col.s32.{u}.{u}.s32 ' + W4 + ', ' + W4 + ', ' + W2 +
  ', ' + W4 + ';', u=['s4', 'u4'])
F(S, 'mma', 'mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.{o}.popc ' + W2 + ', ' + W1 + ', ' +
  W1 + ', ' + W2 + ';', o=['and', 'xor'])
F(S, 'mma', 'mma.sync.aligned.m16n8k{k}.row.col.s32.b1.b1.s32.{o}.popc ' + W4 + ', {X}, {Y}, ' +
  W4 + ';', k=['128'], o=['and', 'xor'], X=[W2], Y=[W1])
F(S, 'mma', 'mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.{o}.popc ' + W4 + ', ' + W4 + ', ' +
  W2 + ', ' + W4 + ';', o=['and', 'xor'])
F(S, 'mma', 'mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {{{d:f64}, {a:f64}, {b:f64}, '
  '{c:f64}}}, {{{d:f64}, {a:f64}, {b:f64}, {c:f64}, {d:f64}, {a:f64}, {b:f64}, {c:f64}}}, '
  '{{{d:f64}, {a:f64}, {b:f64}, {c:f64}}}, {{{d:f64}, {a:f64}, {b:f64}, {c:f64}}};')
F(S, 'mma', 'mma.sync.aligned.m16n8k32.row.col.f32.{u}.{u}.f32 ' + F4F + ', ' + W4 + ', ' + W2 +
  ', ' + F4F + ';', u=['e4m3', 'e5m2'])
F(S, 'mma.sp', 'mma.sp{v}.sync.aligned.m16n8k32.row.col.f32.{u}.{u}.f32 ' + F4F + ', ' + W4 +
  ', ' + W4 + ', ' + F4F + ', {e:b32}, 0x0;', v=['', '::ordered_metadata'], u=['f16', 'bf16'])
F(S, 'mma.sp', 'mma.sp.sync.aligned.m16n8k16.row.col.f32.{u}.{u}.f32 ' + F4F + ', ' + W2 +
  ', ' + W2 + ', ' + F4F + ', {e:b32}, 0x0;', u=['f16', 'bf16'])
F(S, 'mma.sp', 'mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 ' + F4F + ', ' + W4 +
  ', ' + W4 + ', ' + F4F + ', {e:b32}, 0x0;')
F(S, 'mma.sp', 'mma.sp{v}.sync.aligned.m16n8k64.row.col.s32.{u}.{u}.s32 ' + W4 + ', ' + W4 +
  ', ' + W4 + ', ' + W4 + ', {e:b32}, 0x0;', v=['', '::ordered_metadata'], u=['s8', 'u8'])
F(S, 'mma.sp', 'mma.sp.sync.aligned.m16n8k128.row.col.s32.{u}.{u}.s32 ' + W4 + ', ' + W4 +
  ', ' + W4 + ', ' + W4 + ', {e:b32}, 0x0;', u=['s4', 'u4'])
F(S, 'mma.sp', 'mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.{u}.{u}.f32 ' + F4F +
  ', ' + W4 + ', ' + W4 + ', ' + F4F + ', {e:b32}, 0x0;', u=['e4m3', 'e5m2'])
F(S, 'ldmatrix', 'ldmatrix.sync.aligned.m8n8.{n}{t}.b16 {X}, [{a:b32}];',
  n=['x1', 'x2', 'x4'], t=['', '.trans'], X=['{R}'])
F(S, 'ldmatrix', 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 ' + W4 + ', [{e:b64}];')
F(S, 'stmatrix', 'stmatrix.sync.aligned.m8n8.{n}{t}.shared.b16 [{e:b32}], {X};',
  n=['x1', 'x2', 'x4'], t=['', '.trans'], X=['{R}'])
F(S, 'movmatrix', 'movmatrix.sync.aligned.m8n8.trans.b16 {d:b32}, {a:b32};')
F(S, 'wmma', 'wmma.load.{m}.sync.aligned.{l}.m16n16k16{s}.f16 {X}, {A};', m=['a', 'b'],
  l=['row', 'col'], s=['', '.global'],
  X=['{{{d:b32}, {a:b32}, {b:b32}, {c:b32}, {d:b32}, {a:b32}, {b:b32}, {c:b32}}}'])
F(S, 'wmma', 'wmma.load.c.sync.aligned.row.m16n16k16.f32 ' + F8F + ', {A};')
F(S, 'wmma', 'wmma.store.d.sync.aligned.row.m16n16k16.f32 {A}, ' + F8F + ';')
F(S, 'wmma', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 ' + F8F + ', {{{d:b32}, {a:b32}, '
  '{b:b32}, {c:b32}, {d:b32}, {a:b32}, {b:b32}, {c:b32}}}, {{{d:b32}, {a:b32}, {b:b32}, '
  '{c:b32}, {d:b32}, {a:b32}, {b:b32}, {c:b32}}}, ' + F8F + ';')
F(S, 'wmma', 'wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 ' + F8F + ', ' + W4 +
  ', ' + W4 + ', ' + F8F + ';')
F(S, 'wmma', 'wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 ' + F2D + ', {{{a:f64}}}, '
  '{{{b:f64}}}, ' + F2D + ';')
F(S, 'wmma', 'wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 ' + F8F.replace('f32', 's32')
  + ', ' + W2 + ', ' + W2 + ', ' + F8F.replace('f32', 's32') + ';')
F(S, 'wmma', 'wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 ' + W2 + ', ' + W1 + ', ' +
  W1 + ', ' + W2 + ';')
F(S, 'wmma', 'wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 ' + W2 + ', ' + W1 +
  ', ' + W1 + ', ' + W2 + ';')
F(S, 'wgmma', 'wgmma.fence.sync.aligned; wgmma.commit_group.sync.aligned; '
  'wgmma.wait_group.sync.aligned 0;', owned=True)

# 9.7.16 Stack manipulation
S = 'Stack manipulation'
F(S, 'stacksave', 'stacksave.u64 {d:u64};')
F(S, 'stackrestore', 'stackrestore.u64 {a:u64};')
F(S, 'alloca', 'alloca{aa}.u64 {d:u64}, {a:u64}{x};', aa=['', '.local'], x=['', ', 16'])
F(S, 'alloca', 'stacksave.u64 {d:u64}; alloca.u64 {a:u64}, 64; stackrestore.u64 {d:u64};')

# 9.7.17 Video (scalar: dtype.atype.btype, optional .sat, a secondary op or a merge selector)
S = 'Video'
V1 = ['u32', 's32']
for op in ['vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax']:
    F(S, op, op + '.{t}.{u}.{u}{s} {d:b32}, {a:b32}, {b:b32};', t=V1, u=V1, s=['', '.sat'])
    F(S, op, op + '.u32.u32.u32{s}.{o} {d:b32}, {a:b32}, {b:b32}, {c:b32};', s=['', '.sat'],
      o=['add', 'min', 'max'])
    F(S, op, op + '.u32.u32.u32 {d:b32}.{x}, {a:b32}, {b:b32}, {c:b32};',
      x=['b0', 'b1', 'b2', 'b3', 'h0', 'h1'])
    F(S, op, op + '.s32.s32.s32 {d:b32}, {a:b32}.{x}, {b:b32}.{y};', x=['b0', 'h1'],
      y=['b3', 'h0'])
for op in ['vshl', 'vshr']:
    F(S, op, op + '.{t}.u32.u32.{cc} {d:b32}, {a:b32}, {b:b32};', t=V1, cc=['clamp', 'wrap'])
    F(S, op, op + '.{t}.{v}.u32.{cc}.{o} {d:b32}, {a:b32}, {b:b32}, {c:b32};', t=V1, v=V1,
      cc=['clamp', 'wrap'], o=['add', 'min', 'max'])
    F(S, op, op + '.u32.u32.u32.clamp {d:b32}.{x}, {a:b32}, {b:b32}, {c:b32};',
      x=['b0', 'b2', 'h1'])
F(S, 'vmad', 'vmad.{t}.{u}.{v}{s} {d:b32}, {a:b32}, {b:b32}, {c:b32};', t=V1, u=V1, v=V1,
  s=['', '.sat'])
F(S, 'vmad', 'vmad.u32.u32.u32{s} {d:b32}, {a:b32}.{x}, {b:b32}, {c:b32};', s=['', '.shr7',
                                                                              '.shr15'],
  x=['b0', 'h1'])
F(S, 'vmad', 'vmad.s32.s32.s32 {d:b32}, -{a:b32}, {b:b32}, {c:b32};')
F(S, 'vset', 'vset.{u}.{v}.{cc} {d:b32}, {a:b32}, {b:b32};', u=V1, v=V1,
  cc=['eq', 'ne', 'lt', 'le', 'gt', 'ge'])
F(S, 'vset', 'vset.u32.u32.lt.{o} {d:b32}, {a:b32}, {b:b32}, {c:b32};', o=['add', 'min', 'max'])
F(S, 'vset', 'vset.u32.u32.lt {d:b32}.{x}, {a:b32}, {b:b32}, {c:b32};', x=['b0', 'h1'])
for op in ['vadd2', 'vsub2', 'vavrg2', 'vabsdiff2', 'vmin2', 'vmax2']:
    F(S, op, op + '.{t}.{u}.{u}{s} {d:b32}, {a:b32}, {b:b32}, {c:b32};', t=V1, u=V1,
      s=['', '.sat'])
    F(S, op, op + '.u32.u32.u32.add {d:b32}, {a:b32}, {b:b32}, {c:b32};')
    F(S, op, op + '.u32.u32.u32 {d:b32}.{x}, {a:b32}.{y}, {b:b32}, {c:b32};', x=['h0', 'h1', 'h10'],
      y=['h10', 'h00'])
F(S, 'vset2', 'vset2.{u}.{v}.{cc} {d:b32}, {a:b32}, {b:b32}, {c:b32};', u=V1, v=V1,
  cc=['eq', 'ne', 'lt', 'le', 'gt', 'ge'])
F(S, 'vset2', 'vset2.u32.u32.lt.add {d:b32}, {a:b32}, {b:b32}, {c:b32};')
for op in ['vadd4', 'vsub4', 'vavrg4', 'vabsdiff4', 'vmin4', 'vmax4']:
    F(S, op, op + '.{t}.{u}.{u}{s} {d:b32}, {a:b32}, {b:b32}, {c:b32};', t=V1, u=V1,
      s=['', '.sat'])
    F(S, op, op + '.u32.u32.u32.add {d:b32}, {a:b32}, {b:b32}, {c:b32};')
    F(S, op, op + '.u32.u32.u32 {d:b32}.{x}, {a:b32}.{y}, {b:b32}, {c:b32};',
      x=['b0', 'b3210', 'b10'], y=['b3210', 'b7654'])
F(S, 'vset4', 'vset4.{u}.{v}.{cc} {d:b32}, {a:b32}, {b:b32}, {c:b32};', u=V1, v=V1,
  cc=['eq', 'ne', 'lt', 'le', 'gt', 'ge'])
F(S, 'vset4', 'vset4.u32.u32.lt.add {d:b32}, {a:b32}, {b:b32}, {c:b32};')

# 9.7.18 Miscellaneous
S = 'Miscellaneous'
F(S, 'brkpt', 'brkpt;')
F(S, 'nanosleep', 'nanosleep.u32 {n};', n=['100', '{a:u32}'])
F(S, 'pmevent', 'pmevent{m} {n};', m=[''], n=['1', '7'])
F(S, 'pmevent', 'pmevent.mask 0x81;')
F(S, 'trap', '@{p} trap;')
F(S, 'setmaxnreg', 'setmaxnreg.inc.sync.aligned.u32 240;', owned=True)
