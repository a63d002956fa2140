//===- ori/validate.cpp - the Ori validator ---------------------------------------------===//
///
/// \file
/// Invariants checked, each with its own message:
///   1. operand counts: definitions and uses within the opcode's range (ori/opcodes.def);
///   2. operand kinds and register classes against the opcode's signature letters, operand
///      modifiers only where they mean something ('!' on predicates, '-' '|' '~' on sources);
///   3. guards are P/UP registers or PT/UPT;
///   4. virtual registers are declared in the register table with the width they are used
///      with, and components lie inside the register;
///   5. blocks: branches and terminators only as the last instruction; the last block does
///      not fall off the end of the function; label operands name existing blocks;
///   6. CFG consistency: succs are what the terminators say, preds mirror succs;
///   7. every virtual register that is read has at least one definition in the function;
///   8. a CALL ends its block and names an entry of the callee table.
//===----------------------------------------------------------------------------------===//
#include "ori/validate.h"

#include "ori/cfg.h"
#include "ori/print.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>
#include <sstream>

namespace ptxmini::ori {

namespace {

struct Ctx {
  const Function &f;
  std::vector<std::string> errors;

  void report(uint32_t b, int32_t i, const std::string &msg) {
    std::ostringstream os;
    os << '@' << f.name << ' ' << (b < f.blocks.size() ? f.blocks[b].name : "?");
    if (i >= 0) {
      const Instr &in = f.blocks[b].instrs[i];
      os << ", instruction " << i;
      if (in.srcLine)
        os << " (line " << in.srcLine << ')';
      os << ' ' << in.info().name;
    }
    os << ": " << msg;
    errors.push_back(os.str());
  }
};

std::string slotDescription(OperandSlot s) {
  switch (s) {
  case OperandSlot::GPR: return "an R register";
  case OperandSlot::UGPR: return "a UR register";
  case OperandSlot::Pred: return "a P register";
  case OperandSlot::UPred: return "a UP register";
  case OperandSlot::Barrier: return "a B register";
  case OperandSlot::AluSrc: return "an R/UR register, immediate or constant-bank operand";
  case OperandSlot::UniSrc: return "a UR register, immediate or constant-bank operand";
  case OperandSlot::PredSrc: return "a P/UP register";
  case OperandSlot::UPredSrc: return "a UP register";
  case OperandSlot::Imm: return "an integer immediate";
  case OperandSlot::CBank: return "a constant-bank operand";
  case OperandSlot::Mem: return "a memory address ([R/UR base + offset], desc[UR pair] optional)";
  case OperandSlot::Label: return "a block label";
  case OperandSlot::Func: return "a function (or the GPR of an indirect call)";
  case OperandSlot::SpecialReg: return "a special register";
  case OperandSlot::AluOrPredSrc: return "an ALU source or a P/UP register";
  }
  return "?";
}

bool regOf(const Operand &o, std::initializer_list<RegClass> classes) {
  return o.isReg() && llvm::is_contained(classes, o.cls);
}

bool matchesSlot(const Operand &o, OperandSlot s) {
  switch (s) {
  case OperandSlot::GPR: return regOf(o, {RegClass::R});
  case OperandSlot::UGPR: return regOf(o, {RegClass::UR});
  case OperandSlot::Pred: return regOf(o, {RegClass::P});
  case OperandSlot::UPred: return regOf(o, {RegClass::UP});
  case OperandSlot::Barrier: return regOf(o, {RegClass::B});
  case OperandSlot::AluSrc:
    return regOf(o, {RegClass::R, RegClass::UR}) || o.isImm() || o.kind == OperandKind::CBank;
  case OperandSlot::UniSrc:
    return regOf(o, {RegClass::UR}) || o.isImm() || o.kind == OperandKind::CBank;
  case OperandSlot::PredSrc: return regOf(o, {RegClass::P, RegClass::UP});
  case OperandSlot::UPredSrc: return regOf(o, {RegClass::UP});
  case OperandSlot::Imm: return o.kind == OperandKind::Imm;
  case OperandSlot::CBank: return o.kind == OperandKind::CBank;
  case OperandSlot::Mem:
    return o.kind == OperandKind::Mem &&
           (!o.hasMemBase() || o.cls == RegClass::R || o.cls == RegClass::UR) &&
           (!o.hasMemDesc() || (o.memDesc().cls == RegClass::UR && o.memDesc().width == 2));
  case OperandSlot::Label: return o.kind == OperandKind::Block;
  case OperandSlot::Func: return o.kind == OperandKind::Func || regOf(o, {RegClass::R});
  case OperandSlot::SpecialReg: return o.kind == OperandKind::SReg;
  case OperandSlot::AluOrPredSrc:
    return matchesSlot(o, OperandSlot::AluSrc) || matchesSlot(o, OperandSlot::PredSrc);
  }
  return false;
}

std::string countRange(unsigned lo, unsigned hi, const char *what) {
  std::string s = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  return s + " " + what;
}

void checkVReg(Ctx &c, uint32_t b, int32_t i, const Operand &o) {
  if (o.kind != OperandKind::VReg)
    return;
  const Function &f = c.f;
  std::string name = std::string(vregPrefix(o.cls)) + std::to_string(o.reg);
  if (o.reg >= f.numRegs(o.cls) || f.regInfo(o.cls, o.reg).width == 0) {
    c.report(b, i, "virtual register " + name + " is not in the register table");
    return;
  }
  unsigned w = f.regInfo(o.cls, o.reg).width;
  if (w != o.width)
    c.report(b, i, "virtual register " + name + " is used with width " +
                       std::to_string(o.width * 32) + " but the register table says " +
                       std::to_string(w * 32));
  if (o.sub != kWholeReg && o.sub >= o.width)
    c.report(b, i, "component " + std::to_string(o.sub) + " of " + name + " is outside it");
}

void checkInstr(Ctx &c, uint32_t b, int32_t i) {
  const Instr &in = c.f.blocks[b].instrs[i];
  const OpcodeInfo &info = in.info();
  if (in.numDefs > in.ops.size()) {
    c.report(b, i, "numDefs exceeds the operand count");
    return;
  }
  // Implicit operands (OM_IMPLICIT: the rest of a wgmma accumulator) are outside the
  // signature.
  auto isImplicit = [](const Operand &o) { return (o.mods & OM_IMPLICIT) != 0; };
  unsigned nd = static_cast<unsigned>(llvm::count_if(in.defs(), std::not_fn(isImplicit)));
  unsigned nu = static_cast<unsigned>(llvm::count_if(in.uses(), std::not_fn(isImplicit)));
  if (nd < info.minDefs || nd > info.maxDefs)
    c.report(b, i, "expects " + countRange(info.minDefs, info.maxDefs, "definition(s)") +
                       ", found " + std::to_string(nd));
  if (nu < info.minUses || nu > info.maxUses)
    c.report(b, i, "expects " + countRange(info.minUses, info.maxUses, "use(s)") + ", found " +
                       std::to_string(nu));
  for (unsigned k = 0; k < nd && k < info.maxDefs; ++k) {
    const Operand &o = in.ops[k];
    if (!matchesSlot(o, info.defSlots[k]))
      c.report(b, i, "definition " + std::to_string(k) + " must be " +
                         slotDescription(info.defSlots[k]));
    if (o.mods & (OM_NOT | OM_NEG | OM_ABS | OM_INV))
      c.report(b, i, "definition " + std::to_string(k) + " carries an operand modifier");
  }
  for (unsigned k = 0; k < nu && k < info.maxUses; ++k) {
    const Operand &o = in.ops[in.numDefs + k];
    OperandSlot s = info.useSlots[k];
    // A MOV may take a block's address (a call's return point, calling_convention.h).
    bool codeAddress = in.op == Opcode::MOV && o.kind == OperandKind::Block;
    if (!matchesSlot(o, s) && !codeAddress)
      c.report(b, i, "use " + std::to_string(k) + " must be " + slotDescription(s));
    bool pred = s == OperandSlot::PredSrc || s == OperandSlot::UPredSrc ||
                (s == OperandSlot::AluOrPredSrc && isPredicateClass(o.cls) && o.isReg());
    if ((o.mods & OM_NOT) && !pred)
      c.report(b, i, "use " + std::to_string(k) + ": '!' applies to predicate operands only");
    if ((o.mods & (OM_NEG | OM_ABS | OM_INV)) && (pred || !(o.isReg() || o.kind == OperandKind::CBank)))
      c.report(b, i, "use " + std::to_string(k) + ": '-', '|..|' and '~' apply to register "
                     "and constant-bank sources only");
    if (o.kind == OperandKind::Block && o.reg >= c.f.blocks.size())
      c.report(b, i, "use " + std::to_string(k) + " names a block that does not exist");
    if (o.kind == OperandKind::Func && o.reg >= c.f.callees.size())
      c.report(b, i, "use " + std::to_string(k) + " names a function not in the callee table");
  }
  if (in.guard.kind != OperandKind::None &&
      (!regOf(in.guard, {RegClass::P, RegClass::UP}) || (in.guard.mods & ~OM_NOT) ||
       in.guard.width != 1))
    c.report(b, i, "the guard must be a P/UP register or PT/UPT, optionally negated");
  for (const Operand &o : in.ops)
    for (const Operand &v : o.vregs())
      checkVReg(c, b, i, v);
  checkVReg(c, b, i, in.guard);
  bool last = static_cast<size_t>(i) + 1 == c.f.blocks[b].instrs.size();
  if (!last && (info.has(OF_TERM) || info.has(OF_BR)))
    c.report(b, i, "a branch or terminator must be the last instruction of its block");
  // The calling convention (targets/calling_convention.h): a call ends its block, so the
  // registers it reads and writes implicitly are live to the block's end / from the next
  // block's start, and its return address is the next block's label.
  if (!last && in.op == Opcode::CALL)
    c.report(b, i, "a CALL must be the last instruction of its block");
}

} // namespace

std::vector<std::string> validateFunction(const Function &f) {
  Ctx c{f, {}};
  if (f.blocks.empty()) {
    c.report(0, -1, "function has no blocks");
    return c.errors;
  }
  for (uint32_t b = 0; b < f.blocks.size(); ++b)
    for (int32_t i = 0; i < static_cast<int32_t>(f.blocks[b].instrs.size()); ++i)
      checkInstr(c, b, i);

  // The last block in layout order must not fall through past the end.
  const Block &lastBlock = f.blocks.back();
  if (lastBlock.instrs.empty() || !lastBlock.instrs.back().isUnconditionalTerminator())
    c.report(static_cast<uint32_t>(f.blocks.size() - 1), -1,
             "the last block falls off the end of the function (it must end with an "
             "unconditional EXIT, RET or BRA)");

  // CFG consistency.
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const Block &blk = f.blocks[b];
    if (blk.succs != computeSuccessors(f, b))
      c.report(b, -1, "successor list does not match the block's terminator");
    for (uint32_t s : blk.succs)
      if (s >= f.blocks.size() || !llvm::is_contained(f.blocks[s].preds, b))
        c.report(b, -1, "successor " + (s < f.blocks.size() ? f.blocks[s].name : "?") +
                            " does not list this block as a predecessor");
    for (uint32_t p : blk.preds)
      if (p >= f.blocks.size() || !llvm::is_contained(f.blocks[p].succs, b))
        c.report(b, -1, "predecessor " + (p < f.blocks.size() ? f.blocks[p].name : "?") +
                            " does not list this block as a successor");
  }

  // Every read virtual register has a definition somewhere.
  std::array<llvm::BitVector, kNumRegClasses> defined;
  for (unsigned k = 0; k < kNumRegClasses; ++k)
    defined[k].resize(f.numRegs(static_cast<RegClass>(k)));
  for (const Block &blk : f.blocks)
    for (const Instr &in : blk.instrs)
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::VReg && d.reg < defined[size_t(d.cls)].size())
          defined[size_t(d.cls)].set(d.reg);
  for (uint32_t b = 0; b < f.blocks.size(); ++b) {
    const Block &blk = f.blocks[b];
    for (int32_t i = 0; i < static_cast<int32_t>(blk.instrs.size()); ++i) {
      const Instr &in = blk.instrs[i];
      auto check = [&](const Operand &o) {
        if (o.kind == OperandKind::VReg && o.reg < defined[size_t(o.cls)].size() &&
            !defined[size_t(o.cls)].test(o.reg))
          c.report(b, i, "virtual register " + std::string(vregPrefix(o.cls)) +
                             std::to_string(o.reg) + " is used but never defined");
      };
      for (const Operand &o : in.uses())
        for (const Operand &v : o.vregs())
          check(v);
      check(in.guard);
    }
  }
  return c.errors;
}

std::vector<std::string> validateProgram(const Program &p) {
  std::vector<std::string> all;
  for (const Function &f : p.functions) {
    auto e = validateFunction(f);
    all.insert(all.end(), e.begin(), e.end());
  }
  return all;
}

} // namespace ptxmini::ori
