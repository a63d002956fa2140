// The C++ builder must produce exactly what the parser produces for the same program, so
// frontend-built Ori and text-written tests see the same IR.
#include "test_util.h"

#include "ori/builder.h"
#include "ori/print.h"
#include "ori/validate.h"

#include <gtest/gtest.h>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

TEST(OriBuilder, BuildsTheSameFunctionAsTheText) {
  const char *text = R"(kernel @count {
entry:  ; preds: -  succs: loop
  %r0 = S2R SR_TID.X
  %ur0.64 = ULDC.64 c[0x0][0x208]
loop:  ; preds: entry, loop  succs: loop, done
  %r0 = IADD3 %r0, 0x20, RZ
  %p0 = ISETP.LT.U32.AND %r0, c[0x0][0x220], PT
  @%p0 BRA loop
done:  ; preds: loop  succs: -
  %r1.64 = IMAD.WIDE.U32 %r0, 0x4, c[0x0][0x210]
  STG.E desc[%ur0.64][%r1.64], %r0
  EXIT
}
)";
  Function f;
  f.name = "count";
  f.isKernel = true;
  Builder b(f);
  uint32_t entry = b.createBlock("entry"), loop = b.createBlock("loop"),
           done = b.createBlock("done");
  b.setBlock(entry);
  Operand r0 = b.newReg(RegClass::R);
  Operand desc = b.newReg(RegClass::UR, 2);
  b.emit(Opcode::S2R, {r0}, {Operand::sreg(SpecialReg::TID_X)});
  b.emit(Opcode::ULDC, {desc}, {Operand::cbank(0, 0x208)}, {Modifier::Size64});
  b.setBlock(loop);
  Operand p0 = b.newReg(RegClass::P);
  b.emit(Opcode::IADD3, {r0}, {r0, Operand::intImm(0x20), Operand::fixed(RegClass::R)});
  b.emit(Opcode::ISETP, {p0}, {r0, Operand::cbank(0, 0x220), Operand::fixed(RegClass::P)},
         {Modifier::LT, Modifier::U32, Modifier::AND});
  b.emitGuarded(p0, false, Opcode::BRA, {}, {Operand::block(loop)});
  b.setBlock(done);
  Operand addr = b.newReg(RegClass::R, 2);
  b.emit(Opcode::IMAD, {addr}, {r0, Operand::intImm(4), Operand::cbank(0, 0x210)},
         {Modifier::WIDE, Modifier::U32});
  b.emit(Opcode::STG, {}, {Operand::mem(addr, 0, desc), r0}, {Modifier::E});
  b.emit(Opcode::EXIT, {}, {});
  b.finish();

  EXPECT_TRUE(validateFunction(f).empty());
  EXPECT_EQ(toString(f), text);
  Function g = parseFunction(text);
  for (RegClass c : {RegClass::R, RegClass::UR, RegClass::P}) {
    ASSERT_EQ(f.numRegs(c), g.numRegs(c));
    for (uint32_t n = 0; n < f.numRegs(c); ++n) {
      EXPECT_EQ(f.regInfo(c, n).width, g.regInfo(c, n).width);
      EXPECT_EQ(f.regInfo(c, n).defCount, g.regInfo(c, n).defCount);
      EXPECT_EQ(f.regInfo(c, n).useCount, g.regInfo(c, n).useCount);
      EXPECT_EQ(f.regInfo(c, n).defBlock, g.regInfo(c, n).defBlock);
    }
  }
}

} // namespace
