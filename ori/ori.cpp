//===- ori/ori.cpp - the Ori tables (opcodes, modifiers, registers) and register table --===//
///
/// \file
/// Builds the opcode property table from ori/opcodes.def once (the signature strings are
/// decoded into per-position operand slots and min/max operand counts), and answers name
/// lookups for opcodes, modifiers and special registers. Also the Function's register table.
//===----------------------------------------------------------------------------------===//
#include "ori/ori.h"

#include "llvm/ADT/StringMap.h"

#include <cassert>
#include <cstdlib>
#include <cstdio>

namespace ptxmini::ori {

namespace {

// Decodes one side ("RP?P?") of a signature. Aborts on a malformed table row: that is a
// programming error in opcodes.def, caught by the first test run.
void decodeSide(std::string_view name, std::string_view side, uint8_t &minN, uint8_t &maxN,
                std::array<OperandSlot, 8> &slots) {
  minN = maxN = 0;
  bool sawOptional = false;
  for (size_t i = 0; i < side.size(); ++i) {
    char c = side[i];
    bool optional = i + 1 < side.size() && side[i + 1] == '?';
    if (maxN >= slots.size() || std::string_view("RUPQBsupqICMLSxF").find(c) == std::string_view::npos ||
        (sawOptional && !optional)) {
      std::fprintf(stderr, "ori/opcodes.def: malformed signature for %.*s\n",
                   static_cast<int>(name.size()), name.data());
      std::abort();
    }
    slots[maxN++] = static_cast<OperandSlot>(c);
    if (optional) {
      sawOptional = true;
      ++i;
    } else {
      ++minN;
    }
  }
}

struct Tables {
  std::vector<OpcodeInfo> opcodes;
  llvm::StringMap<Opcode> opcodeByName;
  llvm::StringMap<Modifier> modifierByName;
  llvm::StringMap<SpecialReg> sregByName;

  Tables() {
    auto add = [&](std::string_view name, std::string_view sig, uint16_t flags, LatClass lat) {
      OpcodeInfo info{name, sig, flags, lat, 0, 0, 0, 0, {}, {}};
      size_t colon = sig.find(':');
      assert(colon != std::string_view::npos && "signature needs a ':'");
      decodeSide(name, sig.substr(0, colon), info.minDefs, info.maxDefs, info.defSlots);
      decodeSide(name, sig.substr(colon + 1), info.minUses, info.maxUses, info.useSlots);
      opcodeByName[name] = static_cast<Opcode>(opcodes.size());
      opcodes.push_back(info);
    };
#define OPCODE(Name, Sig, Flags, Lat) add(#Name, Sig, Flags, LatClass::Lat);
#include "ori/opcodes.def"
#undef OPCODE
#define MODIFIER(Id, Spelling, Cat) modifierByName[Spelling] = Modifier::Id;
#include "ori/modifiers.def"
#undef MODIFIER
#define SPECIAL_REG(Id, Spelling) sregByName[Spelling] = SpecialReg::Id;
#include "ori/special_regs.def"
#undef SPECIAL_REG
  }
};

const Tables &tables() {
  static const Tables t;
  return t;
}

constexpr std::string_view kModifierSpellings[] = {
#define MODIFIER(Id, Spelling, Cat) Spelling,
#include "ori/modifiers.def"
#undef MODIFIER
};
constexpr ModifierCategory kModifierCategories[] = {
#define MODIFIER(Id, Spelling, Cat) ModifierCategory::Cat,
#include "ori/modifiers.def"
#undef MODIFIER
};
constexpr std::string_view kSpecialRegNames[] = {
#define SPECIAL_REG(Id, Spelling) Spelling,
#include "ori/special_regs.def"
#undef SPECIAL_REG
};
constexpr std::string_view kInstrFlagNames[] = {
#define ORI_X(Id, Spelling) Spelling,
    ORI_INSTR_FLAGS(ORI_X)
#undef ORI_X
};

} // namespace

const OpcodeInfo &opcodeInfo(Opcode op) { return tables().opcodes[static_cast<size_t>(op)]; }

bool lookupOpcode(std::string_view name, Opcode &out) {
  auto &m = tables().opcodeByName;
  auto it = m.find(name);
  if (it == m.end())
    return false;
  out = it->second;
  return true;
}

std::string_view latClassName(LatClass c) {
  static constexpr std::string_view kNames[] = {
      "Alu",    "Imad",   "Fp32",    "Fp64",   "Half",  "Sfu",    "Conv",   "Mem",    "Shared",
      "Const",  "Special", "Branch", "Ctrl",   "Uni",   "ImadWide", "Mma",  "UniMov", "R2ur",
      "ImadWideHi", "Imma", "PredOp", "Hfma", "HfmaMma", "Gmma"};
  static_assert(std::size(kNames) == kNumLatClasses);
  return kNames[static_cast<size_t>(c)];
}

std::string_view modifierSpelling(Modifier m) {
  return kModifierSpellings[static_cast<size_t>(m)];
}
ModifierCategory modifierCategory(Modifier m) {
  return kModifierCategories[static_cast<size_t>(m)];
}
bool lookupModifier(std::string_view spelling, Modifier &out) {
  auto &m = tables().modifierByName;
  auto it = m.find(spelling);
  if (it == m.end())
    return false;
  out = it->second;
  return true;
}

std::string_view specialRegName(SpecialReg r) { return kSpecialRegNames[static_cast<size_t>(r)]; }
bool lookupSpecialReg(std::string_view name, SpecialReg &out) {
  auto &m = tables().sregByName;
  auto it = m.find(name);
  if (it == m.end())
    return false;
  out = it->second;
  return true;
}

std::string_view instrFlagName(InstrFlag f) { return kInstrFlagNames[static_cast<size_t>(f)]; }

std::string_view vregPrefix(RegClass c) {
  constexpr std::string_view p[] = {"%r", "%ur", "%p", "%up", "%b"};
  return p[static_cast<size_t>(c)];
}
std::string_view pregPrefix(RegClass c) {
  constexpr std::string_view p[] = {"R", "UR", "P", "UP", "B"};
  return p[static_cast<size_t>(c)];
}
std::string_view fixedRegName(RegClass c) {
  constexpr std::string_view p[] = {"RZ", "URZ", "PT", "UPT", ""};
  return p[static_cast<size_t>(c)];
}

bool Instr::hasEffects() const {
  const OpcodeInfo &i = info();
  return i.has(OF_SIDE) || i.has(OF_ST) || i.has(OF_BAR) || i.has(OF_BR) || i.has(OF_TERM) ||
         hasFlag(IF_Volatile_bit);
}

bool Instr::isPureValue() const {
  const OpcodeInfo &i = info();
  if (hasEffects() || i.has(OF_WARP) || (i.has(OF_LD) && op != Opcode::LDC))
    return false;
  if (op == Opcode::R2P || op == Opcode::P2R || op == Opcode::NOP)
    return false;
  for (const Operand &o : ops) {
    if (o.kind == OperandKind::PReg && !o.isFixed())
      return false;
    if (o.kind == OperandKind::SReg && !specialRegIsStable(static_cast<SpecialReg>(o.reg)))
      return false;
    for (const Operand &v : o.vregs())
      if (v.kind == OperandKind::PReg && !v.isFixed())
        return false;
  }
  bool anyVRegDef = false;
  for (const Operand &d : defs()) {
    if (d.kind == OperandKind::VReg)
      anyVRegDef = true;
    else if (!(d.kind == OperandKind::PReg && d.isFixed()))
      return false;
  }
  return anyVRegDef;
}

bool Instr::writesVReg(RegClass c, uint32_t reg) const {
  for (const Operand &d : defs())
    if (d.kind == OperandKind::VReg && d.cls == c && d.reg == reg)
      return true;
  return false;
}

bool specialRegIsStable(SpecialReg r) {
  switch (r) {
  case SpecialReg::TID_X: case SpecialReg::TID_Y: case SpecialReg::TID_Z:
  case SpecialReg::CTAID_X: case SpecialReg::CTAID_Y: case SpecialReg::CTAID_Z:
  case SpecialReg::LANEID: case SpecialReg::EQMASK: case SpecialReg::LTMASK:
  case SpecialReg::LEMASK: case SpecialReg::GTMASK: case SpecialReg::GEMASK:
    return true;
  default:
    return false;
  }
}

bool signedImmediateField(Opcode op) {
  return op == Opcode::IADD3 || op == Opcode::IMAD || op == Opcode::ISETP ||
         op == Opcode::VIMNMX;
}

void spellImmediates(Instr &in) {
  bool sgn = signedImmediateField(in.op);
  for (Operand &o : in.uses()) {
    if (o.kind != OperandKind::Imm)
      continue;
    auto v = static_cast<uint32_t>(o.imm);
    o.imm = sgn ? static_cast<int64_t>(static_cast<int32_t>(v)) : static_cast<int64_t>(v);
  }
}

bool Instr::hasModifier(Modifier m) const {
  for (Modifier x : mods)
    if (x == m)
      return true;
  return false;
}

RegInfo &Function::declareReg(RegClass c, uint32_t n, uint8_t width) {
  auto &v = regs_[idx(c)];
  if (n >= v.size())
    v.resize(n + 1);
  if (v[n].width == 0)
    v[n].width = width;
  return v[n];
}

Operand Function::newReg(RegClass c, uint8_t width) {
  uint32_t n = numRegs(c);
  declareReg(c, n, width);
  return Operand::vreg(c, n, width);
}

void Function::recomputeRegTable() {
  for (auto &v : regs_)
    for (RegInfo &r : v)
      r.defBlock = kNoBlock, r.defCount = 0, r.useCount = 0;
  auto row = [&](const Operand &o) -> RegInfo * {
    auto &v = regs_[idx(o.cls)];
    return o.reg < v.size() ? &v[o.reg] : nullptr;
  };
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    for (const Instr &in : blocks[b].instrs) {
      for (unsigned i = 0; i < in.ops.size(); ++i) {
        const Operand &o = in.ops[i];
        if (i < in.numDefs && o.kind == OperandKind::VReg) {
          if (RegInfo *r = row(o); r && r->defCount++ == 0)
            r->defBlock = static_cast<int32_t>(b);
          continue;
        }
        for (const Operand &v : o.vregs())
          if (RegInfo *r = row(v))
            ++r->useCount;
      }
      if (in.guard.kind == OperandKind::VReg)
        if (RegInfo *r = row(in.guard))
          ++r->useCount;
    }
  }
}

uint32_t Function::calleeIndex(std::string_view calleeName) {
  for (size_t i = 0; i < callees.size(); ++i)
    if (callees[i] == calleeName)
      return static_cast<uint32_t>(i);
  callees.emplace_back(calleeName);
  calleeClobbers.resize(callees.size());
  return static_cast<uint32_t>(callees.size() - 1);
}

int32_t Function::findBlock(std::string_view blockName) const {
  for (size_t i = 0; i < blocks.size(); ++i)
    if (blocks[i].name == blockName)
      return static_cast<int32_t>(i);
  return kNoBlock;
}

uint32_t Function::flatRegIndex(RegClass c, uint32_t n) const {
  uint32_t base = 0;
  for (size_t k = 0; k < idx(c); ++k)
    base += static_cast<uint32_t>(regs_[k].size());
  return base + n;
}

uint32_t Function::numFlatRegs() const {
  uint32_t n = 0;
  for (auto &v : regs_)
    n += static_cast<uint32_t>(v.size());
  return n;
}

} // namespace ptxmini::ori
