//===- frontend/lower/lower_sreg.cpp - reading PTX special registers --------------------===//
///
/// \file
/// `mov d, %sreg` for every PTX special register: the recipe comes from the target's table
/// (targets/sm_90/sm90_ptx_sregs.def, one row per register, documented there), so this file
/// only turns each recipe kind into Ori:
///   S2R        S2R d, SR                         CS2R32   CS2R.32 d, SR
///   S2RField   S2R t, SR; SHF.R.U32.HI t, RZ, a, t; SGXT.U32 d, t, b
///   CS2R64     CS2R d.64, SR                     CBank32  LDC d, c[0x0][a]
///   CBank64    LDC.64 d, c[0x0][a]               Const    MOV d, a
///   SmemLeft   S2UR u, SR; LDC t, c[0x0][a]; IADD3 d, -t, u, RZ
///   CBankIs1   LDC t, c[0x0][a]; ISETP.EQ.U32.AND p, PT, t, 0x1, PT
///   ClusterId  S2UR u, SR; I2FP.F32.U32 t, u; FMUL t, t, c[0x0][a]; F2I.U32.TRUNC.NTZ d, t
///   ClusterCtaid  the same into q; LDC n, c[0x0][b]; IADD3 m, -q, RZ, RZ; IMAD d, n, m, u
/// A name that is neither a declared register nor in the table is a special register
/// ptxas-mini cannot read yet, and says so.
//===----------------------------------------------------------------------------------===//
#include "frontend/lower/lower_context.h"

#include <llvm/ADT/StringRef.h>

#include <array>

namespace ptxmini::frontend::lower {
namespace {

using ori::Modifier;
using ori::Opcode;
using ori::Operand;
using ori::RegClass;

ori::SpecialReg sassReg(std::string_view name) {
  ori::SpecialReg r = ori::SpecialReg::NumSpecialRegs;
  ori::lookupSpecialReg(name, r);
  return r;
}

/// PTX's special register names (frontend/ptx_sregs.def): exact names, numbered families
/// (%envreg0..31) and .x/.y/.z/.w components.
struct PtxSreg {
  std::string_view name;
  unsigned count;
  bool components;
};
constexpr PtxSreg kPtxSregs[] = {
#define PTX_SREG(NAME, COUNT, TYPE, COMP) {NAME, COUNT, COMP},
#include "frontend/ptx_sregs.def"
};

bool isPtxSpecialRegisterName(std::string_view n) {
  for (const PtxSreg &r : kPtxSregs) {
    if (!n.starts_with(r.name))
      continue;
    std::string_view rest = n.substr(r.name.size());
    if (rest.empty() && !r.count && !r.components)
      return true;
    if (r.components && (rest == ".x" || rest == ".y" || rest == ".z" || rest == ".w"))
      return true;
    unsigned k = 0;
    if (r.count && !rest.empty() && !llvm::StringRef(rest).getAsInteger(10, k) && k < r.count)
      return true;
  }
  return false;
}

/// `mov d, %sreg`: in front of the other mov rows (an integer mov would take mov.pred).
bool movReadsSpecialRegister(const ptx::Instruction &in) {
  return in.operands.size() == 2 && in.operands[0].is<ptx::RegOperand>() &&
         in.operands[1].is<ptx::RegOperand>() &&
         isPtxSpecialRegisterName(in.operands[1].as<ptx::RegOperand>().name);
}

bool lowerMovSpecialRegister(LowerCtx &ctx, const ptx::Instruction &in) {
  if (!ctx.onlyModifiers(in, {}))
    return false;
  const std::string &name = in.operands[1].as<ptx::RegOperand>().name;
  if (isDeclaredRegister(ctx, name)) // a .reg that shadows a special register's name
    return ctx.unsupported(in, "A register named like the special register '" + name + "'");
  Operand d = ctx.reg(in, in.operands[0].as<ptx::RegOperand>().name);
  return d.kind != ori::OperandKind::None && lowerSpecialRegister(ctx, in, d, name);
}

constexpr std::array kRows = {
    HandlerRow{"mov", TypeClass::Any, lowerMovSpecialRegister, movReadsSpecialRegister},
};

} // namespace

std::span<const HandlerRow> specialRegisterHandlers() { return kRows; }

bool isDeclaredRegister(const LowerCtx &ctx, const std::string &name) {
  if (ctx.regTypes.count(name))
    return true;
  llvm::StringRef n(name);
  llvm::StringRef prefix = n.rtrim("0123456789");
  unsigned index = 0;
  if (prefix.size() < n.size() && !n.drop_front(prefix.size()).getAsInteger(10, index))
    if (auto r = ctx.regRanges.find(prefix); r != ctx.regRanges.end() && index < r->second.second)
      return true;
  return false;
}

bool lowerSpecialRegister(LowerCtx &ctx, const ptx::Instruction &in, const Operand &d,
                          const std::string &name) {
  const SpecialRegRead *row = ctx.target.specialReg(name);
  if (!row)
    return ctx.unsupported(in, "Special register '" + name + "'");
  ori::SpecialReg sr = sassReg(row->sass);
  bool needsSreg = !row->sass.empty();
  if (needsSreg && sr == ori::SpecialReg::NumSpecialRegs)
    return ctx.unsupported(in, "Special register '" + name + "' (" + std::string(row->sass) +
                                   " has no Ori name)");
  bool wide = row->how == SpecialRegRead::How::CS2R64 || row->how == SpecialRegRead::How::CBank64;
  bool pred = row->how == SpecialRegRead::How::CBankIs1;
  if ((d.cls == RegClass::P) != pred || (d.cls == RegClass::R && (d.width == 2) != wide))
    return ctx.unsupported(in, "This operand form of '" + in.fullOpcode() + "'");
  switch (row->how) {
  case SpecialRegRead::How::S2R:
    ctx.emit(Opcode::S2R, {}, {d}, {Operand::sreg(sr)});
    return true;
  case SpecialRegRead::How::S2RField: {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::S2R, {}, {t}, {Operand::sreg(sr)});
    Operand u = ctx.temp(RegClass::R);
    ctx.emit(Opcode::SHF, {Modifier::R, Modifier::U32, Modifier::HI}, {u},
             {RZ(), Operand::intImm(row->a), t});
    ctx.emit(Opcode::SGXT, {Modifier::U32}, {d}, {u, Operand::intImm(row->b)});
    return true;
  }
  case SpecialRegRead::How::CS2R32:
    ctx.emit(Opcode::CS2R, {Modifier::Size32}, {d}, {Operand::sreg(sr)});
    return true;
  case SpecialRegRead::How::CS2R64:
    ctx.emit(Opcode::CS2R, {}, {d}, {Operand::sreg(sr)});
    return true;
  case SpecialRegRead::How::CBank32:
    ctx.emit(Opcode::LDC, {}, {d}, {Operand::cbank(0, row->a)});
    return true;
  case SpecialRegRead::How::CBank64:
    ctx.emit(Opcode::LDC, {Modifier::Size64}, {d}, {Operand::cbank(0, row->a)});
    return true;
  case SpecialRegRead::How::Const:
    ctx.emit(Opcode::MOV, {}, {d}, {Operand::intImm(row->a)});
    return true;
  case SpecialRegRead::How::SmemLeft: {
    Operand u = ctx.temp(RegClass::UR);
    ctx.emit(Opcode::S2UR, {}, {u}, {Operand::sreg(sr)});
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LDC, {}, {t}, {Operand::cbank(0, row->a)});
    Operand nt = t;
    nt.mods |= ori::OM_NEG;
    ctx.emit(Opcode::IADD3, {}, {d}, {nt, u, RZ()});
    return true;
  }
  case SpecialRegRead::How::ClusterId:
  case SpecialRegRead::How::ClusterCtaid: {
    Operand u = ctx.temp(RegClass::UR);
    ctx.emit(Opcode::S2UR, {}, {u}, {Operand::sreg(sr)});
    Operand f = ctx.temp(RegClass::R);
    ctx.emit(Opcode::I2FP, {Modifier::F32, Modifier::U32}, {f}, {u});
    Operand g = ctx.temp(RegClass::R);
    ctx.emit(Opcode::FMUL, {}, {g}, {f, Operand::cbank(0, row->a)});
    bool id = row->how == SpecialRegRead::How::ClusterId;
    Operand q = id ? d : ctx.temp(RegClass::R);
    ctx.emit(Opcode::F2I, {Modifier::U32, Modifier::TRUNC, Modifier::NTZ}, {q}, {g});
    if (id)
      return true;
    Operand n = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LDC, {}, {n}, {Operand::cbank(0, row->b)});
    Operand m = ctx.temp(RegClass::R);
    Operand nq = q;
    nq.mods |= ori::OM_NEG;
    ctx.emit(Opcode::IADD3, {}, {m}, {nq, RZ(), RZ()});
    ctx.emit(Opcode::IMAD, {}, {d}, {n, m, u});
    return true;
  }
  case SpecialRegRead::How::CBankIs1: {
    Operand t = ctx.temp(RegClass::R);
    ctx.emit(Opcode::LDC, {}, {t}, {Operand::cbank(0, row->a)});
    ctx.emit(Opcode::ISETP, {Modifier::EQ, Modifier::U32, Modifier::AND}, {d, PT()},
             {t, Operand::intImm(1), PT()});
    return true;
  }
  }
  return ctx.unsupported(in, "Special register '" + name + "'");
}

} // namespace ptxmini::frontend::lower
