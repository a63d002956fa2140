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

// Warpgroup MMA operands (ptxas 13.0.88 on wgmma probes): the descriptor quad with its
// modifiers, a negated register A, the scale-d predicate and the group scoreboard word.
TEST(SassParse, WarpgroupMma) {
  SassInst in = parse("HGMMA.64x32x16.F32.BF16 R24, -R56, gdesc[UR8].negB.tnspB, R24, UP0, gsb0 ;");
  EXPECT_EQ(in.opcode, "HGMMA");
  ASSERT_EQ(in.mods.size(), 3u);
  EXPECT_EQ(in.mods[0], "64x32x16");
  ASSERT_EQ(in.ops.size(), 6u);
  EXPECT_EQ(in.ops[1].kind, OpndKind::Reg);
  EXPECT_TRUE(in.ops[1].neg);
  EXPECT_EQ(in.ops[2].kind, OpndKind::UReg);
  EXPECT_EQ(in.ops[2].reg, 8);
  EXPECT_EQ(in.ops[2].sreg_name, "gdesc");
  EXPECT_EQ(in.ops[2].suffix, "negB.tnspB");
  EXPECT_EQ(in.ops[4].kind, OpndKind::UPred);
  EXPECT_EQ(in.ops[5].kind, OpndKind::Word);
  EXPECT_EQ(in.ops[5].sreg_name, "gsb0");
  SassInst w = parse("WARPGROUP.DEPBAR.LE gsb0, 0x1 ;");
  ASSERT_EQ(w.ops.size(), 2u);
  EXPECT_EQ(w.ops[0].sreg_name, "gsb0");
  EXPECT_EQ(w.ops[1].imm, 1u);
}
