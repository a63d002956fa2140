//===- ori/print.cpp - Ori text printer -------------------------------------------------===//
///
/// \file
/// One line per block label and per instruction; the canonical spelling of every token is
/// chosen here (integers in hex, floats as their bits `0f...`/`0d...`, widths as `.64`/`.128`)
/// so that parsing the output and printing again gives the same bytes.
//===----------------------------------------------------------------------------------===//
#include "ori/print.h"

#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace ptxmini::ori {

namespace {

void printHex(int64_t v, std::ostream &os) {
  char buf[32];
  if (v < 0) {
    uint64_t mag = 0 - static_cast<uint64_t>(v);
    std::snprintf(buf, sizeof buf, "-0x%" PRIx64, mag);
  } else {
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, static_cast<uint64_t>(v));
  }
  os << buf;
}

void printRegName(const Operand &o, bool isVirtual, std::ostream &os) {
  if (isVirtual)
    os << vregPrefix(o.cls) << o.reg;
  else if (o.reg == kFixedReg)
    os << fixedRegName(o.cls);
  else
    os << pregPrefix(o.cls) << o.reg;
  if (o.width == 2)
    os << ".64";
  else if (o.width == 4)
    os << ".128";
  else if (o.width == 8)
    os << ".256";
  if (o.sub != kWholeReg)
    os << '[' << unsigned(o.sub) << ']';
}

std::string_view blockName(const Function &f, int64_t b) {
  if (b < 0 || static_cast<size_t>(b) >= f.blocks.size())
    return "<bad-block>";
  return f.blocks[b].name;
}

void printBlockList(const Function &f, llvm::ArrayRef<uint32_t> list, std::ostream &os) {
  if (list.empty()) {
    os << '-';
    return;
  }
  for (size_t i = 0; i < list.size(); ++i)
    os << (i ? ", " : "") << blockName(f, list[i]);
}

} // namespace

void printOperand(const Function &f, const Operand &o, std::ostream &os) {
  if (o.mods & OM_IMPLICIT)
    os << '^';
  if (o.mods & OM_NOT)
    os << '!';
  if (o.mods & OM_INV)
    os << '~';
  if (o.mods & OM_NEG)
    os << '-';
  if (o.mods & OM_ABS)
    os << '|';
  switch (o.kind) {
  case OperandKind::None:
    os << "<none>";
    break;
  case OperandKind::VReg:
  case OperandKind::PReg:
    printRegName(o, o.kind == OperandKind::VReg, os);
    break;
  case OperandKind::Imm:
    printHex(o.imm, os);
    break;
  case OperandKind::FImm32: {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0f%08" PRIX32, static_cast<uint32_t>(o.imm));
    os << buf;
    break;
  }
  case OperandKind::FImm64: {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0d%016" PRIX64, static_cast<uint64_t>(o.imm));
    os << buf;
    break;
  }
  case OperandKind::CBank:
    os << "c[";
    printHex(o.reg, os);
    os << "][";
    if (o.hasCbankIndex()) {
      Operand x = o.cbankIndex();
      printRegName(x, x.kind == OperandKind::VReg, os);
      if (o.cbankOffset() > 0)
        os << '+';
      if (o.cbankOffset() != 0)
        printHex(o.cbankOffset(), os);
    } else {
      printHex(o.cbankOffset(), os);
    }
    os << ']';
    break;
  case OperandKind::Mem:
    if (o.hasMemDesc()) {
      Operand d = o.memDesc();
      os << "desc[";
      printRegName(d, d.kind == OperandKind::VReg, os);
      os << ']';
    }
    os << '[';
    if (o.hasMemBase()) {
      printRegName(o, o.memBaseIsVReg(), os);
      if (o.memOffset() > 0) {
        os << '+';
        printHex(o.memOffset(), os);
      } else if (o.memOffset() < 0) {
        printHex(o.memOffset(), os);
      }
    } else {
      printHex(o.memOffset(), os);
    }
    os << ']';
    break;
  case OperandKind::Block:
    os << blockName(f, o.reg);
    break;
  case OperandKind::SReg:
    os << (o.reg < static_cast<uint32_t>(SpecialReg::NumSpecialRegs)
               ? specialRegName(static_cast<SpecialReg>(o.reg))
               : std::string_view("<bad-sreg>"));
    break;
  case OperandKind::Func:
    // nvdisasm's spelling of a call target with a symbol: `(name)
    os << "`(" << (o.reg < f.callees.size() ? std::string_view(f.callees[o.reg])
                                            : std::string_view("<bad-function>"))
       << ')';
    break;
  }
  if (o.mods & OM_ABS)
    os << '|';
  if (o.mods & OM_REUSE)
    os << ".reuse";
}

void printCtrlCode(const CtrlCode &c, std::ostream &os) {
  os << "[B";
  for (unsigned i = 0; i < 6; ++i)
    os << ((c.waitMask >> i) & 1 ? char('0' + i) : '-');
  os << ":R";
  os << (c.readBarrier == CtrlCode::kNoBarrier ? '-' : char('0' + c.readBarrier));
  os << ":W";
  os << (c.writeBarrier == CtrlCode::kNoBarrier ? '-' : char('0' + c.writeBarrier));
  os << ':' << (c.yield ? 'Y' : '-') << ":S";
  os << char('0' + c.stall / 10) << char('0' + c.stall % 10) << ']';
}

void printInstr(const Function &f, const Instr &in, std::ostream &os) {
  if (in.guard.kind != OperandKind::None) {
    os << '@';
    printOperand(f, in.guard, os);
    os << ' ';
  }
  for (unsigned i = 0; i < in.numDefs && i < in.ops.size(); ++i) {
    if (i)
      os << ", ";
    printOperand(f, in.ops[i], os);
  }
  if (in.numDefs)
    os << " = ";
  os << in.info().name;
  for (Modifier m : in.mods)
    os << '.' << modifierSpelling(m);
  bool first = true;
  for (const Operand &o : in.uses()) {
    os << (first ? " " : ", ");
    first = false;
    printOperand(f, o, os);
  }
  if (in.flags) {
    os << " {";
    bool firstFlag = true;
    for (unsigned b = 0; b < IF_NumFlags; ++b)
      if (in.flags & (1u << b)) {
        os << (firstFlag ? "" : ",") << instrFlagName(static_cast<InstrFlag>(b));
        firstFlag = false;
      }
    os << '}';
  }
  if (in.ctrl.valid) {
    os << ' ';
    printCtrlCode(in.ctrl, os);
  }
}

void printFunction(const Function &f, std::ostream &os) {
  os << (f.isKernel ? "kernel" : "func") << " @" << f.name;
  // Frame and register-limit attributes, only where they differ from the defaults.
  if (f.maxRegs)
    os << " maxreg=" << f.maxRegs;
  if (f.frame.localBytes)
    os << " local=" << f.frame.localBytes << " localalign=" << f.frame.localAlign;
  if (f.minFrameAlign != 8)
    os << " framealign=" << f.minFrameAlign;
  if (f.frame.size)
    os << " frame=" << f.frame.size;
  if (f.frame.spillSlotBytes || f.frame.spillStoreBytes || f.frame.spillLoadBytes)
    os << " spill=" << f.frame.spillSlotBytes << '/' << f.frame.spillStoreBytes << '/'
       << f.frame.spillLoadBytes;
  os << " {\n";
  if (f.cfgAnalyzed) {
    os << "  ; backedges:";
    if (f.backEdges.empty())
      os << " -";
    for (size_t i = 0; i < f.backEdges.size(); ++i)
      os << (i ? ", " : " ") << blockName(f, f.backEdges[i].first) << " -> "
         << blockName(f, f.backEdges[i].second);
    os << '\n';
    if (!f.irreducibleEdges.empty()) {
      os << "  ; irreducible:";
      for (size_t i = 0; i < f.irreducibleEdges.size(); ++i)
        os << (i ? ", " : " ") << blockName(f, f.irreducibleEdges[i].first) << " -> "
           << blockName(f, f.irreducibleEdges[i].second);
      os << '\n';
    }
    for (const Loop &l : f.loops) {
      os << "  ; loop " << blockName(f, l.header) << ": depth " << l.depth << ", parent "
         << (l.parent < 0 ? std::string_view("-") : blockName(f, f.loops[l.parent].header))
         << ", latches ";
      printBlockList(f, l.latches, os);
      os << ", blocks ";
      printBlockList(f, l.blocks, os);
      os << '\n';
    }
  }
  for (const Block &b : f.blocks) {
    os << b.name << ':' << (b.noUnroll ? " {nounroll}" : "") << "  ; preds: ";
    printBlockList(f, b.preds, os);
    os << "  succs: ";
    printBlockList(f, b.succs, os);
    if (f.cfgAnalyzed) {
      if (b.rpoIndex < 0) {
        os << "  unreachable";
      } else {
        os << "  rpo: " << b.rpoIndex << "  idom: "
           << (b.idom < 0 ? std::string_view("-") : blockName(f, b.idom))
           << "  depth: " << b.loopDepth;
        if (b.isLoopHeader)
          os << "  loop-header";
      }
    }
    os << '\n';
    for (const Instr &in : b.instrs) {
      os << "  ";
      printInstr(f, in, os);
      os << '\n';
    }
  }
  os << "}\n";
}

void printProgram(const Program &p, std::ostream &os) {
  for (size_t i = 0; i < p.functions.size(); ++i) {
    if (i)
      os << '\n';
    printFunction(p.functions[i], os);
  }
}

std::string toString(const Function &f) {
  std::ostringstream os;
  printFunction(f, os);
  return os.str();
}
std::string toString(const Function &f, const Instr &in) {
  std::ostringstream os;
  printInstr(f, in, os);
  return os.str();
}
std::string toString(const Program &p) {
  std::ostringstream os;
  printProgram(p, os);
  return os.str();
}

} // namespace ptxmini::ori
