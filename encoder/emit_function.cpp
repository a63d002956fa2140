//===- encoder/emit_function.cpp - an allocated, scheduled Ori function to machine code -===//
///
/// \file
/// Lays the blocks out in order (16 bytes an instruction), prints each instruction in
/// nvdisasm's syntax and assembles it with the same tables sass-mc uses, so the compiler and
/// the assembler can never disagree on an encoding. The register count follows what ptxas
/// reports: the highest GPR used, plus one, plus two (HW: observed with ptxas 13.0.88 -v on
/// sm_90: a kernel using R0-R7 reports 10 registers, one using only R1 reports 4).
//===----------------------------------------------------------------------------------===//
#include "encoder/emit_function.h"

#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"
#include "encoder/sass_template.h"
#include "targets/common/volta_word.h"
#include "targets/isa_caps.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace ptxmini::enc {
namespace {

using ori::Operand;
using ori::OperandKind;

void printReg(const Operand &r, bool inMemory, std::ostream &os) {
  if (r.reg == ori::kFixedReg)
    os << ori::fixedRegName(r.cls);
  else
    os << ori::pregPrefix(r.cls) << r.reg;
  if (inMemory && r.width == 2 && r.cls == ori::RegClass::R)
    os << ".64";
}

/// Opcodes whose [R + UR + imm] address nvdisasm prints with its uniform term even when that
/// is URZ (`SYNCS.ARRIVE.TRANS64.A1T0 R2, [R4+URZ], RZ`: the `U!` address term of
/// targets/sm_90/sm90_forms.def); Ori's memory operand has no uniform term, so it is URZ.
constexpr std::array kUrzAddressOpcodes = {ori::Opcode::SYNCS, ori::Opcode::ARRIVES};

bool printsUrz(const ori::Instr &in, const Operand &base) {
  return base.cls == ori::RegClass::R &&
         std::find(kUrzAddressOpcodes.begin(), kUrzAddressOpcodes.end(), in.op) !=
             kUrzAddressOpcodes.end();
}

void printOperand(const ori::Function &f, const ori::Instr &in, const Operand &o,
                  const std::vector<uint32_t> &blockAddr,
                  const std::map<std::string, uint32_t> *calleeOffset, std::ostream &os) {
  if (o.mods & ori::OM_NOT)
    os << '!';
  if (o.mods & ori::OM_INV)
    os << '~';
  if (o.mods & ori::OM_NEG)
    os << '-';
  if (o.mods & ori::OM_ABS)
    os << '|';
  switch (o.kind) {
  case OperandKind::PReg:
    printReg(o, false, os);
    break;
  case OperandKind::Imm:
    os << formatHex(o.imm);
    break;
  case OperandKind::FImm32:
    os << formatF32(static_cast<uint32_t>(o.imm));
    break;
  case OperandKind::FImm64:
    // The f64 immediate fields ({D@32}) hold the upper 32 bits of the double; a value with
    // low bits set has no immediate form (LegalizeOperands moves it into a register pair).
    if (static_cast<uint32_t>(o.imm) == 0)
      os << formatF64High(static_cast<uint32_t>(static_cast<uint64_t>(o.imm) >> 32));
    else
      os << "<unencodable operand>";
    break;
  case OperandKind::CBank:
    os << "c[" << formatHex(o.reg) << "][";
    if (o.hasCbankIndex()) {
      // LDC's register index: c[0x3][R2+0x8]
      printReg(o.cbankIndex(), false, os);
      if (o.cbankOffset() > 0)
        os << '+' << formatHex(o.cbankOffset());
      else if (o.cbankOffset() < 0)
        os << formatHex(o.cbankOffset());
    } else if (o.cbankOffset() == 0 && in.op == ori::Opcode::LDC) {
      // nvdisasm writes LDC's zero offset as its (zero) index register.
      os << "RZ";
    } else {
      // HW: the offset field is a signed 16-bit byte offset and the bank 64 KiB, so offsets
      // 0x8000..0xffff are written negative: ptxas 13.0 loads a kernel parameter at
      // c[0x0][0x8200] (past 32 KiB of parameters) as `LDC.64 R2, c[0x0][-0x7e00]`.
      int32_t off = o.cbankOffset();
      os << formatHex(off >= 0x8000 && off <= 0xffff ? off - 0x10000 : off);
    }
    os << ']';
    break;
  case OperandKind::Mem: {
    if (Operand d = o.memDesc(); d.kind != OperandKind::None) {
      os << "desc[";
      printReg(d, false, os);
      os << ']';
    }
    os << '[';
    if (o.hasMemBase()) {
      // HW: nvdisasm 13.2 prints a 64-bit base as R.64 only beside a descriptor; without
      // one (ATOMG.E.CAS, CCTL.E.PF1, SULD/SUST coordinates: `SUST.D.BA.2D [R2], R0, UR4`)
      // the same pair prints [R2] (the .64 bit then means something else).
      printReg(o.memBase(), o.hasMemDesc(), os);
      if (printsUrz(in, o.memBase()))
        os << "+URZ";
      // HW: a negative offset prints as `[R2.64+-0x8]` (nvdisasm 13.2 on ptxas 13.0 code for
      // `ld.global [%rd+-8]`).
      if (o.memOffset() != 0)
        os << '+' << formatHex(o.memOffset());
    } else {
      os << formatHex(o.memOffset());
    }
    os << ']';
    break;
  }
  case OperandKind::Block:
    os << formatHex(o.reg < blockAddr.size() ? blockAddr[o.reg] : 0);
    break;
  case OperandKind::SReg:
    os << ori::specialRegName(static_cast<ori::SpecialReg>(o.reg));
    break;
  case OperandKind::Func: {
    // A call target: the callee's section offset (0 while only probing the encoding).
    uint32_t addr = 0;
    if (calleeOffset && o.reg < f.callees.size())
      if (auto it = calleeOffset->find(f.callees[o.reg]); it != calleeOffset->end())
        addr = it->second;
    os << formatHex(addr);
    break;
  }
  default:
    os << "<unencodable operand>";
    break;
  }
  if (o.mods & ori::OM_ABS)
    os << '|';
}

/// Integer immediates nvdisasm prints as words: the texture dimension of TEX / TLD and the
/// query of TXQ. The value is the encoding's field value (targets/sm_90/sm90_forms.def
/// TEXDIM and TXQ rows), the name its text. HW: names read off nvdisasm 13.2 for ptxas 13.0's
/// TEX/TLD/TXQ words (frontend/lower/lower_tex.cpp uses the same values).
struct NamedImmRow {
  ori::Opcode op;
  unsigned use; ///< position among the uses
  std::array<std::string_view, 8> names;
};
constexpr std::array<std::string_view, 8> kTexDims = {
    "1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_3D", "ARRAY_CUBE"};
constexpr std::array kNamedImms = {
    NamedImmRow{ori::Opcode::TEX, 4, kTexDims},
    NamedImmRow{ori::Opcode::TLD, 3, kTexDims},
    NamedImmRow{ori::Opcode::TXQ, 1,
                {"TEX_HEADER_DIMENSION", "TEX_HEADER_TEXTURE_TYPE", "TEX_HEADER_SAMPLER_POS"}},
};

/// Text nvdisasm prints right after a register operand: IMMA's layout marks
/// (`IMMA.16832.S8.S8 R4, R4.ROW, R8.COL, R12`; HW: nvdisasm 13.2 on ptxas 13.0's mma.sync
/// words, targets/sm_90/sm90_forms.def IMMA rows).
struct OperandSuffixRow {
  ori::Opcode op;
  unsigned use; ///< position among the uses
  std::string_view text;
};
constexpr std::array kOperandSuffixes = {
    OperandSuffixRow{ori::Opcode::IMMA, 0, ".ROW"},
    OperandSuffixRow{ori::Opcode::IMMA, 1, ".COL"},
};

std::string_view operandSuffix(const ori::Instr &in, size_t i) {
  size_t defs = in.defs().size();
  for (const OperandSuffixRow &r : kOperandSuffixes)
    if (r.op == in.op && i == defs + r.use)
      return r.text;
  return {};
}

/// The name operand `i` of `in` prints as, or empty.
std::string_view immName(const ori::Instr &in, size_t i) {
  const Operand &o = in.ops[i];
  if (o.kind != OperandKind::Imm || o.imm < 0 || o.imm >= 8)
    return {};
  size_t defs = in.defs().size();
  for (const NamedImmRow &r : kNamedImms)
    if (r.op == in.op && i == defs + r.use)
      return r.names[static_cast<size_t>(o.imm)];
  return {};
}

bool isAbiCall(const ori::Instr &in) {
  return in.op == ori::Opcode::CALL &&
         std::find(in.mods.begin(), in.mods.end(), ori::Modifier::ABS) != in.mods.end();
}

/// An indirect call (frontend/lower/lower_call.cpp): CALL.REL with the pseudo-callee
/// "(indirect)" and the register holding the target's code offset.
bool isIndirectCall(const ori::Instr &in) {
  if (in.op != ori::Opcode::CALL || isAbiCall(in))
    return false;
  for (const Operand &o : in.uses())
    if (o.isReg())
      return true;
  return false;
}

bool isGmma(const ori::Instr &in) {
  return in.op == ori::Opcode::HGMMA || in.op == ori::Opcode::IGMMA ||
         in.op == ori::Opcode::QGMMA;
}

/// Modifiers nvdisasm prints inside a warpgroup MMA's operand list rather than after its
/// opcode: `HGMMA.64x8x16.F32 R24, gdesc[UR4].tnspA.negB, R24, UP0, gsb0` (HW: nvdisasm 13.2
/// text of ptxas 13.0's wgmma words, targets/sm_90/sm90_forms.def GMMA rows).
bool isGmmaOperandMod(ori::Modifier m) {
  using ori::Modifier;
  return m == Modifier::NegA || m == Modifier::NegB || m == Modifier::TnspA ||
         m == Modifier::TnspB || m == Modifier::GSB0;
}

/// A warpgroup MMA: d, [a,] gdesc[desc]{.negA .tnspA .tnspB .negB}, c[, pred][, gsb0]. The
/// implicit operands (the rest of the accumulator) are not printed; the predicate is left out
/// when it is UPT, as nvdisasm does.
void printGmmaOperands(const ori::Function &f, const ori::Instr &in,
                       const std::vector<uint32_t> &blockAddr, std::ostream &os) {
  auto uses = in.uses();
  auto op = [&](const Operand &o) { printOperand(f, in, o, blockAddr, nullptr, os); };
  os << ' ';
  op(in.ops[0]);
  bool regA = uses.size() > 3 && !(uses[3].mods & ori::OM_IMPLICIT);
  os << ", ";
  if (regA) {
    op(uses[0]);
    os << ", gdesc[";
    op(uses[3]);
  } else {
    os << "gdesc[";
    op(uses[0]);
  }
  os << ']';
  // HW: nvdisasm 13.2 prints `gdesc[UR8].negB.tnspB` (probe: imm-scale-b -1, imm-trans-b 1).
  for (ori::Modifier m : {ori::Modifier::NegA, ori::Modifier::TnspA, ori::Modifier::NegB,
                          ori::Modifier::TnspB})
    if (in.hasModifier(m))
      os << '.' << ori::modifierSpelling(m);
  os << ", ";
  op(uses[1]);
  const Operand &p = uses[2];
  if (!(p.kind == OperandKind::PReg && p.isFixed() && !(p.mods & ori::OM_NOT))) {
    os << ", ";
    op(p);
  }
  if (in.hasModifier(ori::Modifier::GSB0))
    os << ", gsb0";
}

} // namespace

std::string sassText(const ori::Function &f, const ori::Instr &in,
                     const std::vector<uint32_t> &blockAddr,
                     const std::map<std::string, uint32_t> *calleeOffset) {
  std::ostringstream os;
  if (in.guard.kind != OperandKind::None && !in.isAlwaysTrueGuard()) {
    os << '@';
    printOperand(f, in, in.guard, blockAddr, calleeOffset, os);
    os << ' ';
  }
  os << in.info().name;
  for (ori::Modifier m : in.mods)
    if (!isGmma(in) || !isGmmaOperandMod(m))
      os << '.' << ori::modifierSpelling(m);
  if (isGmma(in)) {
    printGmmaOperands(f, in, blockAddr, os);
    return os.str();
  }
  // WARPGROUP.DEPBAR.LE gsb0, n
  if (in.op == ori::Opcode::WARPGROUP && in.hasModifier(ori::Modifier::DEPBAR)) {
    os << " gsb0, ";
    printOperand(f, in, in.uses()[0], blockAddr, calleeOffset, os);
    return os.str();
  }
  // nvdisasm separates RET's return-address register from its target by a space only
  // (`RET.REL.NODEC R20 0x0`), and an indirect CALL's register from its 0x0 too.
  bool spaceOnly = in.op == ori::Opcode::RET || isIndirectCall(in);
  bool first = true;
  // Ori lists LOP3's results register first, predicate second (opcodes.def "RP?"); SASS
  // prints the predicate first: `LOP3.LUT P0, RZ, R0, 0x80, RZ, 0xc0, !PT`
  // (targets/sm_90/sm90_forms.def, the {P@81} forms).
  bool swapDefs = in.op == ori::Opcode::LOP3 && in.numDefs == 2;
  for (size_t k = 0; k < in.ops.size(); ++k) {
    size_t i = swapDefs && k < 2 ? 1 - k : k;
    // CALL.ABS reads its target from the register; the callee's name is not printed.
    if ((isAbiCall(in) || isIndirectCall(in)) && in.ops[i].kind == OperandKind::Func)
      continue;
    if (in.ops[i].mods & ori::OM_IMPLICIT)
      continue; // named by the encoding only through another operand (ori.h)
    // `VOTEU.ANY UP0, P0`: nvdisasm leaves out a URZ result (targets/sm_90/sm90_forms.def).
    if (in.op == ori::Opcode::VOTEU && i == 0 && in.ops[0].isFixed())
      continue;
    os << (first || spaceOnly ? " " : ", ");
    first = false;
    if (std::string_view name = immName(in, i); !name.empty()) {
      os << name;
      continue;
    }
    printOperand(f, in, in.ops[i], blockAddr, calleeOffset, os);
    os << operandSuffix(in, i);
  }
  // The indirect call's target: the register plus 0 (`CALL.REL.NOINC R8 0x0`).
  if (isIndirectCall(in))
    os << " 0x0";
  return os.str();
}

namespace {

/// A virtual register as a physical one of the same class and width: a number aligned for
/// any width (8 for R and UR), P0/UP0/B0 for the rest.
Operand placeholder(Operand r) {
  if (r.kind != OperandKind::VReg)
    return r;
  r.kind = OperandKind::PReg;
  bool wide = r.cls == ori::RegClass::R || r.cls == ori::RegClass::UR;
  r.reg = wide ? 8 : 0;
  if (r.sub != ori::kWholeReg) {
    r.reg += r.sub;
    r.sub = ori::kWholeReg;
    r.width = 1;
  }
  return r;
}

/// The text as SM `sm` spells it (targets/isa_caps.h): its respellings; where the memory
/// descriptor is implicit (memDescInText), `desc[URn]` is left out; `descUr` gets n (-1: none).
void spellForSm(std::string &text, unsigned sm, int &descUr) {
  descUr = -1;
  const IsaCaps &caps = isaCapsFor(sm);
  size_t mn = text[0] == '@' ? text.find(' ') + 1 : 0;
  for (const IsaCaps::Respell &r : caps.respell)
    if (text.compare(mn, r.from.size(), r.from) == 0 &&
        (mn + r.from.size() == text.size() || text[mn + r.from.size()] == ' ' ||
         text[mn + r.from.size()] == '.')) {
      text.replace(mn, r.from.size(), r.to);
      break;
    }
  if (caps.memDescInText)
    return;
  size_t at = text.find("desc[");
  if (at == std::string::npos || (at > 0 && text[at - 1] == 'g')) // not gdesc[
    return;
  size_t end = text.find(']', at);
  if (end == std::string::npos || text.compare(at + 5, 2, "UR") != 0)
    return;
  descUr = std::atoi(text.c_str() + at + 7);
  text.erase(at, end - at + 1);
}

/// Where the descriptor is implicit, the rows wrote implicitDescUr into the word's UR field
/// (nvdisasm does not print it); put the descriptor's own register there.
bool placeImplicitDesc(Word128 &w, const std::string &text, unsigned sm, int descUr,
                       std::string &err) {
  const IsaCaps &caps = isaCapsFor(sm);
  if (descUr < 0 || static_cast<unsigned>(descUr) == caps.implicitDescUr)
    return true;
  size_t s = text.find_first_not_of(' ', text[0] == '@' ? text.find(' ') : 0);
  std::string_view mn(text.c_str() + s, text.find_first_of(". ", s) - s);
  for (const IsaCaps::DescField &d : caps.implicitDescFields) {
    if (d.mnemonic != mn)
      continue;
    auto get = [&](unsigned bit) { return bit < 64 ? (w.lo >> bit) & 1 : (w.hi >> (bit - 64)) & 1; };
    auto set = [&](unsigned bit, uint64_t v) {
      uint64_t &q = bit < 64 ? w.lo : w.hi;
      unsigned b = bit % 64;
      q = (q & ~(1ull << b)) | (v << b);
    };
    unsigned cur = 0;
    for (unsigned k = 0; k < 6; ++k)
      cur |= static_cast<unsigned>(get(d.lo + k)) << k;
    if (cur != caps.implicitDescUr)
      break; // the field holds something else in this form
    for (unsigned k = 0; k < 6; ++k)
      set(d.lo + k, (static_cast<unsigned>(descUr) >> k) & 1);
    return true;
  }
  err = "no implicit-descriptor field for UR" + std::to_string(descUr) + " in this form";
  return false;
}

} // namespace

bool canEncode(const ori::Instr &in, unsigned sm, std::string *err) {
  const Isa *isa = Isa::forSm(sm);
  if (!isa) {
    if (err)
      *err = "no encoding tables for sm_" + std::to_string(sm);
    return false;
  }
  ori::Instr probe = in;
  for (Operand &o : probe.ops) {
    if (o.kind == OperandKind::VReg) {
      uint8_t mods = o.mods;
      o = placeholder(o);
      o.mods = mods;
    } else if (o.kind == OperandKind::Mem) {
      Operand desc = o.memDesc();
      Operand m = Operand::mem(placeholder(o.memBase()), o.memOffset());
      if (desc.kind != OperandKind::None)
        m.setMemDesc(placeholder(desc));
      o = m;
    } else if (o.hasCbankIndex()) {
      o.setCbankIndex(placeholder(o.cbankIndex()));
    }
  }
  if (probe.guard.kind == OperandKind::VReg) {
    uint8_t mods = probe.guard.mods;
    probe.guard = placeholder(probe.guard);
    probe.guard.mods = mods;
  }
  ori::Function none;
  std::string text = sassText(none, probe, {});
  Word128 w;
  std::string why;
  int descUr;
  spellForSm(text, sm, descUr); // a virtual descriptor: its register is not known yet
  bool ok = encodeText(*isa, text, 0, w, why);
  if (!ok && err)
    *err = "'" + text + "': " + why;
  return ok;
}

bool emitFunction(const ori::Function &f, unsigned sm, EmittedFunction &out, DiagEngine &diag) {
  return emitFunction(f, sm, EmitLayout{}, out, diag);
}

bool emitFunction(const ori::Function &f, unsigned sm, const EmitLayout &layout,
                  EmittedFunction &out, DiagEngine &diag) {
  const Isa *isa = Isa::forSm(sm);
  if (!isa) {
    diag.error("No encoding tables for sm_" + std::to_string(sm));
    return false;
  }
  for (const ori::Block &b : f.blocks)
    for (const ori::Instr &in : b.instrs)
      if (in.op == ori::Opcode::CALL && !isAbiCall(in) && !isIndirectCall(in))
        for (const Operand &o : in.uses())
          if (o.kind == OperandKind::Func &&
              (o.reg >= f.callees.size() || !layout.calleeOffset.count(f.callees[o.reg]))) {
            diag.error("Function '" + f.name + "': the call target '" +
                       (o.reg < f.callees.size() ? f.callees[o.reg] : "?") + "' has no code");
            return false;
          }
  std::vector<uint32_t> blockAddr(f.blocks.size());
  uint32_t addr = layout.base;
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    blockAddr[b] = addr;
    addr += static_cast<uint32_t>(f.blocks[b].instrs.size()) * 16;
  }
  int maxGpr = -1;
  bool ok = true;
  uint32_t pc = layout.base;
  for (const ori::Block &b : f.blocks) {
    for (const ori::Instr &in : b.instrs) {
      for (const Operand &o : in.ops) {
        Operand r = o.kind == OperandKind::Mem && o.hasMemBase() ? o.memBase()
                    : o.hasCbankIndex()                            ? o.cbankIndex()
                                                                   : o;
        if (r.kind == OperandKind::PReg && r.cls == ori::RegClass::R && !r.isFixed())
          maxGpr = std::max<int>(maxGpr, static_cast<int>(r.reg + std::max<unsigned>(1, r.width) - 1));
      }
      std::string text = sassText(f, in, blockAddr, &layout.calleeOffset);
      Word128 w;
      std::string err;
      int descUr;
      spellForSm(text, sm, descUr);
      if (!encodeText(*isa, text, pc, w, err) ||
          !placeImplicitDesc(w, text, sm, descUr, err)) {
        diag.error("Function '" + f.name + "': cannot encode '" + text + "': " + err);
        ok = false;
      }
      volta::Control c;
      c.stall = in.ctrl.stall;
      c.yieldBit = !in.ctrl.yield; // Ori's `Y` is the raw bit being 0 (sass_codec.h)
      c.writeSb = in.ctrl.writeBarrier;
      c.readSb = in.ctrl.readBarrier;
      c.waitMask = in.ctrl.waitMask;
      volta::writeControl(w, c);
      for (int k = 0; k < 8; ++k)
        out.code.push_back(static_cast<uint8_t>(w.lo >> (8 * k)));
      for (int k = 0; k < 8; ++k)
        out.code.push_back(static_cast<uint8_t>(w.hi >> (8 * k)));
      if (in.op == ori::Opcode::EXIT)
        out.exitOffsets.push_back(pc);
      if (isAbiCall(in))
        out.abiCallOffsets.push_back(pc);
      out.sassText.push_back(std::move(text));
      pc += 16;
    }
  }
  out.regCount = static_cast<uint32_t>(maxGpr + 1) + 2;
  return ok;
}

} // namespace ptxmini::enc
