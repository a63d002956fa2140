//===- regalloc/frame.cpp - the final stack frame and a function's clobber set ---------===//
///
/// \file
/// After registers are assigned, the frame is known: PTX .local variables then spill slots
/// (FrameInfo). Its size is rounded up to its alignment: the largest of 8, the locals' and
/// slots' alignment and Function::minFrameAlign (what the callees need to find R1 aligned).
/// HW: ptxas 13.0 reports .local frames rounded to 8 (`.align 4 .b8 d[12]` -> 16 bytes,
/// `.align 16 .b8 d[20]` -> 32). Then (targets/calling_convention.h):
///   kernel   `LDC R1, c[0x0][0x28]` moves to the top, `IADD3 R1, R1, -size, RZ` follows it
///            (HW: ptxas's kernels with a frame start the same way);
///   .func    `IADD3 R1, R1, -size, RZ` first, `IADD3 R1, R1, size, RZ` before every RET.
/// Copies of a register to itself (left by copy hints) are removed.
//===----------------------------------------------------------------------------------===//
#include "regalloc/regalloc_internal.h"

#include <algorithm>

namespace ptxmini::ra {

using ori::Instr;
using ori::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

Instr adjustSp(const Target &t, int64_t delta) {
  Operand sp = Operand::preg(RegClass::R, t.callingConvention().stackPointer);
  Instr i(Opcode::IADD3);
  i.addDef(sp);
  i.addUse(sp);
  i.addUse(Operand::intImm(delta));
  i.addUse(Operand::fixed(RegClass::R));
  return i;
}

bool isSelfCopy(const Instr &in) {
  if ((in.op != Opcode::MOV && in.op != Opcode::UMOV) || in.numDefs != 1 || in.ops.size() != 2)
    return false;
  const Operand &d = in.ops[0], &s = in.ops[1];
  return d.kind == OperandKind::PReg && s.kind == OperandKind::PReg && !d.isFixed() &&
         d.cls == s.cls && d.reg == s.reg && d.width == s.width && !s.mods;
}

bool writesSp(const Instr &in, const Target &t) {
  for (const Operand &d : in.defs())
    if (d.kind == OperandKind::PReg && d.cls == RegClass::R &&
        d.reg == t.callingConvention().stackPointer)
      return true;
  return false;
}

} // namespace

void finalizeFrame(ori::Function &f, const Target &t) {
  for (ori::Block &b : f.blocks)
    std::erase_if(b.instrs, isSelfCopy);
  ori::FrameInfo &fr = f.frame;
  uint32_t bytes = fr.localBytes + fr.spillSlotBytes;
  // fr.align already holds the largest spill slot's alignment (spill.cpp).
  fr.align = std::max({8u, fr.align, fr.localAlign, f.minFrameAlign});
  fr.size = bytes ? alignUp(bytes, fr.align) : 0;
  if (f.blocks.empty())
    return;
  auto &entry = f.blocks[0].instrs;
  if (f.isKernel) {
    auto it = std::find_if(entry.begin(), entry.end(),
                           [&](const Instr &in) { return writesSp(in, t); });
    size_t at = 0;
    if (it != entry.end()) {
      Instr ldc = *it;
      entry.erase(it);
      entry.insert(entry.begin(), ldc);
      at = 1;
    }
    if (fr.size)
      entry.insert(entry.begin() + static_cast<ptrdiff_t>(at), adjustSp(t, -int64_t(fr.size)));
    return;
  }
  if (!fr.size)
    return;
  entry.insert(entry.begin(), adjustSp(t, -int64_t(fr.size)));
  for (ori::Block &b : f.blocks)
    for (size_t i = 0; i < b.instrs.size(); ++i)
      if (b.instrs[i].op == Opcode::RET) {
        Instr up = adjustSp(t, fr.size);
        up.guard = b.instrs[i].guard;
        b.instrs.insert(b.instrs.begin() + static_cast<ptrdiff_t>(i), up);
        ++i;
      }
}

ori::PhysRegSet abiCallClobbers(const Target &t) {
  const CallingConvention &cc = t.callingConvention();
  ori::PhysRegSet every = everyAllocatable(t), s;
  for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
    for (uint32_t r = 0; r < 256; ++r) {
      auto cls = static_cast<RegClass>(c);
      bool saved = (cls == RegClass::R && r >= cc.abiSavedGprsFrom && r != cc.abiReturnAddress &&
                    r != cc.abiReturnAddress + 1) ||
                   (cls == RegClass::UR && r >= cc.abiSavedUgprsFrom) ||
                   (cls == RegClass::B && r >= cc.abiSavedBarriersFrom);
      if (every.test(cls, r) && !saved)
        s.set(cls, r);
    }
  return s;
}

ori::PhysRegSet clobbersOf(const ori::Function &f, const Target &t, bool skipUnknownCalls) {
  ori::PhysRegSet s;
  const CallingConvention &cc = t.callingConvention();
  s.set(RegClass::R, cc.returnAddress);
  s.set(RegClass::R, cc.returnAddress + 1);
  ori::PhysRegSet all = everyAllocatable(t);
  for (const ori::Block &b : f.blocks)
    for (const Instr &in : b.instrs) {
      for (const Operand &d : in.defs())
        if (d.kind == OperandKind::PReg && !d.isFixed()) {
          uint32_t r0 = d.sub != ori::kWholeReg ? d.reg + d.sub : d.reg;
          uint32_t n = d.sub != ori::kWholeReg ? 1 : std::max<uint32_t>(1, d.width);
          for (uint32_t r = r0; r < r0 + n; ++r)
            if (!(d.cls == RegClass::R && r == cc.stackPointer))
              s.set(d.cls, r);
        }
      // R2P writes the predicates its mask selects without naming them as results.
      if (in.op == Opcode::R2P)
        for (uint32_t p = 0; p < t.registers().numPreds; ++p)
          s.set(RegClass::P, p);
      if (in.op == Opcode::CALL) {
        bool known = false;
        for (const Operand &u : in.uses())
          if (u.kind == OperandKind::Func && u.reg < f.calleeClobbers.size() &&
              f.calleeClobbers[u.reg]) {
            s.unite(*f.calleeClobbers[u.reg]);
            known = true;
          }
        if (!known && !skipUnknownCalls)
          s.unite(all);
      }
    }
  return s;
}

} // namespace ptxmini::ra
