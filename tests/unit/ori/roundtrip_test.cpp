// The Ori text form must round-trip exactly: print(parse(text)) == text for canonical text,
// and print(parse(print(F))) == print(F) for any F, including functions built through the API.
#include "test_util.h"

#include "ori/cfg.h"
#include "ori/print.h"

#include <gtest/gtest.h>

using namespace ptxmini::ori;
using namespace ptxmini::ori::test;

namespace {

// Canonical text exercising every operand kind, modifiers, guards, flags and control codes.
const char *kCanonical = R"(kernel @k {
bb0:  ; preds: -  succs: exit, loop
  %r0 = S2R SR_TID.X
  %ur1 = S2UR SR_CTAID.Y
  %r2.64 = IMAD.WIDE.U32 %r0, 0x4, c[0x0][0x210]
  %r3 = LDG.E.64 [%r2.64+0x10]
  %ur9.64 = ULDC.64 c[0x0][0x208]
  %r10 = LDG.E desc[%ur9.64][%r2.64-0x80000000]
  %r4 = LDS [%r0-0x8]
  %r5 = LDS [0x100]
  %r11 = LDC c[0x3][%r0+0x8]
  %r12.64 = LDC.64 c[0x0][R4-0x4]
  %p0, %p1 = ISETP.GE.U32.AND %r0, -0x1, !PT
  %r6 = FFMA -|%r3|, 0f3F800000, ~%r4
  %r7.64 = DADD %r2.64, 0d3FF0000000000000
  %r8 = MOV %r7.64[1]
  @!%p0 BRA exit
loop:  ; preds: bb0, loop  succs: loop, exit
  %r0 = IADD3 %r0, 0x1, RZ {hoisted}
  %up0 = UISETP.NE.AND %ur1, URZ, UPT
  @%p1 BRA loop
exit:  ; preds: bb0, loop  succs: -
  R4.64[1] = MOV UR4.reuse [B0----5:R-:W1:Y:S04]
  STG.E [R2.64], R4 {hoisted,spill}
  REDG.E.ADD.STRONG.GPU desc[UR6.64][R14.64+0x7fffffff], R19
  @P0 EXIT
  EXIT [B------:R-:W-:-:S15]
}

func @f {
bb0:  ; preds: -  succs: -
  RET
}
)";

TEST(OriRoundTrip, CanonicalTextPrintsBackUnchanged) {
  // Parsing canonical text and printing it must reproduce every byte.
  Program p = parseOrDie(kCanonical);
  EXPECT_EQ(toString(p), kCanonical);
}

TEST(OriRoundTrip, NonCanonicalSpellingsConvergeAfterOnePrint) {
  // Decimal numbers, odd spacing and comments are accepted; the printed form is a fixed point.
  const char *loose = R"(
; leading comment
func   @g{
entry:          ; anything here is ignored
   %r1=MOV 16            ; decimal
   %r2 = IADD3   %r1 ,%r1,   RZ
   [B------:R-:W-:Y:S01]
}
)";
  // The stray control code above is not an instruction: expect a parse error instead.
  std::string err = parseError(loose);
  EXPECT_NE(err.find("line 7"), std::string::npos) << err;

  const char *loose2 = R"(
; leading comment
func   @g {
entry:          ; anything here is ignored
   %r1=MOV 16            ; decimal
   %r2 = IADD3   %r1 ,%r1,   RZ
   EXIT
}
)";
  Program p = parseOrDie(loose2);
  std::string once = toString(p);
  EXPECT_NE(once.find("%r1 = MOV 0x10"), std::string::npos) << once;
  Program p2 = parseOrDie(once);
  EXPECT_EQ(toString(p2), once);
}

TEST(OriRoundTrip, EveryOpcodeModifierAndSpecialRegister) {
  // Each table entry must print under a spelling the parser maps back to the same entry.
  for (unsigned o = 0; o < static_cast<unsigned>(Opcode::NumOpcodes); ++o) {
    Function f;
    f.name = "t";
    f.blocks.emplace_back();
    f.blocks[0].name = "bb0";
    Instr in(static_cast<Opcode>(o));
    f.blocks[0].instrs.push_back(in);
    std::string text = toString(f);
    Program p = parseOrDie(text);
    ASSERT_EQ(p.functions.size(), 1u);
    ASSERT_EQ(p.functions[0].blocks[0].instrs.size(), 1u) << text;
    EXPECT_EQ(p.functions[0].blocks[0].instrs[0].op, in.op) << text;
  }
  for (unsigned m = 0; m < static_cast<unsigned>(Modifier::NumModifiers); ++m) {
    Modifier out;
    ASSERT_TRUE(lookupModifier(modifierSpelling(static_cast<Modifier>(m)), out));
    EXPECT_EQ(static_cast<unsigned>(out), m) << modifierSpelling(static_cast<Modifier>(m));
  }
  for (unsigned r = 0; r < static_cast<unsigned>(SpecialReg::NumSpecialRegs); ++r) {
    SpecialReg out;
    ASSERT_TRUE(lookupSpecialReg(specialRegName(static_cast<SpecialReg>(r)), out));
    EXPECT_EQ(static_cast<unsigned>(out), r);
  }
}

TEST(OriRoundTrip, FunctionBuiltThroughTheApiParsesBackToEqualOperands) {
  // A function assembled in C++ (as phases do) must survive print + parse with every operand
  // field intact, including extreme immediates and float bit patterns.
  Function f;
  f.name = "api";
  f.isKernel = true;
  f.blocks.resize(2);
  f.blocks[0].name = "a";
  f.blocks[1].name = "b";
  Operand r = f.newReg(RegClass::R);
  Operand wide = f.newReg(RegClass::R, 4);
  Operand p = f.newReg(RegClass::P);
  Instr mov(Opcode::MOV);
  mov.addDef(r);
  mov.addUse(Operand::intImm(INT64_MIN));
  Instr mov2(Opcode::MOV);
  Operand w3 = wide;
  w3.sub = 3;
  mov2.addDef(w3);
  mov2.addUse(Operand::intImm(INT64_MAX));
  Instr ld(Opcode::LDG);
  ld.mods.push_back(Modifier::E);
  ld.mods.push_back(Modifier::Size128);
  ld.addDef(wide);
  ld.addUse(Operand::mem(Operand::vreg(RegClass::R, r.reg), -4, f.newReg(RegClass::UR, 2)));
  Instr fadd(Opcode::FADD);
  Operand neg = r;
  neg.mods = OM_NEG | OM_ABS;
  fadd.addDef(f.newReg(RegClass::R));
  fadd.addUse(neg);
  fadd.addUse(Operand::fimm32(0xFF800000u));
  Instr setp(Opcode::FSETP);
  setp.addDef(p);
  setp.addUse(Operand::cbank(3, 0x1234));
  setp.addUse(Operand::fimm64(0x8000000000000001ull));
  Instr bra(Opcode::BRA);
  bra.guard = p;
  bra.guard.mods = OM_NOT;
  bra.addUse(Operand::block(1));
  for (Instr *in : {&mov, &mov2, &ld, &fadd, &setp, &bra})
    f.blocks[0].instrs.push_back(*in);
  Instr exit(Opcode::EXIT);
  exit.ctrl.valid = true;
  exit.ctrl.stall = 7;
  exit.ctrl.waitMask = 0x3F;
  f.blocks[1].instrs.push_back(exit);
  buildCFG(f);

  std::string text = toString(f);
  Function g = parseFunction(text);
  ASSERT_EQ(g.blocks.size(), 2u) << text;
  ASSERT_EQ(g.blocks[0].instrs.size(), f.blocks[0].instrs.size()) << text;
  for (size_t i = 0; i < f.blocks[0].instrs.size(); ++i) {
    const Instr &x = f.blocks[0].instrs[i], &y = g.blocks[0].instrs[i];
    EXPECT_EQ(x.op, y.op) << i;
    EXPECT_EQ(x.numDefs, y.numDefs) << i;
    EXPECT_EQ(x.mods, y.mods) << i;
    EXPECT_TRUE(x.guard == y.guard) << i;
    ASSERT_EQ(x.ops.size(), y.ops.size()) << i;
    for (size_t k = 0; k < x.ops.size(); ++k)
      EXPECT_TRUE(x.ops[k] == y.ops[k]) << "instr " << i << " operand " << k << "\n" << text;
  }
  EXPECT_TRUE(g.blocks[1].instrs[0].ctrl == exit.ctrl);
  EXPECT_EQ(toString(g), text);
}

TEST(OriRoundTrip, ParserBuildsCfgAndRegisterTable) {
  // The parser must leave preds/succs and the register table ready for phases.
  Function f = parseFunction(kCanonical);
  uint32_t loop = blockIndex(f, "loop"), exit = blockIndex(f, "exit");
  EXPECT_EQ(f.blocks[loop].preds, (llvm::SmallVector<uint32_t, 2>{0, loop}));
  EXPECT_EQ(f.blocks[0].succs, (llvm::SmallVector<uint32_t, 2>{exit, loop}));
  // %r0 is defined in bb0 and again in loop: first definition block is bb0, two defs.
  EXPECT_EQ(f.regInfo(RegClass::R, 0).defBlock, 0);
  EXPECT_EQ(f.regInfo(RegClass::R, 0).defCount, 2u);
  EXPECT_EQ(f.regInfo(RegClass::R, 2).width, 2);
  // %r2.64 is read by two LDG addresses and the DADD; %ur9.64 by a memory descriptor.
  EXPECT_EQ(f.regInfo(RegClass::R, 2).useCount, 3u);
  EXPECT_EQ(f.regInfo(RegClass::UR, 9).useCount, 1u);
}

} // namespace
