//===- frontend/lower/lower_float_util.cpp - helpers of the float and cvt lowering ------===//
#include "frontend/lower/lower_float_util.h"

#include <bit>
#include <cstring>

namespace ptxmini::frontend::lower {

using ori::Modifier;
using ori::Operand;
using ori::OperandKind;

bool parseFloatMods(LowerCtx &ctx, const ptx::Instruction &in,
                    std::initializer_list<std::string_view> allowed, FloatMods &m) {
  for (const ptx::Modifier &mod : in.modifiers) {
    if (mod.kind != ptx::Modifier::Kind::Other)
      continue;
    const std::string &w = mod.text;
    bool ok = false;
    for (std::string_view a : allowed)
      ok |= w == a;
    if (!ok)
      return ctx.unsupported(in, "Modifier '." + w + "' of '" + in.fullOpcode() + "'");
    if (w == "rn" || w == "rni")
      m.rnd = Rnd::RN;
    else if (w == "rz" || w == "rzi")
      m.rnd = Rnd::RZ;
    else if (w == "rm" || w == "rmi")
      m.rnd = Rnd::RM;
    else if (w == "rp" || w == "rpi")
      m.rnd = Rnd::RP;
    m.integral |= w == "rni" || w == "rzi" || w == "rmi" || w == "rpi";
    m.ftz |= w == "ftz";
    m.sat |= w == "sat";
    m.approx |= w == "approx";
    m.full |= w == "full";
    m.relu |= w == "relu";
    m.nan |= w == "NaN";
    m.xorsign |= w == "xorsign";
    m.abs |= w == "abs";
    m.satfinite |= w == "satfinite";
  }
  return true;
}

void addRound(ori::Instr &i, Rnd r) {
  switch (r) {
  case Rnd::RZ:
    i.mods.push_back(Modifier::RZ);
    break;
  case Rnd::RM:
    i.mods.push_back(Modifier::RM);
    break;
  case Rnd::RP:
    i.mods.push_back(Modifier::RP);
    break;
  default:
    break;
  }
}

bool isHalfType(ptx::ScalarType t) {
  return t == ptx::ScalarType::F16 || t == ptx::ScalarType::F16X2 ||
         t == ptx::ScalarType::BF16 || t == ptx::ScalarType::BF16X2;
}
bool isBf16Type(ptx::ScalarType t) {
  return t == ptx::ScalarType::BF16 || t == ptx::ScalarType::BF16X2;
}

Operand f32Imm(float f) { return Operand::fimm32(std::bit_cast<uint32_t>(f)); }

Operand inReg64(LowerCtx &ctx, const Operand &o) {
  if (o.kind == ori::OperandKind::VReg && !(o.mods & (ori::OM_NEG | ori::OM_ABS)))
    return o;
  // Immediates (and nothing else reaches here) go through a register pair.
  Operand t = ctx.temp(ori::RegClass::R, 2);
  if (o.kind == ori::OperandKind::FImm64) {
    uint64_t bits = static_cast<uint64_t>(o.imm);
    ctx.emit(ori::Opcode::MOV, {}, {component(t, 0)}, {imm(static_cast<uint32_t>(bits))});
    ctx.emit(ori::Opcode::MOV, {}, {component(t, 1)}, {imm(static_cast<uint32_t>(bits >> 32))});
  } else {
    ctx.emit(ori::Opcode::MOV, {}, {component(t, 0)}, {component(o, 0)});
    ctx.emit(ori::Opcode::MOV, {}, {component(t, 1)}, {component(o, 1)});
  }
  return t;
}

Operand floatSource(LowerCtx &ctx, const ptx::Instruction &in, const ptx::Operand &op,
                    unsigned bits) {
  if (op.is<ptx::FloatOperand>()) {
    const auto &f = op.as<ptx::FloatOperand>();
    if (bits == 64)
      return f.isDouble ? Operand::fimm64(f.bits) : Operand::fimm64(f.bits & 0xffffffffu);
    if (bits == 32)
      return f.isDouble ? f32Imm(static_cast<float>(f.value))
                        : Operand::fimm32(static_cast<uint32_t>(f.bits));
    ctx.unsupported(in, "A float immediate operand of '" + in.fullOpcode() + "'");
    return {};
  }
  if (op.is<ptx::ImmOperand>()) {
    // Integer literals in float instructions are rejected by ptxas ("Arguments mismatch");
    // the bit patterns of packed half types (mov-like uses) are taken as they are.
    if (bits == 32 || bits == 16)
      return Operand::intImm(op.as<ptx::ImmOperand>().value & 0xffffffff);
    ctx.unsupported(in, "An integer immediate operand of '" + in.fullOpcode() + "'");
    return {};
  }
  Operand o = ctx.source(in, op);
  if (o.kind == OperandKind::VReg && (o.mods & ori::OM_NOT)) {
    ctx.unsupported(in, "A negated register operand of '" + in.fullOpcode() + "'");
    return {};
  }
  return o;
}

bool floatOperands(LowerCtx &ctx, const ptx::Instruction &in, unsigned numSrcs, unsigned bits,
                   Operand &d, std::array<Operand, 3> &s) {
  if (in.operands.size() != numSrcs + 1 || !in.operands[0].is<ptx::RegOperand>())
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  if (d.kind == OperandKind::None)
    return false;
  for (unsigned i = 0; i < numSrcs; ++i) {
    s[i] = floatSource(ctx, in, in.operands[i + 1], bits);
    if (s[i].kind == OperandKind::None)
      return false;
  }
  return true;
}

Operand fneg(const Operand &o) {
  Operand n = o;
  if (n.kind == OperandKind::FImm32)
    n.imm = static_cast<int64_t>(static_cast<uint32_t>(n.imm) ^ 0x80000000u);
  else if (n.kind == OperandKind::FImm64)
    n.imm = static_cast<int64_t>(static_cast<uint64_t>(n.imm) ^ (1ull << 63));
  else
    n.mods ^= ori::OM_NEG;
  return n;
}

Operand fabsOp(const Operand &o) {
  Operand n = o;
  if (n.kind == OperandKind::FImm32)
    n.imm = static_cast<int64_t>(static_cast<uint32_t>(n.imm) & 0x7fffffffu);
  else if (n.kind == OperandKind::FImm64)
    n.imm = static_cast<int64_t>(static_cast<uint64_t>(n.imm) & ~(1ull << 63));
  else {
    n.mods |= ori::OM_ABS;
    n.mods &= static_cast<uint8_t>(~ori::OM_NEG);
  }
  return n;
}

namespace {
// HW: the comparison modifiers of FSETP/DSETP/HSETP2 (sm90_forms.def FCMP/DCMP), one per
// PTX comparison word; the complement is the comparison that is true exactly when this
// one is false (NaN operands make every ordered comparison false and every unordered one
// true).
constexpr std::array kFloatCmps = {
    FloatCmp{"eq", Modifier::EQ, Modifier::NEU},  FloatCmp{"ne", Modifier::NE, Modifier::EQU},
    FloatCmp{"lt", Modifier::LT, Modifier::GEU},  FloatCmp{"le", Modifier::LE, Modifier::GTU},
    FloatCmp{"gt", Modifier::GT, Modifier::LEU},  FloatCmp{"ge", Modifier::GE, Modifier::LTU},
    FloatCmp{"equ", Modifier::EQU, Modifier::NE}, FloatCmp{"neu", Modifier::NEU, Modifier::EQ},
    FloatCmp{"ltu", Modifier::LTU, Modifier::GE}, FloatCmp{"leu", Modifier::LEU, Modifier::GT},
    FloatCmp{"gtu", Modifier::GTU, Modifier::LE}, FloatCmp{"geu", Modifier::GEU, Modifier::LT},
    FloatCmp{"num", Modifier::NUM, Modifier::NaN}, FloatCmp{"nan", Modifier::NaN, Modifier::NUM},
};
} // namespace

const FloatCmp *findFloatCmp(const ptx::Instruction &in) {
  for (const ptx::Modifier &m : in.modifiers)
    if (m.kind == ptx::Modifier::Kind::Other)
      for (const FloatCmp &c : kFloatCmps)
        if (c.ptx == m.text)
          return &c;
  return nullptr;
}

Modifier boolOp(const ptx::Instruction &in) {
  if (in.has("or"))
    return Modifier::OR;
  if (in.has("xor"))
    return Modifier::XOR;
  return Modifier::AND;
}

Operand guardAnd(LowerCtx &ctx, const Operand &p, bool neg) {
  Operand q = p;
  if (neg)
    q.mods ^= ori::OM_NOT;
  if (ctx.curGuard.kind == OperandKind::None)
    return q;
  Operand saved = ctx.curGuard;
  Operand both = ctx.temp(ori::RegClass::P);
  ctx.curGuard = {};
  // PLOP3.LUT over (a=0xf0, b=0xcc, c=0xaa): a & b = 0xc0.
  ctx.emit(ori::Opcode::PLOP3, {Modifier::LUT}, {both, PT()},
           {saved, q, PT(), imm(0xc0), imm(0)});
  ctx.curGuard = saved;
  return both;
}

SlowPath beginSlowPath(LowerCtx &ctx, const Operand &slow) {
  SlowPath sp;
  sp.guard = ctx.curGuard;
  Operand take = guardAnd(ctx, slow, false);
  take.mods ^= ori::OM_NOT;
  ctx.curGuard = take;
  ctx.emit(ori::Opcode::BRA, {}, {}, {Operand::block(0)}); // target patched by endSlowPath
  ctx.curGuard = {};
  sp.braBlock = ctx.curBlock;
  sp.braIndex = static_cast<uint32_t>(ctx.fn().blocks[ctx.curBlock].instrs.size() - 1);
  ctx.startBlock();
  return sp;
}

void endSlowPath(LowerCtx &ctx, const SlowPath &sp) {
  uint32_t join = ctx.startBlock();
  ctx.fn().blocks[sp.braBlock].instrs[sp.braIndex].ops.back() = Operand::block(join);
  ctx.curGuard = sp.guard;
}

GuardRegion beginGuardRegion(LowerCtx &ctx) {
  GuardRegion r;
  if (ctx.curGuard.kind == OperandKind::None)
    return r;
  r.active = true;
  r.sp.guard = ctx.curGuard;
  Operand skip = ctx.curGuard;
  skip.mods ^= ori::OM_NOT;
  ctx.curGuard = skip;
  ctx.emit(ori::Opcode::BRA, {}, {}, {Operand::block(0)}); // target patched by endGuardRegion
  ctx.curGuard = {};
  r.sp.braBlock = ctx.curBlock;
  r.sp.braIndex = static_cast<uint32_t>(ctx.fn().blocks[ctx.curBlock].instrs.size() - 1);
  ctx.startBlock();
  return r;
}

void endGuardRegion(LowerCtx &ctx, const GuardRegion &r) {
  if (r.active)
    endSlowPath(ctx, r.sp);
}

Operand protect(LowerCtx &ctx, const Operand &src, const Operand &dst) {
  if (src.kind != OperandKind::VReg || dst.kind != OperandKind::VReg || src.cls != dst.cls ||
      src.reg != dst.reg)
    return src;
  Operand t = ctx.temp(src.cls, src.width);
  Operand plain = src;
  plain.mods = 0;
  if (src.width == 1) {
    ctx.emit(ori::Opcode::MOV, {}, {t}, {plain});
  } else {
    for (unsigned k = 0; k < src.width; ++k)
      ctx.emit(ori::Opcode::MOV, {}, {component(t, k)}, {component(plain, k)});
  }
  t.mods = src.mods;
  return t;
}

} // namespace ptxmini::frontend::lower
