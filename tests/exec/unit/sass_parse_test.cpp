// Unit tests of the nvdisasm-syntax parser: each line is one observed in ptxas 13.0 output.
#include "tests/exec/emu/sass_inst.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ptxmini::exec;

namespace {
SassInst parse(const std::string& s) {
  SassInst in;
  std::string err;
  std::vector<std::pair<std::string, uint32_t>> labels = {{".L_x_0", 0x90}};
  EXPECT_TRUE(parse_sass(s, 0x10, labels, in, err)) << err;
  return in;
}
}  // namespace

// A guarded wide IMAD: guard, opcode, modifiers in order, immediate and registers.
TEST(SassParse, GuardModifiersOperands) {
  SassInst in = parse("@!P0 IMAD.WIDE.U32 R2, R5.reuse, 0x4, R2 ;");
  EXPECT_EQ(in.guard, 0);
  EXPECT_TRUE(in.guard_not);
  EXPECT_EQ(in.opcode, "IMAD");
  ASSERT_EQ(in.mods.size(), 2u);
  EXPECT_EQ(in.mods[1], "U32");
  ASSERT_EQ(in.ops.size(), 4u);
  EXPECT_EQ(in.ops[1].kind, OpndKind::Reg);
  EXPECT_EQ(in.ops[1].reg, 5);
  EXPECT_EQ(in.ops[1].suffix, "");  // .reuse is a scheduling hint and is dropped
  EXPECT_EQ(in.ops[2].kind, OpndKind::Imm);
  EXPECT_EQ(in.ops[2].imm, 4u);
}

// Memory operand with descriptor, 64-bit base and offset; constant bank operand.
TEST(SassParse, MemoryAndConstant) {
  SassInst ld = parse("LDG.E R0, desc[UR4][R2.64+0x10] ;");
  const Operand& m = ld.ops[1];
  EXPECT_EQ(m.kind, OpndKind::Mem);
  EXPECT_EQ(m.desc_ureg, 4);
  EXPECT_EQ(m.mem_base, 2);
  EXPECT_TRUE(m.mem_base_64);
  EXPECT_EQ(m.imm, 0x10u);
  SassInst st = parse("ISETP.GE.AND P0, PT, R5, c[0x0][0x210], PT ;");
  EXPECT_EQ(st.ops[3].kind, OpndKind::CBank);
  EXPECT_EQ(st.ops[3].imm, 0x210u);
  EXPECT_EQ(st.ops[1].reg, kPT);
}

// Negative immediates are two's complement; float immediates and |x| / - prefixes.
TEST(SassParse, ImmediatesAndPrefixes) {
  SassInst a = parse("IMAD R3, R3, -0xa, R0 ;");
  EXPECT_EQ(static_cast<uint32_t>(a.ops[2].imm), 0xfffffff6u);
  SassInst f = parse("FSETP.GTU.FTZ.AND P0, PT, |R0|, +INF , PT ;");
  EXPECT_TRUE(f.ops[2].abs);
  EXPECT_EQ(f.ops[3].kind, OpndKind::FImm);
  EXPECT_TRUE(std::isinf(f.ops[3].fimm));
  SassInst g = parse("FFMA R13, -R11, R4, 1 ;");
  EXPECT_TRUE(g.ops[1].neg);
  EXPECT_EQ(g.ops[3].kind, OpndKind::FImm);
  EXPECT_EQ(g.ops[3].fimm, 1.0);
}

// Branch targets by label, and RET's register + target printed without a comma.
TEST(SassParse, Targets) {
  SassInst b = parse("@!P2 BRA `(.L_x_0) ;");
  EXPECT_EQ(b.ops[0].kind, OpndKind::Target);
  EXPECT_EQ(b.ops[0].imm, 0x90u);
  SassInst r = parse("RET.REL.NODEC R2 `(.L_x_0) ;");
  ASSERT_EQ(r.ops.size(), 2u);
  EXPECT_EQ(r.ops[0].kind, OpndKind::Reg);
}

// Garbage is rejected, never half-parsed.
TEST(SassParse, Errors) {
  SassInst in;
  std::string err;
  EXPECT_FALSE(parse_sass("IMAD R2, R999, 0x1, RZ ;", 0, {}, in, err));
  EXPECT_FALSE(parse_sass("BRA `(.L_nowhere) ;", 0, {}, in, err));
  EXPECT_FALSE(parse_sass("lower.case R1 ;", 0, {}, in, err));
}
